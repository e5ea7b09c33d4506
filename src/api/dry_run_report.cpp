// The dry-run report: segments with their non-weight inputs (weights are
// counted, not listed: a segment of a resnet reads a hundred), true fallback
// counts, and a min_block_size suggestion only when it would change the plan.
#include "api/dry_run_report.h"

#include "api/hybrid_compile.h"

#include <algorithm>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

#include "atenrt/text.h"

namespace atenrt {
namespace {

std::string describe_value(const ir::Graph& graph, const std::string& name) {
  const ir::TensorMeta* meta = graph.meta(name);
  if (!meta) return name;
  std::string out = name + ": " + (meta->dtype ? std::string(dtype_name(*meta->dtype)) : std::string("?")) + "[";
  for (std::size_t i = 0; i < meta->sizes.size(); ++i) {
    const auto& s = meta->sizes[i];
    out += (i ? ", " : "") + (s.is_static() ? std::to_string(*s.value) : s.name);
  }
  return out + "]";
}

double percent(std::int64_t part, std::int64_t whole) {
  return whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 100.0;
}

}  // namespace

std::int64_t DryRunReport::engine_segments() const {
  return std::count_if(segments.begin(), segments.end(), [](const SegmentReport& s) { return s.engine; });
}

std::int64_t DryRunReport::fallback_segments() const {
  return static_cast<std::int64_t>(segments.size()) - engine_segments();
}

std::string DryRunReport::summary() const {
  std::ostringstream out;
  out << supported_ops << " of " << total_ops << " operators supported (" << std::fixed << std::setprecision(1)
      << percent(supported_ops, total_ops) << "%), " << engine_segments() << " engine segment"
      << (engine_segments() == 1 ? "" : "s") << ", " << fallback_segments() << " fallback";
  return out.str();
}

std::string DryRunReport::to_text() const {
  std::ostringstream out;
  out << "Dry run: " << supported_ops << " of " << total_ops << " operators supported (" << std::fixed
      << std::setprecision(1) << percent(supported_ops, total_ops) << "%)\n";
  out << "Engines: " << engine_segments() << ", fallback segments: " << fallback_segments();
  if (fallback_nodes) {
    out << " (" << fallback_nodes << " nodes outside the engine";
    if (fallback_supported_nodes) out << ", " << fallback_supported_nodes << " of them supported but in blocks below min_block_size";
    out << ")";
  }
  out << "\n";
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const auto& s = segments[i];
    out << "\nSegment " << i << " (" << (s.engine ? "atenrt engine" : "libtorch fallback") << ", " << s.nodes
        << " nodes, " << s.compute_ops << " compute ops)\n";
    if (!s.fallback_why.empty()) {
      out << "  runs in libtorch:\n";
      for (const auto& w : s.fallback_why) out << "    " << w << "\n";
    }
    out << "  inputs:";
    if (s.inputs.empty() && !s.weight_inputs) out << " none";
    if (s.weight_inputs) out << " (and " << s.weight_inputs << " weights)";
    out << "\n";
    for (const auto& v : s.inputs) out << "    " << v << "\n";
    out << "  outputs:\n";
    for (const auto& v : s.outputs) out << "    " << v << "\n";
  }
  if (!unsupported.empty()) {
    out << "\nUnsupported nodes:\n";
    for (const auto& u : unsupported) out << "  " << u.node << " (" << u.op << "): " << u.reason << "\n";
  }
  if (!refused.empty()) {
    out << "\nRefused by the libtorch fallback (compile fails):\n";
    for (const auto& u : refused) out << "  " << u.node << " (" << u.op << "): " << u.reason << "\n";
  }
  if (suggested_min_block_size) {
    out << "\nSuggested min_block_size: " << *suggested_min_block_size << " (now " << min_block_size
        << "; keeps every supported block in an engine)\n";
  }
  return escape_text(out.str());
}

std::string DryRunReport::to_json() const {
  using nlohmann::json;
  json segs = json::array();
  for (const auto& s : segments) {
    segs.push_back({{"target", s.engine ? "engine" : "fallback"},
                    {"nodes", s.nodes},
                    {"compute_ops", s.compute_ops},
                    {"inputs", s.inputs},
                    {"weight_inputs", s.weight_inputs},
                    {"outputs", s.outputs},
                    {"supported_nodes", s.supported_nodes},
                    {"fallback_why", s.fallback_why}});
  }
  json bad = json::array();
  for (const auto& u : unsupported) bad.push_back({{"node", u.node}, {"op", u.op}, {"reason", u.reason}});
  json refused_json = json::array();
  for (const auto& u : refused) refused_json.push_back({{"node", u.node}, {"op", u.op}, {"reason", u.reason}});
  json j = {{"total_ops", total_ops},
            {"supported_ops", supported_ops},
            {"fully_supported", fully_supported()},
            {"engine_segments", engine_segments()},
            {"fallback_segments", fallback_segments()},
            {"fallback_nodes", fallback_nodes},
            {"fallback_supported_nodes", fallback_supported_nodes},
            {"segments", segs},
            {"unsupported", bad},
            {"refused", refused_json},
            {"min_block_size", min_block_size},
            {"suggested_min_block_size", suggested_min_block_size ? json(*suggested_min_block_size) : json(nullptr)}};
  return j.dump(2, ' ', false, json::error_handler_t::replace);
}

DryRunReport api::make_dry_run_report(const ir::Graph& graph, const partition::Partition& partition,
                                      const partition::PartitionSettings& settings) {
  DryRunReport r;
  r.total_ops = partition.total_ops;
  r.supported_ops = partition.supported_ops;
  r.min_block_size = settings.min_block_size;
  bool demoted = false;  // a supported block kept out by min_block_size
  for (const auto& seg : partition.segments) {
    SegmentReport s;
    s.engine = seg.target == partition::SegmentTarget::Engine;
    s.nodes = static_cast<std::int64_t>(seg.nodes.size());
    s.compute_ops = seg.compute_ops;
    for (const auto& v : seg.inputs) {
      if (graph.weight_for_value(v)) {
        ++s.weight_inputs;
      } else {
        s.inputs.push_back(describe_value(graph, v));
      }
    }
    for (const auto& v : seg.outputs) s.outputs.push_back(describe_value(graph, v));
    if (!s.engine) {
      for (std::size_t n : seg.nodes) {
        const auto& node = graph.nodes[n];
        const auto& support = partition.support[n];
        s.supported_nodes += support.supported;
        s.fallback_why.push_back(node.name + " (" + node.target.str() + "): " +
                                 (support.supported ? "supported, but in a block of " + std::to_string(partition.demoted_block[n]) +
                                                          " compute ops, below min_block_size " +
                                                          std::to_string(settings.min_block_size)
                                                    : support.reason));
        if (auto why = api::fallback_refusal(graph, node); !why.empty()) {
          r.refused.push_back({node.name, node.target.str(), why});
        }
        // A value of a dtype atenrt cannot hold (complex) may live inside a torch
        // segment, but cannot leave it.
        for (const auto& out : node.outputs) {
          ir::for_each_value(out, [&](const std::string& v) {
            const ir::TensorMeta* m = graph.meta(v);
            if (m && !m->dtype && std::find(seg.outputs.begin(), seg.outputs.end(), v) != seg.outputs.end()) {
              r.refused.push_back({node.name, node.target.str(),
                                   "its result '" + v + "' has dtype code " + std::to_string(m->dtype_code) +
                                       ", which cannot leave the fallback (a graph output or an engine's input)"});
            }
          });
        }
      }
      r.fallback_nodes += s.nodes;
      r.fallback_supported_nodes += s.supported_nodes;
      demoted = demoted || s.supported_nodes > 0;
    }
    r.segments.push_back(std::move(s));
  }
  for (std::size_t i = 0; i < partition.support.size() && i < graph.nodes.size(); ++i) {
    if (partition.support[i].supported) continue;
    r.unsupported.push_back({graph.nodes[i].name, graph.nodes[i].target.str(), partition.support[i].reason});
  }
  if (demoted && partition.suggested_min_block_size < settings.min_block_size) {
    r.suggested_min_block_size = partition.suggested_min_block_size;
  }
  return r;
}

}  // namespace atenrt
