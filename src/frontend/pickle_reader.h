// A restricted unpickler for the data.pkl of torch.save weight files
// (pt2_format.md §2.1). It runs no code: the only globals it accepts are the
// ones torch uses for state dicts (OrderedDict, _rebuild_tensor_v2,
// _rebuild_parameter[_with_state], typed storage classes), and it evaluates
// their calls itself. Values live in a flat arena addressed by index, so a
// crafted pickle cannot build deep recursion or reference cycles that leak.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "atenrt/dtype.h"

namespace atenrt::frontend::pickle {

enum class Kind : std::uint8_t {
  None, Bool, Int, Float, String, Tuple, List, Dict, Global, Storage, Tensor
};

enum class GlobalId : std::uint8_t {
  OrderedDict, RebuildTensorV2, RebuildParameter, RebuildParameterWithState, StorageClass
};

struct Value {
  Kind kind = Kind::None;
  bool b = false;
  std::int64_t i = 0;
  double f = 0;
  std::string s;                    // String; Global "module.name"; Storage key
  std::vector<std::size_t> items;   // Tuple/List: elements; Dict: key, value, ... (in order,
                                    // a repeated key may appear twice: the later one wins)
  GlobalId global = GlobalId::OrderedDict;
  DType dtype = DType::Float32;     // StorageClass global, Storage, Tensor
  std::int64_t numel = 0;           // Storage: elements it holds
  std::size_t storage = 0;          // Tensor: index of its Storage value
  std::int64_t storage_offset = 0;  // Tensor, in elements
  std::vector<std::int64_t> sizes, strides;  // Tensor
};

struct Pickle {
  std::vector<Value> values;
  std::size_t root = 0;
  const Value& at(std::size_t i) const { return values[i]; }
};

struct Limits {
  std::size_t max_memo = 1u << 20;
  std::size_t max_values = 1u << 21;  // ~10 per tensor in a state dict
  // MARKs open at once: a state dict nests a handful; values are flat, so
  // this bounds the mark stack, not recursion.
  std::size_t max_mark_depth = 64;
};

// Runs the pickle; `where` prefixes every error ("model.pt2: .../data.pkl").
// Throws FormatError (malformed pickle, forbidden global) or UnsupportedError
// (a torch dtype atenrt cannot hold).
Pickle unpickle(const std::byte* data, std::size_t size, const std::string& where,
                const Limits& limits = {});

std::string kind_name(Kind kind);

}  // namespace atenrt::frontend::pickle
