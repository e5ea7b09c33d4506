// Test plugins that atenrt must refuse with a message naming the file, one per
// compile definition (tests/CMakeLists.txt builds each):
//   NO_ENTRY     a shared library without the entry point
//   WRONG_ABI    an entry point for another extension ABI version
//   BAD_KEY      a good registration, then a key that is not an op overload
//   DUPLICATE    the same key and priority twice
#include <atenrt/extension.h>

#include <vector>

namespace {

std::vector<atenrt::NetTensor*> identity(atenrt::ConverterContext& ctx) { return {ctx.tensor("self")}; }

[[maybe_unused]] void register_bad_key(atenrt::PluginRegistry& registry) {
  registry.add_converter({.keys = {"aten.abs.default"}, .convert = identity,
                          .priority = atenrt::ConverterPriority::High});
  registry.add_converter({.keys = {"aten.abs"}, .convert = identity});
}

[[maybe_unused]] void register_duplicate(atenrt::PluginRegistry& registry) {
  registry.add_converter({.keys = {"aten.neg.default"}, .convert = identity});
  registry.add_converter({.keys = {"aten.neg.default"}, .convert = identity});
}

[[maybe_unused]] void register_nothing(atenrt::PluginRegistry&) {}

}  // namespace

#if defined(NO_ENTRY)
extern "C" __attribute__((visibility("default"))) int not_an_atenrt_plugin() { return 1; }
#elif defined(WRONG_ABI)
extern "C" __attribute__((visibility("default"))) const atenrt::PluginDescriptor* atenrt_plugin_descriptor() {
  static const atenrt::PluginDescriptor descriptor{ATENRT_EXTENSION_ABI_VERSION + 1, "wrong_abi", register_nothing};
  return &descriptor;
}
#elif defined(BAD_KEY)
ATENRT_PLUGIN("bad_key", register_bad_key)
#elif defined(DUPLICATE)
ATENRT_PLUGIN("duplicate", register_duplicate)
#endif
