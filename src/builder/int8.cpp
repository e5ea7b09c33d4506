#include "builder/int8.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>
#include <sstream>

#include "atenrt/errors.h"
#include "runtime/quantization.h"

namespace atenrt::builder {

using runtime::Precision;
using runtime::Program;
using runtime::ProgramTensor;
using runtime::Step;
using runtime::TensorRole;

namespace {

constexpr int kBins = 2048;

bool constant_f32(const ProgramTensor& t) {
  return t.role == TensorRole::Constant && t.dtype == DType::Float32 && t.value.defined();
}

// Statistics of one watched tensor over the calibration batches.
struct Stats {
  float min = std::numeric_limits<float>::infinity();
  float max = -std::numeric_limits<float>::infinity();
  std::vector<double> histogram;  // of |x| over [0, abs_max], kBins bins (second pass)
  float abs_max() const { return std::max(std::fabs(min), std::fabs(max)); }
};

void observe_range(Stats& s, const Tensor& t) {
  const Tensor c = t.contiguous();
  const float* v = c.data<float>();
  for (std::int64_t i = 0; i < c.numel(); ++i) {
    if (std::isnan(v[i])) continue;
    s.min = std::min(s.min, v[i]);
    s.max = std::max(s.max, v[i]);
  }
}

void observe_histogram(Stats& s, const Tensor& t) {
  const float top = s.abs_max();
  if (s.histogram.empty()) s.histogram.assign(kBins, 0.0);
  if (!(top > 0.0f) || !std::isfinite(top)) return;
  const Tensor c = t.contiguous();
  const float* v = c.data<float>();
  for (std::int64_t i = 0; i < c.numel(); ++i) {
    if (std::isnan(v[i])) continue;
    const int bin = std::min(kBins - 1, static_cast<int>(std::fabs(v[i]) / top * kBins));
    s.histogram[bin] += 1.0;
  }
}

// The smallest threshold below which `fraction` of the values lie.
float percentile_threshold(const Stats& s, double fraction) {
  double total = 0.0;
  for (double h : s.histogram) total += h;
  double seen = 0.0;
  const float width = s.abs_max() / kBins;
  for (int i = 0; i < kBins; ++i) {
    seen += s.histogram[i];
    if (seen >= fraction * total) return (i + 1) * width;
  }
  return s.abs_max();
}

// The entropy method: the threshold whose clipped, `levels`-level quantized
// distribution loses the least information (KL divergence) against the
// clipped original.
float entropy_threshold(const Stats& s, int levels) {
  const float width = s.abs_max() / kBins;
  double best = std::numeric_limits<double>::infinity();
  int best_i = kBins;
  for (int i = levels; i <= kBins; i += 8) {
    // P: the first i bins with everything above clipped into the last; Q:
    // those i bins (without the clipped mass) merged into `levels` levels and
    // spread back over the bins that held values. Q misses what clipping
    // moves, so a threshold that clips much loses.
    const std::vector<double> kept(s.histogram.begin(), s.histogram.begin() + i);
    std::vector<double> p = kept;
    for (int j = i; j < kBins; ++j) p[i - 1] += s.histogram[j];
    std::vector<double> q(i, 0.0);
    for (int level = 0; level < levels; ++level) {
      const int begin = static_cast<int>(static_cast<long long>(level) * i / levels);
      const int end = level + 1 == levels ? i : static_cast<int>(static_cast<long long>(level + 1) * i / levels);
      double sum = 0.0;
      int nonzero = 0;
      for (int k = begin; k < end; ++k) {
        sum += kept[k];
        nonzero += kept[k] > 0.0;
      }
      for (int k = begin; k < end; ++k) q[k] = kept[k] > 0.0 ? sum / nonzero : 0.0;
    }
    double p_total = 0.0, q_total = 0.0;
    for (int k = 0; k < i; ++k) {
      p_total += p[k];
      q_total += q[k];
    }
    if (p_total <= 0.0 || q_total <= 0.0) continue;
    double kl = 0.0;
    for (int k = 0; k < i; ++k) {
      if (p[k] <= 0.0) continue;
      // Mass Q cannot represent (the clipped tail in an empty last bin): a
      // large, finite penalty keeps the comparison ordered.
      const double qk = q[k] > 0.0 ? q[k] / q_total : 1e-12;
      kl += p[k] / p_total * std::log((p[k] / p_total) / qk);
    }
    if (kl < best) {
      best = kl;
      best_i = i;
    }
  }
  return std::min(s.abs_max(), (best_i + 0.5f) * width);
}

TensorScale choose_scale(const Stats& s, const CalibrationSettings& settings) {
  TensorScale out;
  out.non_negative = s.min >= 0.0f;
  out.abs_max = s.abs_max();
  const int levels = out.non_negative ? 255 : 127;
  float threshold = out.abs_max;
  if (settings.method == CalibrationMethod::Percentile) threshold = percentile_threshold(s, settings.percentile / 100.0);
  if (settings.method == CalibrationMethod::Entropy) threshold = entropy_threshold(s, levels + 1);
  out.scale = threshold > 0.0f && std::isfinite(threshold) ? threshold / levels : 1.0f;
  return out;
}

std::string escape(const std::string& name) {
  std::string out;
  for (unsigned char c : name) {
    if (c <= ' ' || c == '%' || c >= 0x7F) {
      char hex[4];
      std::snprintf(hex, sizeof hex, "%%%02X", c);
      out += hex;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

}  // namespace

const char* calibration_method_name(CalibrationMethod m) {
  switch (m) {
    case CalibrationMethod::MinMax: return "minmax";
    case CalibrationMethod::Percentile: return "percentile";
    case CalibrationMethod::Entropy: return "entropy";
  }
  return "?";
}

std::vector<int> int8_candidates(const Program& program) {
  std::vector<int> uses(program.tensors.size(), 0);
  for (const auto& step : program.steps) {
    for (int id : step.inputs) ++uses[id];
  }
  for (int id : program.outputs) ++uses[id];
  std::vector<int> out;
  for (int s = 0; s < static_cast<int>(program.steps.size()); ++s) {
    const Step& step = program.steps[s];
    const auto kind = step.kind();
    const std::size_t n = step.layer_input_count();
    if (step.precision != Precision::Float32 || n < 2) continue;
    const ProgramTensor& x = program.tensors[step.inputs[0]];
    const ProgramTensor& w = program.tensors[step.inputs[1]];
    // The weight becomes int8 in place: only a float32 constant no other step reads.
    if (x.dtype != DType::Float32 || !constant_f32(w) || uses[step.inputs[1]] != 1) continue;
    if (kind == network::LayerKind::Convolution) {
      if (n == 3 && !constant_f32(program.tensors[step.inputs[2]])) continue;  // oneDNN folds the scale into the bias
      // A reduction this short (depthwise 3x3: 9) gains nothing from int8
      // and loses accuracy: it stays fp32.
      std::int64_t reduction = 1;
      for (std::size_t d = 1; d < w.dims.size(); ++d) reduction *= w.dims[d];
      if (reduction < 16) continue;
    } else if (kind == network::LayerKind::MatMul) {
      if (n != 2 || w.dims.size() != 2 || x.dims.empty()) continue;
      const bool transposed = std::get<network::MatMulParams>(step.params).transpose_b;
      if (w.dims[transposed ? 1 : 0] < 16) continue;
    } else {
      continue;
    }
    out.push_back(s);
  }
  return out;
}

namespace {
// The results of candidate steps that no candidate reads as its input but
// candidates add as their residual (the first post-op, which the engine
// fuses as a sum: a ResNet block's downsample branch): calibrated too, so
// that the engine may store them quantized (Quantization::output_scale).
std::set<int> residual_outputs(const Program& program) {
  const std::vector<int> candidates = int8_candidates(program);
  std::set<int> produced, sources, residuals;
  for (int s : candidates) {
    const Step& step = program.steps[s];
    if (step.outputs.size() == 1) produced.insert(step.outputs[0]);
    sources.insert(step.inputs[0]);
    if (!step.post_ops.empty() && step.post_ops[0].kind == runtime::PostOpKind::Add) {
      residuals.insert(step.inputs[step.post_ops[0].operand]);
    }
  }
  std::set<int> out;
  for (int id : residuals) {
    const bool output = std::find(program.outputs.begin(), program.outputs.end(), id) != program.outputs.end();
    if (produced.count(id) && !sources.count(id) && !output) out.insert(id);
  }
  return out;
}
}  // namespace

CalibrationTable calibrate(const Program& program, const CalibrationSettings& settings,
                           const runtime::EngineOptions& options) {
  if (settings.batches.empty()) throw InputError("int8 calibration: no calibration batches");
  if (!(settings.percentile > 0.0 && settings.percentile <= 100.0)) {
    throw InputError("int8 calibration: percentile " + std::to_string(settings.percentile) + " is not in (0, 100]");
  }
  // Where each watched tensor's values come from: a program input (the
  // batch itself) or an output of the calibration engine.
  struct Source {
    bool from_input = false;
    std::size_t index = 0;
  };
  std::map<int, Source> watched;
  Program probe = program;
  std::vector<int> ids;
  for (int s : int8_candidates(program)) ids.push_back(program.steps[s].inputs[0]);
  for (int id : residual_outputs(program)) ids.push_back(id);
  for (int id : ids) {
    if (watched.count(id)) continue;
    Source src;
    const auto in = std::find(program.inputs.begin(), program.inputs.end(), id);
    const auto out = std::find(probe.outputs.begin(), probe.outputs.end(), id);
    if (in != program.inputs.end()) {
      src = {true, static_cast<std::size_t>(in - program.inputs.begin())};
    } else if (out != probe.outputs.end()) {
      src = {false, static_cast<std::size_t>(out - probe.outputs.begin())};
    } else {
      src = {false, probe.outputs.size()};
      probe.outputs.push_back(id);
    }
    watched[id] = src;
  }
  if (watched.empty()) return {};
  runtime::EngineOptions probe_options = options;
  probe_options.blocked_layout = false;  // the watched tensors are read plain
  const runtime::Engine engine(std::move(probe), probe_options);
  runtime::ExecutionContext context(engine);
  std::map<int, Stats> stats;
  auto run = [&](std::size_t b) -> const std::vector<Tensor>& {
    const auto& batch = settings.batches[b];
    if (batch.size() != program.inputs.size()) {
      throw InputError("int8 calibration: batch " + std::to_string(b) + " has " + std::to_string(batch.size()) +
                       " inputs, the program takes " + std::to_string(program.inputs.size()));
    }
    try {
      return context.run(batch);
    } catch (const InputError& e) {
      throw InputError("int8 calibration: batch " + std::to_string(b) + ": " + e.what());
    }
  };
  auto value = [&](std::size_t b, const std::vector<Tensor>& outs, const Source& src) -> const Tensor& {
    return src.from_input ? settings.batches[b][src.index] : outs[src.index];
  };
  for (std::size_t b = 0; b < settings.batches.size(); ++b) {
    const auto& outs = run(b);
    for (const auto& [id, src] : watched) observe_range(stats[id], value(b, outs, src));
  }
  if (settings.method != CalibrationMethod::MinMax) {
    for (std::size_t b = 0; b < settings.batches.size(); ++b) {
      const auto& outs = run(b);
      for (const auto& [id, src] : watched) observe_histogram(stats[id], value(b, outs, src));
    }
  }
  CalibrationTable table;
  for (const auto& [id, s] : stats) table[program.tensors[id].name] = choose_scale(s, settings);
  return table;
}

int quantize_steps(Program& program, const CalibrationTable& table) {
  return quantize_steps(program, table, runtime::cpu_backend().int8_exactness());
}

int quantize_steps(Program& program, const CalibrationTable& table, const runtime::Int8Exactness& exact) {
  const std::set<int> residuals = residual_outputs(program);  // of the candidates, before they change
  int made = 0;
  for (int s : int8_candidates(program)) {
    Step& step = program.steps[s];
    const auto it = table.find(program.tensors[step.inputs[0]].name);
    if (it == table.end()) continue;
    if (!exact.admits_input(it->second.non_negative)) continue;
    ProgramTensor& w = program.tensors[step.inputs[1]];
    auto q = runtime::quantize_weight(w.value, runtime::weight_channel_dim(step), exact.weight_limit);
    w.dtype = DType::Int8;
    w.value = std::move(q.values);
    step.precision = Precision::Int8;
    step.quant.input_scale = it->second.scale;
    step.quant.input_unsigned = it->second.non_negative;
    step.quant.weight_scales = std::move(q.scales);
    ++made;
    if (step.outputs.size() != 1 || !residuals.count(step.outputs[0])) continue;
    if (const auto out = table.find(program.tensors[step.outputs[0]].name); out != table.end()) {
      step.quant.output_scale = out->second.scale;
      step.quant.output_unsigned = out->second.non_negative;
    }
  }
  return made;
}

std::string calibration_cache_text(const CalibrationTable& table) {
  std::ostringstream out;
  out << "atenrt-calibration-cache 1\n";
  char line[128];
  for (const auto& [name, s] : table) {
    std::snprintf(line, sizeof line, " %.9g %d %.9g\n", static_cast<double>(s.scale), s.non_negative ? 1 : 0,
                  static_cast<double>(s.abs_max));
    out << escape(name) << line;
  }
  return out.str();
}

CalibrationTable parse_calibration_cache(const std::string& text, const std::string& where) {
  std::istringstream in(text);
  std::string line;
  int number = 1;
  auto bad = [&](const std::string& why) {
    throw FormatError(where + ": line " + std::to_string(number) + ": " + why);
  };
  if (!std::getline(in, line) || line != "atenrt-calibration-cache 1") bad("not an atenrt calibration cache (version 1)");
  CalibrationTable table;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty()) continue;
    std::istringstream fields(line);
    std::string escaped;
    double scale = 0.0, abs_max = 0.0;
    int non_negative = -1;
    if (!(fields >> escaped >> scale >> non_negative >> abs_max) || !(fields >> std::ws).eof()) {
      bad("expected 'name scale non_negative abs_max'");
    }
    if (!(std::isfinite(scale) && scale > 0.0 && scale < 3.0e38) || (non_negative != 0 && non_negative != 1) ||
        !(std::isfinite(abs_max) && abs_max >= 0.0 && abs_max < 3.0e38)) {
      bad("scale must be positive and finite, non_negative 0 or 1, abs_max finite");
    }
    std::string name;
    for (std::size_t i = 0; i < escaped.size(); ++i) {
      if (escaped[i] != '%') {
        name += escaped[i];
        continue;
      }
      if (i + 2 >= escaped.size() || !std::isxdigit(static_cast<unsigned char>(escaped[i + 1])) ||
          !std::isxdigit(static_cast<unsigned char>(escaped[i + 2]))) {
        bad("bad %-escape in the tensor name");
      }
      name += static_cast<char>(std::stoi(escaped.substr(i + 1, 2), nullptr, 16));
      i += 2;
    }
    if (!table.emplace(name, TensorScale{static_cast<float>(scale), non_negative == 1, static_cast<float>(abs_max)}).second) {
      bad("tensor '" + escaped + "' listed twice");
    }
  }
  return table;
}

}  // namespace atenrt::builder
