// Hybrid engine files (docs/engine-format.md, torch-segments section): a
// round trip, and hand-made payloads, correctly signed, that the loader must
// refuse naming what is wrong.
#include <gtest/gtest.h>

#include "atenrt/atenrt.h"
#include "runtime/hybrid.h"
#include "runtime/serialize.h"
#include "runtime/serialize_fields.h"
#include "runtime/torch_plugin.h"

namespace atenrt::runtime {
namespace {

using file::Writer;

#define REQUIRE_PLUGIN() \
  if (!torch_fallback_built()) GTEST_SKIP() << "built without ATENRT_WITH_TORCH"

void ids(Writer& w, std::vector<int> v) {
  w.raw<std::uint64_t>(v.size());
  for (int id : v) w.raw<std::int32_t>(id);
}

void slot(Writer& w, const std::string& name, Dims dims, bool torch_only = false) {
  w(name);
  w.raw<std::uint8_t>(static_cast<std::uint8_t>(DType::Float32));
  w(dims);
  w(torch_only);
}

// One torch node: `op` on tensor slot `in`, result to slot `out`.
void unary_node(Writer& w, const std::string& op, int in, int out, std::uint8_t arg_kind, std::int64_t int_value) {
  w(std::string("node 'n' (" + op + ")"));
  w(op);
  w(std::string());
  w.raw<std::uint64_t>(1);  // tensors
  w.raw<std::uint64_t>(1);  // outputs
  w.raw<std::uint64_t>(1);  // arguments
  w(std::string("self"));
  w.raw<std::uint8_t>(arg_kind);  // Tensor
  w(false);
  w(int_value);
  w(0.0);
  w(Dims{0});
  w(std::vector<double>{});
  w(std::string());
  ids(w, {in});
  ids(w, {out});
}

struct Payload {
  std::vector<int> inputs{0}, outputs{1};
  std::string op = "aten::relu";
  int node_in = 0, node_out = 1;
  std::uint8_t arg_kind = 1;
  std::int64_t int_value = 0;
  std::size_t trailing = 0;
  std::uint64_t slot_count = 2;
};

std::vector<std::byte> file_of(const Payload& p) {
  Writer w;
  w.raw<std::uint64_t>(p.slot_count);
  slot(w, "x", {2, 3});
  slot(w, "y", {2, 3});
  ids(w, p.inputs);
  ids(w, p.outputs);
  w.raw<std::uint64_t>(0);  // constants
  w.raw<std::uint64_t>(1);  // stages
  w.raw<std::uint8_t>(1);   // torch
  w.raw<std::uint64_t>(1);  // nodes
  unary_node(w, p.op, p.node_in, p.node_out, p.arg_kind, p.int_value);
  for (std::size_t i = 0; i < p.trailing; ++i) w.raw<std::uint8_t>(0);
  auto payload = std::make_shared<std::vector<std::byte>>(std::move(w.out));
  file::Header header;
  header.minor = 1;
  header.producer = file::producer_string();
  file::SectionSource s;
  s.entry.kind = static_cast<std::uint32_t>(file::SectionKind::TorchSegments);
  s.entry.flags = file::kSectionRequired;
  s.size = payload->size();
  s.write = [payload](file::Sink& out) { out.write(payload->data(), payload->size()); };
  struct Bytes : file::Sink {
    std::vector<std::byte> out;
    void write(const void* d, std::size_t n) override {
      out.insert(out.end(), static_cast<const std::byte*>(d), static_cast<const std::byte*>(d) + n);
    }
  } sink;
  file::write_container(sink, header, {s});
  return std::move(sink.out);
}

std::string refusal(const Payload& p) {
  const auto bytes = file_of(p);
  try {
    HybridEngine::deserialize(bytes, "h.atrt");
  } catch (const FormatError& e) {
    return e.what();
  } catch (const UnsupportedError& e) {
    return std::string("unsupported: ") + e.what();
  }
  return "";
}

TEST(HybridFile, AHandMadeProgramRuns) {
  REQUIRE_PLUGIN();
  const auto bytes = file_of({});
  auto engine = std::make_shared<const HybridEngine>(HybridEngine::deserialize(bytes, "h.atrt"));
  HybridContext ctx(engine);
  Tensor x(DType::Float32, {2, 3});
  for (int i = 0; i < 6; ++i) x.mutable_data<float>()[i] = static_cast<float>(i) - 3.0f;
  const auto& out = ctx.run({x});
  ASSERT_EQ(out.size(), 1u);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out[0].data<float>()[i], std::max(0.0f, static_cast<float>(i) - 3.0f));
  EXPECT_THROW(ctx.run({Tensor(DType::Float32, {3, 2})}), InputError);
  // The same program written back is byte for byte the file.
  EXPECT_EQ(engine->serialize(), bytes);
  // Metadata is an optional section after the torch segments; the loader skips it.
  const auto with_metadata = engine->serialize("{\"m\": 1}");
  EXPECT_GT(with_metadata.size(), bytes.size());
  EXPECT_EQ(HybridEngine::deserialize(with_metadata, "h.atrt").serialize(), bytes);
}

TEST(HybridFile, BadProgramsAreRefusedNamingWhatIsWrong) {
  REQUIRE_PLUGIN();
  Payload p;
  p.inputs = {7};
  EXPECT_NE(refusal(p).find("program input names value 7 of 2"), std::string::npos) << refusal(p);
  p = {};
  p.node_in = 1;
  EXPECT_NE(refusal(p).find("reads 'y' before it is written"), std::string::npos) << refusal(p);
  p = {};
  p.outputs = {0};
  p.node_out = 0;
  EXPECT_NE(refusal(p).find("writes 'x', already written"), std::string::npos) << refusal(p);
  p = {};
  p.op = "aten::from_file";
  EXPECT_NE(refusal(p).find("aten::from_file does not run in the fallback"), std::string::npos) << refusal(p);
  p = {};
  p.op = "aten::relu_";
  EXPECT_NE(refusal(p).find("in-place"), std::string::npos) << refusal(p);
  p = {};
  p.arg_kind = 99;
  EXPECT_NE(refusal(p).find("argument kind 99 out of range"), std::string::npos) << refusal(p);
  p = {};
  p.arg_kind = 4;  // Int
  p.int_value = std::int64_t{1} << 41;
  EXPECT_NE(refusal(p).find("argument 'self' is 2199023255552, out of range"), std::string::npos) << refusal(p);
  p = {};
  p.trailing = 3;
  EXPECT_NE(refusal(p).find("3 trailing bytes"), std::string::npos) << refusal(p);
  p = {};
  p.slot_count = std::uint64_t{1} << 40;
  EXPECT_NE(refusal(p).find("exceeds the"), std::string::npos) << refusal(p);
  p = {};
  p.op = "aten::no_such_op_in_any_torch";
  EXPECT_NE(refusal(p).find("has no operator aten::no_such_op_in_any_torch"), std::string::npos) << refusal(p);
  for (const auto& msg : {refusal(p)}) EXPECT_EQ(msg.rfind("unsupported: 'h.atrt': ", 0), 0u) << msg;
}

TEST(HybridFile, APlainEngineLoaderRefusesAHybridFile) {
  const auto bytes = file_of({});
  try {
    Engine::deserialize(bytes);
    FAIL() << "expected FormatError";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find(kHybridFileMarker), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace atenrt::runtime
