// Plugin layers (atenrt/plugin_layer.h) through the network, the reference
// executor, the builder, the runtime and engine files, with a kernel
// registered in this process (as a loaded plugin's would be): shape
// inference asks the kernel, nothing is fused into or across the layer, the
// engine runs the kernel's execute with scratch, and a file that needs a
// kernel that is not loaded, or holds attributes the kernel refuses, is an
// error naming the layer.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "affine_plugin_kernel.h"
#include "engine_resign.h"
#include "network/plugin_kernels.h"
#include "runtime/serialize.h"
#include "test_paths.h"
#include "support/engine_check.h"

namespace atenrt::testing {
namespace {

using namespace atenrt::network;
namespace file = runtime::file;

void register_affine() { register_affine_kernel(); }

PluginParams affine(double a, double b) {
  return {"unit::affine", 1, "unit", PluginAttributes{{"a", a}, {"b", b}}};
}

// x -> matmul(w) -> affine -> relu -> output y; affine's index -> output idx.
Network with_plugin() {
  Network n;
  auto* x = n.add_input("x", DType::Float32, {4, 6});
  auto* mm = n.add_matmul("mm", x, n.add_constant("w", random_tensor(DType::Float32, {6, 5}, 2)));
  Layer* p = n.add_layer("affine", {mm}, affine(2.0, -0.5));
  n.mark_output(n.add_activation("relu", p->output(0), ActivationOp::Relu));
  n.mark_output(p->output(1));
  return n;
}

std::string error_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(PluginLayers, ShapeInferenceAsksTheKernel) {
  register_affine();
  Network n;
  auto* x = n.add_input("x", DType::Float32, {3, -1});
  Layer* p = n.add_layer("affine", {x}, affine(1.0, 0.0));
  EXPECT_EQ(p->kind(), LayerKind::Plugin);
  ASSERT_EQ(p->outputs.size(), 2u);
  EXPECT_EQ(p->output(0)->desc(), (TensorDesc{DType::Float32, {3, -1}}));
  EXPECT_EQ(p->output(1)->desc(), (TensorDesc{DType::Int64, {}}));

  auto* i = n.add_input("i", DType::Int64, {3});
  EXPECT_NE(error_of([&] { n.add_layer("ints", {i}, affine(1.0, 0.0)); })
                .find("layer 'ints' (Plugin): kernel 'unit::affine' version 1 (plugin 'unit') does not take int64"),
            std::string::npos);
  PluginParams wrong_type = affine(1.0, 0.0);
  wrong_type.attributes.set("a", std::int64_t{1});
  EXPECT_NE(error_of([&] { n.add_layer("wrong", {x}, wrong_type); })
                .find("layer 'wrong' (Plugin): kernel 'unit::affine' version 1 (plugin 'unit') refused the layer: "
                      "attribute 'a' is not a float"),
            std::string::npos);
  PluginParams unknown = affine(1.0, 0.0);
  unknown.kernel = "unit::nothing";
  const std::string missing = error_of([&] { n.add_layer("unknown", {x}, unknown); });
  EXPECT_NE(missing.find("layer 'unknown' (Plugin): needs plugin 'unit' (kernel 'unit::nothing' version 1), which no "
                         "loaded plugin registers"),
            std::string::npos)
      << missing;
  EXPECT_NE(missing.find("--plugin"), std::string::npos) << missing;
  EXPECT_NE(missing.find("ATENRT_PLUGINS"), std::string::npos) << missing;
  PluginParams bad_name = affine(1.0, 0.0);
  bad_name.kernel = "no_namespace";
  EXPECT_NE(error_of([&] { n.add_layer("bad", {x}, bad_name); }).find("is not namespace::name"), std::string::npos);
}

TEST(PluginLayers, RegistrationsAreChecked) {
  register_affine();
  KernelSpec spec;
  spec.name = "unit::affine";
  spec.infer = [](const std::vector<TensorInfo>&, const PluginAttributes&) { return std::vector<TensorInfo>{}; };
  spec.execute = [](const KernelLaunch&) {};
  EXPECT_NE(plugin_kernel_problem(spec).find("kernel 'unit::affine' version 1 is registered already (by plugin 'unit', affine_plugin_kernel.h)"),
            std::string::npos);
  spec.version = 2;
  EXPECT_EQ(plugin_kernel_problem(spec), "");
  spec.execute = nullptr;
  EXPECT_EQ(plugin_kernel_problem(spec), "kernel 'unit::affine' version 2 has no execute function");
  spec.name = "a::b::c";
  EXPECT_NE(plugin_kernel_problem(spec).find("is not namespace::name"), std::string::npos);
  // The header's element sizes are atenrt's.
  for (int d = 0; d < kDTypeCount; ++d) {
    EXPECT_EQ(element_bytes(static_cast<DType>(d)), element_size(static_cast<DType>(d))) << d;
  }
}

TEST(PluginLayers, TheEngineRunsTheKernelUnfusedAsTheReferenceDoes) {
  register_affine();
  const Network net = with_plugin();
  const auto inputs = random_inputs(net, 3);
  const auto want = reference::run(net, inputs);
  // The reference ran the kernel: relu(2*mm - 0.5) has zeros and positives.
  const Tensor& y = want.at("relu");
  EXPECT_GT(*std::max_element(y.data<float>(), y.data<float>() + y.numel()), 0.0f);
  EXPECT_EQ(*std::min_element(y.data<float>(), y.data<float>() + y.numel()), 0.0f);

  builder::BuildReport report;
  const runtime::Engine engine = builder::build(with_plugin(), {}, &report);
  for (const auto& f : report.fusions) EXPECT_EQ(f.find("affine"), std::string::npos) << f;
  const auto steps = engine.steps();
  ASSERT_EQ(steps.size(), 3u);  // matmul, the plugin layer, relu: relu is not fused into (or across) it
  EXPECT_EQ(steps[1].name, "affine");
  EXPECT_EQ(steps[1].kind, "Plugin");
  EXPECT_EQ(steps[1].implementation, "plugin:unit");
  EXPECT_TRUE(steps[1].fused.empty());
  EXPECT_EQ(steps[2].name, "relu");
  EXPECT_GE(engine.memory().scratch_bytes, 4u * 5u * sizeof(float));

  auto ctx = engine.create_context();
  const auto& got = ctx.run(std::vector<Tensor>{inputs.at("x")});
  EXPECT_TRUE(close(got[0], want.at("relu"), 1e-5));
  EXPECT_EQ(got[1].data<std::int64_t>()[0], want.at(net.outputs()[1]->name).data<std::int64_t>()[0]);
}

std::vector<std::byte> plugin_file() {
  register_affine();
  return builder::build(with_plugin()).serialize();
}

// Replaces every occurrence of `from` by `to` (same length), then re-signs.
std::vector<std::byte> replaced(std::vector<std::byte> f, const std::string& from, const std::string& to) {
  EXPECT_EQ(from.size(), to.size());
  int count = 0;
  for (std::size_t i = 0; i + from.size() <= f.size(); ++i) {
    if (std::memcmp(f.data() + i, from.data(), from.size()) == 0) {
      std::memcpy(f.data() + i, to.data(), to.size());
      ++count;
    }
  }
  EXPECT_GT(count, 0) << from;
  resign_engine_file(f);
  return f;
}

TEST(PluginLayers, EngineFilesNameTheKernelAndNeedItLoaded) {
  const auto bytes = plugin_file();
  const auto c = file::parse_container(bytes);
  EXPECT_EQ(c.header.minor, file::kPluginMinor);
  const file::Section* s = c.find(file::SectionKind::PluginKernels);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->flags & file::kSectionRequired, file::kSectionRequired);  // older readers refuse the file

  const runtime::Engine loaded = runtime::Engine::deserialize(bytes);
  const auto inputs = random_inputs(with_plugin(), 4);
  const auto want = reference::run(with_plugin(), inputs);
  auto ctx = loaded.create_context();
  EXPECT_TRUE(close(ctx.run(std::vector<Tensor>{inputs.at("x")})[0], want.at("relu"), 1e-5));
  EXPECT_EQ(loaded.steps()[1].implementation, "plugin:unit");

  // A kernel no loaded plugin registers: an UnsupportedError naming the layer, plugin and kernel.
  try {
    runtime::Engine::deserialize(replaced(bytes, "unit::affine", "unit::affinX"));
    ADD_FAILURE() << "loaded an engine whose plugin kernel is not loaded";
  } catch (const UnsupportedError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("engine file: layer 'affine' needs plugin 'unit' (kernel 'unit::affinX' version 1), which no "
                        "loaded plugin registers"),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("--plugin"), std::string::npos) << what;
  }
}

void expect_format_error(const std::vector<std::byte>& bytes, const std::string& fragment) {
  try {
    runtime::Engine::deserialize(bytes);
    ADD_FAILURE() << "accepted a bad engine file (" << fragment << ")";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << "wanted '" << fragment << "', got: " << e.what();
  }
}

// Offset of the byte after the attribute name `name` in the program section
// (u64 length, the name, then the u8 kind).
std::size_t attribute_kind_at(const std::vector<std::byte>& f, const std::string& name) {
  const auto c = file::parse_container(f);
  const auto* p = c.find(file::SectionKind::Program);
  std::string key(8, '\0');
  const std::uint64_t n = name.size();
  std::memcpy(key.data(), &n, 8);
  key += name;
  for (std::size_t i = p->offset; i + key.size() <= p->offset + p->size; ++i) {
    if (std::memcmp(f.data() + i, key.data(), key.size()) == 0) return i + key.size();
  }
  ADD_FAILURE() << "no attribute " << name;
  return 0;
}

TEST(PluginLayers, HostileEngineFilesAreRefused) {
  const auto good = plugin_file();
  {  // an attribute of the wrong type: the kernel refuses it when the program is checked
    auto f = good;
    const std::size_t at = attribute_kind_at(f, "a");
    f[at] = std::byte{0};  // int instead of float (the same 8 bytes follow)
    resign_engine_file(f);
    expect_format_error(f, "engine program: step 'affine': layer 'affine' (Plugin)");
    expect_format_error(f, "refused the layer: attribute 'a' is not a float");
  }
  {
    auto f = good;
    f[attribute_kind_at(f, "b")] = std::byte{9};
    resign_engine_file(f);
    expect_format_error(f, "plugin attribute 'b' has a kind out of range (0..4)");
  }
  // Attribute names must be sorted and well formed.
  expect_format_error(replaced(good, std::string("\x01\0\0\0\0\0\0\0a", 9), std::string("\x01\0\0\0\0\0\0\0c", 9)),
                      "plugin attributes are not sorted by name without repeats ('b')");
  expect_format_error(replaced(good, std::string("\x01\0\0\0\0\0\0\0a", 9), std::string("\x01\0\0\0\0\0\0\0-", 9)),
                      "plugin attribute name '-' is not 1 to 64 letters");
  expect_format_error(replaced(good, "unit::affine", "unit:;affine"), "plugin kernel name 'unit:;affine' is not namespace::name");
  {  // the section flagged with a kind this build does not know: refused as required
    auto f = good;
    const auto c = file::parse_container(f);
    for (std::size_t i = 0; i < c.sections.size(); ++i) {
      if (c.sections[i].kind != static_cast<std::uint32_t>(file::SectionKind::PluginKernels)) continue;
      const std::size_t entry = file::kHeaderBytes + i * file::kSectionEntryBytes;
      std::uint64_t table = 0;
      std::memcpy(&table, f.data() + 24, 8);
      const std::uint32_t unknown = 99;
      std::memcpy(f.data() + table + i * file::kSectionEntryBytes, &unknown, 4);
      (void)entry;
      auto required = f;
      resign_engine_file(required);
      expect_format_error(required, "(unknown kind 99) is required but");
      const std::uint32_t optional = 0;  // and when not required, the program's plugin step has no section
      std::memcpy(f.data() + table + i * file::kSectionEntryBytes + 4, &optional, 4);
      resign_engine_file(f);
      expect_format_error(f, "step 'affine' is a plugin layer but the file has no plugin-kernels section");
    }
  }
}

// The engine-file fuzzer's seed with a plugin layer loads with this format
// (so that the fuzzer starts from a file that reaches the plugin paths).
TEST(PluginLayers, TheFuzzSeedLoadsAndRuns) {
  register_affine();
  std::ifstream in(std::string(ATENRT_SOURCE_DIR) + "/tests/fuzz/engine_corpus/plugin_layer.atrt", std::ios::binary);
  ASSERT_TRUE(in);
  std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> bytes(chars.size());
  std::memcpy(bytes.data(), chars.data(), chars.size());
  const runtime::Engine engine = runtime::Engine::deserialize(bytes);
  int plugin_steps = 0;
  for (const auto& s : engine.steps()) plugin_steps += s.kind == "Plugin";
  EXPECT_EQ(plugin_steps, 1);
  auto ctx = engine.create_context();
  std::vector<Tensor> inputs;
  for (const auto& i : engine.inputs()) inputs.push_back(random_tensor(i.dtype, i.dims, 5));
  EXPECT_NO_THROW(ctx.run(inputs));
}

}  // namespace
}  // namespace atenrt::testing
