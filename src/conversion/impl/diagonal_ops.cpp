#include "conversion/impl/diagonal_ops.h"

#include <algorithm>

#include "conversion/host_tensor.h"
#include "conversion/impl/slice.h"

namespace atenrt::conversion::impl::diagonal_ops {

using network::ElementwiseOp;

std::optional<std::string> rot90_problem(const std::vector<std::int64_t>& dims, std::int64_t rank) {
  if (dims.size() != 2) return "rot90 takes exactly two dims";
  if (rank >= 0 && rank < 2) return "rot90 needs a tensor of at least 2 dims";
  if (rank >= 0) {
    if (auto why = dims_problem(dims, rank)) return why;
    if (normalize_dim(dims[0], rank) == normalize_dim(dims[1], rank)) return "rot90's dims must differ";
  }
  return std::nullopt;
}

NetworkTensor* rot90(const Scope& s, NetworkTensor* x, std::int64_t k, const std::vector<std::int64_t>& dims) {
  if (auto why = rot90_problem(dims, x->rank())) check(false, *why);
  const auto d0 = normalize_dim(dims[0], x->rank()), d1 = normalize_dim(dims[1], x->rank());
  Dims swap;
  for (std::int64_t a = 0; a < x->rank(); ++a) swap.push_back(a == d0 ? d1 : a == d1 ? d0 : a);
  switch (((k % 4) + 4) % 4) {
    case 1: return s.add_permute("", slice::flip(s.child("flip"), x, {d1}), swap);
    case 2: return slice::flip(s, x, {d0, d1});
    case 3: return s.add_permute("", slice::flip(s.child("flip"), x, {d0}), swap);
    default: return identity(s, x);
  }
}

std::optional<std::string> diagonal_dims_problem(std::int64_t dim1, std::int64_t dim2, std::int64_t rank) {
  if (rank < 0) return std::nullopt;
  if (rank < 2) return "a diagonal needs at least 2 dims";
  if (auto why = dims_problem({dim1, dim2}, rank)) return why;
  if (normalize_dim(dim1, rank) == normalize_dim(dim2, rank)) return "diagonal dims must differ";
  return std::nullopt;
}

namespace {

// [rows, cols] bool constant: true where col - row == offset.
NetworkTensor* diagonal_mask(const Scope& s, std::int64_t rows, std::int64_t cols, std::int64_t offset) {
  std::vector<std::int64_t> v(static_cast<std::size_t>(rows * cols));
  for (std::int64_t i = 0; i < rows; ++i) {
    for (std::int64_t j = 0; j < cols; ++j) v[static_cast<std::size_t>(i * cols + j)] = j - i == offset;
  }
  return cast(s, s.add_constant("mask", int64_tensor({rows, cols}, v)), DType::Bool);
}

// v [..., len] padded with zeros (or cut) to [..., want] along its last dim.
NetworkTensor* fit_last(const Scope& s, NetworkTensor* v, std::int64_t want) {
  const auto len = v->dims.back();
  if (len == want) return v;
  network::PaddingParams p;
  p.pre.assign(v->dims.size(), 0);
  p.post.assign(v->dims.size(), 0);
  p.post.back() = want - len;
  return s.add_padding("fit", v, p);
}

// diag [..., len] placed on the offset diagonal of [..., rows, cols] (zeros elsewhere where
// `base` is null, base's values there otherwise; base is [..., rows, cols]).
NetworkTensor* place_diagonal(const Scope& s, NetworkTensor* diag, std::int64_t rows, std::int64_t cols,
                              std::int64_t offset, NetworkTensor* base) {
  // Row i holds diag[i] (offset >= 0) / column j holds diag[j] (offset < 0) on the diagonal.
  const bool by_row = offset >= 0;
  auto* line = fit_last(s, diag, by_row ? rows : cols);
  Dims full = line->dims;
  full.pop_back();
  full.push_back(rows);
  full.push_back(cols);
  auto* spread = expand(s, unsqueeze(s.child("line"), line, by_row ? -1 : -2), full);
  auto* other = base ? base : fill(s, full, 0.0, diag->dtype);
  return s.add_select("place", diagonal_mask(s, rows, cols, offset), spread, other);
}

}  // namespace

NetworkTensor* diag_embed(const Scope& s, NetworkTensor* x, std::int64_t offset, std::int64_t dim1, std::int64_t dim2) {
  const std::int64_t out_rank = x->rank() + 1;
  if (auto why = diagonal_dims_problem(dim1, dim2, out_rank)) check(false, *why);
  check(x->rank() >= 1, "diag_embed needs at least 1 dim");
  const auto n = x->dims.back();
  check(n >= 0, "diag_embed needs a static last dim");
  const std::int64_t m = n + (offset < 0 ? -offset : offset);
  auto* placed = place_diagonal(s, x, m, m, offset, nullptr);  // [batch..., m (dim1), m (dim2)]
  // Batch dims in order around dim1 and dim2.
  const auto d1 = normalize_dim(dim1, out_rank), d2 = normalize_dim(dim2, out_rank);
  Dims perm;
  std::int64_t batch = 0;
  for (std::int64_t a = 0; a < out_rank; ++a) perm.push_back(a == d1 ? out_rank - 2 : a == d2 ? out_rank - 1 : batch++);
  return s.add_permute("", placed, perm);
}

NetworkTensor* diagonal_scatter(const Scope& s, NetworkTensor* x, NetworkTensor* src, std::int64_t offset,
                                std::int64_t dim1, std::int64_t dim2) {
  if (auto why = diagonal_dims_problem(dim1, dim2, x->rank())) check(false, *why);
  const auto r = x->rank();
  const auto d1 = normalize_dim(dim1, r), d2 = normalize_dim(dim2, r);
  const auto rows = x->dims[static_cast<std::size_t>(d1)], cols = x->dims[static_cast<std::size_t>(d2)];
  check(rows >= 0 && cols >= 0, "diagonal_scatter needs static sizes on the diagonal's dims");
  // x as [batch..., rows, cols], the diagonal placed, and back.
  Dims to;
  for (std::int64_t a = 0; a < r; ++a) {
    if (a != d1 && a != d2) to.push_back(a);
  }
  to.push_back(d1);
  to.push_back(d2);
  Dims back(static_cast<std::size_t>(r));
  for (std::size_t i = 0; i < to.size(); ++i) back[static_cast<std::size_t>(to[i])] = static_cast<std::int64_t>(i);
  auto* base = s.add_permute("self", x, to);
  auto* placed = place_diagonal(s, cast(s, src, x->dtype), rows, cols, offset, base);
  return s.add_permute("", placed, back);
}

NetworkTensor* block_diag(const Scope& s, const std::vector<NetworkTensor*>& blocks) {
  check(!blocks.empty(), "block_diag of no tensors");
  DType dt = blocks[0]->dtype;
  for (auto* b : blocks) dt = promote_types(dt, b->dtype);
  std::vector<NetworkTensor*> mats;
  std::int64_t total_cols = 0;
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    auto* b = blocks[i];
    check(b->rank() <= 2, "block_diag takes tensors of at most 2 dims");
    const Scope part = s.child(std::to_string(i));
    static_dims(b, "block_diag");
    if (b->rank() == 0) b = reshape(part, b, {1, 1});
    if (b->rank() == 1) b = reshape(part, b, {1, b->dims[0]});
    mats.push_back(cast(part, b, dt));
    total_cols += b->dims[1];
  }
  std::vector<NetworkTensor*> rows;
  std::int64_t before = 0;
  for (std::size_t i = 0; i < mats.size(); ++i) {
    auto* b = mats[i];
    const auto r = b->dims[0], c = b->dims[1];
    if (r > 0) {
      network::PaddingParams p;
      p.pre = {0, before};
      p.post = {0, total_cols - before - c};
      rows.push_back(s.child(std::to_string(i)).add_padding("pad", b, p));
    }
    before += c;
  }
  if (rows.empty()) return fill(s, {0, total_cols}, 0.0, dt);
  return rows.size() == 1 ? identity(s, rows[0]) : concat(s, rows, 0);
}

}  // namespace atenrt::conversion::impl::diagonal_ops
