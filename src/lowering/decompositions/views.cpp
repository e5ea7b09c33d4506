// View-like composites → permute/view/expand (the view ops converters take).
#include <numeric>

#include "lowering/decompositions/common.h"

namespace atenrt::lowering::decomp {
namespace {

std::string swap_dims(GraphBuilder& b, const std::string& x, std::int64_t d0, std::int64_t d1) {
  const int r = b.rank(x);
  if (r < 2 || d0 == d1) return x;  // a no-op transpose
  std::vector<std::int64_t> perm(static_cast<std::size_t>(r));
  std::iota(perm.begin(), perm.end(), 0);
  std::swap(perm[static_cast<std::size_t>(d0)], perm[static_cast<std::size_t>(d1)]);
  return b.permute(x, perm);
}

const DecompositionGroup registered{"views", {
  {"aten.t.default", [](GraphBuilder& b, const ir::Node& n) {
    const auto x = tensor_arg(n, "self");
    if (b.rank(x) > 2) throw FormatError(n.describe() + ": t expects at most 2 dims");
    return Values{swap_dims(b, x, 0, 1)};
  }},
  {"aten.transpose.int", [](GraphBuilder& b, const ir::Node& n) {
    const auto x = tensor_arg(n, "self");
    const int r = b.rank(x);
    return Values{swap_dims(b, x, normalize_dim(int_arg(n, "dim0"), r, n.describe()),
                            normalize_dim(int_arg(n, "dim1"), r, n.describe()))};
  }},
  {"aten.flatten.using_ints", [](GraphBuilder& b, const ir::Node& n) {
    const auto x = tensor_arg(n, "self");
    const auto s = b.static_sizes(x, "flatten");
    if (s.empty()) return Values{b.view(x, {1})};
    const auto start = normalize_dim(int_arg(n, "start_dim"), b.rank(x), n.describe());
    const auto end = normalize_dim(int_arg(n, "end_dim"), b.rank(x), n.describe());
    if (start > end) throw FormatError(n.describe() + ": start_dim is after end_dim");
    if (start == end) return Values{x};
    std::vector<std::int64_t> out(s.begin(), s.begin() + start);
    std::int64_t merged = 1;
    for (auto i = start; i <= end; ++i) merged *= s[static_cast<std::size_t>(i)];
    out.push_back(merged);
    out.insert(out.end(), s.begin() + end + 1, s.end());
    return Values{b.view(x, out)};
  }},
  {"aten.unflatten.int", [](GraphBuilder& b, const ir::Node& n) {
    const auto x = tensor_arg(n, "self");
    auto s = b.static_sizes(x, "unflatten");
    const auto d = normalize_dim(int_arg(n, "dim"), b.rank(x), n.describe());
    auto sizes = int_list_arg(n, "sizes");
    std::int64_t known = 1;
    int infer = -1;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      if (sizes[i] == -1) infer = static_cast<int>(i);
      else known *= sizes[i];
    }
    if (infer >= 0 && known != 0) sizes[static_cast<std::size_t>(infer)] = s[static_cast<std::size_t>(d)] / known;
    std::vector<std::int64_t> out(s.begin(), s.begin() + d);
    out.insert(out.end(), sizes.begin(), sizes.end());
    out.insert(out.end(), s.begin() + d + 1, s.end());
    return Values{b.view(x, out)};
  }},
  {"aten.expand_as.default", [](GraphBuilder& b, const ir::Node& n) {
    return Values{b.expand(tensor_arg(n, "self"), b.static_sizes(tensor_arg(n, "other"), "expand_as"))};
  }},
  {"aten.view_as.default", [](GraphBuilder& b, const ir::Node& n) {
    return Values{b.view(tensor_arg(n, "self"), b.static_sizes(tensor_arg(n, "other"), "view_as"))};
  }},
  {"aten.reshape_as.default", [](GraphBuilder& b, const ir::Node& n) {
    return Values{b.reshape(tensor_arg(n, "self"), b.static_sizes(tensor_arg(n, "other"), "reshape_as"))};
  }},
  {"aten.type_as.default", [](GraphBuilder& b, const ir::Node& n) {
    const auto x = tensor_arg(n, "self");
    const DType want = b.dtype(tensor_arg(n, "other"));
    return Values{b.dtype(x) == want ? x : b.cast(x, want)};
  }},
}};

}  // namespace
}  // namespace atenrt::lowering::decomp
