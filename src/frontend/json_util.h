// Checked access to untrusted JSON: every wrong type or missing field becomes
// a FormatError naming the file, the entry and the JSON path.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

namespace atenrt::frontend {

using json = nlohmann::json;

// Parses JSON text after two fix-ups: bare NaN/Infinity/-Infinity tokens
// (older torch wrote them) become strings, and nesting deeper than
// `max_depth` is refused before nlohmann sees it.
json parse_json(const std::string& text, const std::string& where, int max_depth);

// Error context: `where` is "file: entry".
class JsonReader {
 public:
  explicit JsonReader(std::string where) : where_(std::move(where)) {}
  const std::string& where() const { return where_; }

  [[noreturn]] void fail(const std::string& path, const std::string& msg) const;
  [[noreturn]] void unsupported(const std::string& path, const std::string& msg) const;

  const json& object(const json& j, const std::string& path) const;
  const json& array(const json& j, const std::string& path) const;
  // Required member of an object.
  const json& at(const json& obj, const char* key, const std::string& path) const;
  // Optional member: nullptr when absent or null.
  const json* find(const json& obj, const char* key, const std::string& path) const;

  std::int64_t integer(const json& j, const std::string& path) const;
  double number(const json& j, const std::string& path) const;  // also "NaN", "Infinity", "-Infinity"
  bool boolean(const json& j, const std::string& path) const;
  std::string string(const json& j, const std::string& path) const;

  // The member a serde union holds, in any of the three encodings torch has
  // written (pt2_schema_history.md, "Encoding rules" 1): one key (5.x+),
  // {"$type": k, "$value": v} (3.x/4.x nightlies), or every member present
  // with the unused ones null (2.1/2.2). The chosen member is the one that is
  // present and non-null, never the truthy one: [], false and 0 are values.
  std::pair<std::string, const json*> union_member(const json& j, const std::string& path) const;

 private:
  std::string where_;
};

// A short rendering of a JSON value for messages (never throws).
std::string preview(const json& j);
std::string type_name(const json& j);

}  // namespace atenrt::frontend
