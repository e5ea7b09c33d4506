// Engine files: the program section, the weights sections, save and load.
// The container (header, section table, checksums, version rules) is in
// serialize_container.cpp; docs/engine-format.md is the specification.
//
// Loading verifies the whole file before it builds anything: the container
// (every checksum), then every count against the bytes left, every enum
// against its range, every dim and weight size, and finally the program
// (Program::validate re-runs shape inference on every step); then the kernels
// are re-created on this machine.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <typeinfo>
#include <unistd.h>

#include "atenrt/errors.h"
#include "runtime/cpu/isa.h"
#include "runtime/engine.h"
#include "runtime/engine_impl.h"
#include "ir/mapped_file.h"
#include "runtime/serialize.h"
#include "runtime/serialize_fields.h"

namespace atenrt::runtime {

namespace {

using file::Reader;
using file::read_ids;
using file::write_ids;
using file::Writer;

constexpr std::int64_t kMaxDim = std::int64_t{1} << 40;
constexpr std::size_t kWeightEntryBytes = 40;  // the smallest entry (no dims)

// ---- program section: options, tensors (no bytes), steps, bindings

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
  if (threads < 0 || threads > 4096) r.corrupt("thread count " + std::to_string(threads) + " out of range (0..4096)");
  o.num_threads = static_cast<int>(threads);
  r(o.blocked_layout);
  r(o.prepack_weights);
  r(o.reuse_memory);
  r(o.allow_reference_kernels);
  return o;
}

// Whether an int8 step has an output scale (header feature bit 2).
bool has_output_scales(const Program& prog) {
  return std::any_of(prog.steps.begin(), prog.steps.end(), [](const Step& s) {
    return s.precision == Precision::Int8 && s.quant.output_scale != 0.0f;
  });
}

std::vector<std::byte> encode_program(const Program& prog, const EngineOptions& options) {
  const bool output_scales = has_output_scales(prog);
  Writer w;
  write_options(w, options);
  w.raw<std::uint64_t>(prog.tensors.size());
  for (const auto& t : prog.tensors) {
    w(t.name);
    w.e(t.dtype, kDTypeCount);
    w(t.dims);
    w.e(t.role, 3);
  }
  w.raw<std::uint64_t>(prog.steps.size());
  for (const auto& s : prog.steps) {
    w(s.name);
    w.raw<std::uint8_t>(static_cast<std::uint8_t>(s.params.index()));
    std::visit([&](const auto& p) { file::fields(w, const_cast<std::decay_t<decltype(p)>&>(p)); }, s.params);
    write_ids(w, s.inputs);
    write_ids(w, s.outputs);
    w.raw<std::uint64_t>(s.post_ops.size());
    for (const auto& op : s.post_ops) {
      w.e(op.kind, 2);
      file::fields(w, const_cast<network::ActivationParams&>(op.activation));
      w.raw<std::int32_t>(op.operand);
      w(op.fused_layer);
    }
    w.e(s.precision, kPrecisionCount);
    if (s.precision == Precision::Int8) {
      w.raw<float>(s.quant.input_scale);
      w(s.quant.input_unsigned);
      w.raw<std::uint64_t>(s.quant.weight_scales.size());
      for (float v : s.quant.weight_scales) w.raw<float>(v);
      if (output_scales) {
        w.raw<float>(s.quant.output_scale);
        w(s.quant.output_unsigned);
      }
    }
  }
  write_ids(w, prog.inputs);
  write_ids(w, prog.outputs);
  return std::move(w.out);
}

// `dynamic_dims`: a dynamic engine's network, whose activation and input dims
// may be -1 (network::kDynamicDim). `features`: the header's required
// features (int8 output scales change the int8 step records).
Program decode_program(std::span<const std::byte> bytes, EngineOptions& options, std::uint32_t features,
                       bool dynamic_dims = false) {
  Reader r(bytes.data(), bytes.size(), "program");
  options = read_options(r);
  Program prog;
  prog.tensors.resize(r.count(18));  // name length, dtype, dims count, role
  for (auto& t : prog.tensors) {
    r(t.name);
    r.e(t.dtype, kDTypeCount, "dtype");
    r(t.dims);
    r.e(t.role, 3, "tensor role");
    for (auto d : t.dims) {
      if (dynamic_dims && d == network::kDynamicDim && t.role != TensorRole::Constant) continue;
      if (d < 0 || d > kMaxDim) r.corrupt("tensor '" + t.name + "' has dim " + std::to_string(d) + " out of range (0..2^40)");
    }
    // numel * element size, overflow-safe given the dim bound above
    std::uint64_t bytes_needed = element_size(t.dtype);
    for (auto d : t.dims) {
      if (d < 0) continue;  // dynamic
      if (d && bytes_needed > (std::uint64_t{1} << 62) / static_cast<std::uint64_t>(d)) {
        r.corrupt("tensor '" + t.name + "' is larger than 2^62 bytes");
      }
      bytes_needed *= static_cast<std::uint64_t>(d);
    }
  }
  prog.steps.resize(r.count(20));
  for (auto& s : prog.steps) {
    r(s.name);
    s.params = file::params_of_kind(r.raw<std::uint8_t>());
    std::visit([&](auto& p) { file::fields(r, p); }, s.params);
    s.inputs = read_ids(r);
    s.outputs = read_ids(r);
    s.post_ops.resize(r.count(8));
    for (auto& op : s.post_ops) {
      r.e(op.kind, 2, "post-op kind");
      file::fields(r, op.activation);
      op.operand = r.raw<std::int32_t>();
      r(op.fused_layer);
    }
    r.e(s.precision, kPrecisionCount, "precision");
    if (s.precision == Precision::Int8) {  // Program::validate checks the values
      s.quant.input_scale = r.raw<float>();
      r(s.quant.input_unsigned);
      s.quant.weight_scales.resize(r.count(4));
      for (auto& v : s.quant.weight_scales) v = r.raw<float>();
      if (features & file::kFeatureInt8OutputScales) {
        s.quant.output_scale = r.raw<float>();
        r(s.quant.output_unsigned);
      }
    }
  }
  prog.inputs = read_ids(r);
  prog.outputs = read_ids(r);
  if (!r.done()) r.corrupt(std::to_string(r.left()) + " trailing bytes after the program");
  return prog;
}

// ---- weights section: an index, then each constant's bytes (64-aligned)
//
//   u64 entry count
//   per entry: u32 tensor id, u8 stored dtype, u8 layout (0: plain
//     row-major, 1: pre-packed, named by a oneDNN format tag), u16 0,
//     u32 format tag (0 for plain), u32 0, u64 offset from the section's
//     start, u64 byte count, u64 dims count + i64 dims (the packed form's
//     dims; none for plain)
//   the bytes

constexpr std::uint8_t kPlain = 0, kPacked = 1;

// Where a file's weights come from: the engine's packs (null: plain only).
struct WeightSources {
  const cpu::WeightPacks* packs = nullptr;
  const std::vector<bool>* read_plain = nullptr;  // per tensor: some kernel reads it plain
};

struct WeightEntry {
  std::uint32_t tensor = 0;
  std::uint8_t layout = kPlain;
  DType dtype = DType::Float32;
  std::uint32_t tag = 0;
  Dims dims;                      // packed form
  const std::byte* data = nullptr;  // packed form (plain bytes come from the tensor)
  std::uint64_t offset = 0;
  std::uint64_t bytes = 0;
};

std::uint64_t align_up(std::uint64_t v, std::uint64_t a) { return (v + a - 1) / a * a; }

// What each constant is stored as: its pre-packed form when every kernel
// reads it packed and the pack has a format tag, else its plain bytes.
std::vector<WeightEntry> weight_layout(const Program& prog, const WeightSources& src, std::vector<std::byte>& index) {
  std::vector<WeightEntry> entries;
  for (std::size_t i = 0; i < prog.tensors.size(); ++i) {
    const auto& t = prog.tensors[i];
    if (t.role != TensorRole::Constant) continue;
    WeightEntry e;
    e.tensor = static_cast<std::uint32_t>(i);
    e.dtype = t.dtype;
    e.bytes = tensor_bytes(t);
    const bool read_plain = !src.read_plain || (*src.read_plain)[i];
    if (auto pack = src.packs && !read_plain ? src.packs->for_file(&t) : std::nullopt) {
      e.layout = kPacked;
      e.dtype = pack->dtype;
      e.tag = pack->tag;
      e.dims = pack->dims;
      e.data = pack->data;
      e.bytes = pack->bytes;
    } else if (!t.value.defined()) {
      throw Error("engine save: weight '" + t.name + "' has neither plain bytes nor a nameable packed layout");
    }
    entries.push_back(std::move(e));
  }
  std::uint64_t index_bytes = 8;
  for (const auto& e : entries) index_bytes += kWeightEntryBytes + 8 * e.dims.size();
  std::uint64_t at = align_up(index_bytes, file::kWeightAlignment);
  for (auto& e : entries) {
    e.offset = at;
    at = align_up(at + e.bytes, file::kWeightAlignment);
  }
  Writer w;
  w.raw<std::uint64_t>(entries.size());
  for (const auto& e : entries) {
    w.raw<std::uint32_t>(e.tensor);
    w.raw<std::uint8_t>(static_cast<std::uint8_t>(e.dtype));
    w.raw<std::uint8_t>(e.layout);
    w.raw<std::uint16_t>(0);
    w.raw<std::uint32_t>(e.tag);
    w.raw<std::uint32_t>(0);
    w.raw<std::uint64_t>(e.offset);
    w.raw<std::uint64_t>(e.bytes);
    w(e.dims);
  }
  index = std::move(w.out);
  return entries;
}

// Constants become views of the file's bytes (no copy); packed ones are
// handed to the engine's WeightPacks through `loaded`.
void decode_weights(std::span<const std::byte> bytes, std::uint32_t packing_key, Program& prog, LoadedFile& loaded) {
  Reader r(bytes.data(), bytes.size(), "weights");
  const std::size_t n = r.count(kWeightEntryBytes);
  std::vector<bool> seen(prog.tensors.size(), false);
  struct Placed {
    std::uint32_t id;
    std::uint8_t layout;
    std::uint64_t offset, size;
    std::string what;
    cpu::StoredPack pack;
  };
  std::vector<Placed> placed;
  for (std::size_t i = 0; i < n; ++i) {
    Placed p;
    p.id = r.raw<std::uint32_t>();
    const auto dtype = r.raw<std::uint8_t>();
    p.layout = r.raw<std::uint8_t>();
    const auto pad16 = r.raw<std::uint16_t>();
    const auto tag = r.raw<std::uint32_t>();
    const auto pad32 = r.raw<std::uint32_t>();
    p.offset = r.raw<std::uint64_t>();
    p.size = r.raw<std::uint64_t>();
    Dims packed_dims;
    r(packed_dims);
    const std::string entry = "entry " + std::to_string(i);
    if (p.id >= prog.tensors.size()) {
      r.corrupt(entry + ": tensor id " + std::to_string(p.id) + " out of range (" + std::to_string(prog.tensors.size()) + " tensors)");
    }
    auto& t = prog.tensors[p.id];
    p.what = entry + " (tensor '" + t.name + "')";
    if (t.role != TensorRole::Constant) r.corrupt(p.what + " is not a constant");
    if (seen[p.id]) r.corrupt(p.what + " appears twice");
    seen[p.id] = true;
    if (pad16 || pad32) r.corrupt(p.what + ": reserved fields are not zero");
    if (p.layout == kPlain) {
      if (dtype != static_cast<std::uint8_t>(t.dtype)) r.corrupt(p.what + ": stored dtype " + std::to_string(dtype) + " differs from the tensor's");
      if (tag != 0) r.corrupt(p.what + ": format tag " + std::to_string(tag) + " on a plain weight");
      if (!packed_dims.empty()) r.corrupt(p.what + ": a plain weight has packed dims");
      if (p.size != tensor_bytes(t)) {
        r.corrupt(p.what + " has " + std::to_string(p.size) + " bytes, expected " + std::to_string(tensor_bytes(t)));
      }
    } else if (p.layout == kPacked) {
      if (packing_key == 0) r.corrupt(p.what + " is packed in a portable (unpacked) section");
      if (dtype >= kDTypeCount) r.corrupt(p.what + ": stored dtype " + std::to_string(dtype) + " out of range");
      p.pack.tag = tag;
      p.pack.dtype = static_cast<DType>(dtype);
      p.pack.dims = std::move(packed_dims);
      p.pack.bytes = p.size;
      cpu::check_stored_pack(p.pack, t, p.what);
    } else {
      r.corrupt(p.what + ": layout " + std::to_string(p.layout) + " out of range (0: plain, 1: packed)");
    }
    placed.push_back(std::move(p));
  }
  // The bytes lie after the index, aligned, inside the section.
  const std::uint64_t data_start = bytes.size() - r.left();
  for (auto& p : placed) {
    if (p.offset % file::kWeightAlignment || p.offset < data_start || p.offset > bytes.size() ||
        p.size > bytes.size() - p.offset) {
      r.corrupt(p.what + ": bytes [" + std::to_string(p.offset) + ", +" + std::to_string(p.size) +
                ") are unaligned or outside the section's data (" + std::to_string(data_start) + ".." +
                std::to_string(bytes.size()) + ")");
    }
    auto& t = prog.tensors[p.id];
    const std::byte* at = bytes.data() + p.offset;
    if (p.layout == kPacked) {
      p.pack.data = at;
      t.stored_packed = true;
      loaded.packs[static_cast<int>(p.id)] = std::move(p.pack);
    } else {
      t.value = Tensor(std::make_shared<Storage>(at, p.size, loaded.owner), t.dtype, t.dims, contiguous_strides(t.dims), 0);
    }
  }
  for (std::size_t i = 0; i < prog.tensors.size(); ++i) {
    if (prog.tensors[i].role == TensorRole::Constant && !seen[i]) {
      r.corrupt("constant '" + prog.tensors[i].name + "' has no bytes");
    }
  }
}

// ---- whole files

class VectorSink : public file::Sink {
 public:
  std::vector<std::byte> out;
  void write(const void* data, std::size_t n) override {
    const auto* p = static_cast<const std::byte*>(data);
    out.insert(out.end(), p, p + n);
  }
};

class FileSink : public file::Sink {
 public:
  FileSink(std::FILE* f, std::string path) : f_(f), path_(std::move(path)) {}
  void write(const void* data, std::size_t n) override {
    if (n && std::fwrite(data, 1, n, f_) != n) throw Error("engine save: writing '" + path_ + "' failed");
  }

 private:
  std::FILE* f_;
  std::string path_;
};

bool any_step(const Program& prog, Precision p) {
  for (const auto& s : prog.steps) {
    if (s.precision == p) return true;
  }
  return false;
}

// The precision a program's weights section is filed under: an engine has
// bf16 or int8 steps (beside fp32 ones), never both.
file::WeightPrecision weight_precision(const Program& prog) {
  const bool bf16 = any_step(prog, Precision::BFloat16), int8 = any_step(prog, Precision::Int8);
  if (bf16 && int8) throw FormatError("engine program: has both bf16 and int8 steps");
  return bf16 ? file::WeightPrecision::BFloat16 : int8 ? file::WeightPrecision::Int8 : file::WeightPrecision::Float32;
}

std::uint32_t required_features(const Program& prog) {
  const auto p = weight_precision(prog);
  if (p == file::WeightPrecision::BFloat16) return file::kFeatureBf16;
  if (p != file::WeightPrecision::Int8) return 0;
  return file::kFeatureInt8 | (has_output_scales(prog) ? file::kFeatureInt8OutputScales : 0);
}

// `extra` sections follow the program and weights (a dynamic engine's ranges).
void write_engine(file::Sink& out, const Program& prog, const EngineOptions& options, const WeightSources& src,
                  std::vector<file::SectionSource> extra = {}, std::uint16_t minor = file::kFormatMinor) {
  file::Header header;
  header.minor = minor;
  header.producer = file::producer_string();
  header.required_features = required_features(prog);

  auto program_bytes = std::make_shared<std::vector<std::byte>>(encode_program(prog, options));
  auto index = std::make_shared<std::vector<std::byte>>();
  const auto entries = weight_layout(prog, src, *index);
  std::uint64_t weights_size = index->size();
  bool packed = false;
  for (const auto& e : entries) {
    weights_size = e.offset + e.bytes;
    packed = packed || e.layout == kPacked;
  }

  std::vector<file::SectionSource> sections(2);
  sections[0].entry.kind = static_cast<std::uint32_t>(file::SectionKind::Program);
  sections[0].entry.flags = file::kSectionRequired;
  sections[0].entry.alignment = 8;
  sections[0].size = program_bytes->size();
  sections[0].write = [program_bytes](file::Sink& s) { s.write(program_bytes->data(), program_bytes->size()); };

  sections[1].entry.kind = static_cast<std::uint32_t>(file::SectionKind::Weights);
  sections[1].entry.flags = file::kSectionRequired;
  sections[1].entry.alignment = file::kPageAlignment;
  sections[1].entry.isa = packed ? cpu::packing_key() : static_cast<std::uint32_t>(file::PackIsa::Portable);
  sections[1].entry.precision = static_cast<std::uint32_t>(weight_precision(prog));
  sections[1].size = weights_size;
  // Streams each weight from where it lives: no second copy of the weights.
  sections[1].write = [index, entries, &prog](file::Sink& s) {
    static const std::byte zeros[file::kWeightAlignment] = {};
    s.write(index->data(), index->size());
    std::uint64_t at = index->size();
    for (const auto& e : entries) {
      s.write(zeros, e.offset - at);
      const Tensor& v = prog.tensors[e.tensor].value;
      if (e.layout == kPacked) {
        s.write(e.data, e.bytes);
      } else if (v.is_contiguous()) {
        s.write(v.raw_data(), e.bytes);
      } else {
        const auto bytes = v.to_bytes();
        s.write(bytes.data(), bytes.size());
      }
      at = e.offset + e.bytes;
    }
  };
  for (auto& e : extra) sections.push_back(std::move(e));
  if (auto plugins = file::plugin_kernels_section(prog)) {
    sections.push_back(std::move(*plugins));
    header.minor = std::max(header.minor, file::kPluginMinor);
  }
  file::write_container(out, header, sections);
}

// The CPU must have what the file's kernels need (header.required_features).
void check_features(const file::Header& h) {
  if (h.required_features & file::kFeatureBf16) {
    const std::string isa = cpu::cpu_isa_name();
    if (isa.rfind("avx512_core", 0) != 0) {
      throw FormatError("engine file: needs avx512_core (bf16 compute), this CPU's ISA is " + isa +
                        " (written by '" + h.producer + "'); compile an fp32 engine for this machine");
    }
  }
}

// `bytes` stay alive as long as `loaded.owner` does: constants view them.
Engine deserialize_span(std::span<const std::byte> bytes, std::shared_ptr<LoadedFile> loaded,
                        std::uint64_t max_memory_bytes = 0, int num_threads = 0) {
  const file::Container c = file::parse_container(bytes);
  check_features(c.header);
  if (!c.find(file::SectionKind::Program)) {
    throw FormatError("engine file: holds a hybrid program (engine and torch segments), not a single engine; "
                      "load it with atenrt::Engine::load");
  }
  if (c.find(file::SectionKind::Ranges)) {
    throw FormatError(std::string("engine file: ") + file::kDynamicFileMarker +
                      " (its inputs take ranges of shapes); load it with atenrt::Engine::load");
  }
  const file::Section* plugins = c.find(file::SectionKind::PluginKernels);
  if (plugins) file::check_plugin_kernels(c.payload(*plugins));  // before anything else: which plugin to load
  EngineOptions options;
  Program prog = decode_program(c.payload(*c.find(file::SectionKind::Program)), options, c.header.required_features);
  file::check_plugin_steps(prog, plugins != nullptr);
  options.max_memory_bytes = max_memory_bytes;  // a load-time setting, not stored in the file
  if (num_threads > 0) options.num_threads = num_threads;  // load-time too: before the kernels are made
  if (required_features(prog) != c.header.required_features) {
    throw FormatError("engine file: the header's bf16/int8 requirements do not match the program's steps");
  }
  const auto want_precision = static_cast<std::uint32_t>(weight_precision(prog));
  const file::Section* weights = nullptr;
  for (const auto& s : c.sections) {
    if (s.kind == static_cast<std::uint32_t>(file::SectionKind::Weights) && s.precision == want_precision) weights = &s;
  }
  if (!weights) throw FormatError("engine file: no weights section for this engine's precision");
  if (weights->isa != static_cast<std::uint32_t>(file::PackIsa::Portable) && !cpu::packing_key_readable(weights->isa)) {
    throw FormatError("engine file: weights packed for " + cpu::packing_key_name(weights->isa) + " cannot be read by " +
                      file::producer_string() + " (" + cpu::packing_key_name(cpu::packing_key()) +
                      ", written by '" + c.header.producer + "'); compile the engine again from its .pt2");
  }
  loaded->packing_key = weights->isa;
  decode_weights(c.payload(*weights), weights->isa, prog, *loaded);
  return Engine(std::move(prog), options, std::move(loaded));  // validates the program, re-creates kernels
}

}  // namespace

std::vector<std::byte> file::encode_engine(const Program& program, const EngineOptions& options) {
  VectorSink sink;
  write_engine(sink, program, options, {});
  return std::move(sink.out);
}

std::vector<std::byte> Engine::serialize() const {
  VectorSink sink;
  write_engine(sink, impl_->program, impl_->options, {impl_->packs.get(), &impl_->read_plain});
  return std::move(sink.out);
}

// From memory: one copy of the bytes, which the constants then view.
// oneDNN sizes a primitive's thread team when it is made: new kernels are
// the only way to run on a different count. The serialized bytes are owned,
// not copied again.
Engine Engine::with_kernel_threads(int num_threads) const {
  if (num_threads <= 0 || num_threads == impl_->kernel_threads) return *this;
  auto bytes = std::make_shared<const std::vector<std::byte>>(serialize());
  auto loaded = std::make_shared<LoadedFile>();
  loaded->owner = bytes;
  return deserialize_span(*bytes, std::move(loaded), impl_->options.max_memory_bytes, num_threads);
}

Engine Engine::deserialize(const std::vector<std::byte>& file, std::uint64_t max_memory_bytes, int num_threads) {
  auto copy = std::make_shared<const std::vector<std::byte>>(file);
  auto loaded = std::make_shared<LoadedFile>();
  loaded->owner = copy;
  return deserialize_span(*copy, std::move(loaded), max_memory_bytes, num_threads);
}

void Engine::save(const std::string& path, const std::string& metadata) const {
  file::save_atomically(path, [&](file::Sink& sink) {
    std::vector<file::SectionSource> extra;
    if (!metadata.empty()) extra.push_back(file::metadata_section(metadata));
    write_engine(sink, impl_->program, impl_->options, {impl_->packs.get(), &impl_->read_plain}, std::move(extra));
  });
}

void file::save_atomically(const std::string& path, const std::function<void(Sink&)>& write) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) throw Error("engine save: cannot open '" + tmp + "' for writing");
  try {
    FileSink sink(f, tmp);
    write(sink);
  } catch (...) {
    std::fclose(f);
    std::remove(tmp.c_str());
    throw;
  }
  const bool flushed = std::fflush(f) == 0 && ::fsync(::fileno(f)) == 0;
  if (std::fclose(f) != 0 || !flushed) {
    std::remove(tmp.c_str());
    throw Error("engine save: writing '" + tmp + "' failed");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw Error("engine save: cannot rename '" + tmp + "' to '" + path + "'");
  }
}

void file::write_dynamic_file(Sink& out, const Program& program, const EngineOptions& options,
                              const std::vector<std::byte>& ranges, const std::string& metadata) {
  auto payload = std::make_shared<std::vector<std::byte>>(ranges);
  std::vector<SectionSource> extra(1);
  if (!metadata.empty()) extra.push_back(metadata_section(metadata));
  extra[0].entry.kind = static_cast<std::uint32_t>(SectionKind::Ranges);
  extra[0].entry.flags = kSectionRequired;
  extra[0].entry.alignment = 8;
  extra[0].size = payload->size();
  extra[0].write = [payload](Sink& s) { s.write(payload->data(), payload->size()); };
  write_engine(out, program, options, {}, std::move(extra), kDynamicMinor);  // weights plain: packed per shape
}

file::DynamicFile file::read_dynamic_file(std::span<const std::byte> bytes, std::shared_ptr<const void> owner) {
  const Container c = parse_container(bytes);
  check_features(c.header);
  const Section* program = c.find(SectionKind::Program);
  const Section* ranges = c.find(SectionKind::Ranges);
  if (!program || !ranges) throw FormatError("engine file: a dynamic-shape engine needs a program and a ranges section");
  const Section* plugins = c.find(SectionKind::PluginKernels);
  if (plugins) check_plugin_kernels(c.payload(*plugins));
  DynamicFile out;
  out.program = decode_program(c.payload(*program), out.options, c.header.required_features, /*dynamic_dims=*/true);
  check_plugin_steps(out.program, plugins != nullptr);
  for (const auto& step : out.program.steps) {
    if (!step.post_ops.empty() || step.precision != Precision::Float32) {
      throw FormatError("engine file: dynamic-shape engine: step '" + step.name +
                        "' has post-ops or a precision (those are chosen per shape)");
    }
  }
  const Section* weights = nullptr;
  for (const auto& s : c.sections) {
    if (s.kind == static_cast<std::uint32_t>(SectionKind::Weights)) weights = &s;
  }
  if (!weights || weights->isa != static_cast<std::uint32_t>(PackIsa::Portable) ||
      weights->precision != static_cast<std::uint32_t>(WeightPrecision::Float32)) {
    throw FormatError("engine file: a dynamic-shape engine needs one portable float32 weights section");
  }
  LoadedFile loaded;
  loaded.owner = std::move(owner);
  decode_weights(c.payload(*weights), weights->isa, out.program, loaded);
  out.ranges = c.payload(*ranges);
  return out;
}

// Maps the file read-only: the weights are the page cache's pages, shared by
// every process that loads the same file, and are verified (checksums) before
// anything uses them.
Engine Engine::load(const std::string& path, std::uint64_t max_memory_bytes, int num_threads) {
  auto mapping = ir::MappedFile::open(path);
  auto loaded = std::make_shared<LoadedFile>();
  loaded->owner = mapping;
  loaded->mapping = mapping;
  try {
    return deserialize_span(mapping->bytes(), std::move(loaded), max_memory_bytes, num_threads);
  } catch (const FormatError& e) {
    if (mapping->damaged()) {
      throw FormatError("'" + path + "': engine file: shrank while it was being loaded (write engine files to a new "
                        "name and rename them over the old one)");
    }
    throw FormatError("'" + path + "': " + e.what());
  } catch (const UnsupportedError& e) {
    const std::string what = e.what();
    if (what.rfind("engine file: ", 0) == 0) throw UnsupportedError("'" + path + "': " + what);  // a plugin to load
    throw;
  } catch (const Error& e) {
    if (typeid(e) != typeid(Error)) throw;  // InputError, UnsupportedError... keep their class
    throw Error("'" + path + "': " + e.what());  // the memory limit, named with the file
  }
}

}  // namespace atenrt::runtime
