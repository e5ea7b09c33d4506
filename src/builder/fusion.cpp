// Post-op fusion over the Program. Fusions are data: a name, a matcher that
// finds (producer step, consumer step) pairs, legality rules in one helper,
// and a rewrite. The producer (conv/deconv/matmul) absorbs the consumer as a
// post-op and moves to the consumer's position, so that an Add operand
// produced in between is ready when the fused step runs. What a step can take
// (kinds, dtypes, which activations may follow which) is the backend's call
// (runtime/backend.h); the builder checks only what any fusion needs.
#include <functional>
#include <optional>

#include "builder/builder.h"
#include "runtime/backend.h"

namespace atenrt::builder {

using network::LayerKind;
using runtime::Backend;
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
  std::function<std::optional<Match>(const Program&, const Backend&, std::size_t producer, std::size_t consumer)>
      match;
};

// Legality shared by every fusion: the backend takes post-ops on the
// producer, whose single output is not a network output and is read exactly
// once, by the consumer.
bool legal(const Program& prog, const Backend& backend, std::size_t producer, std::size_t consumer) {
  const Step& p = prog.steps[producer];
  if (p.outputs.size() != 1 || !backend.takes_post_ops(prog, p)) return false;
  const int y = p.outputs[0];
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

const std::vector<Fusion>& fusions() {
  static const std::vector<Fusion> table = {
      {"activation",
       [](const Program& prog, const Backend& backend, std::size_t p, std::size_t c) -> std::optional<Match> {
         const Step& consumer = prog.steps[c];
         if (consumer.kind() != LayerKind::Activation) return std::nullopt;
         const auto& a = std::get<network::ActivationParams>(consumer.params);
         Match m{p, c, {}, -1};
         m.op.kind = PostOpKind::Activation;
         m.op.activation = a;
         m.op.fused_layer = consumer.name;
         if (!backend.can_append_post_op(prog, prog.steps[p], m.op, -1)) return std::nullopt;
         return m;
       }},
      {"add",  // residual (same dims: sum post-op) or bias (broadcast: binary post-op)
       [](const Program& prog, const Backend& backend, std::size_t p, std::size_t c) -> std::optional<Match> {
         const Step& consumer = prog.steps[c];
         if (consumer.kind() != LayerKind::Elementwise ||
             std::get<network::ElementwiseParams>(consumer.params).op != network::ElementwiseOp::Add) {
           return std::nullopt;
         }
         const int y = prog.steps[p].outputs[0];
         const int other = consumer.inputs[0] == y ? consumer.inputs[1] : consumer.inputs[0];
         if (other == y) return std::nullopt;  // y + y
         const auto& yt = prog.tensors[y];
         const auto& ot = prog.tensors[other];
         const auto& out = prog.tensors[consumer.outputs[0]];
         // The sum must keep y's dims (the operand broadcasts into y, not y into it).
         if (out.dims != yt.dims || ot.dims.size() > yt.dims.size()) return std::nullopt;
         Match m{p, c, {}, other};
         m.op.kind = PostOpKind::Add;
         m.op.fused_layer = consumer.name;
         if (!backend.can_append_post_op(prog, prog.steps[p], m.op, other)) return std::nullopt;
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

std::vector<std::string> fuse_post_ops(Program& prog, const Backend& backend) {
  std::vector<std::string> applied;
  bool changed = true;
  while (changed) {
    changed = false;
    for (std::size_t p = 0; p < prog.steps.size() && !changed; ++p) {
      if (prog.steps[p].outputs.size() != 1 || !backend.takes_post_ops(prog, prog.steps[p])) continue;
      const int y = prog.steps[p].outputs[0];
      for (std::size_t c = p + 1; c < prog.steps.size() && !changed; ++c) {
        bool reads = false;
        for (int in : prog.steps[c].inputs) reads = reads || in == y;
        if (!reads) continue;
        if (!legal(prog, backend, p, c)) break;
        for (const auto& f : fusions()) {
          if (auto m = f.match(prog, backend, p, c)) {
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
