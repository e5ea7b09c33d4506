#!/usr/bin/python3
"""Writes the full-size resource attacks of issue 17 into a folder, for measuring
`atenrt` under /usr/bin/time -v (they are too big to commit; the committed
corpus in this folder holds scaled-down copies):

  bomb.pt2          a valid model whose first weight entry is a deflated stream of 4 GiB zeros
  rows_2_36.pt2     a valid model whose activation sizes claim 2^36 rows
  elems_2_38.pt2    a valid model whose activations claim 2^38 elements
  zeros_2g.npz      np.savez_compressed of 2 GiB zeros, for a model taking float32[1, 64]

  /usr/bin/python3 tests/corpus/resources/make_attacks.py MODEL_DIR OUT_DIR
MODEL_DIR holds the fixtures of tests/tools/make_fixtures.py (tiny_cnn.pt2.pt2, ...).
"""
import json
import os
import re
import sys
import zipfile
import zlib

GIB = 1 << 30


def copy_with(src, dst, replace):
    """Copies the zip `src` to `dst`, writing replace[name](zout, info) instead of those entries."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", allowZip64=True) as zout:
        for info in zin.infolist():
            if info.filename in replace:
                replace[info.filename](zout, info)
            else:
                zout.writestr(info, zin.read(info.filename))


def deflated_zeros(nbytes):
    def write(zout, info):
        zi = zipfile.ZipInfo(info.filename, date_time=info.date_time)
        zi.compress_type = zipfile.ZIP_DEFLATED
        chunk = bytes(64 << 20)
        with zout.open(zi, "w", force_zip64=True) as f:
            left = nbytes
            while left:
                n = min(left, len(chunk))
                f.write(chunk[:n])
                left -= n
    return write


def patched_json(zin_path, name, fn):
    with zipfile.ZipFile(zin_path) as z:
        prog = json.loads(z.read(name))
    fn(prog)
    data = json.dumps(prog).encode()

    def write(zout, info):
        zout.writestr(info, data)
    return write


def model_json(path):
    with zipfile.ZipFile(path) as z:
        return next(n for n in z.namelist() if n.endswith("models/model.json"))


def first_weight(path):
    with zipfile.ZipFile(path) as z:
        return next(n for n in z.namelist() if re.search(r"data/weights/weight_0$", n))


def scale_activations(rows):
    """Sets the batch (first) dim of the user input and of every activation that
    carries it to `rows`; weights keep their sizes so the archive still binds."""
    def fn(prog):
        g = prog["graph_module"]["graph"]
        user = [body["arg"]["as_tensor"]["name"] if "as_tensor" in body["arg"] else body["arg"]["name"]
                for spec in prog["graph_module"]["signature"]["input_specs"]
                for kind, body in spec.items() if kind == "user_input"]
        batch = g["tensor_values"][user[0]]["sizes"][0]["as_int"]
        weights = {body["arg"]["name"] for spec in prog["graph_module"]["signature"]["input_specs"]
                   for kind, body in spec.items() if kind != "user_input"}
        for name, meta in g["tensor_values"].items():
            if name in weights or not meta["sizes"]:
                continue
            first = meta["sizes"][0]
            if first.get("as_int") == batch:
                first["as_int"] = rows
                # Contiguous strides of the leading dim are unchanged; nothing else to patch.
    return fn


def main(model_dir, out):
    os.makedirs(out, exist_ok=True)
    cnn = os.path.join(model_dir, "tiny_cnn.pt2.pt2")
    if not os.path.exists(os.path.join(out, "bomb.pt2")):
        copy_with(cnn, os.path.join(out, "bomb.pt2"), {first_weight(cnn): deflated_zeros(4 * GIB)})
    mj = model_json(cnn)
    copy_with(cnn, os.path.join(out, "rows_2_36.pt2"), {mj: patched_json(cnn, mj, scale_activations(1 << 36))})
    copy_with(cnn, os.path.join(out, "elems_2_38.pt2"), {mj: patched_json(cnn, mj, scale_activations(1 << 38))})
    # np.savez_compressed writes arr_0.npy deflated; the same by hand, streamed.
    header = b"{'descr': '<f4', 'fortran_order': False, 'shape': (%d, 64), }" % (2 * GIB // 256)
    header += b" " * ((64 - (10 + len(header) + 1) % 64) % 64) + b"\n"
    npy_head = b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header
    if os.path.exists(os.path.join(out, "zeros_2g.npz")):
        return
    with zipfile.ZipFile(os.path.join(out, "zeros_2g.npz"), "w", allowZip64=True) as z:
        zi = zipfile.ZipInfo("arr_0.npy")
        zi.compress_type = zipfile.ZIP_DEFLATED
        with z.open(zi, "w", force_zip64=True) as f:
            f.write(npy_head)
            chunk = bytes(64 << 20)
            for _ in range(2 * GIB // len(chunk)):
                f.write(chunk)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
