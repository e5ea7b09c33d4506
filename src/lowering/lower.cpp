#include "lowering/lower.h"

#include <sstream>

#include "atenrt/errors.h"
#include "ir/provenance.h"
#include "lowering/graph_builder.h"
#include "lowering/graph_utils.h"
#include "lowering/node_args.h"
#include "lowering/registry.h"

namespace atenrt::lowering {

namespace {

// The first tensor value `node` reads or writes whose dtype atenrt cannot hold (complex...), or "".
std::string foreign_dtype_value(const ir::Graph& graph, const ir::Node& node) {
  std::string found;
  const auto check = [&](const std::string& v) {
    const ir::TensorMeta* m = graph.meta(v);
    if (found.empty() && m && !m->dtype) found = v;
  };
  for (const auto& in : node.inputs) ir::for_each_value(in.arg, check);
  for (const auto& out : node.outputs) ir::for_each_value(out, check);
  return found;
}


// Passes with an order below this run before the decompositions, the rest after.
constexpr int kDecompositionOrder = 100;

// A decomposition's result must have the node's dtype and (static) shape;
// a cast fixes a dtype that promotes differently, a shape mismatch is a bug
// in the decomposition and keeps the node.
std::string check_result(GraphBuilder& b, const ir::Graph& graph, const std::string& original, std::string value) {
  const ir::TensorMeta* want = graph.meta(original);
  const ir::TensorMeta* got = graph.meta(value);
  if (!want || !got) return value;
  if (want->is_static() && got->is_static() && want->static_sizes() != got->static_sizes()) {
    throw Decline{"internal: result shape " + got->to_string() + " differs from " + want->to_string()};
  }
  if (want->dtype && got->dtype && *want->dtype != *got->dtype) return b.cast(value, *want->dtype);
  return value;
}

}  // namespace

int run_decompositions(ir::Graph& graph, const LoweringSettings& settings, LoweringReport& report) {
  const auto& registry = DecompositionRegistry::instance();
  NameSet names(graph);
  int total = 0;
  for (int round = 0; round < std::max(1, settings.max_decomposition_rounds); ++round) {
    int replaced = 0;
    Renames renames;
    std::vector<ir::Node> out;
    out.reserve(graph.nodes.size());
    for (auto& node : graph.nodes) {
      renames.apply(node);
      const Decomposition* d = registry.find(node.target.str());
      if (!d) {
        out.push_back(std::move(node));
        continue;
      }
      if (std::string why = decomposition_blocker(*d, settings, &graph, &node); !why.empty()) {
        report.not_decomposed[d->key] = why;
        out.push_back(std::move(node));
        continue;
      }
      if (std::string value = foreign_dtype_value(graph, node); !value.empty()) {
        // Left for the partitioner, which refuses the node with the same reason.
        report.not_decomposed[d->key] = "declined for " + node.describe() + ": value '" + value +
                                        "' has a dtype atenrt engines do not support";
        out.push_back(std::move(node));
        continue;
      }
      if (d->options.validator) {
        if (const ir::Capability fits = d->options.validator(ir::NodeView(graph, node)); !fits) {
          report.not_decomposed[d->key] = "declined for " + node.describe() + ": " + fits.reason;
          out.push_back(std::move(node));
          continue;
        }
      }
      // The new nodes keep the node's metadata and say which op they replace
      // (the outermost one, when decompositions nest).
      auto metadata = node.metadata;
      metadata.emplace(ir::kDecomposedFromKey, node.target.str());
      GraphBuilder b(graph, names, node.name, std::move(metadata));
      const auto originals = output_values(node);
      try {
        auto results = d->fn(b, node);
        if (results.size() != originals.size()) {
          throw std::logic_error("decomposition " + d->key + " returned " + std::to_string(results.size()) +
                                 " values for " + std::to_string(originals.size()) + " outputs");
        }
        for (std::size_t i = 0; i < results.size(); ++i) results[i] = check_result(b, graph, originals[i], results[i]);
        for (auto& n : b.take_nodes()) out.push_back(std::move(n));
        for (std::size_t i = 0; i < results.size(); ++i) renames.add(originals[i], results[i]);
        ++report.decompositions[d->key];
        report.not_decomposed.erase(d->key);
        ++replaced;
      } catch (const Decline& decline) {
        b.abandon();
        report.not_decomposed[d->key] = "declined for " + node.describe() + ": " + decline.reason;
        out.push_back(std::move(node));
      }
    }
    graph.nodes = std::move(out);
    renames.apply_outputs(graph);
    total += replaced;
    if (replaced == 0) break;
  }
  prune_value_table(graph);
  return total;
}

LoweringReport lower(ir::Graph& graph, const LoweringSettings& settings) {
  LoweringReport report;
  report.nodes_before = graph.nodes.size();
  report.histogram_before = op_histogram(graph);
  auto run_passes = [&](bool before_decompositions) {
    for (const Pass* p : PassRegistry::instance().all()) {
      if ((p->order < kDecompositionOrder) != before_decompositions) continue;
      if (!settings.passes_enabled || settings.disabled_passes.contains(p->name)) {
        report.skipped_passes.push_back(p->name);
        continue;
      }
      report.passes.push_back(PassRun{p->name, p->fn(graph, settings)});
    }
  };
  run_passes(true);
  run_decompositions(graph, settings, report);
  run_passes(false);
  prune_value_table(graph);
  graph.validate();
  report.nodes_after = graph.nodes.size();
  report.histogram_after = op_histogram(graph);
  return report;
}

int LoweringReport::pass_changes(const std::string& name) const {
  int n = 0;
  for (const auto& p : passes) {
    if (p.name == name) n += p.changes;
  }
  return n;
}

bool LoweringReport::pass_ran(const std::string& name) const {
  for (const auto& p : passes) {
    if (p.name == name) return true;
  }
  return false;
}

std::string LoweringReport::to_string() const {
  std::ostringstream out;
  out << "lowering: " << nodes_before << " nodes -> " << nodes_after << " nodes\n";
  out << "decompositions applied:\n";
  for (const auto& [k, n] : decompositions) out << "  " << n << "\t" << k << "\n";
  if (!not_decomposed.empty()) {
    out << "not decomposed:\n";
    for (const auto& [k, why] : not_decomposed) out << "  " << k << ": " << why << "\n";
  }
  out << "passes:\n";
  for (const auto& p : passes) out << "  " << p.name << ": " << p.changes << " changes\n";
  for (const auto& p : skipped_passes) out << "  " << p << ": disabled\n";
  return out.str();
}

std::vector<std::string> pass_names() {
  std::vector<std::string> out;
  for (const Pass* p : PassRegistry::instance().all()) out.push_back(p->name);
  return out;
}

std::vector<std::string> decomposition_keys() {
  std::vector<std::string> out;
  for (const Decomposition* d : DecompositionRegistry::instance().all()) out.push_back(d->key);
  return out;
}

}  // namespace atenrt::lowering
