// WeightPacks over oneDNN: memory descriptors, format tags, reorders.
#include "runtime/cpu/onednn/weight_packs.h"

#include <dnnl_version.h>

#include <algorithm>
#include <set>

#include "atenrt/errors.h"

namespace atenrt::runtime::cpu {

using onednn::compat::cpu_engine;
using onednn::compat::md_t;
using dnnl::memory;
using dt = memory::data_type;

struct WeightPacks::Impl {
  struct Pack {
    md_t md;
    memory mem;
    md_t have;                  // how the plain bytes it was made from are laid out
    bool rebuilds_plain = false;  // `have` is dense and of the pack's dtype: the plain bytes can be written back
    std::shared_ptr<Storage> keeps;  // the plain storage, so that its address is never another weight's
    bool from_file = false;     // reads the mapped file in place
    bool repacked = false;      // made at load from a stored pack in another layout
    bool aliases_plain = false; // the plain constant itself (the kernel wants plain)
  };
  std::map<const ProgramTensor*, StoredPack> stored;
  std::map<const ProgramTensor*, std::shared_ptr<const void>> owners;
  // By weight (weight_key): engines that share one WeightPacks (the shape
  // specializations of a dynamic engine) share the packs of the same constant.
  std::map<WeightKey, std::vector<Pack>> packs;
  std::vector<WeightKey> pending;  // packs added in this step (last of their lists)
  std::vector<WeightKey> taken;    // weights packed for this step
  std::set<WeightKey> read_plain;  // weights some kernel reads plain (note_read_plain)
};

WeightKey weight_key(const ProgramTensor& t) {
  WeightKey k;
  k.data = t.value.defined() ? static_cast<const void*>(t.value.raw_data())
          : t.pack_key        ? t.pack_key
                              : static_cast<const void*>(&t);
  k.dims = t.dims;
  k.dtype = t.dtype;
  return k;
}

WeightKey weight_key(const Tensor& value) { return {value.raw_data(), value.sizes(), value.dtype()}; }

namespace {

std::optional<dt> dt_of(DType d) {
  switch (d) {
    case DType::Float32: return dt::f32;
    case DType::BFloat16: return dt::bf16;
    case DType::Int8: return dt::s8;
    default: return std::nullopt;
  }
}

std::optional<DType> dtype_of(dt d) {
  switch (d) {
    case dt::f32: return DType::Float32;
    case dt::bf16: return DType::BFloat16;
    case dt::s8: return DType::Int8;
    default: return std::nullopt;
  }
}

md_t stored_md(const StoredPack& p) {
  return md_t(memory::dims(p.dims.begin(), p.dims.end()), *dt_of(p.dtype), static_cast<memory::format_tag>(p.tag));
}

memory reorder_into(const md_t& from, const void* data, const md_t& to) {
  memory src(from, cpu_engine(), const_cast<void*>(data));
  memory dst(to, cpu_engine());
  dnnl::stream stream(cpu_engine());
  dnnl::reorder(src, dst).execute(stream, src, dst);
  stream.wait();
  return dst;
}

// The format tag that describes `md` exactly, if any (a file names layouts by
// tag, so that a reader builds the descriptor itself instead of trusting one).
std::optional<std::uint32_t> tag_of(const md_t& md) {
  if (!onednn::compat::is_blocked_without_extra(md)) return std::nullopt;
  const memory::dims dims = md.dims();
  for (int t = dnnl_format_tag_any + 1; t < dnnl_format_tag_last; ++t) {
    try {
      if (md_t(dims, md.data_type(), static_cast<memory::format_tag>(t)) == md) return static_cast<std::uint32_t>(t);
    } catch (const dnnl::error&) {
      // a tag for another rank
    }
  }
  return std::nullopt;
}

// Whether `md` maps its elements one to one onto its whole byte span: plain
// strides that are some order of its dims (row-major, or transposed), so a
// reorder into it writes every byte of the plain weight it describes.
bool dense_plain(const md_t& md) {
  const auto& d = md.data;
  if (d.format_kind != dnnl_blocked || d.extra.flags != 0 || d.offset0 != 0 || d.format_desc.blocking.inner_nblks != 0) {
    return false;
  }
  std::vector<std::pair<std::int64_t, std::int64_t>> by_stride;  // (stride, size)
  for (int i = 0; i < d.ndims; ++i) {
    if (d.padded_dims[i] != d.dims[i]) return false;
    if (d.dims[i] != 1) by_stride.push_back({d.format_desc.blocking.strides[i], d.dims[i]});
  }
  std::sort(by_stride.begin(), by_stride.end());
  std::int64_t expect = 1;
  for (auto [stride, size] : by_stride) {
    if (stride != expect) return false;
    expect *= size;
  }
  return true;
}

std::uint32_t isa_code() {
  switch (dnnl::get_effective_cpu_isa()) {
    case dnnl::cpu_isa::sse41: return 1;
    case dnnl::cpu_isa::avx: return 2;
    case dnnl::cpu_isa::avx2: return 3;
    case dnnl::cpu_isa::avx2_vnni: return 4;
    case dnnl::cpu_isa::avx512_core: return 5;
    case dnnl::cpu_isa::avx512_core_vnni: return 6;
    case dnnl::cpu_isa::avx512_core_bf16: return 7;
    case dnnl::cpu_isa::avx512_core_amx: return 8;
    default: return 9;
  }
}

const char* isa_code_name(std::uint32_t code) {
  static const char* names[] = {"?",           "sse41",           "avx",              "avx2",           "avx2_vnni",
                                "avx512_core", "avx512_core_vnni", "avx512_core_bf16", "avx512_core_amx", "other"};
  return code < 10 ? names[code] : "?";
}

constexpr std::uint32_t kOnednnVersion = (DNNL_VERSION_MAJOR << 8) | DNNL_VERSION_MINOR;

}  // namespace

std::uint32_t packing_key() { return (kOnednnVersion << 16) | isa_code(); }

std::string packing_key_name(std::uint32_t key) {
  const std::uint32_t version = key >> 16, isa = key & 0xFFFF;
  return "oneDNN " + std::to_string(version >> 8) + "." + std::to_string(version & 0xFF) + " " + isa_code_name(isa);
}

bool packing_key_readable(std::uint32_t key) {
  const std::uint32_t isa = key & 0xFFFF;
  return (key >> 16) == kOnednnVersion && isa >= 1 && isa <= 9;
}

void check_stored_pack(const StoredPack& p, const ProgramTensor& t, const std::string& what) {
  auto bad = [&](const std::string& why) { throw FormatError("engine file: weights section: " + what + ": " + why); };
  // float32 weights pack as float32 or bfloat16 (bf16 steps); int8 weights (int8 steps) as int8.
  if (t.dtype != DType::Float32 && t.dtype != DType::Int8) bad("only float32 and int8 weights are stored packed");
  if (!dt_of(p.dtype) || (t.dtype == DType::Int8) != (p.dtype == DType::Int8)) {
    bad("packed dtype " + std::to_string(static_cast<int>(p.dtype)) + " does not fit a " +
        std::string(dtype_name(t.dtype)) + " weight");
  }
  if (p.tag <= dnnl_format_tag_any || p.tag >= dnnl_format_tag_last) bad("format tag " + std::to_string(p.tag) + " out of range");
  if (p.dims.empty() || p.dims.size() > DNNL_MAX_NDIMS) bad("packed rank " + std::to_string(p.dims.size()) + " out of range");
  std::int64_t numel = 1;
  for (auto d : p.dims) {
    if (d < 1 || d > (std::int64_t{1} << 40) || numel > (std::int64_t{1} << 62) / d) bad("packed dims out of range");
    numel *= d;
  }
  if (numel != numel_of(t.dims)) bad("packed dims hold " + std::to_string(numel) + " elements, the tensor " + std::to_string(numel_of(t.dims)));
  md_t md;
  try {
    md = stored_md(p);
  } catch (const dnnl::error&) {
    bad("format tag " + std::to_string(p.tag) + " does not fit " + std::to_string(p.dims.size()) + " dims");
  }
  if (md.get_size() != p.bytes) {
    bad(std::to_string(p.bytes) + " bytes, the packed layout needs " + std::to_string(md.get_size()));
  }
}

WeightPacks::WeightPacks() : impl_(std::make_unique<Impl>()) {}
WeightPacks::~WeightPacks() = default;

void WeightPacks::add_stored(const ProgramTensor* t, const StoredPack& pack, std::shared_ptr<const void> owner) {
  impl_->stored[t] = pack;
  impl_->owners[t] = std::move(owner);
}

bool WeightPacks::has_stored(const ProgramTensor* t) const { return impl_->stored.count(t) > 0; }

void WeightPacks::begin_step() {
  impl_->pending.clear();
  impl_->taken.clear();
}

void WeightPacks::end_step(bool kept) {
  if (!kept) {
    for (auto it = impl_->pending.rbegin(); it != impl_->pending.rend(); ++it) impl_->packs[*it].pop_back();
  }
  impl_->pending.clear();
}

bool WeightPacks::packed_in_step(const ProgramTensor* t) const {
  return std::find(impl_->taken.begin(), impl_->taken.end(), weight_key(*t)) != impl_->taken.end();
}

void WeightPacks::finish() {
  impl_->stored.clear();  // what no kernel took in place is not needed
  for (auto it = impl_->owners.begin(); it != impl_->owners.end();) {
    bool in_use = false;
    for (const auto& p : impl_->packs[weight_key(*it->first)]) in_use = in_use || p.from_file;
    it = in_use ? std::next(it) : impl_->owners.erase(it);
  }
}

std::optional<PackForFile> WeightPacks::for_file(const ProgramTensor* t) const {
  auto it = impl_->packs.find(weight_key(*t));
  if (it == impl_->packs.end() || it->second.size() != 1 || it->second[0].aliases_plain) return std::nullopt;
  const auto& p = it->second[0];
  const auto tag = tag_of(p.md);
  const auto dtype = dtype_of(p.md.data_type());
  if (!tag || !dtype) return std::nullopt;
  const memory::dims d = p.md.dims();
  return PackForFile{*tag, *dtype, Dims(d.begin(), d.end()), static_cast<const std::byte*>(p.mem.get_data_handle()),
                     p.md.get_size()};
}

bool WeightPacks::release_plain(const ProgramTensor* t) {
  auto it = impl_->packs.find(weight_key(*t));
  if (it == impl_->packs.end() || it->second.empty()) return false;
  for (const auto& p : it->second) {
    if (p.aliases_plain) return false;
  }
  for (auto& p : it->second) p.keeps.reset();
  return true;
}

void WeightPacks::note_read_plain(const ProgramTensor* t) { impl_->read_plain.insert(weight_key(*t)); }

bool WeightPacks::can_rebuild_plain(const Tensor& value) const {
  const WeightKey key = weight_key(value);
  if (impl_->read_plain.count(key)) return false;
  auto it = impl_->packs.find(key);
  if (it == impl_->packs.end() || it->second.empty()) return false;
  bool rebuilds = false;
  for (const auto& p : it->second) {
    if (p.aliases_plain) return false;
    rebuilds = rebuilds || (p.rebuilds_plain && p.have.get_size() == value.nbytes());
  }
  return rebuilds;
}

void WeightPacks::rebuild_plain(const Tensor& value) const {
  const auto& list = impl_->packs.at(weight_key(value));
  for (const auto& p : list) {
    if (!p.rebuilds_plain || p.have.get_size() != value.nbytes()) continue;
    memory src(p.md, cpu_engine(), p.mem.get_data_handle());
    memory dst(p.have, cpu_engine(), const_cast<std::byte*>(value.raw_data()));
    dnnl::stream stream(cpu_engine());
    dnnl::reorder(src, dst).execute(stream, src, dst);
    stream.wait();
    return;
  }
  throw std::logic_error("rebuild_plain: no pack holds the plain bytes of a " + shape_to_string(value.sizes()) + " weight");
}

WeightPacks::Totals WeightPacks::totals() const {
  Totals t;
  for (const auto& [tensor, list] : impl_->packs) {
    for (const auto& p : list) {
      if (p.aliases_plain) continue;
      (p.from_file ? t.mapped_bytes : t.private_bytes) += p.md.get_size();
      t.repacked += p.repacked;
    }
  }
  return t;
}

namespace onednn {

dnnl::memory packed_weight(WeightPacks* packs, const ProgramTensor& t, const md_t& have, const md_t& want) {
  if (!packs) return reorder_into(have, t.value.raw_data(), want);
  auto& I = packs->impl();
  const WeightKey key = weight_key(t);
  auto& list = I.packs[key];
  for (const auto& p : list) {
    if (p.md == want) {
      if (!p.aliases_plain) I.taken.push_back(key);
      return p.mem;
    }
  }
  WeightPacks::Impl::Pack p;
  p.md = want;
  p.have = have;
  p.rebuilds_plain = dense_plain(have) && have.data_type() == want.data_type();
  if (t.value.defined()) p.keeps = t.value.storage();
  if (auto it = I.stored.find(&t); it != I.stored.end()) {
    const md_t from = stored_md(it->second);
    if (from == want) {
      p.mem = memory(want, cpu_engine(), const_cast<std::byte*>(it->second.data));
      p.from_file = true;
    } else {
      p.mem = reorder_into(from, it->second.data, want);
      p.repacked = true;
    }
  } else if (want == have) {
    p.mem = memory(want, cpu_engine(), const_cast<std::byte*>(t.value.raw_data()));
    p.aliases_plain = true;
  } else {
    p.mem = reorder_into(have, t.value.raw_data(), want);
  }
  if (!p.aliases_plain) I.taken.push_back(key);
  list.push_back(std::move(p));
  I.pending.push_back(key);
  return list.back().mem;
}

}  // namespace onednn
}  // namespace atenrt::runtime::cpu
