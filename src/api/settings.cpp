// The settings table (include/atenrt/settings.h): one row per CompileSettings
// field, and the checks every front end (CLI, C++, Python) shares.
#include "atenrt/settings.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <set>

#include "atenrt/errors.h"
#include "conversion/registry.h"
#include "ir/op_schema.h"
#include "lowering/lower.h"
#include "lowering/registry.h"

namespace atenrt {
namespace {

template <typename T>
const T& as(const SettingValue& v, const char* name) {
  if (const T* p = std::get_if<T>(&v)) return *p;
  throw SettingsError(std::string("setting '") + name + "' was given a value of the wrong type");
}

// Each row reads and writes its field through captureless lambdas, so the
// table stays plain data.
#define ATENRT_FIELD_ACCESS(F, T)                                                                \
  [](const CompileSettings& s) -> SettingValue { return static_cast<T>(s.F); },                \
      [](CompileSettings& s, const SettingValue& v) { s.F = static_cast<decltype(s.F)>(as<T>(v, #F)); }

using Getter = SettingValue (*)(const CompileSettings&);
using Setter = void (*)(CompileSettings&, const SettingValue&);

Setting row(std::string name, std::string flag, SettingType type, std::string help, Getter get, Setter set) {
  Setting s;
  s.name = std::move(name);
  s.cli_flag = std::move(flag);
  s.type = type;
  s.help = std::move(help);
  s.get = get;
  s.set = set;
  return s;
}

Setting int_row(std::string name, std::string flag, std::int64_t min, std::int64_t max, std::string help,
                Getter get, Setter set) {
  Setting s = row(std::move(name), std::move(flag), SettingType::Int, std::move(help), get, set);
  s.min = min;
  s.max = max;
  return s;
}

Setting list_row(std::string name, std::string flag, NameKind names, std::string help, Getter get, Setter set) {
  Setting s = row(std::move(name), std::move(flag), SettingType::NameList, std::move(help), get, set);
  s.names = names;
  return s;
}

Setting inverted(Setting s) {
  s.cli_inverts = true;
  return s;
}

// ---- input_shapes: four rows over one field (min, opt, max, and all three)

using ShapePart = std::optional<std::vector<std::int64_t>> InputShape::*;
using ShapeList = std::vector<std::pair<std::string, std::vector<std::int64_t>>>;

template <ShapePart P>
SettingValue get_part(const CompileSettings& s) {
  ShapeList out;
  for (const auto& in : s.input_shapes) {
    if (in.*P) out.emplace_back(in.name, *(in.*P));
  }
  return shapes_text(out);
}

InputShape& shape_entry(CompileSettings& s, const std::string& name) {
  for (auto& in : s.input_shapes) {
    if (in.name == name) return in;
  }
  s.input_shapes.push_back(InputShape{name, {}, {}, {}});
  return s.input_shapes.back();
}

void drop_empty_entries(CompileSettings& s) {
  std::erase_if(s.input_shapes, [](const InputShape& in) { return !in.min && !in.opt && !in.max; });
}

template <ShapePart P>
void set_part(CompileSettings& s, const SettingValue& v, const char* setting) {
  const ShapeList shapes = parse_shapes(as<std::string>(v, setting), setting);
  for (auto& in : s.input_shapes) in.*P = std::nullopt;
  for (const auto& [name, dims] : shapes) shape_entry(s, name).*P = dims;
  drop_empty_entries(s);
}

SettingValue get_pinned(const CompileSettings& s) {
  ShapeList out;
  for (const auto& in : s.input_shapes) {
    if (in.min && in.min == in.opt && in.opt == in.max) out.emplace_back(in.name, *in.min);
  }
  return shapes_text(out);
}

void set_pinned(CompileSettings& s, const SettingValue& v) {
  for (const auto& [name, dims] : parse_shapes(as<std::string>(v, "shapes"), "shapes")) {
    InputShape& in = shape_entry(s, name);
    in.min = in.opt = in.max = dims;
  }
}

Setting shapes_row(std::string name, std::string flag, std::string help, Getter get, Setter set) {
  return row(std::move(name), std::move(flag), SettingType::Shapes, std::move(help), get, set);
}

constexpr std::int64_t kMaxDim = std::int64_t{1} << 40;

// min <= opt <= max per dim, one rank per input.
void check_input_shapes(const std::vector<InputShape>& shapes) {
  for (const auto& in : shapes) {
    const std::pair<const char*, const std::optional<std::vector<std::int64_t>>*> parts[] = {
        {"min", &in.min}, {"opt", &in.opt}, {"max", &in.max}};
    const std::vector<std::int64_t>* first = nullptr;
    const char* first_name = "";
    for (const auto& [part, value] : parts) {
      if (!*value) continue;
      if (first && first->size() != (*value)->size()) {
        throw SettingsError("input '" + in.name + "': " + first_name + " shape " + shapes_text({{in.name, *first}}) +
                            " and " + part + " shape " + shapes_text({{in.name, **value}}) + " differ in rank");
      }
      if (!first) {
        first = &**value;
        first_name = part;
      }
    }
    for (std::size_t a = 0; a < 3; ++a) {
      for (std::size_t b = a + 1; b < 3; ++b) {
        if (!*parts[a].second || !*parts[b].second) continue;
        const auto& lo = **parts[a].second;
        const auto& hi = **parts[b].second;
        for (std::size_t d = 0; d < lo.size(); ++d) {
          if (lo[d] > hi[d]) {
            throw SettingsError("input '" + in.name + "' dim " + std::to_string(d) + ": " + parts[a].first + " " +
                                std::to_string(lo[d]) + " is larger than " + parts[b].first + " " +
                                std::to_string(hi[d]) + " (min <= opt <= max)");
          }
        }
      }
    }
  }
}

constexpr std::int64_t kMaxThreads = 1024;
constexpr std::uint64_t checked_max = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
constexpr std::int64_t kMaxBlock = 1'000'000'000;

std::vector<Setting> make_table() {
  using List = std::vector<std::string>;
  std::vector<Setting> t;
  Setting precision = row(
      "precision", "--precision", SettingType::Choice,
      "compute precision of convolution and matmul (inputs and outputs keep their dtypes)",
      [](const CompileSettings& s) -> SettingValue {
        return std::string(s.precision == Precision::BF16 ? "bf16" : s.precision == Precision::INT8 ? "int8" : "fp32");
      },
      [](CompileSettings& s, const SettingValue& v) {
        const auto& text = as<std::string>(v, "precision");
        s.precision = text == "bf16" ? Precision::BF16 : text == "int8" ? Precision::INT8 : Precision::FP32;
      });
  precision.choices = {"fp32", "bf16", "int8"};
  t.push_back(precision);
  t.push_back(row("calibration", "--calibration", SettingType::Path,
                  "int8: calibration batches, an .npz (or a torch.save .pt of a tensor, list or dict) with one array "
                  "per input in order, each the input's shape or [N, *shape] for N batches",
                  ATENRT_FIELD_ACCESS(calibration, std::string)));
  Setting method = row(
      "calibration_method", "--calibration-method", SettingType::Choice,
      "int8: how calibration picks each scale: the largest |x| seen, the 99.99th percentile of |x|, or the "
      "threshold that loses the least information (KL divergence)",
      [](const CompileSettings& s) -> SettingValue {
        return std::string(s.calibration_method == CalibrationMethod::MinMax    ? "minmax"
                           : s.calibration_method == CalibrationMethod::Entropy ? "entropy"
                                                                                : "percentile");
      },
      [](CompileSettings& s, const SettingValue& v) {
        const auto& text = as<std::string>(v, "calibration_method");
        s.calibration_method = text == "minmax"    ? CalibrationMethod::MinMax
                               : text == "entropy" ? CalibrationMethod::Entropy
                                                   : CalibrationMethod::Percentile;
      });
  method.choices = {"minmax", "percentile", "entropy"};
  t.push_back(method);
  t.push_back(row("calibration_cache", "--calibration-cache", SettingType::Path,
                  "int8: a file of calibration scales, read when it exists (no batches are run) and written after "
                  "calibrating otherwise",
                  ATENRT_FIELD_ACCESS(calibration_cache, std::string)));
  t.push_back(int_row("optimization_level", "--optimization-level", 0, 3,
                      "0 none, 1 constant/batch-norm folding, 2 + post-op fusion, 3 + blocked layouts and weight "
                      "pre-packing",
                      ATENRT_FIELD_ACCESS(optimization_level, std::int64_t)));
  t.push_back(int_row("min_block_size", "--min-block-size", 1, kMaxBlock,
                      "smallest block of supported operators built into an engine; smaller blocks run in the libtorch "
                      "fallback (a fully supported graph is always one engine)",
                      ATENRT_FIELD_ACCESS(min_block_size, std::int64_t)));
  t.push_back(list_row("torch_executed_ops", "--torch-executed-ops", NameKind::Ops,
                       "op overloads (aten.relu.default) or packets (aten.relu) run in the libtorch fallback",
                       ATENRT_FIELD_ACCESS(torch_executed_ops, List)));
  t.push_back(row("require_full_compilation", "--require-full-compilation", SettingType::Bool,
                  "no libtorch fallback: fail unless every operator converts (with --dryrun: exit 1 when not "
                  "fully supported)",
                  ATENRT_FIELD_ACCESS(require_full_compilation, bool)));
  t.push_back(inverted(row("use_fast_partitioner", "--global-partitioner", SettingType::Bool,
                           "the adjacency partitioner; --global-partitioner uses the global (non-adjacent) one",
                           ATENRT_FIELD_ACCESS(use_fast_partitioner, bool))));
  t.push_back(row("assume_dynamic_shape_support", "--assume-dynamic-shape-support", SettingType::Bool,
                  "treat every converter as supporting dynamic shapes",
                  ATENRT_FIELD_ACCESS(assume_dynamic_shape_support, bool)));
  t.push_back(row("mark_all_outputs", "--mark-all-outputs", SettingType::Bool,
                  "debugging: every node's tensor value is also an engine output, named after it (layer-by-layer "
                  "comparison; keeps every value, so fewer fusions; no libtorch fallback)",
                  ATENRT_FIELD_ACCESS(mark_all_outputs, bool)));
  t.push_back(inverted(row("lowering", "--no-lowering", SettingType::Bool,
                           "decompositions and graph passes; --no-lowering skips them",
                           ATENRT_FIELD_ACCESS(lowering, bool))));
  t.push_back(list_row("disabled_passes", "--disable-passes", NameKind::Passes, "lowering passes to switch off",
                       ATENRT_FIELD_ACCESS(disabled_passes, List)));
  t.push_back(list_row("disabled_decompositions", "--disable-decompositions", NameKind::Decompositions,
                       "decompositions to switch off, by op overload",
                       ATENRT_FIELD_ACCESS(disabled_decompositions, List)));
  t.push_back(list_row("disabled_decomposition_groups", "--disable-decomposition-groups",
                       NameKind::DecompositionGroups, "decomposition groups to switch off",
                       ATENRT_FIELD_ACCESS(disabled_decomposition_groups, List)));
  Setting threads = int_row("num_threads", "--threads", 0, kMaxThreads, "threads per run (0: the runtime's default)",
                            ATENRT_FIELD_ACCESS(num_threads, std::int64_t));
  threads.phase = SettingPhase::Load;
  t.push_back(threads);
  Setting memory = row("max_memory", "--max-memory", SettingType::Bytes,
                       "most memory the reader and the engine may plan for (weights, activations, scratch, "
                       "outputs), in bytes or with a K/M/G/T suffix: 512M, 8G (0: the smaller of physical memory "
                       "and the cgroup limit)",
                       ATENRT_FIELD_ACCESS(max_memory, std::int64_t));
  memory.phase = SettingPhase::Load;
  memory.max = std::numeric_limits<std::int64_t>::max();
  t.push_back(memory);
  t.push_back(shapes_row("min_shapes", "--min-shapes", "smallest shapes of dynamic inputs (x:1x3x224x224,mask:1x77)",
                         get_part<&InputShape::min>,
                         [](CompileSettings& s, const SettingValue& v) { set_part<&InputShape::min>(s, v, "min_shapes"); }));
  t.push_back(shapes_row("opt_shapes", "--opt-shapes",
                         "shapes of dynamic inputs the engine is built for at compile time (default: the example's)",
                         get_part<&InputShape::opt>,
                         [](CompileSettings& s, const SettingValue& v) { set_part<&InputShape::opt>(s, v, "opt_shapes"); }));
  t.push_back(shapes_row("max_shapes", "--max-shapes", "largest shapes of dynamic inputs (needed where the archive has no bound)",
                         get_part<&InputShape::max>,
                         [](CompileSettings& s, const SettingValue& v) { set_part<&InputShape::max>(s, v, "max_shapes"); }));
  t.push_back(shapes_row("shapes", "--shapes", "pin dynamic inputs to one shape each (min = opt = max)", get_pinned,
                         set_pinned));
  return t;
}

#undef ATENRT_FIELD_ACCESS

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string packet_of(const std::string& key) {
  const auto last = key.rfind('.');
  const auto first = key.find('.');
  return (last != std::string::npos && last != first) ? key.substr(0, last) : key;
}

// Op names atenrt knows: converter and decomposition keys and their packets.
std::set<std::string> registered_op_names() {
  std::set<std::string> names;
  for (const auto* r : conversion::ConverterRegistry::global().all()) {
    names.insert(r->key);
    names.insert(packet_of(r->key));
  }
  for (const auto& key : lowering::decomposition_keys()) {
    names.insert(key);
    names.insert(packet_of(key));
  }
  return names;
}

// An op name is valid when atenrt registers it, or torch's schemas know it
// (a real op without a converter may still be listed in torch_executed_ops).
bool is_known_op(const std::string& name, const std::set<std::string>& registered) {
  if (registered.contains(name)) return true;
  const auto dot = name.find('.');
  if (dot == std::string::npos) return false;
  const std::string qualified = name.substr(0, dot) + "::" + name.substr(dot + 1);
  return ir::find_schema(qualified) != nullptr;
}

std::string unknown_name_message(const Setting& s, const std::string& name, const std::vector<std::string>& valid) {
  static const char* what[] = {"name", "op", "lowering pass", "decomposition", "decomposition group"};
  std::string msg = s.name + ": unknown " + what[static_cast<int>(s.names)] + " '" + name + "'";
  if (const auto near = nearest_name(name, valid); !near.empty()) msg += "; did you mean '" + near + "'?";
  if (valid.size() <= 12) {
    msg += " (valid: ";
    for (std::size_t i = 0; i < valid.size(); ++i) msg += (i ? ", " : "") + valid[i];
    msg += ")";
  }
  return msg;
}

}  // namespace

std::string Setting::type_name() const {
  switch (type) {
    case SettingType::Bool: return "bool";
    case SettingType::Int: return "int";
    case SettingType::Choice: return "choice";
    case SettingType::Bytes: return "bytes";
    case SettingType::Shapes: return "shapes";
    case SettingType::Path: return "path";
    case SettingType::NameList: break;
  }
  switch (names) {
    case NameKind::Ops: return "list of op names";
    case NameKind::Passes: return "list of pass names";
    case NameKind::Decompositions: return "list of decomposition keys";
    case NameKind::DecompositionGroups: return "list of decomposition groups";
    case NameKind::None: break;
  }
  return "list";
}

std::string Setting::range_text() const {
  if (type == SettingType::Int) {
    return max >= kMaxBlock ? ">= " + std::to_string(min) : std::to_string(min) + "-" + std::to_string(max);
  }
  if (type == SettingType::Bytes) return ">= 0, bytes or 512K, 64M, 8G, 1T";
  if (type == SettingType::Choice) {
    std::string out;
    for (const auto& c : choices) out += (out.empty() ? "" : "|") + c;
    return out;
  }
  return "";
}

const std::vector<Setting>& settings_table() {
  static const std::vector<Setting> table = make_table();
  return table;
}

const Setting* find_setting(std::string_view name) {
  for (const auto& s : settings_table()) {
    if (s.name == name || s.cli_flag == name) return &s;
  }
  return nullptr;
}

void set_setting(CompileSettings& settings, std::string_view name, const SettingValue& value) {
  const Setting* s = find_setting(name);
  if (!s) {
    std::vector<std::string> names;
    for (const auto& row : settings_table()) names.push_back(row.name);
    std::string msg = "unknown setting '" + std::string(name) + "'";
    if (const auto near = nearest_name(name, names); !near.empty()) msg += "; did you mean '" + near + "'?";
    throw SettingsError(msg);
  }
  if (s->type == SettingType::Bytes) {
    const auto* text = std::get_if<std::string>(&value);
    const std::int64_t n = text ? parse_byte_size(*text) : as<std::int64_t>(value, s->name.c_str());
    if (n < 0) throw SettingsError(s->name + " must be a byte count >= 0, got " + std::to_string(n));
    s->set(settings, n);
    return;
  }
  if (s->type == SettingType::Int) {
    const auto n = as<std::int64_t>(value, s->name.c_str());
    if (n < s->min || n > s->max) {
      throw SettingsError(s->name + " must be " + (s->max >= kMaxBlock ? "" : "in ") + s->range_text() + ", got " +
                          std::to_string(n));
    }
  } else if (s->type == SettingType::Choice) {
    const auto& c = as<std::string>(value, s->name.c_str());
    if (std::find(s->choices.begin(), s->choices.end(), c) == s->choices.end()) {
      std::string msg = s->name + " must be one of " + s->range_text() + ", got '" + c + "'";
      if (const auto near = nearest_name(c, s->choices); !near.empty()) msg += "; did you mean '" + near + "'?";
      throw SettingsError(msg);
    }
  }
  s->set(settings, value);
}

SettingValue get_setting(const CompileSettings& settings, std::string_view name) {
  const Setting* s = find_setting(name);
  if (!s) throw SettingsError("unknown setting '" + std::string(name) + "'");
  return s->get(settings);
}

std::string setting_text(const SettingValue& value) {
  if (const bool* b = std::get_if<bool>(&value)) return *b ? "true" : "false";
  if (const auto* n = std::get_if<std::int64_t>(&value)) return std::to_string(*n);
  if (const auto* s = std::get_if<std::string>(&value)) return *s;
  std::string out;
  for (const auto& item : std::get<std::vector<std::string>>(value)) out += (out.empty() ? "" : ",") + item;
  return out;
}

std::int64_t parse_byte_size(std::string_view text) {
  const auto bad = [&] {
    return SettingsError("byte size '" + std::string(text) + "' is not a byte count (use e.g. 4096, 512K, 64M, 8G, 1T)");
  };
  std::size_t i = 0;
  std::uint64_t value = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    const auto digit = static_cast<std::uint64_t>(text[i] - '0');
    if (value > (checked_max - digit) / 10) throw bad();
    value = value * 10 + digit;
  }
  if (i == 0) throw bad();
  std::string unit(text.substr(i));
  for (auto& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (unit.size() == 3 && unit.ends_with("IB")) unit.resize(1);
  else if (unit.size() == 2 && unit.ends_with("B")) unit.resize(1);
  static const std::pair<const char*, int> units[] = {{"", 0}, {"B", 0}, {"K", 10}, {"M", 20}, {"G", 30}, {"T", 40}};
  for (const auto& [name, shift] : units) {
    if (unit != name) continue;
    if (value > (checked_max >> shift)) throw bad();
    return static_cast<std::int64_t>(value << shift);
  }
  throw bad();
}

std::vector<std::string> known_names(NameKind kind) {
  switch (kind) {
    case NameKind::Ops: {
      const auto names = registered_op_names();
      return {names.begin(), names.end()};
    }
    case NameKind::Passes: {
      auto names = lowering::pass_names();
      std::sort(names.begin(), names.end());
      return names;
    }
    case NameKind::Decompositions: return lowering::decomposition_keys();
    case NameKind::DecompositionGroups: return lowering::DecompositionRegistry::instance().groups();
    case NameKind::None: break;
  }
  return {};
}

ShapeList parse_shapes(std::string_view text, std::string_view setting) {
  ShapeList out;
  const std::string where(setting);
  if (text.empty()) return out;
  std::size_t pos = 0;
  for (;;) {
    const std::size_t comma = std::min(text.find(',', pos), text.size());
    const std::string_view item = text.substr(pos, comma - pos);
    const std::size_t colon = item.rfind(':');
    if (colon == std::string_view::npos || colon == 0) {
      throw SettingsError(where + ": '" + std::string(item.substr(0, 80)) +
                          "' is not name:dims (e.g. x:1x3x224x224, or x: for a scalar)");
    }
    const std::string name(item.substr(0, colon));
    std::vector<std::int64_t> dims;
    const std::string_view ds = item.substr(colon + 1);
    std::size_t p = 0;
    while (p < ds.size()) {
      const std::size_t x = std::min(ds.find('x', p), ds.size());
      const std::string_view num = ds.substr(p, x - p);
      std::int64_t v = 0;
      bool ok = !num.empty() && num.size() <= 13;
      for (char c : num) {
        ok = ok && c >= '0' && c <= '9';
        if (ok) v = v * 10 + (c - '0');
      }
      if (!ok || v > kMaxDim) {
        throw SettingsError(where + ": input '" + name + "': '" + std::string(ds.substr(0, 80)) +
                            "' is not dims like 1x3x224x224 (each 0 to 2^40)");
      }
      dims.push_back(v);
      p = x + 1;
      if (x + 1 == ds.size()) {
        throw SettingsError(where + ": input '" + name + "': '" + std::string(ds.substr(0, 80)) + "' ends with 'x'");
      }
    }
    for (const auto& [n, _] : out) {
      if (n == name) throw SettingsError(where + ": input '" + name + "' is given twice");
    }
    out.emplace_back(name, std::move(dims));
    if (comma == text.size()) break;
    pos = comma + 1;
  }
  return out;
}

std::string shapes_text(const ShapeList& shapes) {
  std::string out;
  for (const auto& [name, dims] : shapes) {
    out += (out.empty() ? "" : ",") + name + ":";
    for (std::size_t d = 0; d < dims.size(); ++d) out += (d ? "x" : "") + std::to_string(dims[d]);
  }
  return out;
}

void validate(const CompileSettings& settings) {
  check_input_shapes(settings.input_shapes);
  const bool int8 = settings.precision == Precision::INT8;
  if (int8 && settings.calibration.empty() && settings.calibration_cache.empty()) {
    throw SettingsError("precision int8 needs calibration data (calibration: an .npz of inputs) or a "
                        "calibration_cache");
  }
  if (!int8 && (!settings.calibration.empty() || !settings.calibration_cache.empty() ||
                settings.calibration_method != CalibrationMethod::Percentile)) {
    throw SettingsError("calibration settings apply to precision int8 only (precision is " +
                        setting_text(get_setting(settings, "precision")) + ")");
  }
  for (const auto& s : settings_table()) {
    const SettingValue value = s.get(settings);
    if (s.type != SettingType::NameList) {
      CompileSettings scratch;
      set_setting(scratch, s.name, value);  // the range and choice checks
      continue;
    }
    const auto& names = std::get<std::vector<std::string>>(value);
    if (names.empty()) continue;
    const std::vector<std::string> valid = known_names(s.names);
    const std::set<std::string> registered =
        s.names == NameKind::Ops ? registered_op_names() : std::set<std::string>(valid.begin(), valid.end());
    for (const auto& name : names) {
      const bool ok = s.names == NameKind::Ops ? is_known_op(name, registered) : registered.contains(name);
      if (!ok) throw SettingsError(unknown_name_message(s, name, valid));
    }
  }
}

std::string nearest_name(std::string_view name, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(2, name.size() / 3) + 1;
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(name, c);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  return best;
}

}  // namespace atenrt
