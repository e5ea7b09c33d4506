// Engine files.
//
//   offset 0   8 bytes  magic "ATENRTE\0"
//          8   u32      format version (kFormatVersion)
//         12   u32      CRC-32 (IEEE) of the payload
//         16   u64      payload length
//         24   payload  options, tensors (with constant bytes), steps, inputs, outputs
//
// Little-endian throughout. Reading checks the header, the length and the
// checksum before parsing, every count against the bytes left, every enum
// against its range, and finally the whole program (Program::validate re-runs
// shape inference on every step); then the kernels are re-created.
#include <cstring>
#include <fstream>
#include <iterator>

#include "atenrt/errors.h"
#include "runtime/engine.h"
#include "runtime/engine_impl.h"

namespace atenrt::runtime {

namespace {

constexpr char kMagic[8] = {'A', 'T', 'E', 'N', 'R', 'T', 'E', '\0'};
constexpr std::uint32_t kFormatVersion = 1;
constexpr std::size_t kHeaderBytes = 24;

std::uint32_t crc32(const std::byte* data, std::size_t n) {
  static const auto table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
      std::uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  std::uint32_t c = 0xFFFFFFFFu;
  for (std::size_t i = 0; i < n; ++i) c = table[(c ^ static_cast<std::uint8_t>(data[i])) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

[[noreturn]] void corrupt(const std::string& what) { throw FormatError("engine file: " + what); }

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
  void e(const E& v, int /*count*/) { raw<std::uint8_t>(static_cast<std::uint8_t>(v)); }
};

class Reader {
 public:
  Reader(const std::byte* p, std::size_t n) : p_(p), end_(p + n) {}
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
    if (static_cast<std::size_t>(end_ - p_) < n) corrupt("truncated payload");
  }
  // A count of items of at least `item_bytes` each, checked against the bytes left.
  std::size_t count(std::size_t item_bytes) {
    const auto n = raw<std::uint64_t>();
    if (item_bytes && n > static_cast<std::uint64_t>(end_ - p_) / item_bytes) corrupt("count exceeds the payload");
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
  template <typename E>
  void e(E& v, int count) {
    const auto b = raw<std::uint8_t>();
    if (b >= count) corrupt("enum value " + std::to_string(b) + " out of range");
    v = static_cast<E>(b);
  }

 private:
  const std::byte* p_;
  const std::byte* end_;
};

// ---- one field list per params struct, shared by Writer and Reader
using namespace network;
template <typename A, typename P> void fields(A& a, P& p);
template <typename A> void fields(A& a, ActivationParams& p) { a.e(p.op, kActivationOpCount); a(p.alpha); a(p.beta); }
template <typename A> void fields(A& a, ElementwiseParams& p) { a.e(p.op, kElementwiseOpCount); }
template <typename A> void fields(A& a, UnaryParams& p) { a.e(p.op, kUnaryOpCount); }
template <typename A> void fields(A& a, MatMulParams& p) { a(p.transpose_a); a(p.transpose_b); }
template <typename A> void fields(A& a, ConvolutionParams& p) {
  a(p.stride); a(p.padding_pre); a(p.padding_post); a(p.dilation); a(p.groups);
}
template <typename A> void fields(A& a, DeconvolutionParams& p) {
  a(p.stride); a(p.padding_pre); a(p.padding_post); a(p.dilation); a(p.output_padding); a(p.groups);
}
template <typename A> void fields(A& a, PoolingParams& p) {
  a.e(p.op, 2); a(p.adaptive); a(p.output_size); a(p.kernel); a(p.stride); a(p.padding_pre);
  a(p.padding_post); a(p.dilation); a(p.ceil_mode); a(p.count_include_pad); a(p.divisor_override);
}
template <typename A> void fields(A& a, SoftmaxParams& p) { a(p.axis); a(p.log); }
template <typename A> void fields(A& a, NormalizationParams& p) {
  a.e(p.op, 4); a(p.epsilon); a(p.axis); a(p.num_groups);
}
template <typename A> void fields(A& a, ReduceParams& p) { a.e(p.op, 9); a(p.axes); a(p.keep_dims); }
template <typename A> void fields(A& a, ShuffleParams& p) {
  a(p.first_perm); a(p.reshape); a(p.reshape_dims); a(p.second_perm);
}
template <typename A> void fields(A& a, SliceParams& p) { a(p.start); a(p.size); a(p.step); }
template <typename A> void fields(A& a, ConcatenationParams& p) { a(p.axis); }
template <typename A> void fields(A& a, GatherParams& p) { a.e(p.mode, 2); a(p.axis); }
template <typename A> void fields(A& a, ScatterParams& p) { a(p.axis); a.e(p.reduce, 3); }
template <typename A> void fields(A&, SelectParams&) {}
template <typename A> void fields(A&, ConstantParams&) { corrupt("a Constant layer cannot be a step"); }
template <typename A> void fields(A& a, CastParams& p) { a.e(p.to, kDTypeCount); }
template <typename A> void fields(A& a, PaddingParams& p) { a.e(p.mode, 4); a(p.pre); a(p.post); a(p.value); }
template <typename A> void fields(A& a, ResizeParams& p) {
  a.e(p.mode, 4); a(p.output_size); a(p.scales); a(p.align_corners);
}
template <typename A> void fields(A& a, TopKParams& p) { a(p.k); a(p.axis); a(p.largest); }
template <typename A> void fields(A& a, CumulativeParams& p) {
  a.e(p.op, 2); a(p.axis); a(p.exclusive); a(p.reverse);
}
template <typename A> void fields(A&, ShapeParams&) {}
template <typename A> void fields(A& a, FillParams& p) {
  a.e(p.op, 2); a.e(p.dtype, kDTypeCount); a(p.dims); a(p.value); a(p.delta); a(p.axis);
}

template <std::size_t I = 0>
LayerParams params_of_kind(std::size_t kind) {
  if constexpr (I < std::variant_size_v<LayerParams>) {
    if (kind == I) return LayerParams(std::in_place_index<I>);
    return params_of_kind<I + 1>(kind);
  } else {
    corrupt("layer kind " + std::to_string(kind) + " out of range");
  }
}

void write_options(Writer& w, const EngineOptions& o) {
  w(static_cast<std::int64_t>(o.num_threads));
  w(o.blocked_layout);
  w(o.prepack_weights);
  w(o.reuse_memory);
  w(o.allow_reference_kernels);
}

EngineOptions read_options(Reader& r) {
  EngineOptions o;
  std::int64_t threads = 0;
  r(threads);
  if (threads < 0 || threads > 4096) corrupt("thread count out of range");
  o.num_threads = static_cast<int>(threads);
  r(o.blocked_layout);
  r(o.prepack_weights);
  r(o.reuse_memory);
  r(o.allow_reference_kernels);
  return o;
}

void write_ids(Writer& w, const std::vector<int>& ids) {
  w.raw<std::uint64_t>(ids.size());
  for (int id : ids) w.raw<std::int32_t>(id);
}
std::vector<int> read_ids(Reader& r) {
  std::vector<int> ids(r.count(4));
  for (auto& id : ids) id = r.raw<std::int32_t>();
  return ids;  // ranges checked by Program::validate
}

}  // namespace

std::vector<std::byte> Engine::serialize() const {
  const Program& prog = impl_->program;
  Writer w;
  write_options(w, impl_->options);
  w.raw<std::uint64_t>(prog.tensors.size());
  for (const auto& t : prog.tensors) {
    w(t.name);
    w.e(t.dtype, kDTypeCount);
    w(t.dims);
    w.e(t.role, 3);
    if (t.role == TensorRole::Constant) {
      const auto bytes = t.value.to_bytes();
      w.raw<std::uint64_t>(bytes.size());
      w.out.insert(w.out.end(), bytes.begin(), bytes.end());
    }
  }
  w.raw<std::uint64_t>(prog.steps.size());
  for (const auto& s : prog.steps) {
    w(s.name);
    w.raw<std::uint8_t>(static_cast<std::uint8_t>(s.params.index()));
    std::visit([&](const auto& p) { fields(w, const_cast<std::decay_t<decltype(p)>&>(p)); }, s.params);
    write_ids(w, s.inputs);
    write_ids(w, s.outputs);
    w.raw<std::uint64_t>(s.post_ops.size());
    for (const auto& op : s.post_ops) {
      w.e(op.kind, 2);
      fields(w, const_cast<ActivationParams&>(op.activation));
      w.raw<std::int32_t>(op.operand);
      w(op.fused_layer);
    }
    w.e(s.precision, 2);
  }
  write_ids(w, prog.inputs);
  write_ids(w, prog.outputs);

  std::vector<std::byte> file(kHeaderBytes + w.out.size());
  std::memcpy(file.data(), kMagic, 8);
  const std::uint32_t version = kFormatVersion, crc = crc32(w.out.data(), w.out.size());
  const std::uint64_t length = w.out.size();
  std::memcpy(file.data() + 8, &version, 4);
  std::memcpy(file.data() + 12, &crc, 4);
  std::memcpy(file.data() + 16, &length, 8);
  if (!w.out.empty()) std::memcpy(file.data() + kHeaderBytes, w.out.data(), w.out.size());
  return file;
}

Engine Engine::deserialize(const std::vector<std::byte>& file) {
  if (file.size() < kHeaderBytes || std::memcmp(file.data(), kMagic, 8) != 0) {
    corrupt("not an atenrt engine file (bad magic)");
  }
  std::uint32_t version = 0, crc = 0;
  std::uint64_t length = 0;
  std::memcpy(&version, file.data() + 8, 4);
  std::memcpy(&crc, file.data() + 12, 4);
  std::memcpy(&length, file.data() + 16, 8);
  if (version != kFormatVersion) {
    corrupt("format version " + std::to_string(version) + " is not supported (this build reads " +
            std::to_string(kFormatVersion) + ")");
  }
  if (length != file.size() - kHeaderBytes) {
    corrupt("payload is " + std::to_string(file.size() - kHeaderBytes) + " bytes, header says " +
            std::to_string(length) + " (truncated or padded)");
  }
  const std::byte* payload = file.data() + kHeaderBytes;
  if (crc32(payload, length) != crc) corrupt("checksum mismatch (corrupt file)");

  Reader r(payload, length);
  EngineOptions options = read_options(r);
  Program prog;
  prog.tensors.resize(r.count(11));
  for (auto& t : prog.tensors) {
    r(t.name);
    r.e(t.dtype, kDTypeCount);
    r(t.dims);
    r.e(t.role, 3);
    for (auto d : t.dims) {
      if (d < 0 || d > (std::int64_t{1} << 40)) corrupt("tensor '" + t.name + "' has a bad dim");
    }
    if (t.role == TensorRole::Constant) {
      const std::size_t n = r.count(1);
      // numel * element size, overflow-safe given the dim bound above
      std::uint64_t expect = element_size(t.dtype);
      for (auto d : t.dims) {
        if (d && expect > (std::uint64_t{1} << 62) / static_cast<std::uint64_t>(d)) corrupt("constant too large");
        expect *= static_cast<std::uint64_t>(d);
      }
      if (n != expect) corrupt("constant '" + t.name + "' has " + std::to_string(n) + " bytes, expected " + std::to_string(expect));
      const auto* at = r.take(n);
      t.value = Tensor(std::make_shared<Storage>(std::vector<std::byte>(at, at + n)), t.dtype, t.dims,
                       contiguous_strides(t.dims), 0);
    }
  }
  prog.steps.resize(r.count(20));
  for (auto& s : prog.steps) {
    r(s.name);
    s.params = params_of_kind(r.raw<std::uint8_t>());
    std::visit([&](auto& p) { fields(r, p); }, s.params);
    s.inputs = read_ids(r);
    s.outputs = read_ids(r);
    s.post_ops.resize(r.count(8));
    for (auto& op : s.post_ops) {
      r.e(op.kind, 2);
      fields(r, op.activation);
      op.operand = r.raw<std::int32_t>();
      r(op.fused_layer);
    }
    r.e(s.precision, 2);
  }
  prog.inputs = read_ids(r);
  prog.outputs = read_ids(r);
  if (!r.done()) corrupt("trailing bytes after the program");
  return Engine(std::move(prog), options);  // validates the program, re-creates kernels
}

void Engine::save(const std::string& path) const {
  const auto bytes = serialize();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw Error("engine save: cannot open '" + path + "' for writing");
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw Error("engine save: writing '" + path + "' failed");
}

Engine Engine::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw FormatError("engine file '" + path + "': cannot open");
  std::vector<char> raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> bytes(raw.size());
  std::memcpy(bytes.data(), raw.data(), raw.size());
  try {
    return deserialize(bytes);
  } catch (const FormatError& e) {
    throw FormatError("'" + path + "': " + e.what());
  }
}

}  // namespace atenrt::runtime
