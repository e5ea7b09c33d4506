// The range of shapes an input takes: per dim a static size, or a size
// symbol ("s0") with its min, opt and max. Dynamic engines (builder room)
// and hybrid programs check what a run gets against it, and engine files of
// both store it.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "atenrt/tensor.h"
#include "runtime/serialize_fields.h"

namespace atenrt::runtime {

// Sizes are at most 2^40 (the engine-file readers' bound). A dim whose max
// is this has no upper bound: a size a torch segment computes from data
// (nonzero's row count) before an engine segment reads it.
inline constexpr std::int64_t kMaxRangeDim = std::int64_t{1} << 40;

// One dim: its range, and the size symbol it binds ("s0"; empty for a
// static dim). Dims with the same symbol must be equal at run time.
struct DimRange {
  std::int64_t min = 0, opt = 0, max = 0;
  std::string symbol;
  bool is_static() const { return symbol.empty(); }
  bool is_unbounded() const { return max >= kMaxRangeDim; }
};

struct InputRange {
  std::string name;
  DType dtype = DType::Float32;
  std::vector<DimRange> dims;
  Dims min() const;
  Dims opt() const;
  Dims max() const;
  std::string to_string() const;  // "x: float32[s0 in 1..8 (opt 4), 3, 224, 224]"
  // The dims a program holds for it: the static size, -1 where dynamic.
  Dims declared() const;
};

// InputError naming the input, the dim and the range when `dims` (one per
// range, in order) are not inside the ranges, or two dims of one symbol
// differ; otherwise each size symbol's value in these dims.
std::map<std::string, std::int64_t> check_input_dims(const std::vector<InputRange>& ranges,
                                                     const std::vector<Dims>& dims);

// The size symbols the ranges' dynamic dims bind.
std::set<std::string> size_symbols(const std::vector<InputRange>& ranges);

namespace file {
// Per input: string name, u8 dtype, u64 dim count, per dim: i64 min, opt,
// max, string symbol ("" for a static dim). The reader checks each range
// (0 <= min <= opt <= max <= 2^40, a static dim's min == max, symbols of at
// most 256 bytes), and their count against `inputs`; what else they must
// match is the caller's to check.
void write_input_ranges(Writer& w, const std::vector<InputRange>& ranges);
std::vector<InputRange> read_input_ranges(Reader& r, std::size_t inputs);
}  // namespace file

}  // namespace atenrt::runtime
