// The settings of atenrt, described once. CompileSettings holds the values;
// settings_table() describes every field (name, type, default, range, when it
// applies), and the CLI flags, the Python keywords and their help and
// validation are all derived from that table.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "atenrt/export.h"

namespace atenrt {

enum class Precision { FP32, BF16, INT8 };

// How int8 calibration turns what it saw into a scale (docs/int8.md).
enum class CalibrationMethod { MinMax, Percentile, Entropy };

// The shapes one input of a dynamic archive takes (Torch-TensorRT's
// Input(min_shape, opt_shape, max_shape)), by the graph's input name. Parts
// left empty come from the archive: its range_constraints for min and max,
// the example sizes (hints) for opt. A static dim must be given as it is.
struct InputShape {
  std::string name;
  std::optional<std::vector<std::int64_t>> min, opt, max;
  bool operator==(const InputShape&) const = default;
};

// Settings follow Torch-TensorRT's CompilationSettings where they make sense
// on this engine. Every field is described in settings_table().
struct CompileSettings {
  // Partitioning (docs/fallback.md). Supported blocks of at least
  // min_block_size compute ops become engine segments; unsupported nodes,
  // smaller blocks and torch_executed_ops run in the libtorch fallback, which
  // require_full_compilation refuses. A fully supported graph is one engine.
  std::int64_t min_block_size = 5;
  std::vector<std::string> torch_executed_ops;  // "aten.relu.default" or "aten.relu"
  bool require_full_compilation = false;
  bool use_fast_partitioner = true;
  bool assume_dynamic_shape_support = false;
  // Debugging: every node's tensor value is also an engine output, named
  // after the value (Polygraphy's "mark all"; docs/python.md, atenrt.debug).
  // Needs a graph that is one engine (no libtorch fallback).
  bool mark_all_outputs = false;

  // Lowering: decompositions and graph passes.
  bool lowering = true;
  std::vector<std::string> disabled_decomposition_groups;
  std::vector<std::string> disabled_decompositions;  // by op overload
  std::vector<std::string> disabled_passes;          // by pass name

  // Builder and runtime.
  Precision precision = Precision::FP32;
  // Int8 (precision INT8): post-training calibration. `calibration` is an
  // .npz (or a torch.save .pt) with one array per engine input, in order, each either the input's
  // shape (one batch) or [N, *shape] (N batches); `calibration_cache` is a
  // file of scales, read when it exists (no batches are run) and written
  // otherwise, as TensorRT's calibration cache.
  std::string calibration;
  CalibrationMethod calibration_method = CalibrationMethod::Percentile;
  std::string calibration_cache;
  // 0: no network optimization; 1: constant and batch-norm folding;
  // 2: + post-op fusion; 3 (default): + blocked layouts and weight pre-packing.
  int optimization_level = 3;
  int num_threads = 0;  // 0: the runtime's default; load-time: applies to engine files too
  // The most memory, in bytes, that the reader and the engine may plan for
  // (weights, activations, scratch, outputs); 0: the smaller of physical
  // memory and the cgroup limit. Load-time: an engine file is checked too.
  std::int64_t max_memory = 0;

  // Dynamic shapes: the range of each dynamic input (min_shapes, opt_shapes,
  // max_shapes and shapes in the table; text "x:1x3x224x224,mask:1x77").
  std::vector<InputShape> input_shapes;
};

enum class SettingType {
  Bool,
  Int,       // within [min, max]
  Choice,    // one of `choices`
  NameList,  // names of the kind `names` says, each checked
  Bytes,     // a byte count >= 0: an int, or text with a K/M/G/T suffix ("512M")
  Shapes,    // "name:dims,..." (dims "1x3x224x224"; "" for a scalar), one part of input_shapes
  Path,      // a file path ("" for none)
};

// What a NameList setting names; each kind is checked against what atenrt knows.
enum class NameKind { None, Ops, Passes, Decompositions, DecompositionGroups };

// Compile: shapes the engine, fixed once built. Load: applies when an engine
// is made or loaded from a file.
enum class SettingPhase { Compile, Load };

using SettingValue = std::variant<bool, std::int64_t, std::string, std::vector<std::string>>;

struct ATENRT_API Setting {
  std::string name;       // C++ field and Python keyword: "min_block_size"
  std::string cli_flag;   // "--min-block-size"
  bool cli_inverts = false;  // a Bool whose flag sets it to false ("--no-lowering")
  SettingType type = SettingType::Bool;
  SettingPhase phase = SettingPhase::Compile;
  std::int64_t min = 0, max = 0;     // Int
  std::vector<std::string> choices;  // Choice
  NameKind names = NameKind::None;   // NameList
  std::string help;
  SettingValue (*get)(const CompileSettings&) = nullptr;
  void (*set)(CompileSettings&, const SettingValue&) = nullptr;

  SettingValue default_value() const { return get(CompileSettings{}); }
  std::string type_name() const;   // "bool", "int", "choice", "list of op names", ...
  std::string range_text() const;  // "0-3", "fp32|bf16", "" when any value goes
};

// Every setting, in the order help texts list them.
ATENRT_API const std::vector<Setting>& settings_table();
// nullptr when no setting has that name (or CLI flag).
ATENRT_API const Setting* find_setting(std::string_view name_or_flag);

// Sets one setting by name, checking its type and range (not the names a
// list holds: validate() does, against the registries). Throws
// SettingsError naming the setting, and the nearest name for an unknown one.
ATENRT_API void set_setting(CompileSettings& settings, std::string_view name, const SettingValue& value);
ATENRT_API SettingValue get_setting(const CompileSettings& settings, std::string_view name);
// "5", "fp32", "true", "aten.relu.default,aten.gelu.default", "" (an empty list).
ATENRT_API std::string setting_text(const SettingValue& value);

// Checks every setting: numbers in range, and every op, pass, decomposition
// and group name known (an unknown one is an error suggesting the nearest
// valid name). compile(), dry_run() and Engine::load() call it.
ATENRT_API void validate(const CompileSettings& settings);

// A Bytes setting's text: "4096", "512K", "64M", "8G", "1T" (binary units;
// a trailing "B" or "iB" is accepted, case does not matter). Throws
// SettingsError naming the text on anything else or past 2^63 - 1.
ATENRT_API std::int64_t parse_byte_size(std::string_view text);
// "x:1x3x224x224,mask:1x77" into (name, dims) pairs, and back; throws
// SettingsError naming `setting` for text that is not of that form.
ATENRT_API std::vector<std::pair<std::string, std::vector<std::int64_t>>> parse_shapes(std::string_view text,
                                                                            std::string_view setting);
ATENRT_API std::string shapes_text(const std::vector<std::pair<std::string, std::vector<std::int64_t>>>& shapes);

// The valid names of a NameList kind, sorted (for help and suggestions).
ATENRT_API std::vector<std::string> known_names(NameKind kind);

// The candidate nearest to `name` by edit distance, or "" when none is
// close enough to be a likely typo.
ATENRT_API std::string nearest_name(std::string_view name, const std::vector<std::string>& candidates);

}  // namespace atenrt
