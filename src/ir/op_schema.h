// ATen operator schemas, parsed from the schema list of torch 1.13
// (aten_schemas_torch1.13.txt, embedded at build time) plus newer ops added
// by hand in op_schema_extra.cpp. Used to fill in arguments a .pt2 omits
// because they equal their default.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/argument.h"

namespace atenrt::ir {

struct SchemaArgument {
  std::string name;
  std::string type;                  // as written: "Tensor", "int[]", "Scalar?", "int[2]"
  std::optional<Argument> default_value;  // parsed default, when the schema gives one
  bool kwarg_only = false;
};

struct OpSchema {
  std::string name;       // "aten::add"
  std::string overload;   // "Tensor"; empty for the default overload
  std::vector<SchemaArgument> arguments;
  std::vector<std::string> returns;  // return types
  std::string text;                  // the full schema line
};

// Parses one schema line; throws FormatError with the line on failure.
OpSchema parse_schema(std::string_view line);

// Looks up "aten::add.Tensor" or "aten::convolution" (overload "default"
// maps to the empty overload). Returns nullptr when unknown.
const OpSchema* find_schema(const std::string& qualified_name);

// Fills defaults for absent arguments and orders `args` as the schema does.
// Throws FormatError naming node, op and argument when a required argument
// is missing or an unknown argument name appears. Ops without a schema are
// left untouched.
void fill_schema_defaults(const std::string& node_name, const std::string& op_name,
                          std::vector<NamedArgument>& args);

}  // namespace atenrt::ir
