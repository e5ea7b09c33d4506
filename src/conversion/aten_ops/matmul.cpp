// Matrix product converters.
#include "conversion/aten_ops/common.h"
#include "conversion/impl/matmul.h"

namespace atenrt::conversion::aten_ops {
namespace {
namespace mm = impl::matmul;
constexpr Family kFamily{.name = "matmul", .supports_dynamic_shapes = true};

Scalar scalar_or_one(const NodeArgs& args, const char* name) {
  return args.has(name) ? args.scalar(name) : Scalar::of_int(1);
}
Capability rank_of(const NodeView& node, const char* a, std::size_t ra, const char* b, std::size_t rb) {
  const auto* ma = node.meta(a);
  const auto* mb = node.meta(b);
  if (ma && ma->sizes.size() != ra) return Capability::no(std::string(a) + " must have " + std::to_string(ra) + " dims");
  if (mb && mb->sizes.size() != rb) return Capability::no(std::string(b) + " must have " + std::to_string(rb) + " dims");
  return Capability::yes();
}

ATENRT_CONVERTER(kFamily, "aten.mm.default", .validator = [](const NodeView& n, const ConversionSettings&) { return rank_of(n, "self", 2, "mat2", 2); })(const Scope& s, const NodeArgs& args) {
  return one(mm::matmul(s, args.tensor("self"), args.tensor("mat2")));
}
ATENRT_CONVERTER(kFamily, "aten.bmm.default", .validator = [](const NodeView& n, const ConversionSettings&) { return rank_of(n, "self", 3, "mat2", 3); })(const Scope& s, const NodeArgs& args) {
  return one(mm::matmul(s, args.tensor("self"), args.tensor("mat2")));
}
ATENRT_CONVERTER(kFamily, "aten.matmul.default")(const Scope& s, const NodeArgs& args) {
  return one(mm::matmul(s, args.tensor("self"), args.tensor("other")));
}
ATENRT_CONVERTER(kFamily, "aten.mv.default", .validator = [](const NodeView& n, const ConversionSettings&) { return rank_of(n, "self", 2, "vec", 1); })(const Scope& s, const NodeArgs& args) {
  return one(mm::matmul(s, args.tensor("self"), args.tensor("vec")));
}
ATENRT_CONVERTER(kFamily, "aten.dot.default", .validator = [](const NodeView& n, const ConversionSettings&) { return rank_of(n, "self", 1, "tensor", 1); })(const Scope& s, const NodeArgs& args) {
  return one(mm::matmul(s, args.tensor("self"), args.tensor("tensor")));
}
ATENRT_CONVERTER(kFamily, "aten.addmm.default")(const Scope& s, const NodeArgs& args) {
  return one(mm::addmm(s, args.tensor("self"), args.tensor("mat1"), args.tensor("mat2"),
                       scalar_or_one(args, "beta"), scalar_or_one(args, "alpha")));
}
ATENRT_CONVERTER(kFamily, "aten.addmv.default")(const Scope& s, const NodeArgs& args) {
  return one(mm::addmm(s, args.tensor("self"), args.tensor("mat"), args.tensor("vec"),
                       scalar_or_one(args, "beta"), scalar_or_one(args, "alpha")));
}
ATENRT_CONVERTER(kFamily, "aten.baddbmm.default")(const Scope& s, const NodeArgs& args) {
  return one(mm::addmm(s, args.tensor("self"), args.tensor("batch1"),
                       args.tensor("batch2"), scalar_or_one(args, "beta"), scalar_or_one(args, "alpha")));
}
ATENRT_CONVERTER(kFamily, "aten.linear.default")(const Scope& s, const NodeArgs& args) {
  return one(mm::linear(s, args.tensor("input"), args.tensor("weight"), args.opt_tensor("bias")));
}
ATENRT_CONVERTER(kFamily, "aten.t.default")(const Scope& s, const NodeArgs& args) {
  return one(mm::t(s, args.tensor("self")));
}

}  // namespace
}  // namespace atenrt::conversion::aten_ops
