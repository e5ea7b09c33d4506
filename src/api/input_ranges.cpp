// The ranges of an archive's inputs: its symbolic sizes and
// range_constraints, narrowed by the settings' input_shapes
// (min_shapes/opt_shapes/max_shapes/shapes), with every contradiction a
// SettingsError that names the input, the dim and both sides.
#include "api/input_ranges.h"

#include <algorithm>
#include <map>

#include "atenrt/errors.h"

namespace atenrt::api {
namespace {

using Part = std::optional<std::vector<std::int64_t>> InputShape::*;

struct PartInfo {
  Part part;
  const char* setting;  // as the user wrote it
};
constexpr PartInfo kParts[] = {{&InputShape::min, "min_shapes"}, {&InputShape::opt, "opt_shapes"},
                               {&InputShape::max, "max_shapes"}};

std::string range_text(std::int64_t lo, std::optional<std::int64_t> hi) {
  return "[" + std::to_string(lo) + ", " + (hi ? std::to_string(*hi) : std::string("inf")) + "]";
}

// What the settings say of one symbol: the values given for each part,
// with the dim that gave them (to name both sides of a contradiction).
struct Given {
  std::optional<std::int64_t> value[3];
  std::string where[3];
};

}  // namespace

std::vector<builder::InputRange> input_ranges(const ir::Graph& graph, const std::vector<InputInfo>& inputs,
                                              const CompileSettings& settings) {
  // Every name the settings give must be an input, with the input's rank.
  std::vector<std::string> names;
  for (const auto& in : inputs) names.push_back(in.name);
  for (const auto& shape : settings.input_shapes) {
    const InputInfo* in = nullptr;
    for (const auto& i : inputs) in = i.name == shape.name ? &i : in;
    if (!in) {
      std::string msg = "input_shapes name input '" + shape.name + "', which the graph does not have (inputs: ";
      for (std::size_t i = 0; i < names.size(); ++i) msg += (i ? ", " : "") + names[i];
      msg += ")";
      if (const auto near = nearest_name(shape.name, names); !near.empty()) msg += "; did you mean '" + near + "'?";
      throw SettingsError(msg);
    }
    const ir::TensorMeta* m = graph.meta(in->name);
    for (const auto& p : kParts) {
      const auto& dims = shape.*(p.part);
      if (dims && m && dims->size() != m->sizes.size()) {
        throw SettingsError(std::string(p.setting) + ": input '" + in->name + "' has " + std::to_string(m->sizes.size()) +
                            " dims (" + m->to_string() + "), the setting gives " + std::to_string(dims->size()));
      }
    }
  }
  auto given_for = [&](const std::string& name) -> const InputShape* {
    for (const auto& s : settings.input_shapes) {
      if (s.name == name) return &s;
    }
    return nullptr;
  };

  // Pass 1: per symbol, what the archive and the settings say.
  std::map<std::string, Given> by_symbol;
  for (const auto& in : inputs) {
    const ir::TensorMeta* m = graph.meta(in.name);
    const InputShape* shape = given_for(in.name);
    if (!m) throw FormatError("user input '" + in.name + "' has no tensor metadata");
    for (std::size_t d = 0; d < m->sizes.size(); ++d) {
      const ir::SymInt& size = m->sizes[d];
      const std::string where = "input '" + in.name + "' dim " + std::to_string(d);
      if (size.is_static()) {
        for (const auto& p : kParts) {
          const auto& dims = shape ? shape->*(p.part) : std::nullopt;
          if (dims && (*dims)[d] != *size.value) {
            throw SettingsError(std::string(p.setting) + ": " + where + " is " + std::to_string((*dims)[d]) +
                                ", but the archive fixes it at " + std::to_string(*size.value) + " (" + m->to_string() +
                                "); only its dynamic dims take ranges");
          }
        }
        continue;
      }
      const ir::SymExpr expr = ir::SymExpr::parse(size.name);
      if (!expr.is_symbol()) {
        throw UnsupportedError(where + " is the size expression " + size.name +
                               "; atenrt takes dynamic inputs whose dims are plain size symbols (s0)");
      }
      Given& g = by_symbol[expr.symbol];
      for (std::size_t k = 0; k < 3; ++k) {
        const auto& dims = shape ? shape->*(kParts[k].part) : std::nullopt;
        if (!dims) continue;
        const std::int64_t v = (*dims)[d];
        if (g.value[k] && *g.value[k] != v) {
          throw SettingsError(std::string(kParts[k].setting) + ": " + where + " is " + std::to_string(v) + " but " +
                              g.where[k] + " is " + std::to_string(*g.value[k]) + "; both are the size " + expr.symbol +
                              " in the archive and must be equal");
        }
        if (!g.value[k]) g.where[k] = where;  // messages name the first dim that gave it
        g.value[k] = v;
      }
    }
  }

  // Pass 2: each symbol's range.
  std::map<std::string, builder::DimRange> ranges;
  std::map<std::string, std::int64_t> hints;
  for (const auto& in : inputs) {
    for (const auto& size : graph.meta(in.name)->sizes) {
      if (!size.is_static() && size.hint) hints.emplace(size.name, *size.hint);
    }
  }
  for (const auto& [symbol, g] : by_symbol) {
    std::int64_t lo = 0;
    std::optional<std::int64_t> hi;
    if (auto it = graph.range_constraints.find(symbol); it != graph.range_constraints.end()) {
      lo = it->second.min;
      hi = it->second.max;
    }
    const std::string archive = "the archive's range of " + symbol + " " + range_text(lo, hi);
    builder::DimRange r;
    r.symbol = symbol;
    r.min = g.value[0].value_or(lo);
    if (r.min < lo) {
      throw SettingsError("min_shapes: " + g.where[0] + " is " + std::to_string(r.min) + ", below " + archive);
    }
    if (g.value[2]) {
      if (hi && *g.value[2] > *hi) {
        throw SettingsError("max_shapes: " + g.where[2] + " is " + std::to_string(*g.value[2]) + ", above " + archive);
      }
      r.max = *g.value[2];
    } else if (hi) {
      r.max = *hi;
    } else {
      throw SettingsError("the dynamic size " + symbol + " has no upper bound in the archive " + range_text(lo, hi) +
                          "; give one with max_shapes (--max-shapes name:dims), or pin it with shapes (--shapes)");
    }
    if (r.max < r.min) {
      throw SettingsError("the range of " + symbol + " is empty: min " + std::to_string(r.min) + " > max " +
                          std::to_string(r.max) + " (" + archive + ")");
    }
    if (g.value[1]) {
      r.opt = *g.value[1];
      if (r.opt < r.min || r.opt > r.max) {
        throw SettingsError("opt_shapes: " + g.where[1] + " is " + std::to_string(r.opt) + ", outside the range " +
                            range_text(r.min, r.max));
      }
    } else {
      const auto hint = hints.find(symbol);
      r.opt = std::clamp(hint != hints.end() ? hint->second : r.min, r.min, r.max);
    }
    ranges[symbol] = r;
  }

  std::vector<builder::InputRange> out;
  for (const auto& in : inputs) {
    const ir::TensorMeta* m = graph.meta(in.name);
    builder::InputRange r;
    r.name = in.name;
    r.dtype = in.dtype;
    for (const auto& size : m->sizes) {
      if (size.is_static()) {
        r.dims.push_back({*size.value, *size.value, *size.value, ""});
      } else {
        r.dims.push_back(ranges.at(ir::SymExpr::parse(size.name).symbol));
      }
    }
    out.push_back(std::move(r));
  }
  return out;
}

bool is_pinned(const std::vector<builder::InputRange>& ranges) {
  for (const auto& r : ranges) {
    for (const auto& d : r.dims) {
      if (d.min != d.max) return false;
    }
  }
  return true;
}

}  // namespace atenrt::api
