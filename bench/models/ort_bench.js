#!/usr/bin/env node
// Latency of one ONNX model under ONNX Runtime (npm onnxruntime-node, CPU).
//
//   node bench/models/ort_bench.js MODEL.onnx [--threads 2] [--iterations 20] [--warmup 3]
//        [--input IN.npy ...] [--output OUT.npy ...]
//
// Prints one JSON object: {median_ms, p90_ms, mean_ms, min_ms, load_ms, iterations, warmup,
// threads, ort_version}. Inputs come from --input .npy files (in the model's input order) or,
// without them, are random float32 of the model's static input shapes. --output writes the
// outputs of the last timed run as .npy files (in output order) so the caller can check them.
// Errors go to stderr with exit status 1 or 2 (usage).
'use strict';

const fs = require('fs');
const path = require('path');

function usage(msg) {
  process.stderr.write(`ort_bench: ${msg}\n` +
    'usage: ort_bench.js MODEL.onnx [--threads N] [--iterations N] [--warmup N] ' +
    '[--input IN.npy]... [--output OUT.npy]...\n');
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { model: null, threads: 2, iterations: 20, warmup: 3, inputs: [], outputs: [] };
  const intFlags = { '--threads': 'threads', '--iterations': 'iterations', '--warmup': 'warmup' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a in intFlags || a === '--input' || a === '--output') {
      if (i + 1 >= argv.length) usage(`${a} needs a value`);
      const v = argv[++i];
      if (a === '--input') opts.inputs.push(v);
      else if (a === '--output') opts.outputs.push(v);
      else {
        const n = Number(v);
        const min = a === '--warmup' ? 0 : 1;
        if (!Number.isInteger(n) || n < min) usage(`${a} wants an integer >= ${min}, got '${v}'`);
        opts[intFlags[a]] = n;
      }
    } else if (a.startsWith('--')) {
      usage(`unknown option '${a}'`);
    } else if (opts.model === null) {
      opts.model = a;
    } else {
      usage(`unexpected argument '${a}'`);
    }
  }
  if (opts.model === null) usage('missing MODEL.onnx');
  return opts;
}

// .npy (format 1.x/2.x/3.x), little-endian, C order; the dtypes ONNX models here take.
const NPY_TYPES = {
  '<f4': ['float32', Float32Array], '<f8': ['float64', Float64Array],
  '<i8': ['int64', BigInt64Array], '<i4': ['int32', Int32Array],
  '|b1': ['bool', Uint8Array], '|u1': ['uint8', Uint8Array],
};

function readNpy(ort, file) {
  const buf = fs.readFileSync(file);
  if (buf.length < 10 || buf.toString('latin1', 0, 6) !== '\x93NUMPY') {
    throw new Error(`${file}: not a .npy file (bad magic)`);
  }
  const major = buf[6];
  const headerLen = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const start = major === 1 ? 10 : 12;
  const header = buf.toString('latin1', start, start + headerLen);
  const descr = /'descr':\s*'([^']+)'/.exec(header);
  const fortran = /'fortran_order':\s*(True|False)/.exec(header);
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header);
  if (!descr || !fortran || !shape) throw new Error(`${file}: unreadable .npy header ${header.trim()}`);
  if (fortran[1] === 'True') throw new Error(`${file}: Fortran-order arrays are not supported`);
  const type = NPY_TYPES[descr[1]];
  if (!type) throw new Error(`${file}: dtype ${descr[1]} not supported (want one of ${Object.keys(NPY_TYPES).join(' ')})`);
  const dims = shape[1].split(',').map((s) => s.trim()).filter((s) => s.length).map(Number);
  const count = dims.reduce((a, b) => a * b, 1);
  const dataStart = start + headerLen;
  const bytes = count * type[1].BYTES_PER_ELEMENT;
  if (buf.length - dataStart < bytes) throw new Error(`${file}: truncated data (${buf.length - dataStart} of ${bytes} bytes)`);
  // Copy into an aligned buffer: typed arrays need element alignment.
  const data = new type[1](count);
  new Uint8Array(data.buffer).set(buf.subarray(dataStart, dataStart + bytes));
  return new ort.Tensor(type[0] === 'bool' ? 'bool' : type[0], data, dims);
}

function writeNpy(file, tensor) {
  const descr = Object.keys(NPY_TYPES).find((k) => NPY_TYPES[k][0] === tensor.type);
  if (!descr) throw new Error(`cannot write output of type ${tensor.type} to ${file}`);
  const dims = tensor.dims.length === 1 ? `${tensor.dims[0]},` : tensor.dims.join(', ');
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${dims}), }`;
  const pad = 64 - ((10 + header.length + 1) % 64);
  header += ' '.repeat(pad % 64) + '\n';
  const pre = Buffer.alloc(10);
  pre.write('\x93NUMPY', 0, 'latin1');
  pre[6] = 1; pre[7] = 0;
  pre.writeUInt16LE(header.length, 8);
  const data = tensor.data;
  fs.writeFileSync(file, Buffer.concat([pre, Buffer.from(header, 'latin1'),
    Buffer.from(data.buffer, data.byteOffset, data.byteLength)]));
}

function randomInput(ort, meta) {
  if (!meta.isTensor || meta.type !== 'float32') {
    throw new Error(`input '${meta.name}' is ${meta.type}; pass it with --input FILE.npy`);
  }
  if (meta.shape.some((d) => typeof d !== 'number' || d < 0)) {
    throw new Error(`input '${meta.name}' has dynamic shape [${meta.shape}]; pass it with --input FILE.npy`);
  }
  const count = meta.shape.reduce((a, b) => a * b, 1);
  const data = new Float32Array(count);
  for (let i = 0; i < count; i++) data[i] = Math.random() * 2 - 1;
  return new ort.Tensor('float32', data, meta.shape);
}

function percentile(sorted, q) {
  // Linear interpolation between closest ranks, as numpy.percentile does by default.
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  let ort;
  try {
    ort = require('onnxruntime-node');
  } catch (e) {
    throw new Error(`cannot load onnxruntime-node (run 'npm install --ignore-scripts' in ${path.dirname(__dirname)}): ${e.message}`);
  }
  if (!fs.existsSync(opts.model)) throw new Error(`${opts.model}: no such file`);

  const t0 = process.hrtime.bigint();
  const session = await ort.InferenceSession.create(opts.model, {
    intraOpNumThreads: opts.threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
  const loadMs = Number(process.hrtime.bigint() - t0) / 1e6;

  const names = session.inputNames;
  if (opts.inputs.length && opts.inputs.length !== names.length) {
    throw new Error(`model takes ${names.length} inputs (${names.join(', ')}), got ${opts.inputs.length} --input files`);
  }
  if (opts.outputs.length > session.outputNames.length) {
    throw new Error(`model has ${session.outputNames.length} outputs, got ${opts.outputs.length} --output files`);
  }
  const feeds = {};
  names.forEach((name, i) => {
    feeds[name] = opts.inputs.length ? readNpy(ort, opts.inputs[i]) : randomInput(ort, session.inputMetadata[i]);
  });

  for (let i = 0; i < opts.warmup; i++) await session.run(feeds);
  const times = [];
  let result = null;
  for (let i = 0; i < opts.iterations; i++) {
    const s = process.hrtime.bigint();
    result = await session.run(feeds);
    times.push(Number(process.hrtime.bigint() - s) / 1e6);
  }
  opts.outputs.forEach((file, i) => writeNpy(file, result[session.outputNames[i]]));

  const sorted = [...times].sort((a, b) => a - b);
  const out = {
    median_ms: percentile(sorted, 0.5),
    p90_ms: percentile(sorted, 0.9),
    mean_ms: times.reduce((a, b) => a + b, 0) / times.length,
    min_ms: sorted[0],
    load_ms: loadMs,
    iterations: opts.iterations,
    warmup: opts.warmup,
    threads: opts.threads,
    ort_version: ort.env.versions ? ort.env.versions.node : undefined,
  };
  process.stdout.write(JSON.stringify(out) + '\n');
}

main().catch((e) => {
  process.stderr.write(`ort_bench: ${e.message}\n`);
  process.exit(1);
});
