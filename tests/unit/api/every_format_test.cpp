// End to end against PyTorch for every container and JSON schema the exporter
// writes (tests/tools/make_fixtures.py FORMATS): each `<name>.<variant>.pt2`
// fixture compiles and its outputs match PyTorch's eager outputs
// (fp32: max|out - ref| <= 1e-4 * max|ref| per output; other dtypes exact).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "atenrt/atenrt.h"
#include "ir/npz.h"
#include "support/fixtures.h"

namespace fs = std::filesystem;
using namespace atenrt;

namespace {

void expect_matches(const Tensor& got, const Tensor& want, const std::string& what) {
  ASSERT_EQ(got.dtype(), want.dtype()) << what;
  ASSERT_EQ(got.sizes(), want.sizes()) << what;
  const Tensor g = got.contiguous();
  const Tensor w = want.contiguous();
  if (want.dtype() != DType::Float32) {
    EXPECT_EQ(g.to_bytes(), w.to_bytes()) << what;
    return;
  }
  double scale = 0, err = 0;
  for (std::int64_t i = 0; i < w.numel(); ++i) {
    scale = std::max(scale, std::abs(static_cast<double>(w.data<float>()[i])));
    err = std::max(err, std::abs(static_cast<double>(g.data<float>()[i]) - w.data<float>()[i]));
  }
  EXPECT_LE(err, 1e-4 * scale) << what;
}

TEST(EveryFormat, CompilesAndMatchesPyTorch) {
  const char* dir = std::getenv("ATENRT_FIXTURES_DIR");
  if (!dir || !*dir) ATENRT_FIXTURE_MISSING("ATENRT_FIXTURES_DIR is not set (scripts/test.sh sets it)");
  std::vector<fs::path> archives;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string stem = e.path().stem().string();
    // The torchvision models are covered by the model tests; here, every format of the small ones.
    if (e.path().extension() == ".pt2" && !stem.starts_with("resnet") && !stem.starts_with("mobilenet")) {
      archives.push_back(e.path());
    }
  }
  std::sort(archives.begin(), archives.end());
  ASSERT_FALSE(archives.empty());
  const bool old_schemas = std::any_of(archives.begin(), archives.end(), [](const fs::path& p) {
    return p.filename().string().find(".legacy_s") != std::string::npos;
  });
  if (!old_schemas) {
    ATENRT_FIXTURE_MISSING(std::string(dir) + " has no legacy_s* (older schema) fixtures: "
                           "regenerate it with tests/tools/make_fixtures.py");
  }
  for (const auto& archive : archives) {
    const std::string stem = archive.stem().string();
    const std::string name = stem.substr(0, stem.find('.'));
    SCOPED_TRACE(archive.filename().string());
    auto inputs = io::read_npz(std::string(dir) + "/" + name + ".inputs.npz");
    auto expected = io::read_npz(std::string(dir) + "/" + name + ".outputs.npz");
    try {
      auto ctx = compile(archive.string()).create_context();
      const auto& outputs = ctx.run(inputs);
      ASSERT_EQ(outputs.size(), expected.size());
      for (std::size_t i = 0; i < outputs.size(); ++i) {
        expect_matches(outputs[i], expected[i], "output " + std::to_string(i));
      }
    } catch (const Error& e) {
      ADD_FAILURE() << e.what();
    }
  }
}

}  // namespace
