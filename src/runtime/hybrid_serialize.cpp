// Engine files of hybrid programs: one required torch-segments section
// (docs/engine-format.md, kind 4) holding the slots, the torch nodes with
// their arguments, the weights they read, and each engine segment as a
// complete engine file of its own (verified by the same loader): a static
// engine, or a dynamic one (a shaped segment, read by the loader the caller
// gives). A program with dynamic inputs or shaped segments is format 2.4:
// its input ranges follow the stages (2.1 readers refuse it for those
// trailing bytes); the rest stay 2.1, byte for byte as before.
#include <unistd.h>

#include <cstdio>

#include "atenrt/errors.h"
#include "runtime/hybrid.h"
#include "ir/mapped_file.h"
#include "runtime/serialize.h"
#include "runtime/serialize_fields.h"

namespace atenrt::runtime {
namespace {

constexpr const char* kSection = "torch segments";
constexpr std::uint16_t kHybridMinor = 1;         // 2.1 added the torch-segments section
constexpr std::uint16_t kDynamicHybridMinor = 4;  // 2.4: input ranges, shaped segments

bool needs_ranges(const HybridProgram& p) {
  for (const auto& st : p.stages) {
    if (st.shaped) return true;
    for (const auto& n : st.nodes) {
      if (!n.sym_args.empty()) return true;
    }
  }
  return !p.input_ranges.empty();
}

using file::Reader;
using file::read_ids;
using file::write_ids;
using file::Writer;


void write_bytes(Writer& w, const std::vector<std::byte>& bytes) {
  w.raw<std::uint64_t>(bytes.size());
  w.out.insert(w.out.end(), bytes.begin(), bytes.end());
}

void write_call(Writer& w, const torch_abi::OpCall& c) {
  w(c.node);
  w(c.op);
  w(c.overload);
  w.raw<std::uint64_t>(c.num_tensors);
  w.raw<std::uint64_t>(c.num_outputs);
  w.raw<std::uint64_t>(c.args.size());
  for (const auto& a : c.args) {
    w(a.name);
    w.raw<std::uint8_t>(static_cast<std::uint8_t>(a.kind));
    w(a.at_default);
    w(a.i);
    w(a.f);
    w(a.ints);
    w(a.floats);
    w(a.s);
  }
}

constexpr int kArgKinds = static_cast<int>(torch_abi::ArgKind::Device) + 1;
constexpr std::size_t kMaxCount = std::size_t{1} << 20;  // tensors or outputs of one call

torch_abi::OpCall read_call(Reader& r) {
  torch_abi::OpCall c;
  r(c.node);
  r(c.op);
  r(c.overload);
  c.num_tensors = r.raw<std::uint64_t>();
  c.num_outputs = r.raw<std::uint64_t>();
  if (c.num_tensors > kMaxCount || c.num_outputs > kMaxCount) r.corrupt(c.node + ": tensor count out of range");
  c.args.resize(r.count(16));
  for (auto& a : c.args) {
    r(a.name);
    r.e(a.kind, kArgKinds, "argument kind");
    r(a.at_default);
    r(a.i);
    r(a.f);
    r(a.ints);
    r(a.floats);
    r(a.s);
  }
  return c;
}

std::vector<std::byte> encode_payload(const HybridProgram& p) {
  Writer w;
  const bool dynamic = needs_ranges(p);
  w.raw<std::uint64_t>(p.slots.size());
  for (const auto& s : p.slots) {
    w(s.name);
    w.e(s.dtype, kDTypeCount);
    w(s.dims);
    w(s.torch_only);
  }
  write_ids(w, p.inputs);
  write_ids(w, p.outputs);
  w.raw<std::uint64_t>(p.constants.size());
  for (const auto& [id, t] : p.constants) {
    w.raw<std::int32_t>(id);
    w.e(t.dtype(), kDTypeCount);
    w(t.sizes());
    write_bytes(w, t.to_bytes());
  }
  w.raw<std::uint64_t>(p.stages.size());
  for (const auto& st : p.stages) {
    w.e(st.kind, 2);
    if (st.kind == HybridStage::Kind::Engine) {
      write_ids(w, st.inputs);
      write_ids(w, st.outputs);
      write_bytes(w, st.engine ? st.engine->serialize() : st.shaped->serialize());
      continue;
    }
    w.raw<std::uint64_t>(st.nodes.size());
    for (const auto& n : st.nodes) {
      write_call(w, n.call);
      write_ids(w, n.inputs);
      write_ids(w, n.outputs);
      if (!dynamic) continue;
      w.raw<std::uint64_t>(n.sym_args.size());
      for (const auto& sa : n.sym_args) {
        w.raw<std::uint32_t>(sa.arg);
        w(sa.element);
        w(sa.expr);
      }
    }
  }
  if (dynamic) {
    w(!p.input_ranges.empty());  // false: static inputs, only the data varies
    if (!p.input_ranges.empty()) file::write_input_ranges(w, p.input_ranges);
  }
  return std::move(w.out);
}

HybridProgram decode_payload(std::span<const std::byte> bytes, std::uint16_t minor, const ShapedSegmentLoader& shaped,
                             int num_threads) {
  Reader r(bytes.data(), bytes.size(), kSection);
  HybridProgram p;
  p.slots.resize(r.count(18));
  for (auto& s : p.slots) {
    r(s.name);
    r.e(s.dtype, kDTypeCount, "dtype");
    r(s.dims);
    r(s.torch_only);
  }
  p.inputs = read_ids(r);
  p.outputs = read_ids(r);
  const std::size_t constants = r.count(21);
  for (std::size_t k = 0; k < constants; ++k) {
    const int id = r.raw<std::int32_t>();
    DType dtype{};
    r.e(dtype, kDTypeCount, "dtype");
    Dims dims;
    r(dims);
    for (auto d : dims) {
      if (d < 0 || d > (std::int64_t{1} << 40)) r.corrupt("constant " + std::to_string(k) + " has dim " + std::to_string(d));
    }
    const std::size_t n = r.count(1);
    const auto want = static_cast<unsigned __int128>(numel_of(dims)) * element_size(dtype);
    if (want != n) r.corrupt("constant " + std::to_string(k) + " has " + std::to_string(n) + " bytes, its shape needs " + std::to_string(static_cast<std::uint64_t>(want)));
    const std::byte* at = r.take(n);
    auto storage = std::make_shared<Storage>(std::vector<std::byte>(at, at + n));
    p.constants.emplace_back(id, Tensor(std::move(storage), dtype, dims, contiguous_strides(dims), 0));
  }
  p.stages.resize(r.count(9));
  for (std::size_t k = 0; k < p.stages.size(); ++k) {
    auto& st = p.stages[k];
    r.e(st.kind, 2, "stage kind");
    if (st.kind == HybridStage::Kind::Engine) {
      st.inputs = read_ids(r);
      st.outputs = read_ids(r);
      const std::size_t n = r.count(1);
      const std::byte* at = r.take(n);
      try {
        const std::span<const std::byte> nested(at, n);
        if (file::parse_container(nested).find(file::SectionKind::Ranges)) {
          if (!shaped) throw FormatError("a dynamic-shape engine segment, which this reader cannot load");
          st.shaped = shaped(nested);
        } else {
          st.engine = std::make_shared<const Engine>(Engine::deserialize(std::vector<std::byte>(at, at + n), 0, num_threads));
        }
      } catch (const FormatError& e) {
        r.corrupt("engine segment (stage " + std::to_string(k) + "): " + e.what());
      }
      continue;
    }
    st.nodes.resize(r.count(64));
    for (auto& n : st.nodes) {
      n.call = read_call(r);
      n.inputs = read_ids(r);
      n.outputs = read_ids(r);
      if (minor < kDynamicHybridMinor) continue;
      n.sym_args.resize(r.count(20));  // u32 arg, i64 element, string
      for (auto& sa : n.sym_args) {
        sa.arg = r.raw<std::uint32_t>();
        r(sa.element);
        r(sa.expr);
        if (sa.expr.size() > 4096) r.corrupt(n.call.node + ": a run-time size longer than 4096 bytes");
      }
    }
  }
  if (minor >= kDynamicHybridMinor) {
    bool dynamic_inputs = false;
    r(dynamic_inputs);
    if (dynamic_inputs) p.input_ranges = file::read_input_ranges(r, p.inputs.size());
  }
  if (!r.done()) r.corrupt(std::to_string(r.left()) + " trailing bytes");
  return p;
}

}  // namespace

bool HybridEngine::is_hybrid_file(std::span<const std::byte> bytes) {
  const file::Container c = file::parse_container(bytes);
  return c.find(file::SectionKind::TorchSegments) != nullptr;
}

std::vector<std::byte> HybridEngine::serialize(const std::string& metadata) const {
  auto payload = std::make_shared<std::vector<std::byte>>(encode_payload(program_));
  file::Header header;
  header.minor = needs_ranges(program_) ? kDynamicHybridMinor : kHybridMinor;
  header.producer = file::producer_string();
  file::SectionSource section;
  section.entry.kind = static_cast<std::uint32_t>(file::SectionKind::TorchSegments);
  section.entry.flags = file::kSectionRequired;
  section.entry.alignment = 8;
  section.size = payload->size();
  section.write = [payload](file::Sink& out) { out.write(payload->data(), payload->size()); };
  struct Bytes : file::Sink {
    std::vector<std::byte> out;
    void write(const void* data, std::size_t n) override {
      const auto* p = static_cast<const std::byte*>(data);
      out.insert(out.end(), p, p + n);
    }
  } sink;
  std::vector<file::SectionSource> sections{section};
  if (!metadata.empty()) sections.push_back(file::metadata_section(metadata));
  file::write_container(sink, header, sections);
  return std::move(sink.out);
}

HybridEngine HybridEngine::deserialize(std::span<const std::byte> bytes, const std::string& where,
                                       const ShapedSegmentLoader& shaped, int num_threads) {
  try {
    const file::Container c = file::parse_container(bytes);
    const file::Section* s = c.find(file::SectionKind::TorchSegments);
    if (!s) throw FormatError("engine file: has no torch-segments section");
    return HybridEngine(decode_payload(c.payload(*s), c.header.minor, shaped, num_threads));
  } catch (const FormatError& e) {
    throw FormatError(where.empty() ? std::string(e.what()) : "'" + where + "': " + e.what());
  } catch (const UnsupportedError& e) {
    throw UnsupportedError(where.empty() ? std::string(e.what()) : "'" + where + "': " + e.what());
  }
}

void HybridEngine::save(const std::string& path, const std::string& metadata) const {
  const auto bytes = serialize(metadata);
  file::save_atomically(path, [&](file::Sink& sink) { sink.write(bytes.data(), bytes.size()); });
}

HybridEngine HybridEngine::load(const std::string& path, const ShapedSegmentLoader& shaped, int num_threads) {
  auto mapping = ir::MappedFile::open(path);
  return deserialize(mapping->bytes(), path, shaped, num_threads);
}

}  // namespace atenrt::runtime
