// Converter plugins (include/atenrt/extension.h) loaded from shared libraries
// built against the public headers only (tests/plugins/): a high-priority
// override takes the nodes its validator accepts and leaves the rest to the
// built-in converter; misuse of the API and broken plugins are errors that
// name the node or the plugin file, and a plugin that fails to register adds
// nothing.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "atenrt/errors.h"
#include "atenrt/extension.h"
#include "conversion/context.h"
#include "conversion/registry.h"
#include "support/graph_builder.h"
#include "network/layers.h"
#include "test_paths.h"

namespace atenrt::conversion {
namespace {

using testing::GraphBuilder;

// Test plugins live in <build>/tests/plugins, beside this test's binary.
std::string plugin(const std::string& name) {
  const auto exe = std::filesystem::read_symlink("/proc/self/exe");
  return (exe.parent_path() / "plugins" / ("lib" + name + ".so")).string();
}

std::string error_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

bool has_family(const std::string& key, const std::string& family) {
  for (const auto* r : ConverterRegistry::global().all()) {
    if (r->key == key && r->family == family) return true;
  }
  return false;
}

// x -> <target> node named `name` -> output.
ConvertedGraph convert_one(const std::string& target, const std::string& name) {
  GraphBuilder b;
  b.input("x", DType::Float32, {2, 3});
  b.node(name, target, {GraphBuilder::arg("self", GraphBuilder::t("x"))}, DType::Float32, {2, 3});
  b.output(name);
  return convert_graph(b.g);
}

TEST(Plugins, OverrideTakesTheNodesItsValidatorAcceptsAndLeavesTheRest) {
  const PluginInfo info = load_plugin(plugin("override_test"));
  EXPECT_EQ(info.name, "override_test");
  EXPECT_EQ(info.converters, 2u);
  // Loading it again is a no-op.
  EXPECT_EQ(load_plugin(plugin("override_test")).converters, 2u);
  const auto cands = ConverterRegistry::global().candidates("aten.sigmoid.default");
  ASSERT_EQ(cands.size(), 2u);
  EXPECT_EQ(cands[0]->family, "override_test");
  EXPECT_EQ(cands[0]->source, plugin("override_test"));
  EXPECT_EQ(cands[1]->family, "activation");

  GraphBuilder b;
  b.input("x", DType::Float32, {4});
  b.node("plugin_sigmoid", "aten.sigmoid.default", {GraphBuilder::arg("self", GraphBuilder::t("x"))}, DType::Float32,
         {4});
  b.node("plain", "aten.sigmoid.default", {GraphBuilder::arg("self", GraphBuilder::t("plugin_sigmoid"))},
         DType::Float32, {4});
  b.output("plain");
  ConvertedGraph out = convert_graph(b.g);
  const auto* first = out.network.find_layer("[aten]-[plugin_sigmoid]");
  const auto* second = out.network.find_layer("[aten]-[plain]");
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(first->params_as<network::ActivationParams>().op, network::ActivationOp::Tanh);
  EXPECT_EQ(second->params_as<network::ActivationParams>().op, network::ActivationOp::Sigmoid);
}

TEST(Plugins, MisuseOfTheApiIsAnErrorNamingTheNode) {
  load_plugin(plugin("override_test"));
  const auto fails = [](const std::string& kind) {
    return error_of([&] { convert_one("aten.tanh.default", "misuse_" + kind); });
  };
  EXPECT_NE(fails("unknown_op").find("node 'misuse_unknown_op' (aten.tanh.default): unknown elementwise op "
                                     "'frobnicate' (known: add sub"),
            std::string::npos)
      << fails("unknown_op");
  EXPECT_NE(fails("missing_arg").find("node 'misuse_missing_arg'"), std::string::npos) << fails("missing_arg");
  EXPECT_NE(fails("missing_arg").find("'other'"), std::string::npos) << fails("missing_arg");
  EXPECT_NE(fails("throws").find("the converter from " + plugin("override_test") + " failed: plugin bug"),
            std::string::npos)
      << fails("throws");
  EXPECT_NE(fails("foreign_tensor").find("output 0 is not a tensor of this converter call"), std::string::npos)
      << fails("foreign_tensor");
  EXPECT_NE(fails("bad_constant").find("constant() has 2 values for [3]"), std::string::npos)
      << fails("bad_constant");
  EXPECT_NE(fails("wrong_dtype").find("converter produced int64[2, 3]"), std::string::npos) << fails("wrong_dtype");
  // A node the plugin's validator refuses still goes to the built-in converter.
  EXPECT_NO_THROW(convert_one("aten.tanh.default", "tanh_1"));
}

TEST(Plugins, BrokenPluginsAreRefusedNamingTheFile) {
  const std::string missing = plugin("not_built");
  EXPECT_EQ(error_of([&] { load_plugin(missing); }), "plugin " + missing + ": no such file");
  EXPECT_NE(error_of([&] { load_plugin(plugin("no_entry")); })
                .find("plugin " + plugin("no_entry") + ": not an atenrt plugin: it has no entry point "
                      "atenrt_plugin_descriptor"),
            std::string::npos);
  const std::string abi = error_of([&] { load_plugin(plugin("wrong_abi")); });
  EXPECT_NE(abi.find("plugin " + plugin("wrong_abi") + ": built for atenrt extension ABI version " +
                     std::to_string(ATENRT_EXTENSION_ABI_VERSION + 1) + ", this atenrt takes version " +
                     std::to_string(ATENRT_EXTENSION_ABI_VERSION)),
            std::string::npos)
      << abi;
  // Not a shared library at all.
  const std::string text = (std::filesystem::temp_directory_path() / "atenrt_not_a_library.so").string();
  { std::ofstream(text) << "not an ELF file\n"; }
  EXPECT_NE(error_of([&] { load_plugin(text); }).find("plugin " + text + ": cannot load it: "), std::string::npos);
  std::filesystem::remove(text);
}

TEST(Plugins, AFailedRegistrationAddsNothing) {
  const std::string bad_key = error_of([&] { load_plugin(plugin("bad_key")); });
  EXPECT_NE(bad_key.find(plugin("bad_key") + ": converter key 'aten.abs' is not an op overload"), std::string::npos)
      << bad_key;
  EXPECT_FALSE(has_family("aten.abs.default", "bad_key"));  // its first, good registration is not kept
  const std::string dup = error_of([&] { load_plugin(plugin("duplicate")); });
  EXPECT_NE(dup.find("converter for aten.neg.default registered twice at standard priority in family 'duplicate'"),
            std::string::npos)
      << dup;
  EXPECT_FALSE(has_family("aten.neg.default", "duplicate"));
  for (const auto& p : loaded_plugins()) {
    EXPECT_NE(p.name, "bad_key");
    EXPECT_NE(p.name, "duplicate");
  }
}

// The op names that include/atenrt/extension.h lists for plugin authors are
// the network's, all of them and in order.
TEST(Plugins, TheHeaderListsEveryOpName) {
  std::ifstream in(std::string(ATENRT_SOURCE_DIR) + "/include/atenrt/extension.h");
  ASSERT_TRUE(in);
  std::stringstream text;
  text << in.rdbuf();
  // "//   <family>:  name name ...", continued on lines "//                name ...".
  const auto listed = [&](const std::string& family) {
    std::string words;
    std::istringstream lines(text.str());
    bool in_family = false;
    for (std::string line; std::getline(lines, line);) {
      const std::string head = "//   " + family + ":";
      if (line.rfind(head, 0) == 0) {
        in_family = true;
        words += line.substr(head.size()) + " ";
      } else if (in_family && line.rfind("//          ", 0) == 0) {
        words += line.substr(2) + " ";
      } else {
        in_family = false;
      }
    }
    std::vector<std::string> names;
    std::istringstream w(words);
    for (std::string word; w >> word;) {
      if (word[0] == '(') break;  // "(one dtype; ...)": a note, not a name
      names.push_back(word.substr(0, word.find('(')));  // "leaky_relu(alpha=slope)"
    }
    return names;
  };
  const auto table = [](int count, auto name_of) {
    std::vector<std::string> names;
    for (int k = 0; k < count; ++k) names.emplace_back(name_of(k));
    return names;
  };
  EXPECT_EQ(listed("activation"), table(network::kActivationOpCount, [](int k) {
              return network::activation_op_name(static_cast<network::ActivationOp>(k));
            }));
  EXPECT_EQ(listed("elementwise"), table(network::kElementwiseOpCount, [](int k) {
              return network::elementwise_op_name(static_cast<network::ElementwiseOp>(k));
            }));
  EXPECT_EQ(listed("unary"), table(network::kUnaryOpCount, [](int k) {
              return network::unary_op_name(static_cast<network::UnaryOp>(k));
            }));
  EXPECT_EQ(listed("reduce"), table(9, [](int k) { return network::reduce_op_name(static_cast<network::ReduceOp>(k)); }));
}

}  // namespace
}  // namespace atenrt::conversion
