// atenrt::reference_layer_values: every marked node value of an engine next
// to the reference executor's value of the same converted network.
#include <map>

#include "api/pipeline.h"
#include "atenrt/atenrt.h"
#include "atenrt/inspect.h"
#include "frontend/pt2_reader.h"
#include "reference/reference.h"

namespace atenrt {

std::vector<LayerValues> reference_layer_values(const std::string& pt2_path, const std::vector<Tensor>& inputs,
                                                const CompileSettings& settings) {
  CompileSettings marked = settings;
  marked.mark_all_outputs = true;
  const Engine engine = compile(pt2_path, marked);
  ExecutionContext context(engine);
  const std::vector<Tensor>& got = context.run(inputs);  // checks the inputs against the engine

  ir::ExportedProgram program = frontend::load_pt2(pt2_path, api::reader_limits(marked));
  const conversion::ConvertedGraph converted = api::convert_program(program, marked);
  if (converted.inputs.size() != inputs.size()) {
    throw InputError(std::to_string(inputs.size()) + " inputs for a network of " +
                     std::to_string(converted.inputs.size()));
  }
  reference::TensorMap feed;
  for (std::size_t i = 0; i < inputs.size(); ++i) feed[converted.inputs[i]->name] = inputs[i];
  const reference::TensorMap want = reference::run(converted.network, feed);

  std::map<std::string, const Tensor*> by_name;
  for (std::size_t i = 0; i < got.size(); ++i) by_name[engine.outputs()[i].name] = &got[i];
  std::vector<LayerValues> out;
  auto add = [&](const network::NetworkTensor* t) {
    const auto e = by_name.find(t->name);
    const auto r = want.find(t->name);
    if (e == by_name.end() || r == want.end()) return;  // the engine's output naming differs: nothing to pair
    // A copy: the context's outputs are its own memory, gone with it.
    const Tensor& g = *e->second;
    out.push_back({t->name, Tensor(std::make_shared<Storage>(g.to_bytes()), g.dtype(), g.sizes(),
                                   contiguous_strides(g.sizes()), 0),
                   r->second});
  };
  for (const auto* t : converted.marked) add(t);
  for (const auto* t : converted.outputs) add(t);
  return out;
}

}  // namespace atenrt
