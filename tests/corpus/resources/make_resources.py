#!/usr/bin/python3
"""The "resources" family of the hostile corpus: files that are well formed, or
nearly, and expensive -- decompression bombs in every container and record,
lying or overlapping zip sizes, absurd shapes, deep JSON, very long strings,
many tiny entries, millions of nodes. Each must end in a clear atenrt error
(or load, where noted) without using much memory or time.

  small/     committed (each under ~100 KB), checked by atenrt_frontend_tests
  large/     written on demand into a folder (megabytes of headers or JSON),
             run by scripts/test.sh through the CLI under `ulimit -v`

manifest.tsv lists: file, stage (load: the reader; compile: `atenrt compile`),
the error class (none: must succeed) and a substring of the message.

  /usr/bin/python3 tests/corpus/resources/make_resources.py          # rewrite small/
  /usr/bin/python3 tests/corpus/resources/make_resources.py --large DIR
"""
import io
import json
import os
import shutil
import struct
import sys
import zipfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import make_corpus as mc  # noqa: E402  (the corpus' program, payloads and writers)

MIB = 1 << 20
STORED, DEFLATED = zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED


def zip_bytes(entries, method=STORED):
    """entries: dict name -> bytes, or name -> (bytes, method)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", allowZip64=True) as z:
        for name, data in entries.items():
            data, m = data if isinstance(data, tuple) else (data, method)
            zi = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
            zi.compress_type = m
            z.writestr(zi, data)
    return buf.getvalue()


def find_headers(data, name):
    """(local header offset, central header offset) of an entry."""
    n = name.encode()
    pos = data.find(b"PK\x01\x02")
    while pos >= 0:
        nlen = struct.unpack_from("<H", data, pos + 28)[0]
        if data[pos + 46:pos + 46 + nlen] == n:
            return struct.unpack_from("<I", data, pos + 42)[0], pos
        pos = data.find(b"PK\x01\x02", pos + 4)
    raise KeyError(name)


def patch_sizes(data, name, size=None, comp=None):
    """Rewrites an entry's sizes in both its local and central header (so they agree)."""
    b = bytearray(data)
    local, central = find_headers(data, name)
    for off, lo in ((local + 18, True), (central + 20, False)):
        if comp is not None:
            struct.pack_into("<I", b, off, comp)
        if size is not None:
            struct.pack_into("<I", b, off + 4, size)
    return bytes(b)


def raw_archive(**over):
    e = {"archive_format": b"pt2", "archive_version": b"0", "byteorder": b"little"}
    e.update({k: v for k, v in mc.pt2_raw_entries().items() if k not in e})
    e.update(over)
    return e


def pickled_archive(weights_pt):
    w, c = mc.torch_weights()
    return {"archive_format": b"pt2", "archive_version": b"0",
            "models/model.json": mc.jdump(mc.program("-Infinity")),
            "data/weights/model.pt": weights_pt, "data/constants/model.pt": mc.tsave(c)}


def rezip(zip_data, replace):
    """A copy of a zip (bytes) with some entries replaced: name -> (bytes, method)."""
    out = {}
    with zipfile.ZipFile(io.BytesIO(zip_data)) as z:
        for n in z.namelist():
            out[n] = replace.get(n, (z.read(n), STORED))
    return zip_bytes(out)


def linear_archive(rows):
    return zip_bytes(raw_archive(**{"models/model.json": linear_archive_json(rows)}))


def linear_archive_json(rows):
    """x[rows, 4] -> linear(fc) -> add(scale) -> clamp: every size follows from the batch."""
    p = mc.program("-Infinity")
    g = mc.G(p)
    g["nodes"] = g["nodes"][:3]
    g["outputs"] = [mc.T("clamp")]
    tv = g["tensor_values"]
    for n in ("x", "linear", "add", "clamp"):
        tv[n]["sizes"][0] = mc.sym(rows)
    for n in ("view", "sum_1", "_to_copy", "add_1", "index"):
        del tv[n]
    p["graph_module"]["signature"]["output_specs"] = [{"user_output": {"arg": mc.T("clamp")}}]
    return mc.jdump(p)


def fill_archive(elements):
    """linear_archive(2) plus a second output aten.ones([elements]): a creation op the
    builder would fold into a constant on the host."""
    p = json.loads(linear_archive_json(2))
    g = mc.G(p)
    g["nodes"].append(mc.node("ones", "aten.ones.default", [mc.arg("size", {"as_ints": [elements]})]))
    g["tensor_values"]["ones"] = mc.meta(mc.F32, [elements])
    g["outputs"].append(mc.T("ones"))
    p["graph_module"]["signature"]["output_specs"].append({"user_output": {"arg": mc.T("ones")}})
    return zip_bytes(raw_archive(**{"models/model.json": mc.jdump(p)}))


def npy_header(descr, shape):
    header = b"{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr.encode(), b", ".join(b"%d" % d for d in shape) + (b"," if len(shape) == 1 else b""))
    header += b" " * ((64 - (10 + len(header) + 1) % 64) % 64) + b"\n"
    return b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header


def npz_bytes(npy_head, zero_bytes):
    """An np.savez_compressed-shaped file: arr_0.npy, deflated, `npy_head` then zeros."""
    return zip_bytes({"arr_0.npy": (npy_head + bytes(zero_bytes), DEFLATED)})


MANIFEST = []


def case(folder, name, data, stage, cls, substring):
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)
    MANIFEST.append((name, stage, cls, substring))


def make_small(folder):
    zeros64 = bytes(64 * MIB)
    prog = mc.jdump(mc.program("-Infinity"))
    # --- bombs, one per container and record kind
    case(folder, "bomb_raw_weight.pt2", zip_bytes(raw_archive(**{"data/weights/weight_0": (zeros64, DEFLATED)})),
         "load", "FormatError", "zip bomb")
    case(folder, "bomb_graph_json.pt2",
         zip_bytes(raw_archive(**{"models/model.json": (prog + b" " * (64 * MIB), DEFLATED)})),
         "load", "FormatError", "zip bomb")
    cfg = json.loads(mc.pt2_raw_entries()["data/weights/model_weights_config.json"])
    case(folder, "bomb_weights_config.pt2",
         zip_bytes(raw_archive(**{"data/weights/model_weights_config.json":
                                  (mc.jdump(cfg) + b" " * (64 * MIB), DEFLATED)})),
         "load", "FormatError", "zip bomb")
    case(folder, "bomb_record.pt2", zip_bytes(raw_archive(archive_format=(b"pt2" + b"\n" * (8 * MIB), DEFLATED))),
         "load", "FormatError", "record limit")
    w, c = mc.torch_weights()
    case(folder, "bomb_pickled_weights.pt2",
         zip_bytes(pickled_archive((zeros64, DEFLATED))), "load", "FormatError", "zip bomb")
    inner = mc.tsave(w)
    with zipfile.ZipFile(io.BytesIO(inner)) as z:
        pkl = next(n for n in z.namelist() if n.endswith("data.pkl"))
        storage = next(n for n in z.namelist() if "/data/" in n)
    case(folder, "bomb_nested_data_pkl.pt2",
         zip_bytes(pickled_archive(rezip(inner, {pkl: (zeros64, DEFLATED)}))),
         "load", "FormatError", "data.pkl: deflated zip entry claims")
    case(folder, "bomb_nested_storage.pt2",
         zip_bytes(pickled_archive(rezip(inner, {storage: (zeros64, DEFLATED)}))),
         "load", "FormatError", "but the pickle declares")
    case(folder, "storage_longer_than_pickle.pt2",
         zip_bytes(pickled_archive(rezip(inner, {storage: (bytes(4096), STORED)}))),
         "load", "FormatError", "but the pickle declares")
    # --- sizes that lie (in both headers, so only the stream can tell)
    data = zip_bytes(raw_archive(**{"models/model.json": (prog, DEFLATED)}))
    case(folder, "stream_longer_than_declared.pt2", patch_sizes(data, "models/model.json", size=len(prog) - 100),
         "load", "FormatError", "inflates to more than")
    case(folder, "stream_shorter_than_declared.pt2", patch_sizes(data, "models/model.json", size=len(prog) + 100),
         "load", "FormatError", "zip entry is short")
    stored = zip_bytes(raw_archive())
    local_w0, _ = find_headers(stored, "data/weights/weight_0")
    local_w1, _ = find_headers(stored, "data/weights/weight_1")
    case(folder, "entries_overlap.pt2",
         patch_sizes(stored, "data/weights/weight_0", size=local_w1 - local_w0 + 8, comp=local_w1 - local_w0 + 8),
         "load", "FormatError", "overlap")
    b = bytearray(stored)
    local, _ = find_headers(stored, "models/model.json")
    struct.pack_into("<I", b, local + 22, len(prog) * 2)  # local header only
    case(folder, "local_central_disagree.pt2", bytes(b), "load", "FormatError", "sizes disagree")
    b = bytearray(stored)
    eocd = stored.rfind(b"PK\x05\x06")
    struct.pack_into("<HH", b, eocd + 8, 0xFFFF, 0xFFFF)
    case(folder, "entry_count_lie.pt2", bytes(b), "load", "FormatError", "not a valid zip archive")
    # A stored raw payload longer than its views: torch writes whole storages,
    # so this loads, and only the bytes the views reach are read.
    case(folder, "raw_payload_longer_than_views.pt2",
         zip_bytes(raw_archive(**{"data/weights/weight_0": mc.raw_payloads()[0]["weight_0"] + bytes(MIB)})),
         "load", "none", "")
    # --- absurd shapes: a consistent program whose batch claims 2^36 rows
    # (oneDNN's matmul raised SIGFPE on it), and a modest one for plan limits.
    case(folder, "linear_2_36_rows.pt2", linear_archive(1 << 36), "compile", "Error", "more than the memory limit")
    case(folder, "linear_16384_rows.pt2", linear_archive(1 << 14), "compile", "none", "")
    case(folder, "linear_2_62_rows.pt2", linear_archive(1 << 62), "load", "FormatError", "overflows")
    # 2^38 elements made by a creation op: refused before constant folding allocates them.
    case(folder, "ones_2_38_elements.pt2", fill_archive(1 << 38), "compile", "Error",
         "builder: tensor 'ones' (float32[274877906944])")
    # --- .npz inputs for a model taking float32[1, 4]: 64 MiB of zeros deflated to
    # ~64 KB, once with its true shape (refused by the header, before inflating) and
    # once under a [1, 4] header (refused by its declared size, before inflating).
    case(folder, "linear_1_row.pt2", linear_archive(1), "compile", "none", "")
    case(folder, "npz_zeros_64m.npz", npz_bytes(npy_header("<f4", (16 * MIB, 4)), 64 * MIB), "run:linear_1_row.pt2",
         "Error", "arr_0 is float32[16777216, 4], but input 0")
    case(folder, "npz_header_1x4_payload_64m.npz", npz_bytes(npy_header("<f4", (1, 4)), 64 * MIB),
         "run:linear_1_row.pt2", "Error", "needs 16 bytes but the member declares 67108864")
    # --- JSON shapes
    case(folder, "json_very_deep.pt2", zip_bytes(raw_archive(**{"models/model.json": b"[" * 60000 + b"]" * 60000})),
         "load", "FormatError", "JSON nesting deeper than")


def make_large(folder):
    prog = mc.program("-Infinity")
    # Many tiny entries (the reader's per-entry work must stay linear).
    many = raw_archive()
    for i in range(60000):
        many["pad/%05d" % i] = b""
    case(folder, "many_tiny_entries.pt2", zip_bytes(many), "load", "none", "")
    # A 32 MiB node name (the reader holds it; nothing may copy it per use).
    p = mc.program("-Infinity")
    mc.nodes(p)[1]["metadata"]["stack_trace"] = "x" * (32 * MIB)
    case(folder, "very_long_string.pt2", zip_bytes(raw_archive(**{"models/model.json": mc.jdump(p)})),
         "load", "none", "")
    # Millions of nodes: more than the reader's node limit.
    p = mc.program("-Infinity")
    mc.G(p)["nodes"] = [{}] * 1100000
    case(folder, "million_nodes.pt2", zip_bytes(raw_archive(**{"models/model.json": mc.jdump(p)})),
         "load", "FormatError", "1100000 nodes, more than the limit of 1048576")
    # Very deep JSON, stored (a deflated copy would be refused as a bomb first).
    case(folder, "json_deep_4m.pt2", zip_bytes(raw_archive(**{"models/model.json": b"[" * (4 * MIB)})),
         "load", "FormatError", "JSON nesting deeper than")


def write_manifest(folder):
    with open(os.path.join(folder, "manifest.tsv"), "w") as f:
        f.write("# file\tstage\terror class\tmessage substring (generated by make_resources.py)\n")
        for row in MANIFEST:
            f.write("\t".join(row) + "\n")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--large":
        out = sys.argv[2]
        os.makedirs(out, exist_ok=True)
        make_large(out)
    else:
        out = os.path.join(HERE, "small")
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        make_small(out)
    write_manifest(out)
    print("resources: %d files in %s" % (len(MANIFEST), out))
