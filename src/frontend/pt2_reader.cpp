#include "frontend/pt2_reader.h"

#include <algorithm>
#include <functional>
#include <set>

#include "atenrt/errors.h"
#include "frontend/graph_json.h"
#include "frontend/json_util.h"
#include "frontend/sample_inputs.h"
#include "frontend/weights.h"
#include "ir/mapped_file.h"

namespace atenrt::frontend {

namespace {

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

// A short text record (archive_format, version, byteorder), trailing newline dropped.
std::string read_record(const ZipArchive& zip, const std::string& name, const ReadLimits& limits) {
  return trimmed(zip.read_text(name, limits.max_record_bytes, "record limit"));
}

// The root folder: the text before the first '/' of the first entry, if every
// entry shares it (pt2_format.md §1.3 step 2).
std::string common_root(const ZipArchive& zip) {
  if (zip.names().empty()) return "";
  const auto& first = zip.names().front();
  const auto slash = first.find('/');
  if (slash == std::string::npos) return "";
  const std::string root = first.substr(0, slash + 1);
  for (const auto& n : zip.names()) {
    if (!n.starts_with(root)) return "";
  }
  return root;
}

void read_graph_json(const ZipArchive& zip, const std::string& entry, const ReadLimits& limits,
                     ir::ExportedProgram& ep) {
  const JsonReader r(zip.display() + ": " + entry);
  const json root = parse_json(zip.read_text(entry, limits.max_json_bytes, "JSON record limit"),
                               r.where(), limits.max_json_depth);
  // Counted before any per-node work: a million empty nodes are cheap to parse, not to read and convert.
  const json* gm = root.is_object() ? r.find(root, "graph_module", "$") : nullptr;
  const json* g = gm && gm->is_object() ? r.find(*gm, "graph", "$.graph_module") : nullptr;
  const json* nodes = g && g->is_object() ? r.find(*g, "nodes", "$.graph_module.graph") : nullptr;
  if (nodes && nodes->is_array() && nodes->size() > limits.max_graph_nodes) {
    r.fail("$.graph_module.graph.nodes", std::to_string(nodes->size()) + " nodes, more than the limit of " +
                                             std::to_string(limits.max_graph_nodes));
  }
  read_exported_program(root, r, ep);
  // Edges: every value used is defined before use, names are unique.
  try {
    ep.graph.validate();
  } catch (const FormatError& e) {
    throw FormatError(r.where() + ": " + e.what());
  }
  ep.graph.name_outputs();
}

// Binds weights to the signature's parameters, buffers and constants, and
// checks each against the graph's tensor metadata.
void bind_weights(ir::ExportedProgram& ep, TensorMap& weights, const std::string& weights_where,
                  TensorMap& constants, const std::string& constants_where,
                  const std::string& graph_where) {
  ir::Graph& g = ep.graph;
  for (const auto& spec : g.signature.inputs) {
    if (spec.kind == ir::InputKind::UserInput || spec.kind == ir::InputKind::ConstantInput) continue;
    // Parameters and persistent buffers live in the weights, the rest in the constants.
    const bool in_weights = spec.kind == ir::InputKind::Parameter ||
                            (spec.kind == ir::InputKind::Buffer && spec.persistent);
    TensorMap& primary = in_weights ? weights : constants;
    TensorMap& secondary = in_weights ? constants : weights;
    const std::string what = std::string(ir::input_kind_name(spec.kind)) + " '" + spec.target +
                             "' (graph input '" + spec.value_name + "')";
    auto it = primary.find(spec.target);
    if (it == primary.end()) {
      it = secondary.find(spec.target);
      if (it == secondary.end()) {
        throw FormatError(graph_where + ": " + what + " has no payload in " +
                          (in_weights ? weights_where : constants_where));
      }
    }
    const Tensor& t = it->second;
    if (const ir::TensorMeta* m = g.meta(spec.value_name)) {
      if (m->dtype && *m->dtype != t.dtype()) {
        throw FormatError(graph_where + ": " + what + " is " + std::string(dtype_name(*m->dtype)) +
                          " in the graph but " + std::string(dtype_name(t.dtype())) +
                          " in its payload");
      }
      if (m->is_static() && m->static_sizes() != t.sizes()) {
        throw FormatError(graph_where + ": " + what + " has shape " +
                          shape_to_string(m->static_sizes()) + " in the graph but " +
                          shape_to_string(t.sizes()) + " in its payload");
      }
    }
    g.weights[spec.target] = t;
  }
}

// What a load reads: everything, or the graph and the sample inputs only.
enum class Parts { All, GraphAndSampleInputs };

ir::ExportedProgram load_pt2_archive(const ZipArchive& zip, const std::string& root,
                                     const ReadLimits& limits, ByteBudget& budget, Parts parts) {
  ir::ExportedProgram ep;
  ep.info.root = root.empty() ? "" : root.substr(0, root.size() - 1);
  const std::string where = zip.display();
  if (zip.contains(root + "archive_version")) {
    const std::string v = read_record(zip, root + "archive_version", limits);
    if (v != "0") {
      throw UnsupportedError(where + ": " + root + "archive_version: PT2 archive version '" + v +
                             "' is not supported (atenrt reads version 0)");
    }
  }
  if (zip.contains(root + "byteorder")) {
    const std::string order = read_record(zip, root + "byteorder", limits);
    if (order != "little") {
      throw UnsupportedError(where + ": " + root + "byteorder: '" + order + "' byte order is not supported");
    }
  }
  // torch.export.save always names its program "model"; a package with other
  // names is read when it holds exactly one program.
  std::vector<std::string> models;
  const std::string models_dir = root + "models/";
  for (const auto& n : zip.names()) {
    if (n.starts_with(models_dir) && n.ends_with(".json") &&
        n.find('/', models_dir.size()) == std::string::npos) {
      models.push_back(n.substr(models_dir.size(), n.size() - models_dir.size() - 5));
    }
  }
  std::string model;
  if (std::find(models.begin(), models.end(), "model") != models.end()) {
    model = "model";
  } else if (models.size() == 1) {
    model = models.front();
  } else if (models.empty()) {
    throw FormatError(where + ": PT2 archive has no " + models_dir + "<name>.json");
  } else {
    throw UnsupportedError(where + ": PT2 archive holds " + std::to_string(models.size()) +
                           " programs and none is named 'model'");
  }
  read_graph_json(zip, models_dir + model + ".json", limits, ep);
  if (parts == Parts::GraphAndSampleInputs) {
    read_sample_inputs(zip, root + "data/sample_inputs/" + model + ".pt", limits, budget, ep);
    return ep;
  }

  const std::string wdir = root + "data/weights/";
  const std::string cdir = root + "data/constants/";
  TensorMap weights, constants;
  std::string wwhere = where + ": " + wdir, cwhere = where + ": " + cdir;
  if (zip.contains(wdir + model + "_weights_config.json")) {
    ep.info.layout = "pt2-archive (raw weights)";
    wwhere = where + ": " + wdir + model + "_weights_config.json";
    weights = load_payload_config(zip, wdir, wdir + model + "_weights_config.json", limits, budget);
  } else if (zip.contains(wdir + model + ".pt")) {
    ep.info.layout = "pt2-archive (pickled weights)";
    wwhere = where + ": " + wdir + model + ".pt";
    weights = load_torch_save_dict(zip.read(wdir + model + ".pt"), wwhere, limits, budget);
  } else {
    ep.info.layout = "pt2-archive (raw weights)";
  }
  if (zip.contains(cdir + model + "_constants_config.json")) {
    cwhere = where + ": " + cdir + model + "_constants_config.json";
    constants = load_payload_config(zip, cdir, cdir + model + "_constants_config.json", limits, budget);
  } else if (zip.contains(cdir + model + ".pt")) {
    cwhere = where + ": " + cdir + model + ".pt";
    constants = load_torch_save_dict(zip.read(cdir + model + ".pt"), cwhere, limits, budget);
  }
  bind_weights(ep, weights, wwhere, constants, cwhere, where + ": " + models_dir + model + ".json");
  read_sample_inputs(zip, root + "data/sample_inputs/" + model + ".pt", limits, budget, ep);
  return ep;
}

ir::ExportedProgram load_legacy(const ZipArchive& zip, const ReadLimits& limits, ByteBudget& budget, Parts parts) {
  ir::ExportedProgram ep;
  ep.info.layout = "legacy zip";
  const std::string where = zip.display();
  if (zip.contains("version")) {
    // "M.m" (2.2–2.7) or a bare int (2.1); the JSON's schema_version decides.
    const std::string v = read_record(zip, "version", limits);
    const bool ok = !v.empty() && v.size() < 32 &&
                    v.find_first_not_of("0123456789.") == std::string::npos;
    if (!ok) throw FormatError(where + ": version: '" + v.substr(0, 32) + "' is not a version number");
  }
  read_graph_json(zip, "serialized_exported_program.json", limits, ep);
  if (parts == Parts::GraphAndSampleInputs) {
    read_sample_inputs(zip, "serialized_example_inputs.pt", limits, budget, ep);
    return ep;
  }
  TensorMap weights, constants;
  std::string wwhere = where + ": serialized_state_dict.pt", cwhere = where + ": serialized_constants.pt";
  for (const char* name : {"serialized_state_dict.pt", "serialized_state_dict.json"}) {
    if (zip.contains(name)) {
      wwhere = where + ": " + name;
      weights = load_torch_save_dict(zip.read(name), wwhere, limits, budget);
      break;
    }
  }
  for (const char* name : {"serialized_constants.pt", "serialized_constants.json"}) {
    if (zip.contains(name)) {
      cwhere = where + ": " + name;
      constants = load_torch_save_dict(zip.read(name), cwhere, limits, budget);
      break;
    }
  }
  bind_weights(ep, weights, wwhere, constants, cwhere, where + ": serialized_exported_program.json");
  read_sample_inputs(zip, "serialized_example_inputs.pt", limits, budget, ep);
  return ep;
}

using ReleaseHook = std::function<void(const std::byte*, std::size_t)>;

ir::ExportedProgram load_archive(const std::byte* data, std::size_t size, const std::string& display_name,
                                 const ReadLimits& limits, const ReleaseHook& release, Parts parts) {
  ByteBudget budget(limits.max_total_bytes);
  ZipArchive zip(data, size, display_name, limits, budget);
  if (release) zip.on_entry_read(release);
  const std::string root = common_root(zip);
  ir::ExportedProgram ep;
  if (zip.contains(root + "archive_format")) {
    const std::string fmt = read_record(zip, root + "archive_format", limits);
    if (fmt != "pt2") {
      throw UnsupportedError(display_name + ": " + root + "archive_format: '" + fmt.substr(0, 32) +
                             "' archives are not supported (expected 'pt2')");
    }
    ep = load_pt2_archive(zip, root, limits, budget, parts);
  } else if (zip.contains("serialized_exported_program.json")) {
    ep = load_legacy(zip, limits, budget, parts);
  } else if (zip.contains(root + "constants.pkl") && zip.contains(root + "data.pkl")) {
    throw UnsupportedError(display_name + ": a TorchScript archive, not a torch.export .pt2");
  } else if (zip.contains(root + "data.pkl")) {
    throw UnsupportedError(display_name + ": a torch.save file, not a torch.export .pt2");
  } else {
    throw FormatError(display_name + ": not a torch.export archive (no " + root +
                      "archive_format and no serialized_exported_program.json)");
  }
  return ep;
}

}  // namespace

ir::ExportedProgram load_pt2_from_memory(const std::byte* data, std::size_t size,
                                         const std::string& display_name,
                                         const ReadLimits& limits) {
  return load_archive(data, size, display_name, limits, nullptr, Parts::All);
}

ir::ExportedProgram load_pt2_from_memory(const std::vector<std::byte>& bytes,
                                         const std::string& display_name,
                                         const ReadLimits& limits) {
  return load_pt2_from_memory(bytes.data(), bytes.size(), display_name, limits);
}

namespace {

ir::ExportedProgram load_file(const std::string& path, const ReadLimits& limits, Parts parts) {
  // Mapped, not read whole: each entry's pages are dropped once its bytes are
  // copied out, so the archive costs its weights once (plus one entry).
  auto file = ir::MappedFile::open(path, "archive");
  const auto bytes = file->bytes();
  ir::ExportedProgram ep = load_archive(bytes.data(), bytes.size(), path, limits,
                                        [&file](const std::byte* p, std::size_t n) { file->release(p, n); }, parts);
  // A file that shrank while it was read has had zeros read in its place.
  if (file->damaged()) throw FormatError(path + ": the file changed (shrank) while it was read");
  return ep;
}

}  // namespace

ir::ExportedProgram load_pt2(const std::string& path, const ReadLimits& limits) {
  return load_file(path, limits, Parts::All);
}

ir::ExportedProgram load_pt2_graph_and_sample_inputs(const std::string& path, const ReadLimits& limits) {
  return load_file(path, limits, Parts::GraphAndSampleInputs);
}

}  // namespace atenrt::frontend
