// Internal: byte-level Writer/Reader and the field list of every layer's
// parameters, shared by the encoder and the decoder of the program section
// (one list per params struct, so the two cannot drift apart).
#pragma once

#include <cstring>
#include <optional>
#include <variant>
#include <string>
#include <vector>

#include "atenrt/errors.h"
#include "network/layers.h"
#include "network/plugin_kernels.h"
#include "runtime/program.h"

namespace atenrt::runtime::file {

// Errors while decoding a section name it: "engine file: program section: ...".
[[noreturn]] inline void corrupt_section(const char* section, const std::string& what) {
  throw FormatError(std::string("engine file: ") + section + " section: " + what);
}

class Writer {
 public:
  std::vector<std::byte> out;
  template <typename T>
  void raw(const T& v) {
    const auto* p = reinterpret_cast<const std::byte*>(&v);
    out.insert(out.end(), p, p + sizeof(T));
  }
  void operator()(const bool& v) { raw<std::uint8_t>(v ? 1 : 0); }
  void operator()(const std::int64_t& v) { raw(v); }
  void operator()(const double& v) { raw(v); }
  void operator()(const std::string& s) {
    raw<std::uint64_t>(s.size());
    const auto* p = reinterpret_cast<const std::byte*>(s.data());
    out.insert(out.end(), p, p + s.size());
  }
  void operator()(const Dims& d) {
    raw<std::uint64_t>(d.size());
    for (auto v : d) raw(v);
  }
  void operator()(const std::vector<double>& d) {
    raw<std::uint64_t>(d.size());
    for (auto v : d) raw(v);
  }
  void operator()(const std::optional<std::int64_t>& v) {
    (*this)(v.has_value());
    if (v) raw(*v);
  }
  template <typename E>
  void e(const E& v, int /*count*/, const char* /*name*/ = nullptr) { raw<std::uint8_t>(static_cast<std::uint8_t>(v)); }
  // u64 count; per attribute (sorted by name): string name, u8 kind (the
  // PluginAttribute alternative), the value.
  void operator()(const PluginAttributes& attributes) {
    raw<std::uint64_t>(attributes.size());
    for (const auto& [name, value] : attributes.items()) {
      (*this)(name);
      raw<std::uint8_t>(static_cast<std::uint8_t>(value.index()));
      std::visit([&](const auto& v) { (*this)(v); }, value);
    }
  }
};

// At most this many attributes per plugin layer (docs/limits.md).
inline constexpr std::size_t kMaxPluginAttributes = 256;

class Reader {
 public:
  Reader(const std::byte* p, std::size_t n, const char* section) : p_(p), end_(p + n), section_(section) {}
  [[noreturn]] void corrupt(const std::string& what) const { corrupt_section(section_, what); }
  std::size_t left() const { return static_cast<std::size_t>(end_ - p_); }
  bool done() const { return p_ == end_; }
  template <typename T>
  T raw() {
    need(sizeof(T));
    T v;
    std::memcpy(&v, p_, sizeof(T));
    p_ += sizeof(T);
    return v;
  }
  void need(std::size_t n) const {
    if (left() < n) corrupt("ends early (needs " + std::to_string(n) + " more bytes, " + std::to_string(left()) + " left)");
  }
  // A count of items of at least `item_bytes` each, checked against the bytes left.
  std::size_t count(std::size_t item_bytes) {
    const auto n = raw<std::uint64_t>();
    if (item_bytes && n > left() / item_bytes) {
      corrupt("count " + std::to_string(n) + " exceeds the " + std::to_string(left()) + " bytes left");
    }
    return static_cast<std::size_t>(n);
  }
  const std::byte* take(std::size_t n) {
    need(n);
    const auto* at = p_;
    p_ += n;
    return at;
  }
  void operator()(bool& v) {
    const auto b = raw<std::uint8_t>();
    if (b > 1) corrupt("bad boolean");
    v = b;
  }
  void operator()(std::int64_t& v) { v = raw<std::int64_t>(); }
  void operator()(double& v) { v = raw<double>(); }
  void operator()(std::string& s) {
    const std::size_t n = count(1);
    const auto* at = take(n);
    s.assign(reinterpret_cast<const char*>(at), n);
  }
  void operator()(Dims& d) {
    d.resize(count(8));
    for (auto& v : d) v = raw<std::int64_t>();
  }
  void operator()(std::vector<double>& d) {
    d.resize(count(8));
    for (auto& v : d) v = raw<double>();
  }
  void operator()(std::optional<std::int64_t>& v) {
    bool has = false;
    (*this)(has);
    if (has) v = raw<std::int64_t>();
    else v.reset();
  }
  void operator()(PluginAttributes& attributes) {
    const std::size_t n = count(10);  // name length, kind, at least one byte of value
    if (n > kMaxPluginAttributes) {
      corrupt(std::to_string(n) + " plugin attributes (at most " + std::to_string(kMaxPluginAttributes) + ")");
    }
    attributes = {};
    std::string previous;
    for (std::size_t i = 0; i < n; ++i) {
      std::string name;
      (*this)(name);
      if (!network::valid_attribute_name(name)) corrupt("plugin attribute name '" + name + "' is not 1 to 64 letters, digits and '_'");
      if (i && name <= previous) corrupt("plugin attributes are not sorted by name without repeats ('" + name + "')");
      PluginAttribute value;
      switch (raw<std::uint8_t>()) {
        case 0: value = raw<std::int64_t>(); break;
        case 1: value = raw<double>(); break;
        case 2: { std::string v; (*this)(v); value = std::move(v); break; }
        case 3: { Dims v; (*this)(v); value = std::move(v); break; }
        case 4: { std::vector<double> v; (*this)(v); value = std::move(v); break; }
        default: corrupt("plugin attribute '" + name + "' has a kind out of range (0..4)");
      }
      attributes.set(name, std::move(value));
      previous = std::move(name);
    }
  }
  template <typename E>
  void e(E& v, int count, const char* name = "enum value") {
    const auto b = raw<std::uint8_t>();
    if (b >= count) corrupt(std::string(name) + " " + std::to_string(b) + " out of range (0.." + std::to_string(count - 1) + ")");
    v = static_cast<E>(b);
  }

 private:
  const std::byte* p_;
  const std::byte* end_;
  const char* section_;
};


// ---- one field list per params struct, shared by Writer and Reader
using namespace network;  // NOLINT: the params types, in this internal header only
template <typename A, typename P> void fields(A& a, P& p);
template <typename A> void fields(A& a, ActivationParams& p) { a.e(p.op, kActivationOpCount, "activation op"); a(p.alpha); a(p.beta); }
template <typename A> void fields(A& a, ElementwiseParams& p) { a.e(p.op, kElementwiseOpCount, "elementwise op"); }
template <typename A> void fields(A& a, UnaryParams& p) { a.e(p.op, kUnaryOpCount, "unary op"); }
template <typename A> void fields(A& a, MatMulParams& p) { a(p.transpose_a); a(p.transpose_b); }
template <typename A> void fields(A& a, ConvolutionParams& p) {
  a(p.stride); a(p.padding_pre); a(p.padding_post); a(p.dilation); a(p.groups);
}
template <typename A> void fields(A& a, DeconvolutionParams& p) {
  a(p.stride); a(p.padding_pre); a(p.padding_post); a(p.dilation); a(p.output_padding); a(p.groups);
}
template <typename A> void fields(A& a, PoolingParams& p) {
  a.e(p.op, 2, "pooling op"); a(p.adaptive); a(p.output_size); a(p.kernel); a(p.stride); a(p.padding_pre);
  a(p.padding_post); a(p.dilation); a(p.ceil_mode); a(p.count_include_pad); a(p.divisor_override);
}
template <typename A> void fields(A& a, SoftmaxParams& p) { a(p.axis); a(p.log); }
template <typename A> void fields(A& a, NormalizationParams& p) {
  a.e(p.op, 4, "normalization op"); a(p.epsilon); a(p.axis); a(p.num_groups);
}
template <typename A> void fields(A& a, ReduceParams& p) { a.e(p.op, 9, "reduce op"); a(p.axes); a(p.keep_dims); }
template <typename A> void fields(A& a, ShuffleParams& p) {
  a(p.first_perm); a(p.reshape); a(p.reshape_dims); a(p.second_perm);
}
template <typename A> void fields(A& a, SliceParams& p) { a(p.start); a(p.size); a(p.step); }
template <typename A> void fields(A& a, ConcatenationParams& p) { a(p.axis); }
template <typename A> void fields(A& a, GatherParams& p) { a.e(p.mode, 2, "gather mode"); a(p.axis); }
template <typename A> void fields(A& a, ScatterParams& p) { a(p.axis); a.e(p.reduce, 5, "scatter reduction"); }
template <typename A> void fields(A&, SelectParams&) {}
template <typename A> void fields(A&, ConstantParams&) { corrupt_section("program", "a Constant layer cannot be a step"); }
template <typename A> void fields(A& a, CastParams& p) { a.e(p.to, kDTypeCount, "cast dtype"); }
template <typename A> void fields(A& a, PaddingParams& p) { a.e(p.mode, 4, "padding mode"); a(p.pre); a(p.post); a(p.value); }
template <typename A> void fields(A& a, ResizeParams& p) {
  a.e(p.mode, 4, "resize mode"); a(p.output_size); a(p.scales); a(p.align_corners);
}
// One byte for the order: largest + 2 * ties. Format 2.0 wrote the `largest` bool there, so its
// files read as IndexOrder; a reader from before tie orders refuses a new order as a bad boolean.
template <typename A> void fields(A& a, TopKParams& p) {
  a(p.k);
  a(p.axis);
  auto order = static_cast<std::uint8_t>((p.largest ? 1 : 0) + 2 * static_cast<int>(p.ties));
  a.e(order, 2 * kTopKTiesCount, "topk order");
  p.largest = order % 2 == 1;
  p.ties = static_cast<TopKTies>(order / 2);
}
template <typename A> void fields(A& a, CumulativeParams& p) {
  a.e(p.op, 2, "cumulative op"); a(p.axis); a(p.exclusive); a(p.reverse);
}
template <typename A> void fields(A&, ShapeParams&) {}
template <typename A> void fields(A& a, FillParams& p) {
  a.e(p.op, 2, "fill op"); a.e(p.dtype, kDTypeCount, "fill dtype"); a(p.dims); a(p.value); a(p.delta); a(p.axis);
}

template <typename A> void fields(A& a, CheckParams& p) { a(p.message); }
template <typename A> void fields(A& a, PluginParams& p) { a(p.kernel); a(p.version); a(p.plugin); a(p.attributes); }
template <typename A> void fields(A& a, LinalgParams& p) {
  a.e(p.op, kLinalgOpCount, "linear-algebra op"); a(p.upper); a(p.left); a(p.transpose); a(p.unit_diagonal);
  a(p.full); a(p.vectors); a(p.pivots); a(p.hermitian); a(p.check_errors);
}
template <typename A> void fields(A& a, DataDependentParams& p) {
  a.e(p.op, kDataDependentOpCount, "data-dependent op"); a(p.sorted); a(p.return_inverse); a(p.return_counts);
  a(p.has_axis); a(p.axis); a(p.minlength);
}

template <std::size_t I = 0>
LayerParams params_of_kind(std::size_t kind) {
  if constexpr (I < std::variant_size_v<LayerParams>) {
    if (kind == I) return LayerParams(std::in_place_index<I>);
    return params_of_kind<I + 1>(kind);
  } else {
    corrupt_section("program", "layer kind " + std::to_string(kind) + " out of range");
  }
}

// A list of tensor or slot ids: a count, then one int32 each. The reader
// checks only the count; what the ids refer to is checked by the program's
// own validate().
inline void write_ids(Writer& w, const std::vector<int>& ids) {
  w.raw<std::uint64_t>(ids.size());
  for (int id : ids) w.raw<std::int32_t>(id);
}
inline std::vector<int> read_ids(Reader& r) {
  std::vector<int> ids(r.count(4));
  for (auto& id : ids) id = r.raw<std::int32_t>();
  return ids;
}

}  // namespace atenrt::runtime::file
