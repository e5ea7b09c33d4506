#include "runtime/hybrid.h"

#include <algorithm>
#include <chrono>
#include <set>

#include "atenrt/errors.h"
#include "ir/sym_expr.h"
#include "network/infer.h"
#include "runtime/torch_plugin.h"
#include "runtime/torch_policy.h"

namespace atenrt::runtime {
namespace {

std::string slot_text(const Slot& s) { return s.name + ": " + std::string(dtype_name(s.dtype)) + shape_to_string(s.dims); }

[[noreturn]] void bad(const std::string& what) { throw FormatError("hybrid program: " + what); }

// "aten::eye" + "m" -> "aten.eye.m" (the graph's spelling, as the report uses).
std::string op_key(const torch_abi::OpCall& c) {
  std::string key = c.op;
  if (auto p = key.find("::"); p != std::string::npos) key.replace(p, 2, ".");
  return key + "." + (c.overload.empty() ? "default" : c.overload);
}

bool same(const TensorInfo& info, const Slot& s) { return info.dtype == s.dtype && info.dims == s.dims; }

// An engine's input or output against its slot: a dim either side leaves
// open (-1) is checked when the run has the tensor.
bool compatible(const TensorInfo& info, const Slot& s) {
  if (info.dtype != s.dtype || info.dims.size() != s.dims.size()) return false;
  for (std::size_t d = 0; d < s.dims.size(); ++d) {
    if (info.dims[d] >= 0 && s.dims[d] >= 0 && info.dims[d] != s.dims[d]) return false;
  }
  return true;
}

// A tensor a run made for slot `s`: its dtype, rank and static dims.
bool fits(const Tensor& t, const Slot& s) {
  if (t.dtype() != s.dtype || t.sizes().size() != s.dims.size()) return false;
  for (std::size_t d = 0; d < s.dims.size(); ++d) {
    if (s.dims[d] >= 0 && t.sizes()[d] != s.dims[d]) return false;
  }
  return true;
}

std::vector<TensorInfo> range_infos(const std::vector<InputRange>& ranges) {
  std::vector<TensorInfo> out;
  for (const auto& r : ranges) out.push_back({r.name, r.dtype, r.declared()});
  return out;
}

Tensor wrap_owned(torch_abi::OwnedTensor&& t) {
  if (t.view.dtype < 0 || t.view.dtype >= kDTypeCount) throw Error("the fallback returned dtype code " + std::to_string(t.view.dtype));
  const auto dtype = static_cast<DType>(t.view.dtype);
  const std::size_t nbytes = static_cast<std::size_t>(numel_of(t.view.sizes)) * element_size(dtype);
  auto storage = std::make_shared<Storage>(static_cast<const std::byte*>(t.view.data), nbytes, std::move(t.owner));
  return Tensor(std::move(storage), dtype, t.view.sizes, t.view.strides, 0);
}

}  // namespace

void HybridProgram::validate() const {
  constexpr std::int64_t kMaxDim = std::int64_t{1} << 40;
  for (const auto& s : slots) {
    for (auto d : s.dims) {
      if (d < -1 || d > kMaxDim) bad("value '" + s.name + "' has dim " + std::to_string(d));
    }
    unsigned __int128 bytes = element_size(s.dtype);  // of its static dims; a run checks the rest
    for (auto d : s.dims) bytes = std::min<unsigned __int128>(bytes * static_cast<unsigned __int128>(std::max<std::int64_t>(d, 1)), kMaxSlotBytes + 1);
    if (bytes > kMaxSlotBytes) bad("value '" + s.name + "' is larger than 64 GiB");
  }
  const auto n = static_cast<int>(slots.size());
  auto check_id = [&](int id, const std::string& where) {
    if (id < 0 || id >= n) bad(where + " names value " + std::to_string(id) + " of " + std::to_string(n));
  };
  std::set<int> written;
  auto write = [&](int id, const std::string& where) {
    check_id(id, where);
    if (!written.insert(id).second) bad(where + " writes '" + slots[id].name + "', already written");
  };
  auto read = [&](int id, const std::string& where) {
    check_id(id, where);
    if (!written.contains(id)) bad(where + " reads '" + slots[id].name + "' before it is written");
  };
  auto not_torch_only = [&](int id, const std::string& where) {
    check_id(id, where);
    if (slots[id].torch_only) bad(where + " uses '" + slots[id].name + "', a value that stays inside a torch segment");
  };
  for (int id : inputs) not_torch_only(id, "program input");
  for (int id : outputs) not_torch_only(id, "program output");
  for (const auto& c : constants) not_torch_only(c.first, "constant");
  for (const auto& st : stages) {
    for (int id : st.inputs) not_torch_only(id, "engine segment");
    for (int id : st.outputs) not_torch_only(id, "engine segment");
  }
  for (int id : inputs) write(id, "program input");
  const std::set<std::string> bound_symbols = size_symbols(input_ranges);
  if (!input_ranges.empty()) {
    if (input_ranges.size() != inputs.size()) bad(std::to_string(input_ranges.size()) + " input ranges for " + std::to_string(inputs.size()) + " inputs");
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      const InputRange& r = input_ranges[i];
      if (!same({r.name, r.dtype, r.declared()}, slots[inputs[i]]) || r.name != slots[inputs[i]].name) {
        bad("the range " + r.to_string() + " does not match input " + slot_text(slots[inputs[i]]));
      }
    }
  } else {
    for (int id : inputs) {
      for (auto d : slots[id].dims) {
        if (d < 0) bad("input " + slot_text(slots[id]) + " is dynamic, and the program holds no input ranges");
      }
    }
  }
  for (const auto& [id, t] : constants) {
    write(id, "constant");
    if (!same({"", t.dtype(), t.sizes()}, slots[id])) {
      bad("constant '" + slots[id].name + "' is " + std::string(dtype_name(t.dtype())) + shape_to_string(t.sizes()) +
          ", its value says " + slot_text(slots[id]));
    }
  }
  for (std::size_t k = 0; k < stages.size(); ++k) {
    const auto& st = stages[k];
    const std::string where = "stage " + std::to_string(k);
    if (st.kind == HybridStage::Kind::Engine) {
      if (!st.engine == !st.shaped) bad(where + " needs exactly one engine");
      const auto ins = st.engine ? st.engine->inputs() : range_infos(st.shaped->ranges());
      const auto outs = st.engine ? st.engine->outputs() : st.shaped->outputs();
      if (ins.size() != st.inputs.size() || outs.size() != st.outputs.size()) {
        bad(where + ": the engine's inputs and outputs do not match the stage's");
      }
      for (std::size_t i = 0; i < st.inputs.size(); ++i) {
        read(st.inputs[i], where);
        if (!compatible(ins[i], slots[st.inputs[i]])) bad(where + ": engine input " + std::to_string(i) + " is not " + slot_text(slots[st.inputs[i]]));
      }
      for (std::size_t i = 0; i < st.outputs.size(); ++i) {
        write(st.outputs[i], where);
        if (!compatible(outs[i], slots[st.outputs[i]])) bad(where + ": engine output " + std::to_string(i) + " is not " + slot_text(slots[st.outputs[i]]));
      }
      continue;
    }
    if (st.nodes.empty()) bad(where + " is an empty torch segment");
    for (const auto& node : st.nodes) {
      const std::string at = where + ", " + node.call.node;
      if (auto why = torch_policy::refusal(node.call.op, node.call.overload); !why.empty()) {
        bad(at + ": " + node.call.op + " does not run in the fallback: " + why);
      }
      if (node.inputs.size() != node.call.num_tensors || node.outputs.size() != node.call.num_outputs) {
        bad(at + ": tensor counts do not match the call");
      }
      for (const auto& a : node.call.args) {
        // The same bounds compile() puts on the integers an op receives.
        if (a.kind == torch_abi::ArgKind::Int || a.kind == torch_abi::ArgKind::IntList) {
          for (auto v : a.kind == torch_abi::ArgKind::Int ? std::vector<std::int64_t>{a.i} : a.ints) {
            if (v > kMaxArgInt || v < -kMaxArgInt) bad(at + ": argument '" + a.name + "' is " + std::to_string(v) + ", out of range");
          }
        }
        const bool tensors = a.kind == torch_abi::ArgKind::Tensor || a.kind == torch_abi::ArgKind::TensorList ||
                             a.kind == torch_abi::ArgKind::OptionalTensorList;
        for (auto t : tensors ? a.ints : std::vector<std::int64_t>{}) {
          if (t < -1 || t >= static_cast<std::int64_t>(node.inputs.size())) bad(at + ": argument '" + a.name + "' names tensor " + std::to_string(t));
        }
      }
      for (const auto& sa : node.sym_args) {
        if (input_ranges.empty()) bad(at + ": a run-time size, but the program's inputs are static");
        if (sa.arg >= node.call.args.size()) bad(at + ": run-time size of argument " + std::to_string(sa.arg) + " out of range");
        const auto& a = node.call.args[sa.arg];
        const bool fits_kind = sa.element < 0 ? a.kind == torch_abi::ArgKind::Int
                                              : a.kind == torch_abi::ArgKind::IntList && sa.element < static_cast<std::int64_t>(a.ints.size());
        if (!fits_kind) bad(at + ": argument '" + a.name + "' cannot take a run-time size there");
        std::set<std::string> used;
        try {
          ir::SymExpr::parse(sa.expr).collect_symbols(used);
        } catch (const FormatError& e) {
          bad(at + ": " + e.what());
        }
        for (const auto& sym : used) {
          if (!bound_symbols.contains(sym)) bad(at + ": argument '" + a.name + "' uses the size " + sym + ", which no input dim binds");
        }
      }
      for (int id : node.inputs) read(id, at);
      for (int id : node.outputs) {
        if (id != -1) write(id, at);
      }
    }
  }
  for (int id : outputs) read(id, "program output");
}

std::vector<std::string> HybridProgram::torch_ops() const {
  std::vector<std::string> ops;
  std::set<std::string> seen;
  for (const auto& st : stages) {
    for (const auto& node : st.nodes) {
      if (seen.insert(op_key(node.call)).second) ops.push_back(op_key(node.call));
    }
  }
  return ops;
}

HybridEngine::HybridEngine(HybridProgram program) : program_(std::move(program)) {
  program_.validate();
  for (int id : program_.inputs) inputs_.push_back({program_.slots[id].name, program_.slots[id].dtype, program_.slots[id].dims});
  for (int id : program_.outputs) outputs_.push_back({program_.slots[id].name, program_.slots[id].dtype, program_.slots[id].dims});
  std::string why;
  plugin_ = torch_plugin(&why);
  if (!plugin_) {
    std::string ops;
    for (const auto& op : program_.torch_ops()) ops += (ops.empty() ? "" : ", ") + op;
    throw UnsupportedError("this program runs operators in the libtorch fallback (" + ops + "), but " + why);
  }
  prepared_.resize(program_.stages.size());
  sizes_.resize(program_.stages.size());
  for (std::size_t k = 0; k < program_.stages.size(); ++k) {
    for (const auto& node : program_.stages[k].nodes) {
      auto& exprs = sizes_[k].emplace_back();
      for (const auto& sa : node.sym_args) exprs.push_back(ir::SymExpr::parse(sa.expr));
      try {
        prepared_[k].push_back(plugin_->prepare(node.call));
      } catch (const std::exception& e) {
        throw UnsupportedError(e.what());
      }
    }
  }
}

HybridContext::HybridContext(std::shared_ptr<const HybridEngine> engine) : engine_(std::move(engine)) {
  const auto& p = engine_->program_;
  values_.resize(p.slots.size());
  torch_values_.resize(p.slots.size());
  for (const auto& [id, t] : p.constants) values_[id] = t;
  for (const auto& st : p.stages) {
    contexts_.push_back(st.engine ? std::make_unique<ExecutionContext>(*st.engine) : nullptr);
    shaped_.push_back(st.shaped ? st.shaped->make_context() : nullptr);
  }
}

HybridContext::~HybridContext() = default;

void HybridContext::set_num_threads(int num_threads) {
  num_threads_ = num_threads;
  for (auto& c : contexts_) {
    if (c) c->set_num_threads(num_threads);
  }
  for (auto& c : shaped_) {
    if (c) c->set_num_threads(num_threads);
  }
}

void HybridContext::set_profiling(bool on) {
  profiling_ = on;
  runs_ = 0;
  const auto& p = engine_->program_;
  stage_start_ms_.assign(p.stages.size(), 0.0);
  torch_times_.assign(p.stages.size(), {});
  for (std::size_t k = 0; k < p.stages.size(); ++k) {
    if (contexts_[k]) contexts_[k]->set_profiling(on);
    else if (shaped_[k]) shaped_[k]->set_profiling(on);
    else torch_times_[k].reset(on ? p.stages[k].nodes.size() : 0);
  }
}

StepTimes HybridContext::profile() const {
  StepTimes out;
  out.runs = runs_;
  if (!profiling_) return out;
  for (std::size_t k = 0; k < contexts_.size(); ++k) {
    if (shaped_[k]) {
      // Listed as the opt engine's steps (Engine::steps): a shape whose
      // engine has other steps (or a staged run) reports no per-step times.
      StepTimes t = shaped_[k]->profile();
      const std::size_t n = engine_->program_.stages[k].shaped->opt_engine().steps().size();
      if (t.total_ms.size() != n) t.reset(n);
      out.append(t, stage_start_ms_[k]);
      continue;
    }
    out.append(contexts_[k] ? contexts_[k]->profile() : torch_times_[k], stage_start_ms_[k]);
  }
  return out;
}

const torch_abi::PreparedOp& HybridContext::sized_op(std::size_t stage, std::size_t index,
                                                      const std::map<std::string, std::int64_t>& bindings) {
  const TorchNode& node = engine_->program_.stages[stage].nodes[index];
  std::vector<std::int64_t> values;
  for (std::size_t i = 0; i < node.sym_args.size(); ++i) {
    const auto v = engine_->sizes_[stage][index][i].evaluate(bindings);
    if (!v || *v > kMaxArgInt || *v < -kMaxArgInt) {
      throw InputError(node.call.node + ": the size " + node.sym_args[i].expr + " is " + (v ? std::to_string(*v) : std::string("not computable")) +
                       " for these inputs");
    }
    values.push_back(*v);
  }
  auto& cache = sized_[{stage, index}];
  if (auto it = cache.find(values); it != cache.end()) return *it->second;
  torch_abi::OpCall call = node.call;
  for (std::size_t i = 0; i < values.size(); ++i) {
    auto& a = call.args[node.sym_args[i].arg];
    (node.sym_args[i].element < 0 ? a.i : a.ints[static_cast<std::size_t>(node.sym_args[i].element)]) = values[i];
    a.at_default = false;
  }
  std::shared_ptr<const torch_abi::PreparedOp> op;
  try {
    op = engine_->plugin_->prepare(call);
  } catch (const std::exception& e) {
    throw InputError(std::string(e.what()));
  }
  if (cache.size() >= kSizedOpsPerNode) cache.clear();  // shapes beyond a handful: prepare again
  return *cache.emplace(std::move(values), std::move(op)).first->second;
}

const std::vector<Tensor>& HybridContext::run(const std::vector<Tensor>& inputs) {
  const auto& p = engine_->program_;
  if (inputs.size() != p.inputs.size()) {
    throw InputError("expected " + std::to_string(p.inputs.size()) + " inputs, got " + std::to_string(inputs.size()));
  }
  std::vector<Dims> dims;
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    const Slot& s = p.slots[p.inputs[k]];
    if (!inputs[k].defined() || !fits(inputs[k], s)) {
      throw InputError("input '" + s.name + "': expected " + std::string(dtype_name(s.dtype)) + shape_to_string(s.dims) +
                       ", got " + (inputs[k].defined() ? std::string(dtype_name(inputs[k].dtype())) + shape_to_string(inputs[k].sizes())
                                                       : std::string("no tensor")));
    }
    values_[p.inputs[k]] = inputs[k];
    dims.push_back(inputs[k].sizes());
  }
  // The size symbols' values in this run (torch nodes with run-time sizes).
  const std::map<std::string, std::int64_t> bindings =
      p.input_ranges.empty() ? std::map<std::string, std::int64_t>{} : check_input_dims(p.input_ranges, dims);
  using Clock = std::chrono::steady_clock;
  const auto run_start = Clock::now();
  auto since = [](Clock::time_point from) { return std::chrono::duration<double, std::milli>(Clock::now() - from).count(); };
  for (std::size_t k = 0; k < p.stages.size(); ++k) {
    const auto& st = p.stages[k];
    if (profiling_) stage_start_ms_[k] = since(run_start);
    if (st.kind == HybridStage::Kind::Engine) {
      std::vector<Tensor> in;
      in.reserve(st.inputs.size());
      for (int id : st.inputs) in.push_back(values_[id]);
      const auto& out = contexts_[k] ? contexts_[k]->run(in) : shaped_[k]->run(in);
      for (std::size_t i = 0; i < st.outputs.size(); ++i) values_[st.outputs[i]] = out[i];
      continue;
    }
    engine_->plugin_->set_num_threads(num_threads_);
    for (std::size_t j = 0; j < st.nodes.size(); ++j) {
      const auto& node = st.nodes[j];
      std::vector<torch_abi::TensorView> views;
      views.reserve(node.inputs.size());
      for (int id : node.inputs) {
        if (p.slots[id].torch_only) {
          views.push_back({-1, nullptr, {}, {}, torch_values_[id]});
          continue;
        }
        const Tensor& t = values_[id];
        views.push_back({static_cast<int>(t.dtype()), t.raw_data(), t.sizes(), t.strides(), nullptr});
      }
      std::vector<torch_abi::OwnedTensor> outs;
      const auto node_start = Clock::now();
      try {
        const torch_abi::PreparedOp& op = node.sym_args.empty() ? *engine_->prepared_[k][j] : sized_op(k, j, bindings);
        outs = op.run(views);
        if (profiling_) {
          auto& t = torch_times_[k];
          t.last_ms[j] = since(node_start);
          t.total_ms[j] += t.last_ms[j];
          t.last_start_ms[j] = std::chrono::duration<double, std::milli>(node_start - run_start).count() - stage_start_ms_[k];
        }
      } catch (const Error&) {
        throw;
      } catch (const std::exception& e) {
        throw Error(std::string("libtorch fallback: ") + e.what());
      }
      for (std::size_t i = 0; i < node.outputs.size() && i < outs.size(); ++i) {
        if (node.outputs[i] < 0) continue;
        const Slot& s = p.slots[node.outputs[i]];
        if (s.torch_only) {
          torch_values_[node.outputs[i]] = std::move(outs[i].owner);
          continue;
        }
        if (outs[i].view.dtype < 0) {
          throw Error(node.call.node + ": libtorch returned '" + s.name + "' in a dtype atenrt cannot hold");
        }
        Tensor t = wrap_owned(std::move(outs[i]));
        if (!fits(t, s)) {
          throw Error(node.call.node + ": libtorch returned " + std::string(dtype_name(t.dtype())) + shape_to_string(t.sizes()) +
                      " for '" + s.name + "', the graph says " + std::string(dtype_name(s.dtype)) + shape_to_string(s.dims));
        }
        values_[node.outputs[i]] = std::move(t);
      }
    }
  }
  outputs_.clear();
  for (int id : p.outputs) outputs_.push_back(values_[id]);
  if (profiling_) ++runs_;
  return outputs_;
}

}  // namespace atenrt::runtime
