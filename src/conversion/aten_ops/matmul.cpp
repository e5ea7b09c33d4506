// Matrix product converters.
#include "conversion/aten_ops/common.h"
#include "conversion/impl/elementwise.h"
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
// vdot conjugates its first operand: for real tensors it is dot.
ATENRT_CONVERTER(kFamily, "aten.vdot.default", .validator = [](const NodeView& n, const ConversionSettings&) { return rank_of(n, "self", 1, "other", 1); })(const Scope& s, const NodeArgs& args) {
  return one(mm::matmul(s, args.tensor("self"), args.tensor("other")));
}
// addr(self, vec1, vec2, beta, alpha) = beta * self + alpha * outer(vec1, vec2); beta = 0 ignores
// self (NaN included). The outer product is an elementwise product, exact for integers too.
Capability addr_fits(const NodeView& n, const ConversionSettings&) {
  for (const char* a : {"self", "vec1", "vec2"}) {
    if (n.dtype_of(a) == DType::Bool) return Capability::no("bool addr (logical and/or) is not supported");
    if (n.dtype_of(a) == DType::BFloat16 || n.dtype_of(a) == DType::Float16) {
      return Capability::no("bfloat16/float16 addr: PyTorch's intermediate roundings are not reproduced");
    }
  }
  return rank_of(n, "vec1", 1, "vec2", 1);
}
ATENRT_CONVERTER(kFamily, "aten.addr.default", .validator = addr_fits)(const Scope& s, const NodeArgs& args) {
  namespace ew = impl::elementwise;
  auto* self = args.tensor("self");
  auto* v1 = args.tensor("vec1");
  auto* v2 = args.tensor("vec2");
  // bfloat16/float16: computed in float32 and rounded once, as PyTorch.
  const DType dt = impl::promote_types(self->dtype, impl::promote_types(v1->dtype, v2->dtype));
  const bool reduced = dt == DType::BFloat16 || dt == DType::Float16;
  if (reduced) {
    self = impl::cast(s, self, DType::Float32);
    v1 = impl::cast(s, v1, DType::Float32);
    v2 = impl::cast(s, v2, DType::Float32);
  }
  auto* outer = ew::mul(s.child("outer"), Operand{impl::unsqueeze(s, v1, 1), {}}, Operand{impl::unsqueeze(s, v2, 0), {}});
  const Scalar beta = scalar_or_one(args, "beta"), alpha = scalar_or_one(args, "alpha");
  NetworkTensor* y = ew::mul(s.child("alpha"), Operand{outer, {}}, Operand{nullptr, alpha});
  if (beta.f != 0.0) {
    auto* bias = ew::mul(s.child("beta"), Operand{self, {}}, Operand{nullptr, beta});
    y = ew::add(s.child("sum"), Operand{y, {}}, Operand{bias, {}}, Scalar::of_int(1));
  }
  return one(reduced ? s.add_cast("", y, dt) : impl::identity(s, y));
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
Capability at_most_2d(const NodeView& node, const ConversionSettings&) {
  if (const ir::TensorMeta* m = node.meta("self"); m && m->sizes.size() > 2) {
    return Capability::no("t() expects a tensor with at most 2 dims, got " + std::to_string(m->sizes.size()));
  }
  return Capability::yes();
}
ATENRT_CONVERTER(kFamily, "aten.t.default", .validator = at_most_2d)(const Scope& s, const NodeArgs& args) {
  return one(mm::t(s, args.tensor("self")));
}

}  // namespace
}  // namespace atenrt::conversion::aten_ops
