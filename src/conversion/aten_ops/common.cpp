#include "conversion/aten_ops/common.h"

#include <vector>

namespace atenrt::conversion::aten_ops {

Capability refuse_out_variant(const NodeView& node, const ConversionSettings&) {
  return Capability::no(node.target() +
                        " writes into a preallocated 'out' tensor; export graphs use the functional overload");
}

namespace {

Validator requires_integer_types(std::initializer_list<const char*> args, bool bool_too) {
  std::vector<std::string> names(args.begin(), args.end());
  return [names, bool_too](const NodeView& node, const ConversionSettings&) {
    auto wrong = [bool_too](DType dt) { return is_floating(dt) || (!bool_too && dt == DType::Bool); };
    auto refuse = [bool_too](const std::string& what, DType dt) {
      return Capability::no(what + " is " + std::string(dtype_name(dt)) +
                            (bool_too ? "; bitwise ops take integer or bool tensors" : "; bit shifts take integer tensors"));
    };
    for (const auto& a : names) {
      const ir::Argument* arg = node.find(a);
      if (!arg || !arg->is<ir::TensorRef>()) continue;  // a number
      if (auto dt = node.dtype_of(a); dt && wrong(*dt)) return refuse("argument '" + a + "'", *dt);
    }
    if (const ir::TensorMeta* out = node.output_meta(0); out && out->dtype && wrong(*out->dtype)) {
      return refuse("the result", *out->dtype);
    }
    return Capability::yes();
  };
}

}  // namespace

Validator requires_integer_or_bool(std::initializer_list<const char*> args) {
  return requires_integer_types(args, true);
}

Validator requires_integer(std::initializer_list<const char*> args) { return requires_integer_types(args, false); }

Validator requires_false(const char* arg, const char* why) {
  std::string name = arg;
  std::string reason = why;
  return [name, reason](const NodeView& node, const ConversionSettings&) {
    const ir::Argument* a = node.find(name);
    if (a && a->is<bool>() && *a->get_if<bool>()) return Capability::no(name + "=True: " + reason);
    return Capability::yes();
  };
}

Validator requires_static(std::initializer_list<const char*> args) {
  std::vector<std::string> names(args.begin(), args.end());
  return [names](const NodeView& node, const ConversionSettings&) {
    for (const auto& a : names) {
      const ir::TensorMeta* m = node.meta(a);
      if (m && !m->is_static()) return Capability::no("argument '" + a + "' must have a static shape");
    }
    return Capability::yes();
  };
}

Validator dim_in_range(const char* dim, const char* tensor, std::int64_t extra) {
  return [=](const NodeView& node, const ConversionSettings&) {
    const ir::TensorMeta* m = node.meta(tensor);
    if (!m) return Capability::yes();
    const auto rank = static_cast<std::int64_t>(m->sizes.size()) + extra;
    std::vector<std::int64_t> dims;
    if (auto d = node.literal_int(dim)) {
      dims.push_back(*d);
    } else if (auto ds = node.literal_ints(dim)) {
      dims = *ds;
    }
    for (auto d : dims) {
      if (auto why = impl::dim_problem(d, rank)) return Capability::no(std::string(dim) + ": " + *why);
    }
    return Capability::yes();
  };
}

Validator distinct_dims(const char* dims, const char* tensor) {
  return [=](const NodeView& node, const ConversionSettings&) {
    const ir::TensorMeta* m = node.meta(tensor);
    auto ds = node.literal_ints(dims);
    if (!m || !ds) return Capability::yes();
    if (auto why = impl::dims_problem(*ds, static_cast<std::int64_t>(m->sizes.size()))) {
      return Capability::no(std::string(dims) + ": " + *why);
    }
    return Capability::yes();
  };
}

std::int64_t rank_of(const NodeView& node, const char* arg) {
  const ir::TensorMeta* m = node.meta(arg);
  return m ? static_cast<std::int64_t>(m->sizes.size()) : -1;
}

Capability refuse_if(const std::optional<std::string>& why) {
  return why ? Capability::no(*why) : Capability::yes();
}

Validator all_of(std::initializer_list<Validator> validators) {
  std::vector<Validator> vs(validators.begin(), validators.end());
  return [vs](const NodeView& node, const ConversionSettings& s) {
    for (const auto& v : vs) {
      if (!v) continue;
      Capability c = v(node, s);
      if (!c.ok) return c;
    }
    return Capability::yes();
  };
}

}  // namespace atenrt::conversion::aten_ops
