// Post-op fusion over the Program. Fusions are data: a name, a matcher that
// finds (producer step, consumer step) pairs, legality rules in one helper,
// and a rewrite. The producer (conv/deconv/matmul) absorbs the consumer as a
// oneDNN post-op and moves to the consumer's position, so that an Add operand
// produced in between is ready when the fused step runs.
#include <functional>
#include <optional>

#include "builder/builder.h"
#include "runtime/cpu/kernel.h"

namespace atenrt::builder {

using network::LayerKind;
using runtime::PostOp;
using runtime::PostOpKind;
using runtime::Program;
using runtime::Step;

namespace {

struct Match {
  std::size_t producer = 0;
  std::size_t consumer = 0;
  PostOp op;
  int operand_tensor = -1;  // Add: the tensor added
};

struct Fusion {
  std::string name;
  std::function<std::optional<Match>(const Program&, std::size_t producer, std::size_t consumer)> match;
};

bool takes_post_ops(const Step& s) {
  const auto k = s.kind();
  return k == LayerKind::Convolution || k == LayerKind::Deconvolution || k == LayerKind::MatMul;
}

// Legality shared by every fusion: the producer's single output is f32, is
// not a network output, and is read exactly once, by the consumer.
bool legal(const Program& prog, std::size_t producer, std::size_t consumer) {
  const Step& p = prog.steps[producer];
  if (!takes_post_ops(p) || p.outputs.size() != 1) return false;
  const int y = p.outputs[0];
  if (prog.tensors[y].dtype != DType::Float32) return false;
  for (int o : prog.outputs) {
    if (o == y) return false;
  }
  int uses = 0;
  for (std::size_t s = 0; s < prog.steps.size(); ++s) {
    for (int in : prog.steps[s].inputs) {
      if (in == y) {
        ++uses;
        if (s != consumer) return false;
      }
    }
  }
  return uses == 1;
}

// Activations that oneDNN cannot apply as a post-op with torch's results
// (relu, clip, hardsigmoid drop NaN; softplus has no form) run as the
// runtime's own pass after the primitive: nothing oneDNN applies may follow.
bool has_own_tail(const Step& s) {
  for (const auto& op : s.post_ops) {
    if (op.kind == PostOpKind::Activation && !runtime::cpu::onednn_activation_matches_torch(op.activation)) {
      return true;
    }
  }
  return false;
}

const std::vector<Fusion>& fusions() {
  static const std::vector<Fusion> table = {
      {"activation",
       [](const Program& prog, std::size_t p, std::size_t c) -> std::optional<Match> {
         const Step& consumer = prog.steps[c];
         if (consumer.kind() != LayerKind::Activation) return std::nullopt;
         const auto& a = std::get<network::ActivationParams>(consumer.params);
         Match m{p, c, {}, -1};
         m.op.kind = PostOpKind::Activation;
         m.op.activation = a;
         m.op.fused_layer = consumer.name;
         return m;
       }},
      {"add",  // residual (same dims: sum post-op) or bias (broadcast: binary post-op)
       [](const Program& prog, std::size_t p, std::size_t c) -> std::optional<Match> {
         const Step& consumer = prog.steps[c];
         if (consumer.kind() != LayerKind::Elementwise ||
             std::get<network::ElementwiseParams>(consumer.params).op != network::ElementwiseOp::Add) {
           return std::nullopt;
         }
         if (has_own_tail(prog.steps[p])) return std::nullopt;
         const int y = prog.steps[p].outputs[0];
         const int other = consumer.inputs[0] == y ? consumer.inputs[1] : consumer.inputs[0];
         if (other == y) return std::nullopt;  // y + y
         const auto& yt = prog.tensors[y];
         const auto& ot = prog.tensors[other];
         const auto& out = prog.tensors[consumer.outputs[0]];
         // The sum must keep y's dims (the operand broadcasts into y, not y into it).
         if (out.dims != yt.dims || ot.dtype != DType::Float32) return std::nullopt;
         if (ot.dims.size() > yt.dims.size()) return std::nullopt;
         // MatMul post-ops need oneDNN's dst dims: rank >= 2 operands.
         if (prog.steps[p].kind() == LayerKind::MatMul) {
           for (int in : {prog.steps[p].inputs[0], prog.steps[p].inputs[1]}) {
             if (prog.tensors[in].dims.size() < 2) return std::nullopt;
           }
         }
         Match m{p, c, {}, other};
         m.op.kind = PostOpKind::Add;
         m.op.fused_layer = consumer.name;
         return m;
       }},
  };
  return table;
}

void rewrite(Program& prog, const Match& m) {
  Step fused = std::move(prog.steps[m.producer]);
  Step& consumer = prog.steps[m.consumer];
  PostOp op = m.op;
  if (op.kind == PostOpKind::Add) {
    op.operand = static_cast<int>(fused.inputs.size());
    fused.inputs.push_back(m.operand_tensor);
  }
  fused.post_ops.push_back(op);
  fused.outputs = consumer.outputs;  // the consumer's output (and name) survive
  consumer = std::move(fused);       // at the consumer's position
  prog.steps.erase(prog.steps.begin() + static_cast<std::ptrdiff_t>(m.producer));
}

// Drops tensors no step, input or output refers to, renumbering ids.
void drop_unused_tensors(Program& prog) {
  std::vector<bool> used(prog.tensors.size(), false);
  for (const auto& s : prog.steps) {
    for (int id : s.inputs) used[id] = true;
    for (int id : s.outputs) used[id] = true;
  }
  for (int id : prog.inputs) used[id] = true;
  for (int id : prog.outputs) used[id] = true;
  std::vector<int> remap(prog.tensors.size(), -1);
  std::vector<runtime::ProgramTensor> kept;
  for (std::size_t i = 0; i < prog.tensors.size(); ++i) {
    if (!used[i]) continue;
    remap[i] = static_cast<int>(kept.size());
    kept.push_back(std::move(prog.tensors[i]));
  }
  prog.tensors = std::move(kept);
  auto fix = [&](std::vector<int>& ids) {
    for (int& id : ids) id = remap[id];
  };
  for (auto& s : prog.steps) {
    fix(s.inputs);
    fix(s.outputs);
  }
  fix(prog.inputs);
  fix(prog.outputs);
}

}  // namespace

std::vector<std::string> fuse_post_ops(Program& prog) {
  std::vector<std::string> applied;
  bool changed = true;
  while (changed) {
    changed = false;
    for (std::size_t p = 0; p < prog.steps.size() && !changed; ++p) {
      if (!takes_post_ops(prog.steps[p]) || prog.steps[p].outputs.size() != 1) continue;
      const int y = prog.steps[p].outputs[0];
      for (std::size_t c = p + 1; c < prog.steps.size() && !changed; ++c) {
        bool reads = false;
        for (int in : prog.steps[c].inputs) reads = reads || in == y;
        if (!reads) continue;
        if (!legal(prog, p, c)) break;
        for (const auto& f : fusions()) {
          if (auto m = f.match(prog, p, c)) {
            applied.push_back(f.name + ": " + m->op.fused_layer + " into " + prog.steps[p].name);
            rewrite(prog, *m);
            changed = true;
            break;
          }
        }
        break;  // only the single consumer matters
      }
    }
  }
  drop_unused_tensors(prog);
  return applied;
}

}  // namespace atenrt::builder
