// addmm, linear, addmv, mv, dot, baddbmm, addbmm, diag, trace → mm/bmm and elementwise ops.
#include "lowering/decompositions/common.h"

namespace atenrt::lowering::decomp {
namespace {

Values addmm(GraphBuilder& b, const ir::Node& n) {
  const auto prod = b.mm(tensor_arg(n, "mat1"), tensor_arg(n, "mat2"));
  return Values{beta_alpha(b, tensor_arg(n, "self"), prod, scalar_arg(n, "beta"), scalar_arg(n, "alpha"))};
}

int rank_of(const ir::NodeView& n, const char* arg) {
  const ir::TensorMeta* m = n.meta(arg);
  return m ? static_cast<int>(m->sizes.size()) : -1;
}

Capability linear_fits(const ir::NodeView& n) {
  const int w = rank_of(n, "weight"), x = rank_of(n, "input");
  if (w >= 0 && w != 2) return Capability::no("weight is not 2-D");
  if (x == 0) return Capability::no("0-d input");
  if (x > 2 && !n.meta("input")->is_static()) {
    return Capability::no("linear over a rank > 2 input needs a static shape");
  }
  return Capability::yes();
}

Capability matvec_fits(const ir::NodeView& n) {
  const int m = rank_of(n, n.has("mat") ? "mat" : "self"), v = rank_of(n, "vec");
  if ((m >= 0 && m != 2) || (v >= 0 && v != 1)) return Capability::no("mv needs a 2-D matrix and a 1-D vector");
  return Capability::yes();
}

// input @ weight.T + bias; inputs of rank > 2 are flattened to 2-D around the mm.
Values linear(GraphBuilder& b, const ir::Node& n) {
  const auto x = tensor_arg(n, "input");
  const auto w = tensor_arg(n, "weight");
  const int r = b.rank(x);
  const std::int64_t out_features = b.static_dim(w, 0, "linear");
  const auto wt = b.transpose2d(w);
  std::string y;
  if (r == 1) {
    y = b.squeeze(b.mm(b.unsqueeze(x, 0), wt), {0});
  } else if (r == 2) {
    y = b.mm(x, wt);
  } else {
    auto sizes = b.static_sizes(x, "linear over a rank > 2 input");
    const std::int64_t in_features = sizes.back();
    sizes.pop_back();
    std::int64_t rows = 1;
    for (auto s : sizes) rows *= s;
    y = b.mm(b.view(x, {rows, in_features}), wt);
    sizes.push_back(out_features);
    y = b.view(y, sizes);
  }
  if (auto bias = opt_tensor_arg(n, "bias")) y = b.add(tv(y), tv(*bias));
  return Values{y};
}

// mat @ vec as an mm with a column, viewed back to 1-D.
std::string matvec(GraphBuilder& b, const std::string& mat, const std::string& vec) {
  return b.squeeze(b.mm(mat, b.unsqueeze(vec, 1)), {1});
}

Values mv(GraphBuilder& b, const ir::Node& n) {
  return Values{matvec(b, tensor_arg(n, "self"), tensor_arg(n, "vec"))};
}

Values addmv(GraphBuilder& b, const ir::Node& n) {
  const auto prod = matvec(b, tensor_arg(n, "mat"), tensor_arg(n, "vec"));
  return Values{beta_alpha(b, tensor_arg(n, "self"), prod, scalar_arg(n, "beta"), scalar_arg(n, "alpha"))};
}

Values dot(GraphBuilder& b, const ir::Node& n) {
  const auto prod = b.mul(tv(tensor_arg(n, "self")), tv(tensor_arg(n, "tensor")));
  return Values{b.sum(prod, {0}, false)};
}

Values baddbmm(GraphBuilder& b, const ir::Node& n) {
  const auto prod = b.bmm(tensor_arg(n, "batch1"), tensor_arg(n, "batch2"));
  return Values{beta_alpha(b, tensor_arg(n, "self"), prod, scalar_arg(n, "beta"), scalar_arg(n, "alpha"))};
}

// Sum over the batch of the products.
Values addbmm(GraphBuilder& b, const ir::Node& n) {
  const auto prod = b.sum(b.bmm(tensor_arg(n, "batch1"), tensor_arg(n, "batch2")), {0}, false);
  return Values{beta_alpha(b, tensor_arg(n, "self"), prod, scalar_arg(n, "beta"), scalar_arg(n, "alpha"))};
}

// Indices of the `offset` diagonal of a row-major [rows, cols] matrix, as a
// flat index list: start, start + cols + 1, ...
std::pair<std::int64_t, std::int64_t> diagonal_span(std::int64_t rows, std::int64_t cols, std::int64_t offset) {
  std::int64_t len = offset >= 0 ? std::min(rows, cols - offset) : std::min(rows + offset, cols);
  len = std::max<std::int64_t>(len, 0);
  const std::int64_t start = offset >= 0 ? offset : -offset * cols;
  return {start, len};
}

std::string flat_diagonal(GraphBuilder& b, const std::string& m, std::int64_t offset) {
  const auto sizes = b.static_sizes(m, "diagonal extraction");
  const auto [start, len] = diagonal_span(sizes[0], sizes[1], offset);
  if (len == 0) throw Decline{"empty diagonal"};
  const auto flat = b.view(m, {sizes[0] * sizes[1]});
  const auto idx = b.arange(static_cast<double>(start), static_cast<double>(start + (len - 1) * (sizes[1] + 1) + 1),
                            static_cast<double>(sizes[1] + 1), DType::Int64);
  return b.index_select(flat, 0, idx);
}

// 1-D → square matrix with the vector on diagonal `d`; 2-D → that diagonal.
Values diag(GraphBuilder& b, const ir::Node& n) {
  const auto x = tensor_arg(n, "self");
  const std::int64_t d = int_arg(n, "diagonal");
  if (b.rank(x) == 2) return Values{flat_diagonal(b, x, d)};
  if (b.rank(x) != 1) throw FormatError(n.describe() + ": diag expects a 1-D or 2-D tensor");
  const std::int64_t len = b.static_dim(x, 0, "diag");
  const std::int64_t k = d < 0 ? -d : d;
  const std::int64_t m = len + k;
  // Pad the vector to m, then out[r][c] = (c - r == d) ? padded[d >= 0 ? r : c] : 0.
  std::string padded = x;
  if (k > 0) padded = b.cat({x, b.full({k}, 0.0, b.dtype(x))}, 0);
  const auto rows = b.unsqueeze(b.arange(0, static_cast<double>(m), 1, DType::Int64), 1);
  const auto cols = b.arange(0, static_cast<double>(m), 1, DType::Int64);
  const auto mask = b.compare("eq", b.sub(tv(cols), tv(rows)), static_cast<std::int64_t>(d));
  const auto values = d >= 0 ? b.unsqueeze(padded, 1) : padded;
  const auto zero = b.full({}, 0.0, b.dtype(x));
  return Values{b.where(mask, values, zero)};
}

Values trace(GraphBuilder& b, const ir::Node& n) {
  const auto x = tensor_arg(n, "self");
  if (b.rank(x) != 2) throw FormatError(n.describe() + ": trace expects a 2-D tensor");
  return Values{b.sum(flat_diagonal(b, x, 0), {0}, false)};
}

const DecompositionGroup registered{"linear_algebra", {
  {"aten.addmm.default", addmm},
  {"aten.linear.default", linear, {.validator = linear_fits}},
  {"aten.mv.default", mv, {.validator = matvec_fits}},
  {"aten.addmv.default", addmv, {.validator = matvec_fits}},
  {"aten.dot.default", dot},
  {"aten.baddbmm.default", baddbmm},
  {"aten.addbmm.default", addbmm},
  {"aten.diag.default", diag},
  {"aten.trace.default", trace},
}};

}  // namespace
}  // namespace atenrt::lowering::decomp
