// A test plugin (tests/unit/conversion/plugin_test.cpp): overrides
// aten.sigmoid.default at high priority for nodes named "plugin_*" (as tanh,
// a visibly different layer), and misuses the API on purpose for nodes of
// aten.tanh.default named "misuse_*" so that the errors can be checked.
#include <atenrt/extension.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace {

using atenrt::Capability;
using atenrt::NetTensor;

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

Capability only_plugin_nodes(const atenrt::NodeInfo& node) {
  if (starts_with(node.name(), "plugin_")) return Capability::yes();
  return Capability::no("not a node this plugin overrides");
}

Capability only_misuse_nodes(const atenrt::NodeInfo& node) {
  if (starts_with(node.name(), "misuse_")) return Capability::yes();
  return Capability::no("not a misuse node");
}

std::vector<NetTensor*> sigmoid_as_tanh(atenrt::ConverterContext& ctx) {
  return {ctx.activation("tanh", ctx.tensor("self"))};
}

// What each misuse_<kind> node does wrong.
std::vector<NetTensor*> misuse(atenrt::ConverterContext& ctx) {
  const std::string kind = ctx.name().substr(7);
  NetTensor* x = ctx.tensor("self");
  if (kind == "unknown_op") return {ctx.elementwise("frobnicate", x, x)};
  if (kind == "missing_arg") return {ctx.tensor("other")};
  if (kind == "throws") throw std::runtime_error("plugin bug");
  if (kind == "foreign_tensor") return {reinterpret_cast<NetTensor*>(&ctx)};
  if (kind == "bad_constant") return {ctx.constant({1.0, 2.0}, {3}, atenrt::DType::Float32)};
  if (kind == "wrong_dtype") return {ctx.cast(x, atenrt::DType::Int64)};
  return {x};
}

void register_converters(atenrt::PluginRegistry& registry) {
  registry.add_converter({.keys = {"aten.sigmoid.default"},
                          .convert = sigmoid_as_tanh,
                          .validator = only_plugin_nodes,
                          .priority = atenrt::ConverterPriority::High});
  registry.add_converter({.keys = {"aten.tanh.default"},
                          .convert = misuse,
                          .validator = only_misuse_nodes,
                          .priority = atenrt::ConverterPriority::High});
}

}  // namespace

ATENRT_PLUGIN("override_test", register_converters)
