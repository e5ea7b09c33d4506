// Which ATen operators the libtorch fallback may run. A .pt2 or .atrt file is
// untrusted and the fallback would run any operator it names, so only pure
// tensor operators run there. This is the name-based half of the rule, shared
// by the core (compile, dry-run report, engine-file load) and the plugin; the
// plugin adds the schema-based half (no argument the op writes to, no
// Generator, only Tensor or Tensor[] returns) when it resolves the operator.
// Header-only: the plugin links nothing of the core.
#pragma once

#include <array>
#include <string>
#include <string_view>

namespace atenrt::torch_policy {

// Empty when `op` ("aten::eye") with `overload` ("" or "m") may run in the
// fallback; otherwise why not, for the report and errors.
inline std::string refusal(std::string_view op, std::string_view overload) {
  constexpr std::string_view kAten = "aten::";
  if (op.substr(0, kAten.size()) != kAten) {
    return "only aten operators run in the fallback";
  }
  const std::string_view name = op.substr(kAten.size());
  if (name.empty()) return "no operator name";
  // Python's operator names (`__lshift__`, `__or__`) end in '_' but are pure;
  // their in-place forms are the `__i<op>__` spellings.
  const bool dunder = name.size() > 4 && name.substr(0, 2) == "__" && name.substr(name.size() - 2) == "__";
  static constexpr std::array<std::string_view, 10> kInPlaceDunders = {
      "__iadd__", "__isub__", "__imul__", "__idiv__", "__itruediv__",
      "__iand__", "__ior__",  "__ixor__", "__ilshift__", "__irshift__"};
  bool in_place = dunder ? false : name.back() == '_';
  for (auto d : kInPlaceDunders) in_place = in_place || name == d;
  if (in_place) return "in-place operators write to their inputs";
  if (overload == "out" || (overload.size() > 4 && overload.substr(overload.size() - 4) == "_out")) {
    return "out= overloads write to their arguments";
  }
  // Files, printing, storage and global state, raw or uninitialized memory,
  // caller-controlled strides, random state.
  static constexpr std::array<std::string_view, 62> kRefused = {
      "from_file", "save", "load", "_print", "print", "set_", "set", "storage_offset",
      "_storage", "as_strided", "as_strided_scatter", "_reshape_alias_copy", "resize", "resize_as",
      "empty", "empty_like", "empty_strided", "new_empty", "new_empty_strided",
      "_empty_affine_quantized", "_empty_per_channel_affine_quantized", "item", "_local_scalar_dense",
      "seed", "manual_seed", "initial_seed", "get_rng_state", "set_rng_state",
      "set_num_threads", "set_num_interop_threads", "_assert_async", "_pin_memory", "pin_memory",
      "record_stream", "bernoulli", "rand", "rand_like", "randn", "randn_like", "randint",
      "randint_like", "randperm", "normal", "multinomial", "uniform", "exponential",
      "geometric", "cauchy", "log_normal", "poisson", "binomial", "_standard_gamma",
      "_sample_dirichlet", "dropout", "native_dropout", "feature_dropout", "alpha_dropout",
      "feature_alpha_dropout", "_fused_dropout", "rrelu", "rrelu_with_noise", "_copy_from"};
  for (auto r : kRefused) {
    if (name == r) return "not a pure tensor operator (files, memory, storage, threads or random state)";
  }
  static constexpr std::array<std::string_view, 9> kRefusedPrefixes = {
      "_foreach", "_fused", "cudnn", "miopen", "_cudnn", "_nested", "_sparse", "sparse_", "_mps"};
  for (auto p : kRefusedPrefixes) {
    if (name.substr(0, p.size()) == p) return "operators of the '" + std::string(p) + "' family do not run in the fallback";
  }
  return {};
}

}  // namespace atenrt::torch_policy
