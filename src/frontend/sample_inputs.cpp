#include "frontend/sample_inputs.h"

#include "atenrt/errors.h"
#include "frontend/weights.h"

namespace atenrt::frontend {

namespace {

// Why `tensors` cannot feed the graph, or "" when they can.
std::string mismatch(const ir::Graph& g, const std::vector<Tensor>& tensors) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < g.inputs.size() && i < g.signature.inputs.size(); ++i) {
    if (g.signature.inputs[i].kind != ir::InputKind::UserInput) continue;
    if (const auto* t = g.inputs[i].get_if<ir::TensorRef>()) names.push_back(t->name);
  }
  if (names.size() != tensors.size()) {
    return "holds " + std::to_string(tensors.size()) + " tensors but the program takes " +
           std::to_string(names.size()) + " tensor inputs";
  }
  for (std::size_t i = 0; i < names.size(); ++i) {
    const ir::TensorMeta* m = g.meta(names[i]);
    if (!m) continue;
    const Tensor& t = tensors[i];
    bool same = (!m->dtype || *m->dtype == t.dtype()) && m->sizes.size() == t.sizes().size();
    for (std::size_t d = 0; same && d < m->sizes.size(); ++d) {
      same = !m->sizes[d].is_static() || *m->sizes[d].value == t.sizes()[d];
    }
    if (!same) {
      return "tensor " + std::to_string(i) + " is " + std::string(dtype_name(t.dtype())) +
             shape_to_string(t.sizes()) + " but input '" + names[i] + "' is " + m->to_string();
    }
  }
  return "";
}

}  // namespace

void read_sample_inputs(const ZipArchive& zip, const std::string& entry, const ReadLimits& limits,
                        ByteBudget& budget, ir::ExportedProgram& ep) {
  if (!zip.contains(entry)) return;
  ir::SampleInputs& sample = ep.sample_inputs;
  sample.entry = entry;
  const std::string where = zip.display() + ": " + entry;
  try {
    sample.tensors = load_torch_save_tensor_leaves(zip.read(entry), where, limits, budget);
  } catch (const Error& e) {
    sample.tensors.clear();
    sample.unavailable = e.what();
    // torch writes the inputs of a fake-mode export through its own hook.
    if (sample.unavailable.find("_reconstruct_fake_tensor") != std::string::npos) {
      sample.unavailable = where + ": holds FakeTensors (the program was exported under fake mode), not values";
    }
    return;
  }
  if (const std::string why = mismatch(ep.graph, sample.tensors); !why.empty()) {
    sample.tensors.clear();
    sample.unavailable = where + ": " + why;
  }
}

}  // namespace atenrt::frontend
