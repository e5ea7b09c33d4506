"""Rewrite a program from the newest schema (8.x, what _serialize writes) into an older one.

torch.export's JSON changed shape across releases (shared/reference/pt2_schema_history.md):

  1    torch 2.1   flat signature maps, TensorValue{meta} wrappers, bare-int storage_offset and
                   SymExpr hint, unions with every member written (unused ones null)
  2    torch 2.2   input_specs/output_specs, SymExprHint union, `dialect`; unions still all-members
  4.x  nightlies   unions as {"$type": member, "$value": value}, schema_version {major, minor}
  5.x  2.3-2.4     single-key unions, None-default fields omitted, `as_none` = []
  8.x  2.6 on      the newest shape; `as_none` is [] before 8.3 and true from 8.3

No torch that writes these runs here, so this writer follows the schema files those releases
shipped (and a real 2.2 file, for the all-members form). The reader is also tested on JSON
copied from the format notes' own examples, so that writer and reader cannot drift together.
"""
from .errors import ExportError

SUPPORTED_MAJORS = (1, 2, 4, 5, 8)

# Union members in declaration order, schemas 1 and 2 (the all-members form writes each one).
_ARGUMENT = ["as_none", "as_tensor", "as_tensors", "as_int", "as_ints", "as_float", "as_floats",
             "as_string", "as_strings", "as_sym_int", "as_sym_ints", "as_scalar_type",
             "as_memory_format", "as_layout", "as_device", "as_bool", "as_bools", "as_sym_bool",
             "as_sym_bools", "as_graph", "as_optional_tensors", "as_custom_obj"]
_SYM_INT = ["as_expr", "as_int"]
_SYM_INT_ARGUMENT = ["as_name", "as_int"]
_SYM_BOOL_ARGUMENT = ["as_name", "as_bool"]
_OPTIONAL_TENSOR = ["as_tensor", "as_none"]
_INPUT_SPEC = ["user_input", "parameter", "buffer", "tensor_constant"]
_OUTPUT_SPEC = ["user_output", "loss_output", "buffer_mutation", "gradient_to_parameter",
                "gradient_to_user_input"]


def normalize(version):
    """(major, minor) from 1, 2, (5, 3) or {"major": 5, "minor": 3}."""
    if isinstance(version, int):
        version = (version, 0)
    elif isinstance(version, dict):
        version = (version["major"], version.get("minor", 0))
    major, minor = (int(v) for v in version)
    if major not in SUPPORTED_MAJORS:
        raise ValueError(f"schema_version {major}.{minor}: the exporter writes majors "
                         f"{', '.join(map(str, SUPPORTED_MAJORS))}")
    return major, minor


class _Writer:
    def __init__(self, version):
        self.major, self.minor = version

    # ------------------------------------------------------------------------------ unions
    def union(self, members, key, value):
        if self.major <= 2:
            if key not in members:
                raise ExportError(f"schema {self.major} has no union member '{key}'")
            out = {m: None for m in members}
            out[key] = value
            return out
        if self.major == 4:
            return {"$type": key, "$value": value}
        return {key: value}

    def none_value(self):
        return True if (self.major, self.minor) >= (8, 3) else []

    def device(self, d):
        if self.major == 5 and d.get("index") is None:
            return {"type": d["type"]}                  # 5.x omits None-default fields
        return dict(d)

    def sym_int(self, s):                               # SymInt in TensorMeta
        (key, value), = s.items()
        return self.union(_SYM_INT, key, value)

    def argument(self, a):
        (key, v), = a.items()
        if key == "as_none":
            v = self.none_value()
        elif key == "as_sym_int":
            v = self.union(_SYM_INT_ARGUMENT, *next(iter(v.items())))
        elif key == "as_sym_ints":
            v = [self.union(_SYM_INT_ARGUMENT, *next(iter(x.items()))) for x in v]
        elif key == "as_sym_bool":
            v = self.union(_SYM_BOOL_ARGUMENT, *next(iter(v.items())))
        elif key == "as_optional_tensors":
            v = [self.optional_tensor(x) for x in v]
        elif key == "as_device":
            v = self.device(v)
        if key not in _ARGUMENT and self.major <= 5:
            raise ExportError(f"schema {self.major}.{self.minor} has no argument kind '{key}'")
        return self.union(_ARGUMENT, key, v)

    def optional_tensor(self, x):
        (key, v), = x.items()
        if key == "as_none":
            return self.union(_OPTIONAL_TENSOR, key, self.none_value() if self.major >= 5 else [])
        return self.union(_OPTIONAL_TENSOR, key, v["name"] if self.major <= 2 else v)

    # ------------------------------------------------------------------------------- graph
    def tensor_meta(self, m):
        out = {"dtype": m["dtype"], "sizes": [self.sym_int(s) for s in m["sizes"]],
               "requires_grad": m["requires_grad"], "device": self.device(m["device"]),
               "strides": [self.sym_int(s) for s in m["strides"]],
               "storage_offset": (m["storage_offset"]["as_int"] if self.major <= 2
                                  else self.sym_int(m["storage_offset"])),
               "layout": m["layout"]}
        return {"meta": out} if self.major == 1 else out

    def node(self, n):
        inputs = []
        for i in n["inputs"]:
            arg = {"name": i["name"], "arg": self.argument(i["arg"])}
            if self.major == 8 and self.minor > 3:     # ArgumentKind: absent up to 8.3
                arg["kind"] = i["kind"]
            inputs.append(arg)
        out = {"target": n["target"], "inputs": inputs,
               "outputs": [self.argument(o) for o in n["outputs"]], "metadata": n["metadata"]}
        if self.major == 8:
            out["is_hop_single_tensor_return"] = n["is_hop_single_tensor_return"]
            out["name"] = n["name"]
        return out

    def graph(self, g):
        out = {"inputs": [self.argument(a) for a in g["inputs"]],
               "outputs": [self.argument(a) for a in g["outputs"]],
               "nodes": [self.node(n) for n in g["nodes"]],
               "tensor_values": {k: self.tensor_meta(m) for k, m in g["tensor_values"].items()},
               "sym_int_values": {k: self.sym_int(v) for k, v in g["sym_int_values"].items()},
               "sym_bool_values": dict(g["sym_bool_values"])}
        if self.major >= 2:
            out["is_single_tensor_return"] = g["is_single_tensor_return"]
        if self.major >= 5:
            out["custom_obj_values"] = dict(g["custom_obj_values"])
        if self.major == 8:
            out["sym_float_values"] = dict(g["sym_float_values"])
        return out

    # --------------------------------------------------------------------------- signature
    def input_spec(self, spec):
        (key, v), = spec.items()
        v = dict(v)
        if key == "user_input":
            v["arg"] = self.argument(v["arg"])
        if key == "buffer" and self.major <= 2:
            del v["persistent"]                         # added with schema 4/5
        return self.union(_INPUT_SPEC, key, v) if self.major <= 2 else self.union(None, key, v)

    def output_spec(self, spec):
        (key, v), = spec.items()
        v = dict(v)
        if key == "user_output":
            v["arg"] = self.argument(v["arg"])
        return self.union(_OUTPUT_SPEC, key, v) if self.major <= 2 else self.union(None, key, v)

    def flat_signature(self, sig):
        """Schema 1: maps from placeholder names. It has no lifted tensor constants, so those are
        written as buffers (torch 2.1 kept them as module attributes)."""
        flat = {"inputs_to_parameters": {}, "inputs_to_buffers": {}, "user_inputs": [],
                "user_outputs": [], "buffers_to_mutate": {}, "backward_signature": None}
        for spec in sig["input_specs"]:
            (key, v), = spec.items()
            if key == "parameter":
                flat["inputs_to_parameters"][v["arg"]["name"]] = v["parameter_name"]
            elif key == "buffer":
                flat["inputs_to_buffers"][v["arg"]["name"]] = v["buffer_name"]
            elif key == "tensor_constant":
                flat["inputs_to_buffers"][v["arg"]["name"]] = v["tensor_constant_name"]
            elif key == "user_input" and "as_tensor" in v["arg"]:
                flat["user_inputs"].append(v["arg"]["as_tensor"]["name"])
            else:
                raise ExportError(f"schema 1 cannot represent input spec {spec}")
        for spec in sig["output_specs"]:
            (key, v), = spec.items()
            if key == "buffer_mutation":
                flat["buffers_to_mutate"][v["arg"]["name"]] = v["buffer_name"]
            elif key == "user_output" and "as_tensor" in v["arg"]:
                flat["user_outputs"].append(v["arg"]["as_tensor"]["name"])
            else:
                raise ExportError(f"schema 1 cannot represent output spec {spec}")
        return flat

    def signature(self, sig):
        if self.major == 1:
            return self.flat_signature(sig)
        return {"input_specs": [self.input_spec(s) for s in sig["input_specs"]],
                "output_specs": [self.output_spec(s) for s in sig["output_specs"]]}

    # ----------------------------------------------------------------------------- program
    def program(self, p):
        gm = p["graph_module"]
        calls = gm["module_call_graph"]
        if self.major == 5:
            calls = [{k: v for k, v in c.items() if v is not None} for c in calls]
        out_gm = {"graph": self.graph(gm["graph"]), "signature": self.signature(gm["signature"])}
        if self.major == 1:
            out_gm["call_spec"] = {"in_spec": None, "out_spec": None}
        out_gm["module_call_graph"] = calls
        if self.major == 8:
            out_gm["metadata"] = gm["metadata"]
            out_gm["treespec_namedtuple_fields"] = gm["treespec_namedtuple_fields"]
        out = {"graph_module": out_gm, "opset_version": p["opset_version"],
               "range_constraints": p["range_constraints"]}
        if self.major == 1:
            out.update(equality_constraints=[], schema_version=1, example_inputs=None)
        elif self.major == 2:
            out.update(schema_version=2, dialect="ATEN")
        elif self.major in (4, 5):
            out.update(schema_version={"major": self.major, "minor": self.minor}, dialect="ATEN")
        else:
            out.update(schema_version={"major": self.major, "minor": self.minor},
                       verifiers=p["verifiers"], torch_version=p["torch_version"],
                       guards_code=p["guards_code"])
        return out


def rewrite(program, version):
    """`program` (schema 8.x, as _serialize writes it) in schema `version` = (major, minor)."""
    major, minor = normalize(version)
    if major == 8 and minor >= 3:
        return dict(program, schema_version={"major": major, "minor": minor})
    return _Writer((major, minor)).program(program)


def version_record(version):
    """What the legacy zip's `version` record holds: "1", "2", "5.3", ..."""
    major, minor = normalize(version)
    return str(major) if major <= 2 else f"{major}.{minor}"
