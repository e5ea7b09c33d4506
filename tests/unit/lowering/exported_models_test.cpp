// Whole tiny modules exported by python/atenrt/export.py (torch 1.13 make_fx),
// read by the frontend, lowered: the composite ops are gone and the lowered
// graph (converted and run by the reference executor) still matches PyTorch
// within 1e-4.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "frontend/pt2_reader.h"
#include "lowering/graph_utils.h"
#include "lowering/lower.h"
#include "support/compare.h"
#include "support/fixtures.h"
#include "support/reference_run.h"
#include "test_paths.h"

namespace atenrt::lowering::testing {
namespace {

namespace fs = std::filesystem;

std::optional<fs::path> models_dir(std::string& why) {
  if (const char* env = std::getenv("ATENRT_LOWERING_MODELS_DIR"); env && *env) return fs::path(env);
  static std::optional<fs::path> made;
  static bool tried = false;
  if (!tried) {
    tried = true;
    const fs::path out = fs::path(ATENRT_BUILD_DIR) / "lowering_models";
    const std::string cmd = "/usr/bin/python3 '" + (fs::path(ATENRT_SOURCE_DIR) / "tests/lowering/make_models.py").string() +
                            "' '" + out.string() + "' > '" + out.string() + ".log' 2>&1";
    if (fs::exists("/usr/bin/python3") && std::system(cmd.c_str()) == 0) made = out;
  }
  if (!made) why = "ATENRT_LOWERING_MODELS_DIR is unset and exporting with /usr/bin/python3 (torch) failed";
  return made;
}

Tensor read_f32(const fs::path& file, const std::vector<std::int64_t>& sizes) {
  Tensor t(DType::Float32, sizes);
  std::ifstream in(file, std::ios::binary);
  in.read(reinterpret_cast<char*>(t.mutable_data<float>()), static_cast<std::streamsize>(t.numel() * sizeof(float)));
  if (!in) throw std::runtime_error("short file " + file.string());
  return t;
}

TEST(ExportedModels, LoweringRemovesCompositesAndKeepsPyTorchResults) {
  std::string why;
  auto dir = models_dir(why);
  if (!dir) ATENRT_FIXTURE_MISSING(why);
  std::ifstream index(*dir / "index.txt");
  ASSERT_TRUE(index) << "no index.txt in " << dir->string();
  int checked = 0, listed = 0;
  for (std::string name; std::getline(index, name);) {
    if (name.empty()) continue;
    ++listed;
    SCOPED_TRACE("model " + name);
    const fs::path d = *dir / name;
    std::ifstream mf(d / "meta.json");
    const auto meta = nlohmann::json::parse(mf);
    ir::ExportedProgram program = frontend::load_pt2((d / "model.pt2").string());
    ir::Graph& g = program.graph;
    const std::string before = graph_to_string(g);
    const auto report = lower(g);
    const std::string ctx = "\nbefore:\n" + before + "after:\n" + graph_to_string(g) + report.to_string();
    const auto hist = op_histogram(g);
    for (const auto& op : meta.at("gone_ops")) EXPECT_FALSE(hist.contains(op.get<std::string>())) << op << ctx;
    std::map<std::string, Tensor> inputs;
    const auto users = g.user_inputs();
    ASSERT_EQ(users.size(), meta.at("inputs").size()) << ctx;
    for (std::size_t i = 0; i < users.size(); ++i) {
      inputs[users[i]->value_name] = read_f32(d / ("in" + std::to_string(i) + ".bin"),
                                              meta.at("inputs")[i].get<std::vector<std::int64_t>>());
    }
    std::vector<Tensor> got;
    try {
      got = atenrt::testing::run_on_reference(g, inputs);
    } catch (const std::exception& e) {
      ADD_FAILURE() << e.what() << ctx;
      continue;
    }
    ASSERT_EQ(got.size(), meta.at("outputs").size()) << ctx;
    for (std::size_t i = 0; i < got.size(); ++i) {
      const auto want = read_f32(d / ("out" + std::to_string(i) + ".bin"),
                                 meta.at("outputs")[i].get<std::vector<std::int64_t>>());
      const std::string diff = atenrt::testing::compare_tensors(got[i], want, 1e-4, 1e-4);
      ASSERT_TRUE(diff.empty()) << "output " << i << ": " << diff << ctx;
    }
    ++checked;
  }
  EXPECT_GE(listed, 2) << "index.txt lists too few models";
  EXPECT_EQ(checked, listed);
}

}  // namespace
}  // namespace atenrt::lowering::testing
