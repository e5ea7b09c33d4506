#include "ir/npz.h"

#include <zip.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <regex>

#include "atenrt/errors.h"
#include "ir/checked_math.h"

namespace atenrt::io {
namespace {

struct DescrEntry {
  const char* descr;
  DType dtype;
};
// bfloat16 has no numpy type; it is written as float32 by callers.
constexpr DescrEntry kDescrs[] = {
    {"<f4", DType::Float32}, {"<f2", DType::Float16}, {"<f8", DType::Float64},
    {"<i8", DType::Int64},   {"<i4", DType::Int32},   {"<i2", DType::Int16},
    {"|i1", DType::Int8},    {"|u1", DType::UInt8},   {"|b1", DType::Bool},
};

std::string header_value(const std::string& header, const std::string& key, const std::string& where) {
  // Values are Python literals: 'descr': '<f4', 'fortran_order': False, 'shape': (2, 3),
  const auto k = header.find("'" + key + "'");
  if (k == std::string::npos) throw FormatError(where + ": .npy header has no '" + key + "'");
  auto colon = header.find(':', k);
  if (colon == std::string::npos) throw FormatError(where + ": .npy header is malformed");
  auto start = header.find_first_not_of(' ', colon + 1);
  if (start == std::string::npos) throw FormatError(where + ": .npy header is malformed");
  std::size_t end;
  if (header[start] == '(') {
    end = header.find(')', start);
    if (end == std::string::npos) throw FormatError(where + ": .npy shape is malformed");
    return header.substr(start, end - start + 1);
  }
  if (header[start] == '\'') {
    end = header.find('\'', start + 1);
    if (end == std::string::npos) throw FormatError(where + ": .npy header is malformed");
    return header.substr(start + 1, end - start - 1);
  }
  end = header.find_first_of(",}", start);
  if (end == std::string::npos) throw FormatError(where + ": .npy header is malformed");
  while (end > start && header[end - 1] == ' ') --end;  // a Python literal may have spaces before the comma
  return header.substr(start, end - start);
}

struct NpyHeader {
  DType dtype = DType::Float32;
  std::vector<std::int64_t> shape;
  std::size_t data_start = 0;  // bytes of magic + header
  std::uint64_t data_bytes = 0;
  bool fortran_order = false;  // payload is column-major (numpy.asfortranarray, MATLAB exports)
};

// The payload bytes of `h` (in h's order) as a row-major tensor.
Tensor row_major(const NpyHeader& h, Tensor payload) {
  if (!h.fortran_order || h.shape.size() < 2) return payload;
  // Column-major: the first dimension is the fastest.
  std::vector<std::int64_t> strides(h.shape.size());
  std::int64_t step = 1;
  for (std::size_t d = 0; d < h.shape.size(); ++d) {
    strides[d] = step;
    step *= std::max<std::int64_t>(h.shape[d], 1);
  }
  return Tensor(payload.storage(), h.dtype, h.shape, strides, 0).contiguous();
}

constexpr std::size_t kMaxHeaderBytes = 1 << 16;  // numpy itself refuses headers over 10000

// The fixed part of a .npy header: its version and where the header text lies.
void npy_preamble(const std::string& bytes, const std::string& where, std::size_t& header_start,
                  std::size_t& header_len) {
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0) {
    throw FormatError(where + ": not a .npy payload (bad magic)");
  }
  const int major = static_cast<unsigned char>(bytes[6]);
  if (major == 1) {
    header_len = static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
    header_start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) throw FormatError(where + ": truncated .npy header");
    std::uint32_t len = 0;
    std::memcpy(&len, bytes.data() + 8, 4);
    if (len > kMaxHeaderBytes) {
      throw FormatError(where + ": .npy header of " + std::to_string(len) + " bytes (limit " +
                        std::to_string(kMaxHeaderBytes) + ")");
    }
    header_len = len;
    header_start = 12;
  } else {
    throw FormatError(where + ": unsupported .npy version " + std::to_string(major));
  }
}

// Parses the header text at the start of `bytes` (which must hold all of it).
NpyHeader parse_header(const std::string& bytes, const std::string& where) {
  std::size_t header_start = 0, header_len = 0;
  npy_preamble(bytes, where, header_start, header_len);
  if (header_start + header_len > bytes.size()) throw FormatError(where + ": truncated .npy header");
  const std::string header = bytes.substr(header_start, header_len);
  const std::string descr = header_value(header, "descr", where);
  const std::string order = header_value(header, "fortran_order", where);
  if (order != "False" && order != "True") {
    throw FormatError(where + ": .npy 'fortran_order' is '" + order.substr(0, 16) + "', not True or False");
  }
  std::optional<DType> dtype;
  for (const auto& d : kDescrs) {
    if (descr == d.descr || (descr.size() == 3 && descr.substr(1) == std::string(d.descr).substr(1) &&
                             (descr[0] == '=' || descr[0] == '|' || descr[0] == '<'))) {
      dtype = d.dtype;
    }
  }
  if (!dtype) throw FormatError(where + ": unsupported array dtype '" + descr + "'");
  NpyHeader h;
  h.dtype = *dtype;
  h.fortran_order = order == "True";
  std::string shape_text = header_value(header, "shape", where);
  static const std::regex number("[0-9]+");
  for (auto it = std::sregex_iterator(shape_text.begin(), shape_text.end(), number);
       it != std::sregex_iterator(); ++it) {
    const std::string digits = it->str();
    if (digits.size() > 15) throw FormatError(where + ": array dimension " + digits + " is too large");
    h.shape.push_back(std::stoll(digits));
  }
  h.data_start = header_start + header_len;
  h.data_bytes = checked::nbytes(h.shape, element_size(h.dtype),
                                 where + ": bytes of an array of shape " + shape_to_string(h.shape));
  return h;
}

// Reads one member header first. Nothing beyond the header is inflated until
// `check` has seen it and the declared size matches it exactly.
Tensor read_member(zip_t* archive, zip_uint64_t index, const std::string& where, std::size_t position,
                   const NpyHeaderCheck& check, std::uint64_t& bytes_left) {
  zip_stat_t st;
  zip_stat_init(&st);
  const zip_uint64_t need = ZIP_STAT_SIZE | ZIP_STAT_COMP_SIZE | ZIP_STAT_COMP_METHOD;
  if (zip_stat_index(archive, index, 0, &st) != 0 || (st.valid & need) != need) {
    throw FormatError(where + ": cannot read the zip entry header");
  }
  if (st.comp_method != ZIP_CM_STORE && st.comp_method != ZIP_CM_DEFLATE) {
    throw FormatError(where + ": unsupported compression method " + std::to_string(st.comp_method));
  }
  std::unique_ptr<zip_file_t, decltype(&zip_fclose)> file(zip_fopen_index(archive, index, 0), &zip_fclose);
  if (!file) throw FormatError(where + ": cannot open entry");
  auto read_into = [&](char* dst, std::uint64_t n, const char* what) {
    std::uint64_t got = 0;
    while (got < n) {
      const zip_int64_t r = zip_fread(file.get(), dst + got, n - got);
      if (r < 0) {
        throw FormatError(where + ": cannot read " + what + " (" + zip_file_strerror(file.get()) + ")");
      }
      if (r == 0) break;
      got += static_cast<std::uint64_t>(r);
    }
    return got;
  };
  // The preamble, then the header text, then (after the checks) the payload.
  std::string head(std::min<std::uint64_t>(12, st.size), '\0');
  head.resize(read_into(head.data(), head.size(), "the .npy header"));
  std::size_t header_start = 0, header_len = 0;
  npy_preamble(head, where, header_start, header_len);
  const std::size_t have = head.size();
  if (header_start + header_len > st.size) throw FormatError(where + ": truncated .npy header");
  head.resize(header_start + header_len);
  if (head.size() > have &&
      read_into(head.data() + have, head.size() - have, "the .npy header") != head.size() - have) {
    throw FormatError(where + ": truncated .npy header");
  }
  const NpyHeader h = parse_header(head, where);
  if (check) check(position, where, h.dtype, h.shape);
  if (st.comp_method == ZIP_CM_STORE) {
    if (st.size != st.comp_size) {
      throw FormatError(where + ": stored zip entry has size " + std::to_string(st.size) +
                        " but compressed size " + std::to_string(st.comp_size));
    }
  } else if (st.size / 1032 > st.comp_size + 1) {
    // Deflate cannot expand more than ~1032x. No ratio bound beyond that: the
    // size is now known to be exactly what the header (checked above) needs.
    throw FormatError(where + ": deflated member claims " + std::to_string(st.size) + " bytes from " +
                      std::to_string(st.comp_size) + " compressed bytes, more than deflate can expand");
  }
  if (st.size - h.data_start != h.data_bytes) {
    throw FormatError(where + ": array of shape " + shape_to_string(h.shape) + " and dtype " +
                      std::string(dtype_name(h.dtype)) + " needs " + std::to_string(h.data_bytes) +
                      " bytes but the member declares " + std::to_string(st.size - h.data_start));
  }
  if (h.data_bytes > bytes_left) {
    throw FormatError(where + ": array of " + std::to_string(h.data_bytes) +
                      " bytes exceeds what is left of the input limit (" + std::to_string(bytes_left) +
                      " bytes)");
  }
  bytes_left -= h.data_bytes;
  Tensor t(h.dtype, h.shape);
  char* dst = reinterpret_cast<char*>(t.raw_mutable_data());
  if (read_into(dst, h.data_bytes, "the array") != h.data_bytes) {
    throw FormatError(where + ": member is short: it holds fewer than the " + std::to_string(h.data_bytes) +
                      " bytes its header needs");
  }
  char extra = 0;
  const zip_int64_t r = zip_fread(file.get(), &extra, 1);  // also makes libzip check the CRC
  if (r < 0) throw FormatError(where + ": cannot read the array (" + zip_file_strerror(file.get()) + ")");
  if (r > 0) throw FormatError(where + ": member holds more bytes than its header needs");
  return row_major(h, std::move(t));
}

}  // namespace

Tensor parse_npy(const std::string& bytes, const std::string& where) {
  const NpyHeader h = parse_header(bytes, where);
  if (bytes.size() - h.data_start != h.data_bytes) {
    throw FormatError(where + ": array of shape " + shape_to_string(h.shape) + " and dtype " +
                      std::string(dtype_name(h.dtype)) + " needs " + std::to_string(h.data_bytes) +
                      " bytes but the payload has " + std::to_string(bytes.size() - h.data_start));
  }
  Tensor t(h.dtype, h.shape);
  if (h.data_bytes) std::memcpy(t.raw_mutable_data(), bytes.data() + h.data_start, h.data_bytes);
  return row_major(h, std::move(t));
}

std::string serialize_npy(const Tensor& tensor) {
  const char* descr = nullptr;
  for (const auto& d : kDescrs) {
    if (d.dtype == tensor.dtype()) descr = d.descr;
  }
  if (!descr) {
    throw Error("cannot write a " + std::string(dtype_name(tensor.dtype())) + " array to .npy");
  }
  std::string shape = "(";
  for (std::size_t i = 0; i < tensor.sizes().size(); ++i) {
    shape += std::to_string(tensor.sizes()[i]) + (tensor.sizes().size() == 1 ? "," : (i + 1 < tensor.sizes().size() ? ", " : ""));
  }
  shape += ")";
  std::string header = "{'descr': '" + std::string(descr) + "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Pad so that the data starts on a 64-byte boundary, ending with '\n'.
  const std::size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>((header.size() >> 8) & 0xff);
  out += header;
  const auto bytes = tensor.to_bytes();
  out.append(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  return out;
}

std::vector<std::pair<std::string, Tensor>> read_npz_named(const std::string& path, const NpyHeaderCheck& check,
                                                           std::uint64_t max_bytes) {
  int err = 0;
  std::unique_ptr<zip_t, decltype(&zip_discard)> archive(zip_open(path.c_str(), ZIP_RDONLY, &err), &zip_discard);
  if (!archive) {
    zip_error_t ze;
    zip_error_init_with_code(&ze, err);
    std::string msg = zip_error_strerror(&ze);
    zip_error_fini(&ze);
    throw FormatError(path + ": cannot open as .npz: " + msg);
  }
  const zip_int64_t n = zip_get_num_entries(archive.get(), 0);
  std::map<std::int64_t, zip_uint64_t> positional;
  std::vector<zip_uint64_t> others;
  static const std::regex arr_name("arr_([0-9]{1,9})\\.npy");
  for (zip_int64_t i = 0; i < n; ++i) {
    const char* name = zip_get_name(archive.get(), static_cast<zip_uint64_t>(i), 0);
    if (!name) continue;
    std::cmatch m;
    if (std::regex_match(name, m, arr_name)) {
      positional[std::stoll(m[1].str())] = static_cast<zip_uint64_t>(i);
    } else {
      others.push_back(static_cast<zip_uint64_t>(i));
    }
  }
  std::vector<zip_uint64_t> order;
  if (!positional.empty()) {
    std::int64_t expect = 0;
    for (const auto& [k, idx] : positional) {
      if (k != expect++) {
        throw FormatError(path + ": arrays must be arr_0, arr_1, ... without gaps (arr_" +
                          std::to_string(expect - 1) + " is missing)");
      }
      order.push_back(idx);
    }
  } else {
    order = others;
  }
  std::vector<std::pair<std::string, Tensor>> tensors;
  std::uint64_t bytes_left = max_bytes;
  for (auto idx : order) {
    std::string name = zip_get_name(archive.get(), idx, 0);
    const std::string where = path + ":" + name;
    Tensor t = read_member(archive.get(), idx, where, tensors.size(), check, bytes_left);
    if (name.ends_with(".npy")) name.resize(name.size() - 4);
    tensors.emplace_back(std::move(name), std::move(t));
  }
  return tensors;
}

std::vector<Tensor> read_npz(const std::string& path, const NpyHeaderCheck& check, std::uint64_t max_bytes) {
  std::vector<Tensor> tensors;
  for (auto& [name, t] : read_npz_named(path, check, max_bytes)) tensors.push_back(std::move(t));
  return tensors;
}

void write_npz(const std::string& path, const std::vector<Tensor>& tensors, const std::vector<std::string>& names) {
  if (!names.empty() && names.size() != tensors.size()) {
    throw Error("cannot write " + path + ": " + std::to_string(names.size()) + " names for " +
                std::to_string(tensors.size()) + " arrays");
  }
  int err = 0;
  std::unique_ptr<zip_t, decltype(&zip_discard)> archive(
      zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &err), &zip_discard);
  if (!archive) throw Error("cannot create " + path);
  // libzip reads the buffers at zip_close time, so keep them alive until then.
  std::vector<std::string> payloads;
  payloads.reserve(tensors.size());
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    payloads.push_back(serialize_npy(tensors[i]));
    zip_source_t* src = zip_source_buffer(archive.get(), payloads.back().data(), payloads.back().size(), 0);
    if (!src) throw Error("cannot write " + path);
    const std::string name = (names.empty() ? "arr_" + std::to_string(i) : names[i]) + ".npy";
    const zip_int64_t idx = zip_file_add(archive.get(), name.c_str(), src, ZIP_FL_OVERWRITE);
    if (idx < 0) {
      zip_source_free(src);
      throw Error("cannot write " + path + ": " + zip_strerror(archive.get()));
    }
    zip_set_file_compression(archive.get(), static_cast<zip_uint64_t>(idx), ZIP_CM_STORE, 0);
  }
  zip_t* raw = archive.release();
  if (zip_close(raw) != 0) {
    std::string msg = zip_strerror(raw);
    zip_discard(raw);
    throw Error("cannot write " + path + ": " + msg);
  }
}

}  // namespace atenrt::io
