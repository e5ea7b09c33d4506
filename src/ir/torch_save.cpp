#include "ir/torch_save.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <fstream>
#include <limits>

#include "atenrt/errors.h"

namespace atenrt::io {
namespace {

// torch's storage class for each dtype (torch/storage.py's legacy names,
// which torch.load of every version maps back to the dtype).
const char* storage_class(DType dtype) {
  switch (dtype) {
    case DType::Float32: return "FloatStorage";
    case DType::Float16: return "HalfStorage";
    case DType::BFloat16: return "BFloat16Storage";
    case DType::Float64: return "DoubleStorage";
    case DType::Int64: return "LongStorage";
    case DType::Int32: return "IntStorage";
    case DType::Int16: return "ShortStorage";
    case DType::Int8: return "CharStorage";
    case DType::UInt8: return "ByteStorage";
    case DType::Bool: return "BoolStorage";
  }
  return "FloatStorage";
}

// The pickle opcodes of protocol 2 that torch.save itself emits.
class Pickler {
 public:
  Pickler() { out_ += "\x80\x02"; }  // PROTO 2
  void mark() { out_ += '('; }
  void tuple() { out_ += 't'; }
  void empty_tuple() { out_ += ')'; }
  void empty_dict() { out_ += '}'; }
  void setitems() { out_ += 'u'; }
  void reduce() { out_ += 'R'; }
  void binpersid() { out_ += 'Q'; }
  void boolean(bool b) { out_ += b ? '\x88' : '\x89'; }
  void global(const std::string& module, const std::string& name) { out_ += "c" + module + "\n" + name + "\n"; }
  void string(const std::string& s) {
    out_ += 'X';
    le(s.size(), 4);
    out_ += s;
  }
  void integer(std::int64_t v) {
    if (v >= 0 && v < 256) {
      out_ += 'K';
      le(static_cast<std::uint64_t>(v), 1);
    } else if (v >= 0 && v < 65536) {
      out_ += 'M';
      le(static_cast<std::uint64_t>(v), 2);
    } else if (v >= std::numeric_limits<std::int32_t>::min() && v <= std::numeric_limits<std::int32_t>::max()) {
      out_ += 'J';
      le(static_cast<std::uint32_t>(static_cast<std::int32_t>(v)), 4);
    } else {
      out_ += "\x8a\x08";  // LONG1 of 8 bytes, two's complement
      le(static_cast<std::uint64_t>(v), 8);
    }
  }
  void int_tuple(const std::vector<std::int64_t>& values) {
    if (values.empty()) return empty_tuple();
    mark();
    for (auto v : values) integer(v);
    tuple();
  }
  std::string finish() {
    out_ += '.';  // STOP
    return std::move(out_);
  }

 private:
  void le(std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out_ += static_cast<char>((v >> (8 * i)) & 0xff);
  }
  std::string out_;
};

// _rebuild_tensor_v2(storage, offset, size, stride, requires_grad, backward_hooks)
// on the persistent id ('storage', <class>, key, 'cpu', numel).
void pickle_tensor(Pickler& p, const Tensor& t, const std::string& key) {
  std::vector<std::int64_t> strides(t.sizes().size());
  std::int64_t step = 1;
  for (std::size_t d = strides.size(); d-- > 0;) {
    strides[d] = step;
    step *= std::max<std::int64_t>(t.sizes()[d], 1);
  }
  p.global("torch._utils", "_rebuild_tensor_v2");
  p.mark();
  p.mark();
  p.string("storage");
  p.global("torch", storage_class(t.dtype()));
  p.string(key);
  p.string("cpu");
  p.integer(t.numel());
  p.tuple();
  p.binpersid();
  p.integer(0);
  p.int_tuple(t.sizes());
  p.int_tuple(strides);
  p.boolean(false);
  p.global("collections", "OrderedDict");
  p.empty_tuple();
  p.reduce();
  p.tuple();
  p.reduce();
}

std::uint32_t crc32(const std::string& bytes) {
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
  for (unsigned char b : bytes) c = table[(c ^ b) & 0xff] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

// A zip of stored (uncompressed) records, as torch's PyTorchStreamWriter writes.
class StoredZip {
 public:
  void add(const std::string& name, const std::string& data) {
    if (out_.size() + central_.size() + 2 * name.size() + data.size() + 256 > 0xFFFFFFFFull) {
      throw Error("torch.save file: record " + name + " would pass 4 GiB (atenrt writes no zip64)");
    }
    const std::uint32_t crc = crc32(data);
    const auto offset = static_cast<std::uint32_t>(out_.size());
    header(out_, 0x04034b50u, name, crc, data.size(), 0, false);
    out_ += data;
    header(central_, 0x02014b50u, name, crc, data.size(), offset, true);
    ++count_;
  }
  std::string finish() {
    const auto cd_offset = static_cast<std::uint32_t>(out_.size());
    out_ += central_;
    le(out_, 0x06054b50u, 4);
    le(out_, 0, 4);  // this disk, the disk with the directory
    le(out_, count_, 2);
    le(out_, count_, 2);
    le(out_, central_.size(), 4);
    le(out_, cd_offset, 4);
    le(out_, 0, 2);  // comment length
    return std::move(out_);
  }

 private:
  static void le(std::string& s, std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) s += static_cast<char>((v >> (8 * i)) & 0xff);
  }
  static void header(std::string& s, std::uint32_t signature, const std::string& name, std::uint32_t crc,
                     std::size_t size, std::uint32_t offset, bool central) {
    le(s, signature, 4);
    if (central) le(s, 20, 2);  // version made by
    le(s, 20, 2);               // version needed
    le(s, 0, 2);                // flags
    le(s, 0, 2);                // method: stored
    le(s, 0, 2);                // time
    le(s, 0x21, 2);             // date: 1980-01-01
    le(s, crc, 4);
    le(s, size, 4);
    le(s, size, 4);
    le(s, name.size(), 2);
    le(s, 0, 2);  // extra length
    if (central) {
      le(s, 0, 2);  // comment length
      le(s, 0, 2);  // disk
      le(s, 0, 2);  // internal attributes
      le(s, 0, 4);  // external attributes
      le(s, offset, 4);
    }
    s += name;
  }
  std::string out_, central_;
  std::uint64_t count_ = 0;
};

}  // namespace

std::string torch_save_bytes(const std::vector<Tensor>& tensors, const std::vector<std::string>& names,
                             const std::string& stem) {
  if (!names.empty() && names.size() != tensors.size()) {
    throw Error("torch.save file: " + std::to_string(names.size()) + " names for " + std::to_string(tensors.size()) +
                " tensors");
  }
  Pickler p;
  if (names.empty()) {
    p.mark();
  } else {
    p.empty_dict();
    p.mark();
  }
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    if (!names.empty()) p.string(names[i]);
    pickle_tensor(p, tensors[i], std::to_string(i));
  }
  if (names.empty()) {
    p.tuple();
  } else {
    p.setitems();
  }
  StoredZip zip;
  zip.add(stem + "/data.pkl", p.finish());
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    const auto bytes = tensors[i].to_bytes();
    zip.add(stem + "/data/" + std::to_string(i), std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  }
  zip.add(stem + "/version", "3\n");
  return zip.finish();
}

void write_torch_save(const std::string& path, const std::vector<Tensor>& tensors,
                      const std::vector<std::string>& names) {
  // torch names the folder inside after the file (x.pt -> x/); any name loads.
  std::string stem = path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
  if (const auto dot = stem.find('.'); dot != std::string::npos) stem.resize(dot);
  bool plain = !stem.empty();
  for (char c : stem) plain = plain && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-');
  const std::string bytes = torch_save_bytes(tensors, names, plain ? stem : "archive");
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw Error("cannot create " + path);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out.flush()) throw Error("cannot write " + path);
}

}  // namespace atenrt::io
