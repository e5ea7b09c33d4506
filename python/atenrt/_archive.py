"""Write an exported program in the containers torch.export.save has used (pt2_format.md §1, §2).

  "pt2"        torch >= 2.9: PT2 archive, raw storage payloads + PayloadConfig JSON
  "pt2-pickle" torch 2.8:    PT2 archive, weights/constants as nested torch.save zips
  "legacy"     torch 2.1-2.7: flat Python zipfile, serialized_*.pt records (serialized_*.json
               before schema 5, i.e. torch 2.1-2.2)
"""
import collections
import ctypes
import io
import json
import os
import zipfile

import torch

from ._schema import json_safe, tensor_meta
from .errors import ExportError

LAYOUTS = ("pt2", "pt2-pickle", "legacy")
# schema_version each layout's torch release wrote (pt2_format.md §3.7)
SCHEMA_VERSIONS = {"pt2": (8, 14), "pt2-pickle": (8, 8), "legacy": (8, 7)}


def check_schema(layout, version):
    """PT2 archives (torch >= 2.8) only ever held schema 8; the legacy zip held every schema."""
    if layout != "legacy" and version[0] != 8:
        raise ValueError(f"layout {layout!r} holds schema 8 only (torch >= 2.8); "
                         f"schema {version[0]}.{version[1]} needs layout='legacy'")


def _json_bytes(obj):
    return json.dumps(json_safe(obj), allow_nan=False).encode("utf-8")


def _torch_save_bytes(obj):
    buf = io.BytesIO()
    torch.save(obj, buf, pickle_protocol=2)
    return buf.getvalue()


def _storage_bytes(tensor):
    """Raw little-endian bytes of the tensor's whole untyped storage (what torch 2.9+ writes)."""
    storage = tensor.storage().untyped()
    if storage.nbytes() == 0:
        return b""
    return ctypes.string_at(storage.data_ptr(), storage.nbytes())


def _payloads(entries, prefix):
    """Group tensors sharing a storage (and dtype) into one payload file, each keeping its own
    sizes/strides/offset. Returns (config dict, {file name: bytes})."""
    config, files, by_storage = {}, {}, {}
    for fqn, tensor, is_param in entries:
        key = (tensor.storage().data_ptr(), tensor.storage().untyped().nbytes(), tensor.dtype)
        if key[0] == 0 or key not in by_storage:          # empty storages never alias
            name = f"{prefix}_{len(files)}"
            files[name] = _storage_bytes(tensor)
            if key[0] != 0:
                by_storage[key] = name
        else:
            name = by_storage[key]
        config[fqn] = {"path_name": name, "is_param": is_param, "use_pickle": False,
                       "tensor_meta": tensor_meta(tensor, f"tensor '{fqn}'")}
    return {"config": config}, files


def write(path, layout, program, weights, constants, example_inputs, schema_version=None, example_kwargs=None):
    """weights/constants: lists of (fqn, real tensor, is_param). `program` is already in
    `schema_version` (default: the layout's own), which picks the legacy records' names."""
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r}; expected one of {', '.join(LAYOUTS)}")
    path = os.fspath(path)
    for fqn, tensor, _ in weights + constants:
        if tensor.device.type != "cpu":
            raise ExportError(f"tensor '{fqn}' is on {tensor.device}; move the module to the CPU first")
    sample = _torch_save_bytes((tuple(example_inputs), dict(example_kwargs or {})))
    version = tuple(schema_version or SCHEMA_VERSIONS[layout])
    check_schema(layout, version)
    if layout == "legacy":
        _write_legacy(path, program, weights, constants, sample, version)
    else:
        _write_pt2(path, layout, program, weights, constants, sample)


def _state_dict(entries):
    return collections.OrderedDict((fqn, t) for fqn, t, _ in entries)


def _write_legacy(path, program, weights, constants, sample, version):
    major, minor = version
    program_record = ("serialized_exported_program.json", _json_bytes(program))
    if major == 1:
        # torch 2.1: one state dict (its signature calls constants buffers), named .json although
        # it is a torch.save zip; the version record is a bare int.
        records = [program_record,
                   ("serialized_state_dict.json", _torch_save_bytes(_state_dict(weights + constants))),
                   ("version", b"1")]
    elif major < 5:
        # torch 2.2 and the nightlies after it: constants apart, still .json, no example inputs.
        records = [program_record,
                   ("serialized_state_dict.json", _torch_save_bytes(_state_dict(weights))),
                   ("serialized_constants.json", _torch_save_bytes(_state_dict(constants))),
                   ("version", (str(major) if major <= 2 else f"{major}.{minor}").encode())]
    else:
        records = [program_record,
                   ("serialized_state_dict.pt", _torch_save_bytes(_state_dict(weights))),
                   ("serialized_constants.pt", _torch_save_bytes(_state_dict(constants))),
                   ("serialized_example_inputs.pt", sample),
                   ("version", f"{major}.{minor}".encode())]
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_STORED) as zf:
        for name, data in records:
            zf.writestr(name, data)


def _write_pt2(path, layout, program, weights, constants, sample):
    records = [("archive_format", b"pt2"), ("archive_version", b"0"), ("byteorder", b"little"),
               (".data/version", b"6\n"), ("models/model.json", _json_bytes(program))]
    if layout == "pt2":
        wconfig, wfiles = _payloads(weights, "weight")
        cconfig, cfiles = _payloads(constants, "tensor")
        records += [(f"data/weights/{n}", b) for n, b in wfiles.items()]
        records.append(("data/weights/model_weights_config.json", _json_bytes(wconfig)))
        records += [(f"data/constants/{n}", b) for n, b in cfiles.items()]
        records.append(("data/constants/model_constants_config.json", _json_bytes(cconfig)))
    else:
        records.append(("data/weights/model.pt", _torch_save_bytes(_state_dict(weights))))
        records.append(("data/constants/model.pt", _torch_save_bytes(_state_dict(constants))))
    records.append(("data/sample_inputs/model.pt", sample))
    if os.path.exists(path):
        os.remove(path)
    # PyTorchFileWriter names the root folder after the file stem, aligns payloads to 64 bytes,
    # writes data descriptors and a ZIP64 end record: the quirks of real torch >= 2.8 archives.
    writer = torch._C.PyTorchFileWriter(path)
    for name, data in records:
        writer.write_record(name, data, len(data))
    writer.write_end_of_file()
