#include "frontend/weights.h"

#include <algorithm>

#include "atenrt/errors.h"
#include "frontend/graph_json.h"
#include "frontend/json_util.h"
#include "frontend/pickle_reader.h"
#include "ir/checked_math.h"

namespace atenrt::frontend {

std::uint64_t checked_nbytes(const std::vector<std::int64_t>& sizes, DType dtype,
                             const std::string& where) {
  return checked::nbytes(sizes, element_size(dtype), where + ": bytes of shape " + shape_to_string(sizes));
}

Tensor make_checked_view(std::shared_ptr<Storage> storage, DType dtype,
                         const std::vector<std::int64_t>& sizes,
                         const std::vector<std::int64_t>& strides, std::int64_t offset,
                         const std::string& where, ByteBudget& budget) {
  budget.take(checked_nbytes(sizes, dtype, where), where);
  if (strides.size() != sizes.size()) {
    throw FormatError(where + ": " + std::to_string(sizes.size()) + " sizes but " +
                      std::to_string(strides.size()) + " strides");
  }
  try {
    return Tensor(std::move(storage), dtype, sizes, strides, offset);
  } catch (const Error& e) {
    throw FormatError(where + ": " + e.what());
  }
}

namespace {

// The bytes of a `payload_bytes` storage that a strided view needs (one past
// its last element; 0 for an empty view), refused when the view reaches past
// the payload. Checked before anything is inflated.
std::uint64_t view_extent_bytes(const std::vector<std::int64_t>& sizes,
                                const std::vector<std::int64_t>& strides, std::int64_t offset,
                                DType dtype, std::uint64_t payload_bytes, const std::string& where) {
  if (strides.size() != sizes.size()) {
    throw FormatError(where + ": " + std::to_string(sizes.size()) + " sizes but " +
                      std::to_string(strides.size()) + " strides");
  }
  if (offset < 0) throw FormatError(where + ": negative storage offset " + std::to_string(offset));
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] < 0) throw FormatError(where + ": negative size in " + shape_to_string(sizes));
    if (strides[i] < 0) throw FormatError(where + ": negative stride in " + shape_to_string(strides));
  }
  for (std::int64_t s : sizes) {
    if (s == 0) return 0;
  }
  const std::string what = where + ": last element of the view " + shape_to_string(sizes);
  std::uint64_t highest = static_cast<std::uint64_t>(offset);
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const auto span = static_cast<std::uint64_t>(sizes[i] - 1);
    highest = checked::add(highest, checked::mul(span, static_cast<std::uint64_t>(strides[i]), what),
                           what);
  }
  const std::uint64_t capacity = payload_bytes / element_size(dtype);
  if (highest >= capacity) {
    throw FormatError(where + ": sizes " + shape_to_string(sizes) + ", strides " +
                      shape_to_string(strides) + ", offset " + std::to_string(offset) +
                      " reach element " + std::to_string(highest) + " but the payload holds " +
                      std::to_string(capacity) + " elements of " + std::string(dtype_name(dtype)));
  }
  return (highest + 1) * element_size(dtype);  // <= payload_bytes
}

// Finds "<prefix>data.pkl" (the prefix is usually "archive/", but any folder
// name is accepted, as PyTorchStreamReader does).
std::string find_pickle_prefix(const ZipArchive& zip) {
  const std::string* best = nullptr;
  for (const auto& name : zip.names()) {
    if (!name.ends_with("data.pkl")) continue;
    const std::size_t plen = name.size() - 8;
    if (plen != 0 && name[plen - 1] != '/') continue;
    if (name.find('/') != plen - 1 && plen != 0) continue;  // only a top-level folder
    if (!best || name.size() < best->size()) best = &name;
  }
  if (!best) throw FormatError(zip.display() + ": a torch.save zip must hold data.pkl");
  return best->substr(0, best->size() - 8);
}

struct TorchSave {
  pickle::Pickle pickle;
  std::map<std::size_t, std::shared_ptr<Storage>> storages;  // by Storage value index
};

TorchSave read_torch_save(const ZipArchive& zip, const ReadLimits& limits) {
  const std::string prefix = find_pickle_prefix(zip);
  if (zip.contains(prefix + "byteorder")) {
    std::string order = zip.read_text(prefix + "byteorder", limits.max_record_bytes, "record limit");
    while (!order.empty() && (order.back() == '\n' || order.back() == '\r')) order.pop_back();
    if (order != "little") {
      throw UnsupportedError(zip.display() + ": " + prefix + "byteorder: '" + order +
                             "' byte order is not supported");
    }
  }
  const auto pkl = zip.read(prefix + "data.pkl", limits.max_pickle_bytes, "pickle limit");
  pickle::Limits plimits;
  plimits.max_memo = limits.max_pickle_memo;
  plimits.max_mark_depth = static_cast<std::size_t>(std::max(limits.max_pickle_depth, 1));
  TorchSave ts{pickle::unpickle(pkl.data(), pkl.size(), zip.display() + ": " + prefix + "data.pkl",
                                plimits),
               {}};
  // Load every storage a tensor refers to, once (views of one key share it).
  std::map<std::string, std::shared_ptr<Storage>> by_key;
  for (std::size_t i = 0; i < ts.pickle.values.size(); ++i) {
    const auto& v = ts.pickle.values[i];
    if (v.kind != pickle::Kind::Tensor) continue;
    const auto& sv = ts.pickle.values[v.storage];
    const std::string entry = prefix + "data/" + sv.s;
    auto it = by_key.find(sv.s);
    if (it == by_key.end()) {
      if (!zip.contains(entry)) {
        throw FormatError(zip.display() + ": storage '" + sv.s + "' has no record " + entry);
      }
      const std::uint64_t need = checked_nbytes({sv.numel}, sv.dtype, zip.display() + ": " + entry);
      // torch.save writes exactly the storage's bytes: a record of any other
      // size is refused before anything is inflated.
      const std::uint64_t have = zip.entry_size(entry);
      if (have != need) {
        throw FormatError(zip.display() + ": " + entry + ": storage holds " + std::to_string(have) +
                          " bytes but the pickle declares " + std::to_string(sv.numel) + " " +
                          std::string(dtype_name(sv.dtype)) + " elements (" + std::to_string(need) +
                          " bytes)");
      }
      it = by_key.emplace(sv.s, std::make_shared<Storage>(zip.read(entry, need, "its storage size")))
               .first;
    }
    ts.storages[v.storage] = it->second;
  }
  return ts;
}

Tensor tensor_of(const TorchSave& ts, std::size_t index, const std::string& where,
                 ByteBudget& budget) {
  const auto& v = ts.pickle.at(index);
  if (v.kind != pickle::Kind::Tensor) {
    throw FormatError(where + ": expected a tensor, got a " + pickle::kind_name(v.kind));
  }
  return make_checked_view(ts.storages.at(v.storage), v.dtype, v.sizes, v.strides,
                           v.storage_offset, where, budget);
}

}  // namespace

TensorMap load_torch_save_dict(const std::vector<std::byte>& bytes, const std::string& display,
                               const ReadLimits& limits, ByteBudget& budget) {
  TensorMap out;
  if (bytes.empty()) return out;  // legacy writers leave an empty constants record
  ZipArchive zip(bytes.data(), bytes.size(), display, limits, budget);
  TorchSave ts = read_torch_save(zip, limits);
  const auto& root = ts.pickle.at(ts.pickle.root);
  if (root.kind != pickle::Kind::Dict) {
    throw FormatError(display + ": expected a dict of tensors, got a " + pickle::kind_name(root.kind));
  }
  for (std::size_t k = 0; k + 1 < root.items.size(); k += 2) {
    const auto& key = ts.pickle.at(root.items[k]);
    if (key.kind != pickle::Kind::String) {
      throw FormatError(display + ": state dict key is a " + pickle::kind_name(key.kind) +
                        ", not a string");
    }
    const auto& val = ts.pickle.at(root.items[k + 1]);
    if (val.kind != pickle::Kind::Tensor) {
      throw UnsupportedError(display + ": entry '" + key.s + "' is a " +
                             pickle::kind_name(val.kind) + ", not a tensor");
    }
    out[key.s] = tensor_of(ts, root.items[k + 1], display + ": '" + key.s + "'", budget);
  }
  return out;
}

Tensor load_torch_save_tensor(const std::vector<std::byte>& bytes, const std::string& display,
                              const ReadLimits& limits, ByteBudget& budget) {
  ZipArchive zip(bytes.data(), bytes.size(), display, limits, budget);
  TorchSave ts = read_torch_save(zip, limits);
  return tensor_of(ts, ts.pickle.root, display, budget);
}

std::vector<std::pair<std::string, Tensor>> load_torch_save_outputs(const std::vector<std::byte>& bytes,
                                                                   const std::string& display,
                                                                   const ReadLimits& limits, ByteBudget& budget) {
  ZipArchive zip(bytes.data(), bytes.size(), display, limits, budget);
  TorchSave ts = read_torch_save(zip, limits);
  std::vector<std::pair<std::string, Tensor>> out;
  const auto& root = ts.pickle.at(ts.pickle.root);
  if (root.kind == pickle::Kind::Dict) {
    for (std::size_t k = 0; k + 1 < root.items.size(); k += 2) {
      const auto& key = ts.pickle.at(root.items[k]);
      if (key.kind != pickle::Kind::String) {
        throw FormatError(display + ": a dict key is a " + pickle::kind_name(key.kind) + ", not a string");
      }
      for (const auto& [name, t] : out) {
        if (name == key.s) throw FormatError(display + ": key '" + key.s + "' appears twice");
      }
      out.emplace_back(key.s, tensor_of(ts, root.items[k + 1], display + ": ['" + key.s + "']", budget));
    }
    return out;
  }
  // Positional: depth first through tuples and lists. The arena's values can
  // refer to each other in cycles (a list that holds itself): the depth bound
  // ends those too.
  constexpr int kMaxDepth = 32;
  auto walk = [&](auto&& self, std::size_t index, const std::string& where, int depth) -> void {
    const auto& v = ts.pickle.at(index);
    if (v.kind == pickle::Kind::Tuple || v.kind == pickle::Kind::List) {
      if (depth >= kMaxDepth) throw FormatError(display + ": " + where + " is nested deeper than 32");
      for (std::size_t i = 0; i < v.items.size(); ++i) {
        self(self, v.items[i], where + "[" + std::to_string(i) + "]", depth + 1);
      }
      return;
    }
    if (v.kind != pickle::Kind::Tensor) {
      throw FormatError(display + ": " + where + " is a " + pickle::kind_name(v.kind) +
                        "; a reference holds tensors (alone, in tuples and lists, or in a dict by output name)");
    }
    out.emplace_back("arr_" + std::to_string(out.size()), tensor_of(ts, index, display + ": " + where, budget));
  };
  walk(walk, ts.pickle.root, "the saved object", 0);
  return out;
}

std::vector<Tensor> load_torch_save_tensor_leaves(const std::vector<std::byte>& bytes, const std::string& display,
                                                  const ReadLimits& limits, ByteBudget& budget) {
  ZipArchive zip(bytes.data(), bytes.size(), display, limits, budget);
  TorchSave ts = read_torch_save(zip, limits);
  std::vector<Tensor> out;
  // The arena's containers can hold each other in cycles or share items: the
  // depth bound ends cycles, the visit bound ends shared items re-walked.
  constexpr int kMaxDepth = 32;
  const std::size_t max_visits = 4 * ts.pickle.values.size() + 64;
  std::size_t visits = 0;
  auto walk = [&](auto&& self, std::size_t index, const std::string& where, int depth) -> void {
    if (++visits > max_visits) throw FormatError(display + ": " + where + ": the object refers to its parts over and over");
    const auto& v = ts.pickle.at(index);
    switch (v.kind) {
      case pickle::Kind::Tensor:
        out.push_back(tensor_of(ts, index, display + ": " + where, budget).contiguous());
        return;
      case pickle::Kind::Tuple:
      case pickle::Kind::List:
      case pickle::Kind::Dict: {
        if (depth >= kMaxDepth) throw FormatError(display + ": " + where + " is nested deeper than 32");
        const bool dict = v.kind == pickle::Kind::Dict;
        for (std::size_t i = dict ? 1 : 0; i < v.items.size(); i += dict ? 2 : 1) {
          std::string at = where + "[" + std::to_string(dict ? i / 2 : i) + "]";
          if (dict && ts.pickle.at(v.items[i - 1]).kind == pickle::Kind::String) {
            at = where + "['" + ts.pickle.at(v.items[i - 1]).s + "']";
          }
          self(self, v.items[i], at, depth + 1);
        }
        return;
      }
      case pickle::Kind::Global:
      case pickle::Kind::Storage:
        throw FormatError(display + ": " + where + " is a " + pickle::kind_name(v.kind) + " where a value belongs");
      default:
        return;
    }
  };
  walk(walk, ts.pickle.root, "the saved object", 0);
  return out;
}

TensorMap load_payload_config(const ZipArchive& zip, const std::string& dir,
                              const std::string& config_entry, const ReadLimits& limits,
                              ByteBudget& budget) {
  const JsonReader r(zip.display() + ": " + config_entry);
  const json root = parse_json(zip.read_text(config_entry, limits.max_json_bytes, "JSON record limit"),
                               r.where(), limits.max_json_depth);
  const json& config = r.object(r.at(root, "config", "$"), "$.config");
  TensorMap out;
  struct RawView {
    std::string fqn, file;
    DType dtype;
    std::vector<std::int64_t> sizes, strides;
    std::int64_t offset;
    std::string where;
  };
  std::vector<RawView> raw_views;
  std::map<std::string, std::uint64_t> file_extent;  // bytes the views of each file reach
  for (auto it = config.begin(); it != config.end(); ++it) {
    const std::string& fqn = it.key();
    const std::string path = "$.config['" + fqn + "']";
    const json& meta = r.object(it.value(), path);
    const std::string file = r.string(r.at(meta, "path_name", path), path + ".path_name");
    if (file.empty() || file.find_first_of("/\\") != std::string::npos || file == "..") {
      r.fail(path + ".path_name", "'" + file + "' is not a plain file name");
    }
    const std::string entry = dir + file;
    bool use_pickle = false;
    if (const json* up = r.find(meta, "use_pickle", path)) use_pickle = r.boolean(*up, path + ".use_pickle");
    const json* tm = r.find(meta, "tensor_meta", path);
    if (!tm) r.unsupported(path, "'" + fqn + "' is a custom object (no tensor_meta), not a tensor");
    const ir::TensorMeta m = read_tensor_meta(*tm, r, path + ".tensor_meta");
    const std::string where = r.where() + ": '" + fqn + "' (" + entry + ")";
    if (!m.dtype) {
      throw UnsupportedError(where + ": dtype code " + std::to_string(m.dtype_code) +
                             " is not supported");
    }
    if (!zip.contains(entry)) throw FormatError(where + ": payload file is missing");
    if (use_pickle) {
      if (!file.starts_with("tensor_") && !file.starts_with("weight_")) {
        throw UnsupportedError(where + ": pickled payload " + file + " is not a tensor");
      }
      out[fqn] = load_torch_save_tensor(zip.read(entry), where, limits, budget);
      continue;
    }
    std::vector<std::int64_t> sizes, strides;
    for (const auto& s : m.sizes) {
      if (!s.is_static()) throw FormatError(where + ": symbolic size '" + s.name + "' in a weight");
      sizes.push_back(*s.value);
    }
    for (const auto& s : m.strides) {
      if (!s.is_static()) throw FormatError(where + ": symbolic stride '" + s.name + "' in a weight");
      strides.push_back(*s.value);
    }
    if (!m.storage_offset.is_static()) throw FormatError(where + ": symbolic storage offset");
    const std::uint64_t nbytes = checked_nbytes(sizes, *m.dtype, where);
    if (zip.entry_size(entry) == 0) {
      // A 0-byte payload is a fake tensor: the loader makes zeros.
      budget.take(nbytes, where);
      out[fqn] = Tensor(*m.dtype, sizes);
      continue;
    }
    const std::int64_t offset = *m.storage_offset.value;
    const std::uint64_t extent =
        view_extent_bytes(sizes, strides, offset, *m.dtype, zip.entry_size(entry), where);
    std::uint64_t& need = file_extent[file];
    need = std::max(need, extent);
    raw_views.push_back({fqn, file, *m.dtype, std::move(sizes), std::move(strides), offset, where});
  }
  // A raw file holds a whole storage; only the bytes some view reaches are
  // inflated, so a payload longer than its tensors costs nothing.
  std::map<std::string, std::shared_ptr<Storage>> files;
  for (const auto& [file, need] : file_extent) {
    files[file] = std::make_shared<Storage>(zip.read_prefix(dir + file, need));
  }
  for (auto& v : raw_views) {
    out[v.fqn] = make_checked_view(files.at(v.file), v.dtype, v.sizes, v.strides, v.offset, v.where,
                                   budget);
  }
  return out;
}

}  // namespace atenrt::frontend
