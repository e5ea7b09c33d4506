#include "runtime/shape_range.h"

#include <map>
#include <sstream>

#include "atenrt/errors.h"

namespace atenrt::runtime {

Dims InputRange::min() const {
  Dims d;
  for (const auto& r : dims) d.push_back(r.min);
  return d;
}
Dims InputRange::opt() const {
  Dims d;
  for (const auto& r : dims) d.push_back(r.opt);
  return d;
}
Dims InputRange::max() const {
  Dims d;
  for (const auto& r : dims) d.push_back(r.max);
  return d;
}
Dims InputRange::declared() const {
  Dims d;
  for (const auto& r : dims) d.push_back(r.is_static() ? r.min : -1);
  return d;
}

std::string InputRange::to_string() const {
  std::ostringstream out;
  out << name << ": " << dtype_name(dtype) << "[";
  for (std::size_t i = 0; i < dims.size(); ++i) {
    const auto& r = dims[i];
    out << (i ? ", " : "");
    if (r.is_static()) {
      out << r.min;
    } else {
      out << r.symbol << " in " << r.min << ".." << (r.is_unbounded() ? std::string("inf") : std::to_string(r.max))
          << " (opt " << r.opt << ")";
    }
  }
  out << "]";
  return out.str();
}

std::set<std::string> size_symbols(const std::vector<InputRange>& ranges) {
  std::set<std::string> out;
  for (const auto& r : ranges) {
    for (const auto& d : r.dims) {
      if (!d.is_static()) out.insert(d.symbol);
    }
  }
  return out;
}

std::map<std::string, std::int64_t> check_input_dims(const std::vector<InputRange>& ranges,
                                                     const std::vector<Dims>& dims) {
  if (dims.size() != ranges.size()) {
    throw InputError("expected " + std::to_string(ranges.size()) + " inputs, got " + std::to_string(dims.size()));
  }
  std::map<std::string, std::int64_t> bound;  // symbol -> size
  std::map<std::string, std::string> first;  // symbol -> the dim that bound it
  for (std::size_t i = 0; i < dims.size(); ++i) {
    const InputRange& r = ranges[i];
    if (dims[i].size() != r.dims.size()) {
      throw InputError("input '" + r.name + "': expected " + std::to_string(r.dims.size()) + " dims (" + r.to_string() +
                       "), got " + shape_to_string(dims[i]));
    }
    for (std::size_t d = 0; d < r.dims.size(); ++d) {
      const DimRange& dr = r.dims[d];
      const std::int64_t v = dims[i][d];
      const std::string where = "input '" + r.name + "' dim " + std::to_string(d);
      if (dr.is_static()) {
        if (v != dr.min) {
          throw InputError(where + " is " + std::to_string(v) + ", the engine takes " + std::to_string(dr.min) +
                           " (" + r.to_string() + ")");
        }
        continue;
      }
      if (v < dr.min || v > dr.max) {
        throw InputError(where + " (" + dr.symbol + ") is " + std::to_string(v) + ", outside the engine's range [" +
                         std::to_string(dr.min) + ", " + std::to_string(dr.max) + "]");
      }
      auto [it, fresh] = bound.emplace(dr.symbol, v);
      if (fresh) first[dr.symbol] = where;
      if (!fresh && it->second != v) {
        throw InputError(where + " is " + std::to_string(v) + " but " + first[dr.symbol] + " is " +
                         std::to_string(it->second) + "; both are " + dr.symbol + " and must be equal");
      }
    }
  }
  return bound;
}

namespace file {

namespace {
constexpr std::size_t kMaxSymbolBytes = 256;
}

void write_input_ranges(Writer& w, const std::vector<InputRange>& ranges) {
  w.raw<std::uint64_t>(ranges.size());
  for (const auto& r : ranges) {
    w(r.name);
    w.e(r.dtype, kDTypeCount);
    w.raw<std::uint64_t>(r.dims.size());
    for (const auto& d : r.dims) {
      w(d.min);
      w(d.opt);
      w(d.max);
      w(d.symbol);
    }
  }
}

std::vector<InputRange> read_input_ranges(Reader& r, std::size_t inputs) {
  std::vector<InputRange> ranges(r.count(17));  // name length, dtype, dim count
  if (ranges.size() != inputs) {
    r.corrupt(std::to_string(ranges.size()) + " input ranges for " + std::to_string(inputs) + " inputs");
  }
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    InputRange& range = ranges[i];
    r(range.name);
    r.e(range.dtype, kDTypeCount, "dtype");
    const std::string where = "input " + std::to_string(i) + " ('" + range.name + "')";
    range.dims.resize(r.count(32));
    for (std::size_t d = 0; d < range.dims.size(); ++d) {
      DimRange& dim = range.dims[d];
      r(dim.min);
      r(dim.opt);
      r(dim.max);
      r(dim.symbol);
      const std::string at = where + " dim " + std::to_string(d);
      if (dim.min < 0 || dim.min > dim.opt || dim.opt > dim.max || dim.max > kMaxRangeDim) {
        r.corrupt(at + ": range " + std::to_string(dim.min) + " <= " + std::to_string(dim.opt) + " <= " +
                  std::to_string(dim.max) + " does not hold (sizes 0..2^40)");
      }
      if (dim.symbol.size() > kMaxSymbolBytes) r.corrupt(at + ": symbol longer than 256 bytes");
      if (dim.is_static() && dim.min != dim.max) r.corrupt(at + ": a static dim with a range");
    }
  }
  return ranges;
}

}  // namespace file
}  // namespace atenrt::runtime
