#include "frontend/json_util.h"

#include <cmath>
#include <limits>

#include "atenrt/errors.h"

namespace atenrt::frontend {

json parse_json(const std::string& text, const std::string& where, int max_depth) {
  std::string fixed;
  fixed.reserve(text.size() + 16);
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      fixed += c;
      if (c == '\\' && i + 1 < text.size()) {
        fixed += text[++i];
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    auto token_at = [&](std::string_view tok) { return text.compare(i, tok.size(), tok) == 0; };
    if (c == '"') {
      in_string = true;
      fixed += c;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) {
        throw FormatError(where + ": JSON nesting deeper than " + std::to_string(max_depth) +
                          " levels (at byte " + std::to_string(i) + ")");
      }
      fixed += c;
    } else if (c == ']' || c == '}') {
      --depth;
      fixed += c;
    } else if (token_at("NaN")) {
      fixed += "\"NaN\"";
      i += 2;
    } else if (token_at("Infinity")) {
      fixed += "\"Infinity\"";
      i += 7;
    } else if (token_at("-Infinity")) {
      fixed += "\"-Infinity\"";
      i += 8;
    } else {
      fixed += c;
    }
  }
  try {
    return json::parse(fixed);
  } catch (const json::exception& e) {
    throw FormatError(where + ": invalid JSON: " + e.what());
  }
}

std::string type_name(const json& j) {
  switch (j.type()) {
    case json::value_t::null: return "null";
    case json::value_t::object: return "object";
    case json::value_t::array: return "array";
    case json::value_t::string: return "string";
    case json::value_t::boolean: return "boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: return "integer";
    case json::value_t::number_float: return "float";
    case json::value_t::binary: return "binary";
    case json::value_t::discarded: return "discarded";
  }
  return "?";
}

std::string preview(const json& j) {
  std::string s;
  try {
    s = j.dump(-1, ' ', false, json::error_handler_t::replace);
  } catch (...) {
    s = "<" + type_name(j) + ">";
  }
  if (s.size() > 80) s = s.substr(0, 77) + "...";
  return s;
}

void JsonReader::fail(const std::string& path, const std::string& msg) const {
  throw FormatError(where_ + ": " + path + ": " + msg);
}

void JsonReader::unsupported(const std::string& path, const std::string& msg) const {
  throw UnsupportedError(where_ + ": " + path + ": " + msg);
}

const json& JsonReader::object(const json& j, const std::string& path) const {
  if (!j.is_object()) fail(path, "expected an object, got " + type_name(j) + " " + preview(j));
  return j;
}

const json& JsonReader::array(const json& j, const std::string& path) const {
  if (!j.is_array()) fail(path, "expected an array, got " + type_name(j) + " " + preview(j));
  return j;
}

const json& JsonReader::at(const json& obj, const char* key, const std::string& path) const {
  object(obj, path);
  auto it = obj.find(key);
  if (it == obj.end()) fail(path, std::string("missing field '") + key + "'");
  return *it;
}

const json* JsonReader::find(const json& obj, const char* key, const std::string& path) const {
  object(obj, path);
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return nullptr;
  return &*it;
}

std::int64_t JsonReader::integer(const json& j, const std::string& path) const {
  if (j.is_number_integer()) {
    if (j.is_number_unsigned() &&
        j.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      fail(path, "integer " + preview(j) + " does not fit in int64");
    }
    return j.get<std::int64_t>();
  }
  fail(path, "expected an integer, got " + type_name(j) + " " + preview(j));
}

double JsonReader::number(const json& j, const std::string& path) const {
  if (j.is_number()) return j.get<double>();
  if (j.is_string()) {
    const auto& s = j.get_ref<const std::string&>();
    if (s == "NaN" || s == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (s == "Infinity" || s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-Infinity" || s == "-inf") return -std::numeric_limits<double>::infinity();
  }
  fail(path, "expected a number, got " + type_name(j) + " " + preview(j));
}

bool JsonReader::boolean(const json& j, const std::string& path) const {
  if (j.is_boolean()) return j.get<bool>();
  fail(path, "expected a boolean, got " + type_name(j) + " " + preview(j));
}

std::string JsonReader::string(const json& j, const std::string& path) const {
  if (j.is_string()) return j.get<std::string>();
  fail(path, "expected a string, got " + type_name(j) + " " + preview(j));
}

std::pair<std::string, const json*> JsonReader::union_member(const json& j,
                                                             const std::string& path) const {
  object(j, path);
  if (j.contains("$type") || j.contains("$value")) {
    if (j.size() != 2 || !j.contains("$value")) {
      fail(path, "a {\"$type\", \"$value\"} union must have exactly those two members");
    }
    return {string(j.at("$type"), path + ".$type"), &j.at("$value")};
  }
  if (j.size() == 1) return {j.begin().key(), &j.begin().value()};
  const json* chosen = nullptr;
  std::string key;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.value().is_null()) continue;
    if (chosen) {
      fail(path, "expected a union object with exactly one member set, but '" + key + "' and '" +
                     it.key() + "' are both set");
    }
    chosen = &it.value();
    key = it.key();
  }
  if (!chosen) {
    fail(path, "expected a union object with exactly one member set, got " +
                   std::to_string(j.size()) + " members, all null");
  }
  return {key, chosen};
}

}  // namespace atenrt::frontend
