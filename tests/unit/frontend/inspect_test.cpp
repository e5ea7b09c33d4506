#include <gtest/gtest.h>

#include "frontend/inspect.h"
#include "frontend/pt2_reader.h"
#include "test_paths.h"

using namespace atenrt;

TEST(Inspect, ReportsProducerIoParametersAndOps) {
  const auto ep = frontend::load_pt2(std::string(ATENRT_CORPUS_DIR) + "/valid/program_raw.pt2");
  const auto j = frontend::inspect_json(ep);
  EXPECT_EQ(j["producer"], "1.13.1");
  EXPECT_EQ(j["schema_version"], "8.17");
  EXPECT_EQ(j["layout"], "pt2-archive (raw weights)");
  ASSERT_EQ(j["inputs"].size(), 1u);
  EXPECT_EQ(j["inputs"][0]["name"], "x");
  EXPECT_EQ(j["inputs"][0]["dtype"], "float32");
  EXPECT_EQ(j["inputs"][0]["shape"], nlohmann::json::parse("[2, 4]"));
  ASSERT_EQ(j["outputs"].size(), 2u);
  EXPECT_EQ(j["outputs"][1]["shape"], nlohmann::json::parse("[2, 2]"));
  EXPECT_EQ(j["parameters"]["count"], 15);   // fc.weight 12 + fc.bias 3
  EXPECT_EQ(j["parameters"]["bytes"], 60);
  EXPECT_EQ(j["buffers_and_constants"]["tensors"], 4);
  ASSERT_FALSE(j["ops"].empty());
  EXPECT_EQ(j["ops"][0]["op"], "aten.add.Tensor");  // the most frequent first
  EXPECT_EQ(j["ops"][0]["count"], 2);
  const std::string text = frontend::inspect_text(ep);
  EXPECT_NE(text.find("producer:        torch 1.13.1"), std::string::npos);
  EXPECT_NE(text.find("x: float32[2, 4]"), std::string::npos);
  EXPECT_NE(text.find("     2  aten.add.Tensor"), std::string::npos) << text;
  EXPECT_NE(text.find("15 in 2 tensors, 60 bytes"), std::string::npos) << text;
}

TEST(Inspect, ShowsSymbolicSizesAndTheirRanges) {
  const auto ep = frontend::load_pt2(std::string(ATENRT_CORPUS_DIR) + "/valid/dynamic_forms.pt2");
  const auto j = frontend::inspect_json(ep);
  EXPECT_EQ(j["inputs"][0]["shape"], nlohmann::json::parse(R"(["s0", "s1"])"));
  EXPECT_EQ(j["dynamic_dims"]["s0"], nlohmann::json::parse(R"({"min": 2, "max": 16})"));
  EXPECT_TRUE(j["dynamic_dims"]["s1"]["max"].is_null());
  const std::string text = frontend::inspect_text(ep);
  EXPECT_NE(text.find("x: float32[s0, s1]"), std::string::npos) << text;
  EXPECT_NE(text.find("dynamic dims:    s0 in [2, 16] s1 in [2, inf] s2 in [2, inf]"), std::string::npos) << text;
}
