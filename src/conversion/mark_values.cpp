// Polygraphy's "mark all": every node's tensor value as an extra network
// output, named after the value, so that a layer-by-layer comparison can
// read each intermediate value out of the engine (atenrt.debug).
#include "conversion/context.h"

namespace atenrt::conversion {

void mark_node_values(ConversionContext& ctx, const ir::Graph& graph, const SegmentPlan& plan, ConvertedGraph& result) {
  network::Network& net = ctx.net();
  for (std::size_t index : plan.nodes) {
    for (const ir::Argument& out : graph.nodes[index].outputs) {
      const auto* ref = out.get_if<ir::TensorRef>();
      if (!ref) continue;
      const Value* v = nullptr;
      try {
        v = &ctx.value(ref->name);
      } catch (const Error&) {
        continue;  // an output no converter computes (an unused element of a tuple result)
      }
      if (!v->is_network_tensor()) continue;  // folded to a host constant at conversion time
      network::NetworkTensor* t = v->network_tensor();
      // Inputs and weights are what both sides were given; outputs are read already.
      if (t->is_input || t->is_output || !t->producer) continue;
      if (t->name != ref->name) {
        if (net.find_tensor(ref->name) || net.find_layer(ref->name)) continue;
        net.set_tensor_name(t, ref->name);
      }
      net.mark_output(t);
      result.marked.push_back(t);
    }
  }
}

}  // namespace atenrt::conversion
