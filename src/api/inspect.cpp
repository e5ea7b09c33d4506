// atenrt::inspect, list_converters and the .npz helpers: what tools/ needs
// beyond compile and run, so that tools/ sees only include/atenrt/.
#include "atenrt/inspect.h"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "api/pipeline.h"
#include "atenrt/atenrt.h"
#include "atenrt/text.h"
#include "conversion/plugins.h"
#include "conversion/registry.h"
#include "frontend/inspect.h"
#include "frontend/pt2_reader.h"
#include "frontend/weights.h"
#include "ir/npz.h"
#include "ir/torch_save.h"
#include "lowering/lower.h"
#include "runtime/engine.h"

namespace atenrt {
namespace {

using nlohmann::json;

std::string dump(const json& j) { return j.dump(2, ' ', false, json::error_handler_t::replace); }

json spec_json(const TensorSpec& s) {
  return {{"name", s.name}, {"dtype", dtype_name(s.dtype)}, {"shape", s.dims}};
}

InspectReport inspect_pt2(const std::string& path, const CompileSettings& settings, bool lowered) {
  ir::ExportedProgram program = frontend::load_pt2(path);
  InspectReport r{"pt2", "", ""};
  json j = frontend::inspect_json(program);
  j["kind"] = "pt2";
  r.text = frontend::inspect_text(program);
  if (lowered) {
    // The same lowering settings as compile(): the converter registry decides
    // which ops keep their converter instead of being decomposed.
    const lowering::LoweringReport report = lowering::lower(program.graph, api::lowering_settings(settings));
    j["lowering"] = {{"nodes_before", report.nodes_before},
                     {"nodes_after", report.nodes_after},
                     {"decompositions", report.decompositions},
                     {"not_decomposed", report.not_decomposed},
                     {"histogram_after", report.histogram_after}};
    r.text += "\nLowering: what compile does with these settings\n" + report.to_string();
  }
  r.json = dump(j);
  r.text = escape_text(r.text);
  return r;
}

InspectReport inspect_engine(const std::string& path, const CompileSettings& settings, bool verbose) {
  const Engine engine = Engine::load(path, settings);
  const auto engines = engine.internal_engines();  // one, or a hybrid program's engine segments
  InspectReport r{"engine", "", ""};
  json j;
  j["kind"] = "engine";
  j["built_with"] = engine.built_settings();
  j["precision"] = engine.precision();
  j["num_threads"] = engine.num_threads();
  j["effective_threads"] = engine.effective_threads();
  j["inputs"] = json::array();
  for (const auto& s : engine.inputs()) j["inputs"].push_back(spec_json(s));
  j["outputs"] = json::array();
  for (const auto& s : engine.outputs()) j["outputs"].push_back(spec_json(s));
  json steps = json::array();
  std::map<std::string, int> kernels;
  for (const auto& s : engine.steps()) {
    steps.push_back({{"name", s.name},
                     {"kind", s.kind},
                     {"implementation", s.implementation},
                     {"precision", s.precision},
                     {"layout", s.layout},
                     {"fused", s.fused}});
    kernels[s.implementation]++;
  }
  j["steps"] = steps;
  j["kernels"] = kernels;
  const MemoryBreakdown mem = engine.memory();
  if (engine.hybrid()) {
    j["segments"] = engine.segments_summary();
    j["fallback_ops"] = engine.fallback_ops();
  }
  j["memory"] = {{"activation_bytes", mem.activations},
                 {"activation_bytes_without_reuse", mem.activations_without_reuse},
                 {"scratch_bytes", mem.scratch},
                 {"output_bytes", mem.outputs},
                 {"weight_bytes", mem.weights()},
                 {"weight_plain_bytes", mem.weights_plain},
                 {"weight_packed_bytes", mem.weights_packed},
                 {"weight_mapped_bytes", mem.weights_mapped},
                 {"weight_torch_bytes", mem.weights_torch}};
  json weights = json::array();
  std::vector<const runtime::ProgramTensor*> constants;
  for (const auto* e : engines) {
    for (const auto& t : e->program().tensors) {
      if (t.role == runtime::TensorRole::Constant) constants.push_back(&t);
    }
  }
  std::stable_sort(constants.begin(), constants.end(),
                   [](auto* a, auto* b) { return runtime::tensor_bytes(*a) > runtime::tensor_bytes(*b); });
  for (const auto* t : constants) {
    weights.push_back({{"name", t->name}, {"dtype", dtype_name(t->dtype)}, {"shape", t->dims},
                       {"bytes", runtime::tensor_bytes(*t)}});
  }
  j["weights"] = weights;
  // Untrusted text: JSON carries it (invalid UTF-8 replaced), the text report only its size.
  j["metadata_bytes"] = engine.metadata().size();
  j["metadata"] = engine.metadata();
  r.json = dump(j);

  std::ostringstream out;
  out << "engine file:     " << path << "\n";
  out << "built with:      " << engine.built_settings() << "\n";
  out << "threads:         " << (engine.num_threads() ? std::to_string(engine.num_threads()) : "runtime default")
      << " (" << engine.effective_threads() << " per run; load-time, --threads changes it)\n";
  out << "inputs:\n";
  for (const auto& s : engine.inputs()) out << "  " << s.to_string() << "\n";
  out << "outputs:\n";
  for (const auto& s : engine.outputs()) out << "  " << s.to_string() << "\n";
  if (!engine.metadata().empty()) {
    const bool python = engine.metadata().find("\"atenrt_python\"") != std::string::npos;
    out << "metadata:        " << engine.metadata().size() << " bytes"
        << (python ? " (the Python module's input and output structure; --json shows it)" : " (--json shows it)")
        << "\n";
  }
  out << "kernels:        ";
  for (const auto& [k, n] : kernels) out << " " << k << " " << n << ",";
  out.seekp(-1, std::ios_base::cur);
  out << "\n";
  out << "memory:          activations " << mem.activations << " bytes planned (" << mem.activations_without_reuse
      << " without reuse), scratch " << mem.scratch << ", outputs " << mem.outputs << " (per context)\n";
  out << "weights:         " << constants.size() << " tensors, " << mem.weights() << " bytes held (plain "
      << mem.weights_plain << ", pre-packed " << mem.weights_packed;
  if (mem.weights_torch) out << ", torch segments " << mem.weights_torch;
  out << "; " << mem.weights_mapped << " mapped from the file, shared by processes)\n";
  const std::size_t shown = verbose ? constants.size() : std::min<std::size_t>(constants.size(), 5);
  for (std::size_t i = 0; i < shown; ++i) {
    const auto* t = constants[i];
    out << "  " << t->name << ": " << dtype_name(t->dtype) << shape_to_string(t->dims) << "  "
        << runtime::tensor_bytes(*t) << " bytes\n";
  }
  if (shown < constants.size()) out << "  ... " << constants.size() - shown << " more (--verbose lists all)\n";
  out << "steps (" << engine.steps().size() << "):\n";
  for (const auto& s : engine.steps()) {
    out << "  " << s.name << "  " << s.kind << "  " << s.implementation;
    if (s.precision != "fp32") out << "  " << s.precision;
    if (s.layout != "plain") out << "  " << s.layout;
    for (const auto& f : s.fused) out << "  +" << f;
    out << "\n";
  }
  r.text = escape_text(out.str());
  return r;
}

}  // namespace

bool is_engine_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw FormatError("cannot open " + path);
  char magic[2] = {0, 0};
  in.read(magic, 2);
  // A .pt2 is a zip ("PK"); anything else is taken as an engine file and
  // validated by Engine::load.
  return !(magic[0] == 'P' && magic[1] == 'K');
}

InspectReport inspect(const std::string& path, const CompileSettings& settings, bool lowered, bool verbose) {
  validate(settings);
  if (is_engine_file(path)) {
    if (lowered) throw SettingsError(path + " is an engine file: it is already lowered and built (inspect the .pt2)");
    return inspect_engine(path, settings, verbose);
  }
  return inspect_pt2(path, settings, lowered);
}

std::vector<ConverterInfo> list_converters() {
  conversion::load_env_plugins();
  std::vector<ConverterInfo> out;
  for (const auto* r : conversion::ConverterRegistry::global().all()) {
    out.push_back({r->key, r->family, conversion::priority_name(r->options.priority),
                   static_cast<bool>(r->options.validator), r->options.supports_dynamic_shapes, r->options.enabled});
  }
  return out;
}

std::vector<std::string> converter_families() {
  conversion::load_env_plugins();
  std::vector<std::string> out;
  for (const auto* r : conversion::ConverterRegistry::global().all()) {
    if (std::find(out.begin(), out.end(), r->family) == out.end()) out.push_back(r->family);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::pair<std::string, Tensor>> read_npz(const std::string& path, const NpyHeaderCheck& check) {
  return io::read_npz_named(path, check);
}

void write_npz(const std::string& path, const std::vector<Tensor>& tensors, const std::vector<std::string>& names) {
  io::write_npz(path, tensors, names);
}

std::vector<std::pair<std::string, Tensor>> read_torch_save(const std::string& path) {
  const frontend::ReadLimits limits;
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw FormatError(path + ": cannot open file");
  const std::streamoff size = in.tellg();
  if (size < 0) throw FormatError(path + ": cannot read file size");
  if (static_cast<std::uint64_t>(size) > limits.max_entry_bytes) {
    throw FormatError(path + ": " + std::to_string(size) + " bytes, over the " +
                      std::to_string(limits.max_entry_bytes) + "-byte limit of one file");
  }
  std::vector<std::byte> bytes(static_cast<std::size_t>(size));
  in.seekg(0);
  if (size > 0 && !in.read(reinterpret_cast<char*>(bytes.data()), size)) throw FormatError(path + ": cannot read file");
  frontend::ByteBudget budget(limits.max_total_bytes);
  auto out = frontend::load_torch_save_outputs(bytes, path, limits, budget);
  for (auto& [name, t] : out) t = t.contiguous();  // a saved view (x[:, 1]) becomes plain rows
  return out;
}

void write_torch_save(const std::string& path, const std::vector<Tensor>& tensors,
                      const std::vector<std::string>& names) {
  io::write_torch_save(path, tensors, names);
}

SampleInputs read_sample_inputs(const std::string& pt2_path) {
  if (is_engine_file(pt2_path)) {
    throw InputError(pt2_path + " is an engine file: it carries no sample inputs (give --inputs)");
  }
  ir::ExportedProgram ep = frontend::load_pt2_graph_and_sample_inputs(pt2_path);
  ir::SampleInputs& sample = ep.sample_inputs;
  if (sample.entry.empty()) {
    throw InputError(pt2_path + " carries no sample inputs (no " +
                     (ep.info.layout == "legacy zip" ? std::string("serialized_example_inputs.pt")
                                                     : (ep.info.root.empty() ? "" : ep.info.root + "/") + "data/sample_inputs/<model>.pt") +
                     "); give --inputs");
  }
  if (!sample.usable()) throw InputError(sample.unavailable + "; give --inputs");
  return {sample.entry, std::move(sample.tensors)};
}

}  // namespace atenrt
