#include "ir/op_schema.h"

#include <cctype>
#include <charconv>
#include <limits>
#include <mutex>
#include <unordered_map>

#include "atenrt/errors.h"
#include "ir/graph.h"

namespace atenrt::ir {

extern const std::string_view kAtenSchemaText;   // generated from aten_schemas_torch1.13.txt
extern const std::string_view kExtraSchemaText;  // op_schema_extra.cpp

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Splits on commas at depth 0, outside quotes.
std::vector<std::string_view> split_top_level(std::string_view s) {
  std::vector<std::string_view> parts;
  int depth = 0;
  char quote = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (quote) {
      if (c == '\\') ++i;
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') quote = c;
    else if (c == '(' || c == '[') ++depth;
    else if (c == ')' || c == ']') --depth;
    else if (c == ',' && depth == 0) {
      parts.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  auto last = trim(s.substr(start));
  if (!last.empty()) parts.push_back(last);
  return parts;
}

// "int[2]" -> 2; "int[]" -> 0; anything else -> 0.
std::size_t fixed_list_size(std::string_view type) {
  auto open = type.find('[');
  auto close = type.find(']');
  if (open == std::string_view::npos || close == std::string_view::npos || close == open + 1) return 0;
  std::size_t n = 0;
  std::from_chars(type.data() + open + 1, type.data() + close, n);
  return n;
}

std::string base_type(std::string_view type) {
  std::string t;
  for (char c : type) {
    if (c == '[' || c == '?' || c == '(') break;
    t += c;
  }
  return t;
}

bool is_list_type(std::string_view type) { return type.find('[') != std::string_view::npos; }

std::optional<std::int64_t> parse_int(std::string_view s) {
  std::int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<double> parse_float(std::string_view s) {
  if (s == "inf") return std::numeric_limits<double>::infinity();
  if (s == "-inf") return -std::numeric_limits<double>::infinity();
  try {
    std::size_t used = 0;
    double v = std::stod(std::string(s), &used);
    if (used != s.size()) return std::nullopt;
    return v;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::string unquote(std::string_view s) {
  std::string out;
  for (std::size_t i = 1; i + 1 < s.size(); ++i) {
    if (s[i] == '\\' && i + 2 < s.size()) {
      const char n = s[++i];
      switch (n) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'f': out += '\f'; break;
        case 'v': out += '\v'; break;
        default: out += n;
      }
    } else {
      out += s[i];
    }
  }
  return out;
}

// Parses a default written in schema syntax, typed by the argument's type.
std::optional<Argument> parse_default(std::string_view type, std::string_view text) {
  if (text == "None") return Argument(None{});
  const std::string base = base_type(type);
  if (is_list_type(type)) {
    std::vector<std::string_view> items;
    if (text.starts_with('[')) {
      items = split_top_level(text.substr(1, text.size() - 2));
    } else {
      // A scalar default for a fixed-size list repeats: int[2] padding=0 -> [0, 0].
      items.assign(std::max<std::size_t>(fixed_list_size(type), 1), text);
    }
    if (base == "bool") {
      BoolList out;
      for (auto i : items) out.push_back(i == "True");
      return Argument(out);
    }
    if (base == "float") {
      FloatList out;
      for (auto i : items) out.push_back(parse_float(i).value_or(0.0));
      return Argument(out);
    }
    IntList out;
    for (auto i : items) {
      auto v = parse_int(i);
      if (!v) return std::nullopt;
      out.push_back(*v);
    }
    return Argument(out);
  }
  if (base == "bool") return Argument(text == "True");
  if (text.starts_with('"') || text.starts_with('\'')) return Argument(unquote(text));
  if (base == "int" || base == "SymInt") {
    if (auto v = parse_int(text)) return Argument(*v);
    return std::nullopt;
  }
  if (base == "float") {
    if (auto v = parse_float(text)) return Argument(*v);
    return std::nullopt;
  }
  if (base == "Scalar") {
    if (auto v = parse_int(text)) return Argument(*v);
    if (auto v = parse_float(text)) return Argument(*v);
    if (text == "True" || text == "False") return Argument(text == "True");
    return std::nullopt;
  }
  // Enum defaults are written in c10's numbering; the IR uses the .pt2 serde
  // numbering (pt2_format.md §3.6), as the exporter does.
  if (base == "MemoryFormat") {
    if (text == "contiguous_format") return Argument(MemoryFormatArg{1});
    if (auto v = parse_int(text)) {
      static constexpr std::int64_t kC10ToSerde[] = {1, 4, 2, 3};  // contiguous, preserve, cl, cl3d
      if (*v >= 0 && *v < 4) return Argument(MemoryFormatArg{kC10ToSerde[*v]});
    }
    return std::nullopt;
  }
  if (base == "ScalarType") {
    if (auto v = parse_int(text)) {
      // c10: Byte 0 ... Bool 11, BFloat16 15; serde: c10 + 1 up to Bool, BFloat16 13.
      const std::int64_t serde = *v <= 11 ? *v + 1 : (*v == 15 ? 13 : -1);
      return Argument(ScalarTypeArg{dtype_from_serde(serde), serde});
    }
    return std::nullopt;
  }
  if (base == "str") return Argument(std::string(text));
  return std::nullopt;  // a default we do not model (e.g. a named enum): treated as required
}

struct SchemaTable {
  std::unordered_map<std::string, OpSchema> by_name;

  void add_text(std::string_view text) {
    std::size_t pos = 0;
    while (pos < text.size()) {
      auto end = text.find('\n', pos);
      if (end == std::string_view::npos) end = text.size();
      auto line = trim(text.substr(pos, end - pos));
      pos = end + 1;
      if (line.empty() || line.starts_with('#')) continue;
      OpSchema schema = parse_schema(line);
      std::string key = schema.name + (schema.overload.empty() ? "" : "." + schema.overload);
      by_name.insert_or_assign(std::move(key), std::move(schema));
    }
  }
};

const SchemaTable& table() {
  static const SchemaTable t = [] {
    SchemaTable s;
    s.add_text(kAtenSchemaText);
    s.add_text(kExtraSchemaText);
    return s;
  }();
  return t;
}

bool is_optional_type(const std::string& type) { return type.ends_with('?'); }

}  // namespace

OpSchema parse_schema(std::string_view line) {
  OpSchema schema;
  schema.text = std::string(line);
  const auto open = line.find('(');
  const auto arrow = line.rfind("->");
  if (open == std::string_view::npos || arrow == std::string_view::npos || arrow < open) {
    throw FormatError("ATen schema: cannot parse '" + std::string(line) + "'");
  }
  // The argument list ends at the ')' that matches `open`.
  int depth = 0;
  std::size_t close = std::string_view::npos;
  for (std::size_t i = open; i < arrow; ++i) {
    if (line[i] == '(') ++depth;
    if (line[i] == ')' && --depth == 0) {
      close = i;
      break;
    }
  }
  if (close == std::string_view::npos) {
    throw FormatError("ATen schema: unbalanced parentheses in '" + std::string(line) + "'");
  }
  const auto full_name = trim(line.substr(0, open));
  const auto dot = full_name.find('.');
  schema.name = std::string(full_name.substr(0, dot));
  if (dot != std::string_view::npos) schema.overload = std::string(full_name.substr(dot + 1));

  bool kwarg_only = false;
  for (auto part : split_top_level(line.substr(open + 1, close - open - 1))) {
    if (part == "*") {
      kwarg_only = true;
      continue;
    }
    if (part == "...") continue;  // varargs (einsum.sublist): nothing to fill
    SchemaArgument arg;
    arg.kwarg_only = kwarg_only;
    std::string_view decl = part;
    std::optional<std::string_view> default_text;
    // '=' outside brackets/quotes separates the default.
    int d = 0;
    for (std::size_t i = 0; i < part.size(); ++i) {
      if (part[i] == '(' || part[i] == '[') ++d;
      if (part[i] == ')' || part[i] == ']') --d;
      if (part[i] == '=' && d == 0) {
        decl = trim(part.substr(0, i));
        default_text = trim(part.substr(i + 1));
        break;
      }
    }
    const auto space = decl.rfind(' ');
    if (space == std::string_view::npos) {
      throw FormatError("ATen schema: argument '" + std::string(part) + "' has no name in '" +
                        std::string(line) + "'");
    }
    arg.type = std::string(trim(decl.substr(0, space)));
    arg.name = std::string(trim(decl.substr(space + 1)));
    if (default_text) arg.default_value = parse_default(arg.type, *default_text);
    schema.arguments.push_back(std::move(arg));
  }
  auto returns = trim(line.substr(arrow + 2));
  if (returns.starts_with('(')) returns = returns.substr(1, returns.size() - 2);
  for (auto r : split_top_level(returns)) schema.returns.emplace_back(r);
  return schema;
}

const OpSchema* find_schema(const std::string& qualified_name) {
  const auto& t = table();
  std::string key = qualified_name;
  if (key.ends_with(".default")) key.resize(key.size() - std::string_view(".default").size());
  auto it = t.by_name.find(key);
  return it == t.by_name.end() ? nullptr : &it->second;
}

void fill_schema_defaults(const std::string& node_name, const std::string& op_name,
                          std::vector<NamedArgument>& args) {
  const OpSchema* schema = nullptr;
  {
    // op_name is "aten.add.Tensor" or "aten::add.Tensor".
    std::string q = op_name;
    if (auto p = q.find('.'); p != std::string::npos && q.find("::") == std::string::npos) {
      q = q.substr(0, p) + "::" + q.substr(p + 1);
    }
    schema = find_schema(q);
  }
  if (!schema) return;
  const std::string where = Node::describe_node(node_name, op_name);

  std::vector<bool> used(args.size(), false);
  std::vector<NamedArgument> full;
  full.reserve(schema->arguments.size());
  for (std::size_t i = 0; i < schema->arguments.size(); ++i) {
    const auto& sa = schema->arguments[i];
    const auto kind = sa.kwarg_only ? ArgumentKind::Keyword : ArgumentKind::Positional;
    std::optional<std::size_t> found;
    for (std::size_t j = 0; j < args.size(); ++j) {
      if (!used[j] && args[j].name == sa.name) {
        found = j;
        break;
      }
    }
    // Positional arguments written without names (HOP-style "") match by position.
    if (!found && i < args.size() && !used[i] && args[i].name.empty()) found = i;
    if (found) {
      used[*found] = true;
      full.push_back(NamedArgument{sa.name, args[*found].arg, kind});
    } else if (sa.default_value) {
      full.push_back(NamedArgument{sa.name, *sa.default_value, kind});
    } else if (is_optional_type(sa.type)) {
      full.push_back(NamedArgument{sa.name, Argument(None{}), kind});
    } else {
      throw FormatError(where + ": required argument '" + sa.name + "' (" + sa.type +
                        ") is missing; schema: " + schema->text);
    }
  }
  for (std::size_t j = 0; j < args.size(); ++j) {
    if (!used[j]) {
      throw FormatError(where + ": argument '" + args[j].name +
                        "' is not in the op's schema: " + schema->text);
    }
  }
  args = std::move(full);
}

}  // namespace atenrt::ir
