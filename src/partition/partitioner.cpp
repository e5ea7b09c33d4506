#include "partition/partitioner.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <sstream>

#include "atenrt/errors.h"

namespace atenrt::partition {
namespace {

using ir::for_each_value;

struct Dataflow {
  std::map<std::string, std::size_t> producer;        // value -> node index
  std::vector<std::vector<std::size_t>> users;        // node -> consumer nodes
  std::vector<std::vector<std::size_t>> producers;    // node -> producer nodes
};

Dataflow dataflow(const ir::Graph& graph) {
  Dataflow d;
  d.users.resize(graph.nodes.size());
  d.producers.resize(graph.nodes.size());
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
    for (const auto& out : graph.nodes[i].outputs) {
      for_each_value(out, [&](const std::string& n) { d.producer[n] = i; });
    }
  }
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
    for (const auto& in : graph.nodes[i].inputs) {
      for_each_value(in.arg, [&](const std::string& n) {
        auto it = d.producer.find(n);
        if (it == d.producer.end()) return;
        d.producers[i].push_back(it->second);
        d.users[it->second].push_back(i);
      });
    }
  }
  return d;
}

bool forced_to_torch(const ir::Node& node, const PartitionSettings& settings) {
  const std::string full = node.target.str();
  if (settings.torch_executed_ops.contains(full)) return true;
  const std::string packet = node.target.ns.empty() ? node.target.name
                                                    : node.target.ns + "." + node.target.name;
  return settings.torch_executed_ops.contains(packet);
}

// Adjacency partitioner: alternating runs of supported and unsupported nodes
// in graph order.
std::vector<int> fast_groups(const std::vector<bool>& ok) {
  std::vector<int> group(ok.size(), -1);
  int current = -1;
  for (std::size_t i = 0; i < ok.size(); ++i) {
    if (i == 0 || ok[i] != ok[i - 1]) ++current;
    group[i] = current;
  }
  return group;
}

// Global partitioner: supported nodes join the partitions of their supported
// producers when no path leaves the merged set and comes back (which would
// make the segments depend on each other in a cycle).
std::vector<int> global_groups(const std::vector<bool>& ok, const Dataflow& d) {
  const std::size_t n = ok.size();
  std::vector<int> group(n, -1);
  int next = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!ok[i]) {
      group[i] = next++;
      continue;
    }
    std::set<int> candidates;
    for (auto p : d.producers[i]) {
      if (ok[p]) candidates.insert(group[p]);
    }
    // Does some path from a candidate group reach node i through a node
    // outside (candidates + i)? Only nodes before i can lie on such a path.
    auto creates_cycle = [&](const std::set<int>& merged) {
      std::vector<char> seen(n, 0);
      std::vector<std::size_t> stack;
      for (std::size_t j = 0; j < i; ++j) {
        if (merged.contains(group[j])) {
          for (auto u : d.users[j]) {
            if (u < i && !merged.contains(group[u]) && !seen[u]) {
              seen[u] = 1;
              stack.push_back(u);
            }
          }
        }
      }
      while (!stack.empty()) {
        auto j = stack.back();
        stack.pop_back();
        for (auto u : d.users[j]) {
          if (u == i) return true;
          if (u < i && !seen[u]) {
            seen[u] = 1;
            stack.push_back(u);
          }
        }
      }
      return false;
    };
    std::set<int> merged;
    if (!candidates.empty() && !creates_cycle(candidates)) {
      merged = candidates;
    } else {
      for (int c : candidates) {
        auto attempt = merged;
        attempt.insert(c);
        if (!creates_cycle(attempt)) merged = attempt;
      }
    }
    if (merged.empty()) {
      group[i] = next++;
      continue;
    }
    const int target = *merged.begin();
    for (std::size_t j = 0; j < i; ++j) {
      if (merged.contains(group[j])) group[j] = target;
    }
    group[i] = target;
  }
  return group;
}

void fill_segment_io(const ir::Graph& graph, Segment& seg) {
  std::set<std::string> defined_here;
  std::set<std::size_t> members(seg.nodes.begin(), seg.nodes.end());
  for (auto i : seg.nodes) {
    for (const auto& out : graph.nodes[i].outputs) {
      for_each_value(out, [&](const std::string& v) { defined_here.insert(v); });
    }
  }
  std::set<std::string> inputs_seen;
  for (auto i : seg.nodes) {
    for (const auto& in : graph.nodes[i].inputs) {
      for_each_value(in.arg, [&](const std::string& v) {
        if (!defined_here.contains(v) && inputs_seen.insert(v).second) seg.inputs.push_back(v);
      });
    }
  }
  std::set<std::string> used_outside;
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
    if (members.contains(i)) continue;
    for (const auto& in : graph.nodes[i].inputs) {
      for_each_value(in.arg, [&](const std::string& v) { used_outside.insert(v); });
    }
  }
  for (const auto& out : graph.outputs) {
    for_each_value(out, [&](const std::string& v) { used_outside.insert(v); });
  }
  for (auto i : seg.nodes) {
    for (const auto& out : graph.nodes[i].outputs) {
      for_each_value(out, [&](const std::string& v) {
        if (used_outside.contains(v)) seg.outputs.push_back(v);
      });
    }
  }
}

std::string value_desc(const ir::Graph& graph, const std::string& name) {
  if (const auto* m = graph.meta(name)) return name + ": " + m->to_string();
  if (graph.sym_int_values.contains(name)) return name + ": SymInt";
  if (graph.sym_bool_values.contains(name)) return name + ": SymBool";
  if (graph.sym_float_values.contains(name)) return name + ": SymFloat";
  return name;
}

}  // namespace

bool is_compute_op(const ir::Node& node) {
  if (node.target.ns == "operator") return false;
  static const std::set<std::string> kViews = {
      "view",  "_reshape_alias", "_unsafe_view", "reshape", "squeeze", "unsqueeze",
      "alias", "detach",         "sym_size",     "sym_numel", "expand", "t",
      "permute", "transpose",    "clone",        "lift_fresh_copy"};
  return !(node.target.ns == "aten" && kViews.contains(node.target.name));
}

std::size_t Partition::engine_segments() const {
  return static_cast<std::size_t>(std::count_if(segments.begin(), segments.end(), [](const Segment& s) {
    return s.target == SegmentTarget::Engine;
  }));
}

Partition partition_graph(const ir::Graph& graph, const SupportFn& supports,
                          const PartitionSettings& settings) {
  Partition result;
  const std::size_t n = graph.nodes.size();
  result.support.resize(n);
  std::vector<bool> ok(n, false);
  for (std::size_t i = 0; i < n; ++i) {
    const auto& node = graph.nodes[i];
    if (forced_to_torch(node, settings)) {
      result.support[i] = {false, "listed in torch_executed_ops"};
    } else {
      result.support[i] = supports(node);
    }
    ok[i] = result.support[i].supported;
    ++result.total_ops;
    if (ok[i]) ++result.supported_ops;
  }
  const Dataflow d = dataflow(graph);
  const std::vector<int> group = settings.use_fast_partitioner ? fast_groups(ok) : global_groups(ok, d);

  std::map<int, Segment> by_group;
  std::vector<int> order;
  for (std::size_t i = 0; i < n; ++i) {
    auto [it, inserted] = by_group.try_emplace(group[i]);
    if (inserted) order.push_back(group[i]);
    it->second.nodes.push_back(i);
    it->second.target = ok[i] ? SegmentTarget::Engine : SegmentTarget::Fallback;
    if (is_compute_op(graph.nodes[i])) ++it->second.compute_ops;
  }
  // Small engine blocks go to the fallback (Torch-TensorRT's rule), but a
  // fully supported graph is always one engine, whatever min_block_size says:
  // small graphs and one-op cases keep exercising the converters.
  const bool whole_graph = result.fully_supported();
  result.demoted_block.assign(n, 0);
  // Suggest the block size that keeps every supported block in an engine.
  std::int64_t smallest_block = 0;
  for (int g : order) {
    auto& seg = by_group[g];
    if (seg.target != SegmentTarget::Engine) continue;
    if (seg.compute_ops > 0) {
      smallest_block = smallest_block ? std::min(smallest_block, seg.compute_ops) : seg.compute_ops;
    }
    if (!whole_graph && seg.compute_ops < settings.min_block_size) {
      seg.target = SegmentTarget::Fallback;
      for (auto i : seg.nodes) result.demoted_block[i] = seg.compute_ops;
    }
  }
  // Neighbouring fallback runs merge into one segment (fast partitioner).
  for (int g : order) {
    Segment seg = std::move(by_group[g]);
    if (settings.use_fast_partitioner && !result.segments.empty() &&
        result.segments.back().target == seg.target && seg.target == SegmentTarget::Fallback) {
      auto& prev = result.segments.back();
      prev.nodes.insert(prev.nodes.end(), seg.nodes.begin(), seg.nodes.end());
      prev.compute_ops += seg.compute_ops;
    } else {
      result.segments.push_back(std::move(seg));
    }
  }
  for (auto& seg : result.segments) {
    std::sort(seg.nodes.begin(), seg.nodes.end());
    fill_segment_io(graph, seg);
  }
  result.suggested_min_block_size = std::max<std::int64_t>(1, smallest_block);
  return result;
}

std::string Partition::report(const ir::Graph& graph) const {
  std::ostringstream out;
  const double pct = total_ops ? 100.0 * static_cast<double>(supported_ops) / static_cast<double>(total_ops) : 100.0;
  out << "Dry run: " << supported_ops << " of " << total_ops << " operators supported (";
  out.precision(1);
  out << std::fixed << pct << "%)\n";
  out << "Engines: " << engine_segments() << ", fallback segments: " << segments.size() - engine_segments()
      << "\n";
  int index = 0;
  for (const auto& seg : segments) {
    out << "\nSegment " << index++ << " ("
        << (seg.target == SegmentTarget::Engine ? "atenrt engine" : "libtorch fallback") << ", "
        << seg.nodes.size() << " nodes, " << seg.compute_ops << " compute ops)\n";
    out << "  inputs:\n";
    for (const auto& v : seg.inputs) out << "    " << value_desc(graph, v) << "\n";
    out << "  outputs:\n";
    for (const auto& v : seg.outputs) out << "    " << value_desc(graph, v) << "\n";
  }
  bool any = false;
  for (std::size_t i = 0; i < support.size(); ++i) {
    if (support[i].supported) continue;
    if (!any) out << "\nUnsupported nodes:\n";
    any = true;
    const auto& node = graph.nodes[i];
    out << "  " << node.name << " (" << node.target.str() << "): " << support[i].reason << "\n";
  }
  out << "\nSuggested min_block_size: " << suggested_min_block_size << "\n";
  return out.str();
}

void require_single_engine(const ir::Graph& graph, const Partition& partition,
                           const PartitionSettings& settings) {
  if (partition.fully_supported()) return;
  std::string why = settings.require_full_compilation
                        ? "require_full_compilation is set but not every operator is supported"
                        : "the graph has operators atenrt cannot convert into one engine";
  throw UnsupportedError(why + ".\n" + partition.report(graph));
}

}  // namespace atenrt::partition
