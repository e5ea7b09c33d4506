// The pipeline behind atenrt::compile (DESIGN.md §1): import → lower →
// partition → convert → build.
#include <algorithm>
#include <chrono>
#include <optional>
#include <stdexcept>

#include "api/calibration.h"
#include "api/dry_run_report.h"
#include "api/hybrid_compile.h"
#include "api/input_ranges.h"
#include "api/pipeline.h"
#include "ir/log.h"
#include "atenrt/atenrt.h"
#include "builder/builder.h"
#include "builder/dynamic_engine.h"
#include "builder/dynamic_segment.h"
#include "conversion/context.h"
#include "conversion/plugins.h"
#include "conversion/registry.h"
#include "frontend/pt2_reader.h"
#include "ir/memory_limit.h"
#include "lowering/lower.h"
#include "partition/partitioner.h"
#include "runtime/engine.h"
#include "runtime/hybrid.h"
#include "runtime/torch_plugin.h"

namespace atenrt {
namespace {

conversion::ConversionSettings conversion_settings(const CompileSettings& s) {
  conversion::ConversionSettings c;
  c.assume_dynamic_shape_support = s.assume_dynamic_shape_support;
  c.mark_all_outputs = s.mark_all_outputs;
  return c;
}

}  // namespace

lowering::LoweringSettings api::lowering_settings(const CompileSettings& s) {
  // Every pipeline asks for these before it first asks the converter registry:
  // the plugins that ATENRT_PLUGINS names join it here.
  conversion::load_env_plugins();
  lowering::LoweringSettings l;
  l.decompositions_enabled = s.lowering;
  l.passes_enabled = s.lowering;
  l.disabled_groups.insert(s.disabled_decomposition_groups.begin(), s.disabled_decomposition_groups.end());
  l.disabled_decompositions.insert(s.disabled_decompositions.begin(), s.disabled_decompositions.end());
  l.disabled_passes.insert(s.disabled_passes.begin(), s.disabled_passes.end());
  // A decomposition yields to a converter of the same op unless it says
  // otherwise (lowering/settings.h): ask the registry.
  l.has_converter = [](const std::string& key) {
    return !conversion::ConverterRegistry::global().candidates(key).empty();
  };
  l.converter_accepts = [conv = conversion_settings(s)](const ir::Graph& graph, const ir::Node& node) {
    return conversion::ConverterRegistry::global().select(ir::NodeView(graph, node), conv).chosen != nullptr;
  };
  return l;
}

namespace {

partition::PartitionSettings partition_settings(const CompileSettings& s) {
  partition::PartitionSettings p;
  p.min_block_size = s.min_block_size;
  p.torch_executed_ops.insert(s.torch_executed_ops.begin(), s.torch_executed_ops.end());
  p.require_full_compilation = s.require_full_compilation;
  p.use_fast_partitioner = s.use_fast_partitioner;
  return p;
}

builder::BuilderConfig builder_config(const CompileSettings& s) {
  builder::BuilderConfig b;
  b.precision = s.precision == Precision::BF16   ? runtime::Precision::BFloat16
                : s.precision == Precision::INT8 ? runtime::Precision::Int8
                                                 : runtime::Precision::Float32;
  b.engine.num_threads = s.num_threads;
  b.engine.max_memory_bytes = static_cast<std::uint64_t>(s.max_memory);
  const int level = s.optimization_level;
  b.constant_folding = level >= 1;
  b.fold_batchnorm = level >= 1;
  b.dead_layer_removal = true;  // always safe, and keeps the plan small
  b.fuse_post_ops = level >= 2;
  b.engine.blocked_layout = level >= 3;
  b.engine.prepack_weights = level >= 3;
  return b;
}

// The partition of the lowered graph, and the registry's answer for each
// node it asked about: conversion reuses these answers instead of asking again.
struct Analysis {
  partition::Partition partition;
  std::vector<conversion::Selection> selections;  // per graph node
  // The whole graph converted, when every node converted (the probe's result).
  std::optional<conversion::ConvertedGraph> converted;
};

// Lowers and partitions `program`, filling the report's partition parts.
Analysis analyze(ir::ExportedProgram& program, const CompileSettings& settings, CompileReport& report,
                 const lowering::LoweringSettings* lowering = nullptr) {
  conversion::load_env_plugins();
  auto lowered = lowering::lower(program.graph, lowering ? *lowering : api::lowering_settings(settings));
  report.lowering = lowered.to_string();
  const auto conv = conversion_settings(settings);
  const auto& registry = conversion::ConverterRegistry::global();
  const ir::Graph& graph = program.graph;
  Analysis out;
  out.selections.resize(graph.nodes.size());
  auto supports = [&](const ir::Node& node) {
    // A tensor of a dtype engines cannot hold (complex, from the fft family)
    // keeps its producers and users out of engines, whatever a validator says.
    std::string foreign;
    auto check = [&](const std::string& v) {
      const ir::TensorMeta* m = graph.meta(v);
      if (m && !m->dtype && foreign.empty()) foreign = v + "' has dtype code " + std::to_string(m->dtype_code);
    };
    for (const auto& in : node.inputs) ir::for_each_value(in.arg, check);
    for (const auto& o : node.outputs) ir::for_each_value(o, check);
    if (!foreign.empty()) return partition::NodeSupport{false, "value '" + foreign + ", which atenrt engines do not hold"};
    auto& selection = out.selections[static_cast<std::size_t>(&node - graph.nodes.data())];
    selection = registry.select(ir::NodeView(graph, node), conv);
    if (selection.chosen) return partition::NodeSupport{true, ""};
    return partition::NodeSupport{false, selection.reason()};
  };
  out.partition = partition::partition_graph(graph, supports, partition_settings(settings));
  // The validators' answers, put to the test by converting: a node whose
  // converter then fails is unsupported, with the converter's reason, so the
  // dry run never calls supported what conversion refuses, and a hybrid
  // build runs that node in the fallback instead of failing.
  std::optional<conversion::ConversionProbe> probe;
  try {
    probe = conversion::probe_conversion(graph, out.selections, conv);
  } catch (const Error&) {
    // Inputs no engine can take (the real conversion says so): the
    // partition's answers stand.
  }
  if (probe && !probe->converted) {
    bool any_failed = false;
    for (const auto& f : probe->failures) any_failed = any_failed || !f.empty();
    if (any_failed) {
      auto answers = out.partition.support;
      auto probed = [&](const ir::Node& node) {
        const auto i = static_cast<std::size_t>(&node - graph.nodes.data());
        if (!probe->failures[i].empty()) return partition::NodeSupport{false, probe->failures[i]};
        return answers[i];
      };
      out.partition = partition::partition_graph(graph, probed, partition_settings(settings));
    }
  }
  if (probe && probe->converted) out.converted = std::move(probe->converted);
  report.dry_run = api::make_dry_run_report(graph, out.partition, partition_settings(settings));
  report.partition = report.dry_run.to_text();
  report.total_ops = out.partition.total_ops;
  report.supported_ops = out.partition.supported_ops;
  return out;
}

// What conversion takes: the engine segments' nodes, in graph order, with
// the converters the partition's query chose for them.
conversion::SegmentPlan engine_plan(const ir::Graph& graph, const Analysis& analysis) {
  conversion::SegmentPlan plan;
  for (const auto& seg : analysis.partition.segments) {
    if (seg.target != partition::SegmentTarget::Engine) continue;
    plan.nodes.insert(plan.nodes.end(), seg.nodes.begin(), seg.nodes.end());
  }
  std::sort(plan.nodes.begin(), plan.nodes.end());
  // One engine per graph: compile_program has made sure every node is in it.
  if (plan.nodes.size() != graph.nodes.size()) {
    throw std::logic_error("engine segments hold " + std::to_string(plan.nodes.size()) + " of " +
                           std::to_string(graph.nodes.size()) + " nodes");
  }
  for (auto i : plan.nodes) plan.selections.push_back(analysis.selections[i]);
  return plan;
}


// Engine segments built on their own, the rest run by the libtorch fallback.
Engine compile_hybrid(const ir::Graph& graph, const Analysis& analysis, const CompileSettings& settings,
                      CompileReport& r) {
  if (settings.precision == Precision::INT8) {
    // Calibration batches are the program's inputs; an engine segment's
    // inputs are values inside the program.
    throw UnsupportedError("precision int8 needs a fully supported graph (one engine); this one has libtorch "
                           "fallback segments.\n" + r.partition);
  }
  std::string why;
  if (!runtime::torch_plugin(&why)) {
    throw UnsupportedError("the graph has operators that atenrt does not convert, and they cannot run in the "
                           "libtorch fallback: " + why + ".\n" + r.partition);
  }
  api::SegmentBuilders build;
  build.engine = [&](conversion::ConvertedGraph&& converted) {
    builder::BuildReport build_report;
    auto engine = std::make_shared<const runtime::Engine>(
        builder::build(std::move(converted.network), builder_config(settings), &build_report));
    r.fusions.insert(r.fusions.end(), build_report.fusions.begin(), build_report.fusions.end());
    return engine;
  };
  build.shaped = [&](conversion::ConvertedGraph&& converted, std::vector<runtime::InputRange> ranges) {
    auto engine = std::make_shared<const builder::DynamicEngine>(std::move(converted.network), builder_config(settings),
                                                                 std::move(ranges));
    return std::make_shared<const builder::DynamicSegment>(std::move(engine));
  };
  // The user inputs' ranges, as a one-engine program takes them (none when
  // every input is static; an input without tensor metadata is the
  // planner's to refuse).
  std::vector<api::InputInfo> infos;
  bool dynamic = false;
  for (const auto* spec : graph.user_inputs()) {
    const ir::TensorMeta* meta = graph.meta(spec->value_name);
    if (!meta || !meta->dtype) {
      infos.clear();
      dynamic = false;
      break;
    }
    infos.push_back({spec->value_name, *meta->dtype});
    dynamic = dynamic || !meta->is_static();
  }
  std::vector<runtime::InputRange> ranges;
  if (!infos.empty()) ranges = api::input_ranges(graph, infos, settings);  // checks input_shapes, static inputs too
  if (!dynamic) ranges.clear();
  runtime::HybridProgram program;
  try {
    program = api::plan_hybrid(graph, analysis.partition, analysis.selections, conversion_settings(settings),
                               std::move(ranges), build);
  } catch (const UnsupportedError& e) {
    throw UnsupportedError(std::string(e.what()) + "\n" + r.partition);
  }
  auto hybrid = std::make_shared<const runtime::HybridEngine>(std::move(program));
  return Engine(std::move(hybrid));
}

}  // namespace

Engine compile(const std::string& pt2_path, const CompileSettings& settings, CompileReport* report) {
  validate(settings);
  const auto start = std::chrono::steady_clock::now();
  CompileReport local;
  CompileReport& r = report ? *report : local;
  Engine engine = api::compile_program(frontend::load_pt2(pt2_path, api::reader_limits(settings)), settings, &r);
  r.compile_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (log_enabled(LogLevel::Info)) {
    log(LogLevel::Info, "compiled " + pt2_path + ": " + std::to_string(r.supported_ops) + " of " +
                            std::to_string(r.total_ops) + " ops, " + std::to_string(engine.steps().size()) +
                            " steps, " + engine.built_settings() + ", " + std::to_string(r.compile_ms) + " ms");
  }
  return engine;
}

Engine api::compile_program(ir::ExportedProgram program, const CompileSettings& settings,
                            CompileReport* report, const lowering::LoweringSettings* lowering) {
  validate(settings);
  const auto start = std::chrono::steady_clock::now();
  CompileReport local;
  CompileReport& r = report ? *report : local;
  Analysis analysis = analyze(program, settings, r, lowering);
  // The builder keeps fp32 where this CPU has no fast kernels for the
  // precision asked for; said here once for every engine the graph makes.
  if (std::string note = runtime::cpu_backend().precision_unavailable(builder_config(settings).precision);
      !note.empty()) {
    log(LogLevel::Warning, note);
    r.warnings.push_back(std::move(note));
  }
  if (!analysis.partition.fully_supported()) {
    if (settings.require_full_compilation) {
      throw UnsupportedError("require_full_compilation is set but not every operator is supported.\n" + r.partition);
    }
    if (settings.mark_all_outputs) {
      throw UnsupportedError("mark_all_outputs needs a graph that compiles into one engine, and this one needs the "
                             "libtorch fallback.\n" + r.partition);
    }
    Engine engine = compile_hybrid(program.graph, analysis, settings, r);
    r.compile_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return engine;
  }
  conversion::ConvertedGraph converted =
      analysis.converted ? std::move(*analysis.converted)
                         : conversion::convert_segment(program.graph, engine_plan(program.graph, analysis),
                                                       conversion_settings(settings));
  // The network holds every weight it uses now: drop the program's references,
  // so a weight the builder folds or packs is freed instead of kept beside
  // its replacement.
  program.graph.weights.clear();
  // Input ranges: the archive's, narrowed by the settings (static archives
  // too, where the settings may only repeat the archive's dims).
  std::vector<InputInfo> infos;
  for (auto* in : converted.network.inputs()) infos.push_back({in->name, in->dtype});
  const auto ranges = input_ranges(program.graph, infos, settings);
  builder::BuildReport build_report;
  bool dynamic = false;
  for (auto* in : converted.network.inputs()) dynamic = dynamic || !in->is_static();
  // Data-dependent output shapes run in stages, which the dynamic engine
  // makes, for static inputs too (their ranges are fixed); so do sizes
  // computed from values at run time (item() -> new_zeros(n)), which a static
  // network shows as a dim conversion could not fix.
  const bool data_dependent = builder::has_data_dependent_layers(converted.network) ||
                              (!dynamic && builder::needs_stages(converted.network));
  std::optional<Engine> result;
  if (data_dependent && settings.precision == Precision::INT8) {
    throw UnsupportedError("precision int8 needs static shapes, and this graph has data-dependent output shapes "
                           "(nonzero, ...): compile it for fp32/bf16");
  }
  if (dynamic && !is_pinned(ranges) && settings.precision == Precision::INT8) {
    throw UnsupportedError("precision int8 needs static input shapes: pin the dynamic inputs with shapes "
                           "(--shapes) or compile for fp32/bf16");
  }
  if (data_dependent || (dynamic && !is_pinned(ranges))) {
    auto engine = std::make_shared<const builder::DynamicEngine>(std::move(converted.network), builder_config(settings),
                                                                 ranges);
    result.emplace(std::move(engine));
  } else {
    network::Network net = std::move(converted.network);
    if (dynamic) {
      // Every dynamic dim pinned (--shapes): one static engine for that shape.
      std::vector<network::Dims> dims;
      for (const auto& range : ranges) dims.push_back(range.opt());
      net = builder::specialize(net, dims);
    }
    builder::BuilderConfig config = builder_config(settings);
    if (settings.precision == Precision::INT8) {
      std::vector<const network::NetworkTensor*> inputs;
      std::vector<network::Dims> dims;
      for (const auto* in : net.inputs()) {
        inputs.push_back(in);
        dims.push_back(in->dims);
      }
      api::attach_calibration(config, settings, inputs, dims);
    }
    result.emplace(std::make_shared<const runtime::Engine>(builder::build(std::move(net), config, &build_report)));
    if (settings.precision == Precision::INT8) api::save_calibration_cache(config, settings, build_report);
  }
  r.fusions = build_report.fusions;
  r.compile_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return std::move(*result);
}

// The reader holds weights whole: it may hold no more than the memory limit.
frontend::ReadLimits api::reader_limits(const CompileSettings& s) {
  frontend::ReadLimits limits;
  limits.max_total_bytes =
      std::min(limits.max_total_bytes, resolve_memory_limit(static_cast<std::uint64_t>(s.max_memory)));
  return limits;
}

conversion::ConvertedGraph api::convert_program(ir::ExportedProgram& program, const CompileSettings& settings) {
  CompileReport r;
  Analysis analysis = analyze(program, settings, r);
  if (!analysis.partition.fully_supported()) {
    throw UnsupportedError("the graph needs the libtorch fallback; this needs one engine.\n" + r.partition);
  }
  if (analysis.converted) return std::move(*analysis.converted);
  return conversion::convert_segment(program.graph, engine_plan(program.graph, analysis), conversion_settings(settings));
}

CompileReport dry_run(const std::string& pt2_path, const CompileSettings& settings) {
  validate(settings);
  CompileReport report;
  ir::ExportedProgram program = frontend::load_pt2(pt2_path, api::reader_limits(settings));
  analyze(program, settings, report);
  return report;
}

}  // namespace atenrt
