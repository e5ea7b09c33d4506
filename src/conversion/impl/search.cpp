#include "conversion/impl/search.h"

#include <algorithm>

#include "atenrt/errors.h"
#include "conversion/impl/elementwise.h"
#include "conversion/impl/reduce.h"

namespace atenrt::conversion::impl::search {
namespace {

using network::ElementwiseOp;
using network::ReduceOp;
using network::UnaryOp;

NetworkTensor* operand_tensor(const Scope& s, const Operand& x, DType dtype) {
  return x.is_scalar() ? as_tensor(s, x, dtype) : x.tensor;
}

}  // namespace

NetworkTensor* isin(const Scope& s, const Operand& elements, const Operand& test, bool invert) {
  const DType common = result_type(elements, test);
  NetworkTensor* e = operand_tensor(s, elements, common);
  NetworkTensor* t = operand_tensor(s, test, common);
  const std::int64_t candidates = numel(static_dims(t, "isin's test_elements"));
  if (candidates == 0) return fill(s, static_dims(e, "isin's elements"), invert ? 1.0 : 0.0, DType::Bool);
  // elements[..., None] == test.flatten(): [..., n], then any over n.
  NetworkTensor* column = unsqueeze(s, e, e->rank());
  NetworkTensor* row = reshape(s, t, {candidates});
  NetworkTensor* equal = elementwise::compare(s, Operand{column, std::nullopt}, Operand{row, std::nullopt},
                                              ElementwiseOp::Equal);
  NetworkTensor* any = s.add_reduce("any", equal, ReduceOp::Any, {e->rank()}, false);
  return invert ? s.add_unary("", any, UnaryOp::Not) : any;
}

NetworkTensor* searchsorted(const Scope& s, NetworkTensor* sorted, const Operand& values, bool right,
                            bool out_int32) {
  const DType common = result_type(Operand{sorted, std::nullopt}, values);
  NetworkTensor* v = operand_tensor(s, values, common);
  const Dims& sorted_dims = static_dims(sorted, "the sorted sequence");
  if (sorted->rank() > 1) {
    // torch: an N-D sorted sequence has exactly the values' leading dims.
    const Dims& value_dims = static_dims(v, "the values");
    const bool same = v->rank() == sorted->rank() &&
                      std::equal(sorted_dims.begin(), sorted_dims.end() - 1, value_dims.begin());
    check(same, "the sorted sequence " + shape_to_string(sorted_dims) + " must be 1-D or have the leading dims of the values " +
                    shape_to_string(value_dims));
  }
  const std::int64_t n = sorted_dims.back();
  // sorted[..., None, :] against values[..., :, None]: [..., m, n]; count the entries before each value.
  NetworkTensor* rows = sorted->rank() > 1 ? unsqueeze(s, sorted, sorted->rank() - 1) : sorted;
  NetworkTensor* column = unsqueeze(s, v, v->rank());
  NetworkTensor* before = elementwise::compare(s, Operand{rows, std::nullopt}, Operand{column, std::nullopt},
                                               right ? ElementwiseOp::LessEqual : ElementwiseOp::Less);
  NetworkTensor* count = reduce::reduce(s, before, ReduceOp::Sum, {v->rank()}, false);  // int64
  if (is_floating(common)) {
    NetworkTensor* nan = s.add_unary("isnan", v, UnaryOp::IsNan);
    count = s.add_select("nan_last", nan, scalar_constant(s, static_cast<double>(n), DType::Int64), count);
  }
  return out_int32 ? cast(s, count, DType::Int32) : count;
}

}  // namespace atenrt::conversion::impl::search
