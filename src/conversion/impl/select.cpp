#include "conversion/impl/select.h"

#include <algorithm>

#include "conversion/host_tensor.h"
#include "conversion/impl/index_ops.h"
#include "conversion/impl/shape.h"

namespace atenrt::conversion::impl::select {

using network::ElementwiseOp;
using network::GatherMode;

std::optional<std::string> select_index_problem(std::int64_t index, std::int64_t n) {
  if (index < 0 && n >= 0) index += n;
  if (index >= 0 && (n < 0 || index < n)) return std::nullopt;
  return "select index " + std::to_string(index) + " out of range for dim of size " + std::to_string(n);
}

std::optional<std::string> index_rank_problem(std::int64_t index_rank, std::string_view op) {
  if (index_rank <= 1) return std::nullopt;
  return std::string(op) + " index must be 0-d or 1-d, got " + std::to_string(index_rank) + " dims";
}

std::optional<std::string> index_count_problem(std::size_t indices, std::int64_t rank) {
  if (rank < 0 || indices <= static_cast<std::size_t>(rank)) return std::nullopt;
  return std::to_string(indices) + " indices for a tensor of rank " + std::to_string(rank);
}

NetworkTensor* select(const Scope& s, NetworkTensor* x, std::int64_t dim, std::int64_t index) {
  check(x->rank() > 0, kSelectOf0d);
  const auto d = normalize_dim(dim, x->rank());
  const auto n = x->dims[static_cast<std::size_t>(d)];
  if (auto why = select_index_problem(index, n)) check(false, *why);
  if (index < 0 && n >= 0) index += n;
  auto* idx = s.constant(scalar_tensor_int(DType::Int64, index), "index");
  // A 0-d index drops the dim.
  return s.add_gather("", x, idx, GatherMode::Axis, d);
}

NetworkTensor* index_select(const Scope& s, NetworkTensor* x, std::int64_t dim, NetworkTensor* index) {
  if (auto why = index_rank_problem(index->rank(), "index_select")) check(false, *why);
  if (x->rank() == 0) return identity(s, x);
  const auto d = normalize_dim(dim, x->rank());
  if (index->rank() == 0) index = reshape(s, index, {1});
  return s.add_gather("", x, index, GatherMode::Axis, d);
}

namespace {
// gather/scatter take indices of int64 (torch lets an empty index have any integer dtype).
NetworkTensor* index_tensor(const Scope& s, NetworkTensor* index) {
  return index->dtype == DType::Int64 || index->dtype == DType::Int32 ? index : cast(s.child("index"), index, DType::Int64);
}
// torch treats a 0-d self, index or src of gather/scatter as 1-d with one element.
NetworkTensor* as_1d(const Scope& s, NetworkTensor* x, const char* what) {
  return x->rank() == 0 ? reshape(s.child(what), x, {1}) : x;
}
}  // namespace

NetworkTensor* gather(const Scope& s, NetworkTensor* x, std::int64_t dim, NetworkTensor* index) {
  index = index_tensor(s, index);
  if (x->rank() != 0) return s.add_gather("", x, index, GatherMode::Elements, normalize_dim(dim, x->rank()));
  // The result has the index's shape (0-d or one element).
  normalize_dim(dim, 0);
  auto* y = s.add_gather("gather", as_1d(s, x, "self"), as_1d(s, index, "index"), GatherMode::Elements, 0);
  return reshape(s, y, index->dims);
}

NetworkTensor* scatter(const Scope& s, NetworkTensor* x, std::int64_t dim,
                       NetworkTensor* index, const Operand& updates, network::ScatterReduce reduce) {
  const bool scalar_self = x->rank() == 0;
  auto* self = as_1d(s, x, "self");
  const auto d = normalize_dim(dim, self->rank());
  index = index_tensor(s, self->rank() == index->rank() ? index : as_1d(s, index, "index"));
  NetworkTensor* upd;
  if (updates.is_scalar()) {
    upd = expand(s, scalar_constant(s, *updates.scalar, x->dtype), index->dims);
  } else {
    upd = cast(s, as_1d(s, updates.tensor, "src"), x->dtype);
    if (upd->dims != index->dims) {
      // torch uses only the leading index-shaped block of src.
      Dims starts(index->dims.size(), 0), steps(index->dims.size(), 1), axes;
      for (std::size_t k = 0; k < index->dims.size(); ++k) axes.push_back(static_cast<std::int64_t>(k));
      upd = s.add_slice("src", upd, axes, starts, index->dims, steps);
    }
  }
  if (!scalar_self) return s.add_scatter("", x, index, upd, d, reduce);
  return reshape(s, s.add_scatter("scatter", self, index, upd, d, reduce), {});
}

NetworkTensor* where(const Scope& s, NetworkTensor* cond, const Operand& a, const Operand& b) {
  const DType dt = result_type(a, b);
  cond = cast(s, cond, DType::Bool);
  return s.add_select("", cond, as_tensor(s, a, dt), as_tensor(s, b, dt));
}

NetworkTensor* masked_fill(const Scope& s, NetworkTensor* x, NetworkTensor* mask, const Operand& value) {
  auto* v = as_tensor(s, value, x->dtype);
  return s.add_select("", cast(s, mask, DType::Bool), v, x);
}

NetworkTensor* nonzero(const Scope& s, NetworkTensor* x) {
  network::DataDependentParams p;
  p.op = network::DataDependentOp::NonZero;
  return s.add_layer("", {x}, p)->outputs[0];
}

std::vector<NetworkTensor*> unique(const Scope& s, NetworkTensor* x, const UniqueOptions& o) {
  network::DataDependentParams p;
  p.op = o.consecutive ? network::DataDependentOp::UniqueConsecutive : network::DataDependentOp::Unique;
  p.sorted = o.sorted || o.dim.has_value();
  p.return_inverse = o.inverse;
  p.return_counts = o.counts;
  p.has_axis = o.dim.has_value();
  p.axis = o.dim.value_or(0);
  return s.add_layer("", {x}, p)->outputs;
}

NetworkTensor* bincount(const Scope& s, NetworkTensor* x, NetworkTensor* weights, std::int64_t minlength) {
  network::DataDependentParams p;
  p.op = network::DataDependentOp::BinCount;
  p.minlength = minlength;
  std::vector<NetworkTensor*> ins{x};
  if (weights) ins.push_back(weights);
  return s.add_layer("", std::move(ins), p)->outputs[0];
}

NetworkTensor* repeat_interleave(const Scope& s, NetworkTensor* repeats) {
  network::DataDependentParams p;
  p.op = network::DataDependentOp::RepeatInterleave;
  return s.add_layer("", {repeats}, p)->outputs[0];
}

namespace {

// Advanced indexing brought to one gather/scatter along axis 0:
// x permuted so the indexed dims come first, those dims flattened into one
// of size M, and one int64 linear index L (broadcast shape B) into it.
struct Linearized {
  NetworkTensor* data = nullptr;   // [M, rest...]
  NetworkTensor* linear = nullptr; // B
  Dims perm;                       // applied to x
  Dims permuted_dims;              // x's dims after perm
  std::size_t indexed = 0;         // number of indexed dims
  std::int64_t first = 0;          // position of the first index
  bool adjacent = true;            // indexed dims are consecutive
};

Linearized linearize(const Scope& s, NetworkTensor* x, const std::vector<NetworkTensor*>& indices) {
  if (auto why = index_count_problem(indices.size(), x->rank())) check(false, *why);
  const Dims& xd = static_dims(x, "advanced indexing");
  Linearized r;
  std::vector<std::int64_t> pos;
  for (std::size_t k = 0; k < indices.size(); ++k) {
    if (!indices[k]) continue;
    check(indices[k]->dtype != DType::Bool && indices[k]->dtype != DType::UInt8,
          "boolean mask indices give a data-dependent shape; not supported");
    pos.push_back(static_cast<std::int64_t>(k));
  }
  check(!pos.empty(), "indexing with no index tensor");
  for (std::size_t i = 1; i < pos.size(); ++i) r.adjacent = r.adjacent && pos[i] == pos[i - 1] + 1;
  r.first = pos[0];
  r.indexed = pos.size();
  r.perm = pos;
  for (std::int64_t k = 0; k < x->rank(); ++k) {
    if (std::find(pos.begin(), pos.end(), k) == pos.end()) r.perm.push_back(k);
  }
  for (auto p : r.perm) r.permuted_dims.push_back(xd[static_cast<std::size_t>(p)]);
  auto* px = permute(s, x, r.perm);
  std::int64_t m = 1;
  for (std::size_t i = 0; i < pos.size(); ++i) m *= r.permuted_dims[i];
  Dims flat{m};
  flat.insert(flat.end(), r.permuted_dims.begin() + static_cast<std::ptrdiff_t>(pos.size()), r.permuted_dims.end());
  r.data = reshape(s, px, flat);
  // L = sum_k normalize(I_k) * stride_k
  std::int64_t stride = 1;
  for (auto i = static_cast<std::int64_t>(pos.size()) - 1; i >= 0; --i) {
    const auto size = r.permuted_dims[static_cast<std::size_t>(i)];
    auto* idx = cast(s, indices[static_cast<std::size_t>(pos[static_cast<std::size_t>(i)])], DType::Int64);
    // Negative indices count from the end.
    auto* neg = ew_scalar(s, idx, 0.0, ElementwiseOp::Less);
    idx = s.add_select("wrap", neg, ew_scalar(s, idx, static_cast<double>(size), ElementwiseOp::Add), idx);
    if (stride != 1) idx = ew_scalar(s, idx, static_cast<double>(stride), ElementwiseOp::Mul);
    r.linear = r.linear ? ew(s, r.linear, idx, ElementwiseOp::Add) : idx;
    stride *= size;
  }
  return r;
}

}  // namespace

std::vector<NetworkTensor*> nonzero_columns(const Scope& s, NetworkTensor* x) {
  auto* nz = nonzero(s, x);
  std::vector<NetworkTensor*> out;
  for (std::int64_t j = 0; j < x->rank(); ++j) {
    out.push_back(s.add_gather("dim" + std::to_string(j), nz, scalar_constant(s, static_cast<double>(j), DType::Int64),
                               GatherMode::Axis, 1));
  }
  return out;
}

namespace {

// torch turns a bool (or uint8) mask index into the mask's nonzero columns,
// one int64 index per dim it covers; their length is known when they run.
std::vector<NetworkTensor*> masks_to_indices(const Scope& s, NetworkTensor* x, const std::vector<NetworkTensor*>& indices) {
  std::vector<NetworkTensor*> out;
  for (auto* idx : indices) {
    if (!idx || (idx->dtype != DType::Bool && idx->dtype != DType::UInt8)) {
      out.push_back(idx);
      continue;
    }
    if (auto why = mask_index_problem(x->dims, out.size(), idx->dims)) check(false, *why);
    for (auto* column : nonzero_columns(s, idx)) out.push_back(column);
  }
  return out;
}

}  // namespace

std::optional<std::string> mask_index_problem(const Dims& self, std::size_t at, const Dims& mask) {
  if (mask.empty()) return "a 0-d boolean mask index is not supported";
  if (at + mask.size() > self.size()) {
    return "a boolean mask index of " + std::to_string(mask.size()) + " dims at dim " + std::to_string(at) +
           " goes past self's " + std::to_string(self.size()) + " dims";
  }
  for (std::size_t d = 0; d < mask.size(); ++d) {
    if (mask[d] >= 0 && self[at + d] >= 0 && mask[d] != self[at + d]) {
      return "the boolean mask " + shape_to_string(mask) + " does not match self's dims " + shape_to_string(self) +
             " at dim " + std::to_string(at + d);
    }
  }
  return std::nullopt;
}

NetworkTensor* index(const Scope& s, NetworkTensor* x, const std::vector<NetworkTensor*>& indices) {
  Linearized r = linearize(s, x, masks_to_indices(s, x, indices));
  const std::size_t nb = static_cast<std::size_t>(r.linear->rank());
  auto* y = s.add_gather("gather", r.data, r.linear, GatherMode::Axis, 0);
  // y is B + rest; torch puts B where the (adjacent) indices were.
  if (r.adjacent && r.first > 0) {
    Dims perm;
    const auto before = static_cast<std::size_t>(r.first);
    for (std::size_t i = 0; i < before; ++i) perm.push_back(static_cast<std::int64_t>(nb + i));
    for (std::size_t i = 0; i < nb; ++i) perm.push_back(static_cast<std::int64_t>(i));
    for (auto i = nb + before; i < static_cast<std::size_t>(y->rank()); ++i) perm.push_back(static_cast<std::int64_t>(i));
    return s.add_permute("", y, perm);
  }
  return identity(s, y);
}

NetworkTensor* masked_select(const Scope& s, NetworkTensor* x, NetworkTensor* mask) {
  const auto dims = network::broadcast_dims(static_dims(x, "masked_select self"), static_dims(mask, "masked_select mask"));
  check(dims.has_value(), "masked_select: self " + shape_to_string(x->dims) + " and mask " + shape_to_string(mask->dims) +
                              " do not broadcast");
  check(!dims->empty(), "masked_select of 0-d tensors is not supported");
  return index(s, expand(s, x, *dims), {expand(s, cast(s, mask, DType::Bool), *dims)});
}

std::optional<std::string> mask_put_problem(const Dims& self, const Dims& mask, std::size_t at, const Dims& values) {
  if (auto why = mask_index_problem(self, at, mask)) return why;
  for (auto d : self) {
    if (d < 0) return "index_put with a boolean mask needs self's dims known, got " + shape_to_string(self);
  }
  for (auto d : mask) {
    if (d < 0) return "index_put with a boolean mask needs the mask's dims known, got " + shape_to_string(mask);
  }
  // values broadcast to x[mask]'s shape: self's dims before the mask, the
  // mask's true count (one row per masked element, or 1), self's dims after.
  const std::size_t trailing = self.size() - at - mask.size();
  if (values.size() > at + 1 + trailing) {
    return "index_put with a boolean mask: values " + shape_to_string(values) + " have more dims than the indexing result (" +
           std::to_string(at + 1 + trailing) + ")";
  }
  const std::size_t lead = at + 1 + trailing - values.size();
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::size_t k = lead + i;
    if (k == at) continue;  // the rows: any count, checked when the engine runs
    const std::int64_t want = k < at ? self[k] : self[k - 1 + mask.size()];
    if (values[i] != 1 && values[i] != want) {
      return "index_put with a boolean mask: dim " + std::to_string(i) + " of values " + shape_to_string(values) +
             " does not broadcast to self's " + std::to_string(want);
    }
  }
  return std::nullopt;
}

namespace {

// x[mask] = values (or +=) where values do not depend on the number of masked
// elements: a select under the mask, whose output shape is x's.
NetworkTensor* masked_put(const Scope& s, NetworkTensor* x, std::size_t at, NetworkTensor* mask, NetworkTensor* values,
                          bool accumulate) {
  const std::size_t trailing = x->dims.size() - at - mask->dims.size();
  Dims mask_dims(at, 1);
  mask_dims.insert(mask_dims.end(), mask->dims.begin(), mask->dims.end());
  mask_dims.resize(x->dims.size(), 1);
  auto* m = reshape(s.child("mask"), cast(s, mask, DType::Bool), mask_dims);
  auto* v = cast(s, values, x->dtype);
  if (values->dims.size() > trailing) {
    // The dim that would be one per masked element is 1: it stands for the mask's dims.
    const std::size_t row = values->dims.size() - trailing - 1;
    Dims d(values->dims.begin(), values->dims.begin() + static_cast<std::ptrdiff_t>(row));
    d.insert(d.end(), mask->dims.size(), 1);
    d.insert(d.end(), values->dims.begin() + static_cast<std::ptrdiff_t>(row) + 1, values->dims.end());
    v = reshape(s.child("values"), v, d);
  }
  if (!accumulate) return s.add_select("", m, v, x);
  auto* zero = scalar_constant(s, 0.0, x->dtype);
  return ew(s, x, s.add_select("masked", m, v, zero), ElementwiseOp::Add);
}

// x[mask] = values (or +=) where values hold one row per masked element
// (their dim `row`, stood where the mask's dims were; its size may be known
// only when the engine runs): the k-th true position, in x's order, takes
// the k-th element of values broadcast to x[mask]'s shape, as masked_scatter
// does. A check stops a run whose rows differ from the mask's true count.
NetworkTensor* masked_rows_put(const Scope& s, NetworkTensor* x, std::size_t at, NetworkTensor* mask, NetworkTensor* values,
                               std::size_t row, bool accumulate) {
  const Dims& dims = x->dims;
  const std::size_t trailing = dims.size() - at - mask->dims.size();
  const std::int64_t n = numel(dims);
  {
    auto* count = s.add_reduce("count", cast(s.child("count"), mask, DType::Int64), network::ReduceOp::Sum,
                               [&] {
                                 Dims all;
                                 for (std::int64_t d = 0; d < mask->rank(); ++d) all.push_back(d);
                                 return all;
                               }(),
                               false);
    auto* rows = s.add_gather("rows", s.add_shape("values_shape", values),
                              scalar_constant(s, static_cast<double>(row), DType::Int64), GatherMode::Axis, 0);
    s.add_layer("check", {ew(s.child("check"), count, rows, ElementwiseOp::Equal)},
                network::CheckParams{s.where() + ": index_put with a boolean mask: values " + shape_to_string(values->dims) +
                                     " hold one row per masked element (dim " + std::to_string(row) +
                                     "), and their count differs from the mask's true elements in this run"});
  }
  if (n == 0) return x;
  // values as x[mask]'s shape (self's dims before the mask, the rows, self's
  // dims after), then flat, behind one zero that unmasked positions take.
  Dims full(dims.begin(), dims.begin() + static_cast<std::ptrdiff_t>(at));
  full.push_back(values->dims[row]);
  full.insert(full.end(), dims.end() - static_cast<std::ptrdiff_t>(trailing), dims.end());
  auto* v = cast(s, values, x->dtype);
  Dims padded(full.size() - values->dims.size(), 1);
  padded.insert(padded.end(), values->dims.begin(), values->dims.end());
  if (padded != full) {
    Dims cond = full;
    cond[at] = 1;  // the rows stay values' own (select broadcasts them)
    v = s.add_select("broadcast", fill(s, cond, 1.0, DType::Bool), v, v);
  }
  auto* flat_values = s.add_concatenation("values", {scalar_constant(s, 0.0, x->dtype, 1), reshape(s.child("flat_values"), v, {-1})}, 0);
  Dims mask_dims(at, 1);
  mask_dims.insert(mask_dims.end(), mask->dims.begin(), mask->dims.end());
  mask_dims.resize(dims.size(), 1);
  auto* m = reshape(s.child("flat_mask"),
                    expand(s.child("mask_expanded"), reshape(s.child("mask"), cast(s, mask, DType::Bool), mask_dims), dims), {n});
  // Position p takes element (trues up to p) of flat_values when masked, the
  // zero otherwise; never past its end (a count the check refuses).
  auto* mi = cast(s.child("mask_int"), m, DType::Int64);
  auto* k = ew(s, s.add_cumulative("taken", mi, network::CumulativeOp::Sum, 0), mi, ElementwiseOp::Mul);
  auto* last = ew_scalar(s, s.add_gather("last", s.add_shape("flat_shape", flat_values), scalar_constant(s, 0.0, DType::Int64, 1),
                                         GatherMode::Axis, 0),
                         1.0, ElementwiseOp::Sub);
  k = ew(s.child("bounded"), k, last, ElementwiseOp::Min);
  auto* taken = s.add_gather("take", flat_values, k, GatherMode::Axis, 0);
  auto* flat_x = reshape(s.child("flat"), x, {n});
  NetworkTensor* y = accumulate ? ew(s, flat_x, s.add_select("masked", m, taken, scalar_constant(s, 0.0, x->dtype)), ElementwiseOp::Add)
                                : s.add_select("select", m, taken, flat_x);
  return s.add_reshape("", y, dims);
}

NetworkTensor* mask_put(const Scope& s, NetworkTensor* x, std::size_t at, NetworkTensor* mask, NetworkTensor* values,
                        bool accumulate) {
  if (auto why = mask_put_problem(x->dims, mask->dims, at, values->dims)) check(false, *why);
  const std::size_t trailing = x->dims.size() - at - mask->dims.size();
  if (values->dims.size() > trailing) {
    const std::size_t row = values->dims.size() - trailing - 1;
    if (values->dims[row] != 1) return masked_rows_put(s, x, at, mask, values, row, accumulate);
  }
  return masked_put(s, x, at, mask, values, accumulate);
}

}  // namespace

NetworkTensor* index_put(const Scope& s, NetworkTensor* x,
                         const std::vector<NetworkTensor*>& indices, NetworkTensor* values, bool accumulate) {
  if (auto why = index_ops::adds_bool_problem(x->dtype, accumulate)) check(false, *why);
  for (std::size_t k = 0; k < indices.size(); ++k) {
    auto* idx = indices[k];
    if (!idx || (idx->dtype != DType::Bool && idx->dtype != DType::UInt8)) continue;
    std::size_t others = 0;
    for (auto* t : indices) others += t && t != idx;
    check(others == 0, "index_put with a boolean mask and other index tensors is not supported");
    return mask_put(s, x, k, idx, values, accumulate);
  }
  Linearized r = linearize(s, x, indices);
  const Dims& b = static_dims(r.linear, "index_put indices");
  const Dims rest(r.permuted_dims.begin() + static_cast<std::ptrdiff_t>(r.indexed), r.permuted_dims.end());
  const std::size_t nb = b.size();
  // values broadcast to x[indices]'s shape, in gather order (B + rest).
  values = cast(s, values, x->dtype);
  Dims torch_shape;
  if (r.adjacent && r.first > 0) {
    const auto before = static_cast<std::size_t>(r.first);
    torch_shape.assign(rest.begin(), rest.begin() + static_cast<std::ptrdiff_t>(before));
    torch_shape.insert(torch_shape.end(), b.begin(), b.end());
    torch_shape.insert(torch_shape.end(), rest.begin() + static_cast<std::ptrdiff_t>(before), rest.end());
    values = expand(s, values, torch_shape);
    Dims perm;
    for (std::size_t i = 0; i < nb; ++i) perm.push_back(static_cast<std::int64_t>(before + i));
    for (std::size_t i = 0; i < before; ++i) perm.push_back(static_cast<std::int64_t>(i));
    for (auto i = before + nb; i < torch_shape.size(); ++i) perm.push_back(static_cast<std::int64_t>(i));
    values = permute(s, values, perm);
  } else {
    torch_shape = b;
    torch_shape.insert(torch_shape.end(), rest.begin(), rest.end());
    values = expand(s, values, torch_shape);
  }
  const std::int64_t n = numel(b);
  Dims upd_dims{n};
  upd_dims.insert(upd_dims.end(), rest.begin(), rest.end());
  values = reshape(s, values, upd_dims);
  Dims lin_dims(upd_dims.size(), 1);
  lin_dims[0] = n;
  auto* lin = expand(s, reshape(s, r.linear, lin_dims), upd_dims);
  auto* scattered = s.add_scatter("scatter", r.data, lin, values, 0,
                                          accumulate ? network::ScatterReduce::Add : network::ScatterReduce::None);
  auto* back = reshape(s, scattered, r.permuted_dims);
  Dims inverse(r.perm.size());
  for (std::size_t i = 0; i < r.perm.size(); ++i) inverse[static_cast<std::size_t>(r.perm[i])] = static_cast<std::int64_t>(i);
  auto* y = permute(s, back, inverse);
  return y == scattered ? identity(s, y) : y;
}

NetworkTensor* index_copy(const Scope& s, NetworkTensor* x,
                          std::int64_t dim, NetworkTensor* index, NetworkTensor* source) {
  // torch lets self, index and source be 0-d (a scalar source needs a one-element index): copy
  // through their 1-element views and give the result self's shape back.
  if (auto why = index_rank_problem(index->rank(), "index_copy")) check(false, *why);
  const bool scalar_self = x->rank() == 0;
  auto* self = scalar_self ? reshape(s.child("self"), x, {1}) : x;
  const auto d = normalize_dim(dim, self->rank());
  auto* idx_1d = index->rank() == 0 ? reshape(s.child("index"), index, {1}) : index;
  auto* src = source;
  if (src->rank() != self->rank()) {
    check(src->rank() == 0, "index_copy source must have self's number of dims, or be a scalar");
    src = reshape(s.child("source"), source, Dims(static_cast<std::size_t>(self->rank()), 1));
  }
  Dims shape(static_cast<std::size_t>(src->rank()), 1);
  shape[static_cast<std::size_t>(d)] = idx_1d->dims[0];
  auto* idx = expand(s, reshape(s, cast(s, idx_1d, DType::Int64), shape), src->dims);
  if (!scalar_self) return s.add_scatter("", x, idx, cast(s, src, x->dtype), d);
  auto* scattered = s.add_scatter("scatter", self, idx, cast(s, src, x->dtype), d);
  return reshape(s, scattered, {});
}

}  // namespace atenrt::conversion::impl::select
