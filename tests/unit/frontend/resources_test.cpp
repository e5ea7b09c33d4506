// The "resources" family of the hostile corpus (tests/corpus/resources/small,
// written by make_resources.py): bombs, lying sizes, absurd shapes. Each
// "load" file must end in a clean atenrt error of the listed class whose
// message names the file and contains the listed text, or load when the class
// is "none"; "compile" files must load (the compile stage is the CLI's test,
// run_resources.py), and "run:MODEL" files are .npz inputs for the CLI's run.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "atenrt/errors.h"
#include "frontend/pt2_reader.h"
#include "test_paths.h"

namespace {

struct Case {
  std::string file, stage, error_class, substring;
};

std::string small_dir() { return std::string(ATENRT_CORPUS_DIR) + "/resources/small"; }

std::vector<Case> read_manifest() {
  std::ifstream in(small_dir() + "/manifest.tsv");
  std::vector<Case> cases;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    Case c;
    std::getline(fields, c.file, '\t');
    std::getline(fields, c.stage, '\t');
    std::getline(fields, c.error_class, '\t');
    std::getline(fields, c.substring);
    cases.push_back(c);
  }
  return cases;
}

TEST(Resources, ManifestCoversEveryFile) {
  const auto cases = read_manifest();
  ASSERT_GE(cases.size(), 15u);
  std::set<std::string> listed;
  for (const auto& c : cases) listed.insert(c.file);
  for (const auto& e : std::filesystem::directory_iterator(small_dir())) {
    const std::string name = e.path().filename().string();
    if (name == "manifest.tsv") continue;
    EXPECT_TRUE(listed.count(name)) << name << " has no expectation";
  }
}

TEST(Resources, EveryFileFailsCleanlyOrLoads) {
  for (const auto& c : read_manifest()) {
    SCOPED_TRACE(c.file);
    if (c.stage.rfind("run:", 0) == 0) continue;
    std::string got = "none", message;
    try {
      atenrt::frontend::load_pt2(small_dir() + "/" + c.file);
    } catch (const atenrt::FormatError& e) {
      got = "FormatError", message = e.what();
    } catch (const atenrt::UnsupportedError& e) {
      got = "UnsupportedError", message = e.what();
    } catch (const atenrt::Error& e) {
      got = "Error", message = e.what();
    }
    if (c.stage == "compile") {
      EXPECT_EQ(got, "none") << message;
      continue;
    }
    EXPECT_EQ(got, c.error_class) << message;
    if (got == "none") continue;
    EXPECT_NE(message.find(c.substring), std::string::npos) << message;
    EXPECT_NE(message.find(c.file), std::string::npos) << message;
  }
}

// A raw payload may hold a whole storage of which the views use a part; the
// loaded weight is the first bytes, whatever follows.
TEST(Resources, RawPayloadLongerThanItsViewsLoadsItsViews) {
  const auto ep = atenrt::frontend::load_pt2(small_dir() + "/raw_payload_longer_than_views.pt2");
  const auto& w = ep.graph.weights.at("fc.weight");
  ASSERT_EQ(w.sizes(), (std::vector<std::int64_t>{3, 4}));
  EXPECT_EQ(w.data<float>()[11], 5.5f);
  EXPECT_LE(w.storage()->nbytes(), 48u);  // the megabyte after it was never read
}

// The limits are settings: a tighter JSON record limit refuses what the default accepts.
TEST(Resources, JsonRecordLimitIsASetting) {
  atenrt::frontend::ReadLimits tight;
  tight.max_json_bytes = 1000;
  try {
    atenrt::frontend::load_pt2(std::string(ATENRT_CORPUS_DIR) + "/valid/program_raw.pt2", tight);
    FAIL() << "loaded";
  } catch (const atenrt::FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("models/model.json: zip entry declares"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("JSON record limit"), std::string::npos) << e.what();
  }
}

// Nodes are counted before any per-node work, against a setting.
TEST(Resources, GraphNodeLimitIsASetting) {
  atenrt::frontend::ReadLimits tight;
  tight.max_graph_nodes = 2;
  try {
    atenrt::frontend::load_pt2(std::string(ATENRT_CORPUS_DIR) + "/valid/program_raw.pt2", tight);
    FAIL() << "loaded";
  } catch (const atenrt::FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("$.graph_module.graph.nodes: 8 nodes, more than the limit of 2"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
