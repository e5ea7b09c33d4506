// Every hostile file in tests/corpus/bad must end in a clean atenrt error of
// the expected class whose message contains the expected text
// (tests/corpus/expected.tsv, written by make_corpus.py); class SampleInputs:
// the program loads and its sample inputs are unusable for that reason.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "atenrt/errors.h"
#include "frontend/pt2_reader.h"
#include "test_paths.h"

namespace fs = std::filesystem;
using atenrt::frontend::load_pt2;

namespace {

struct Case {
  std::string file, error_class, substring;
};

std::vector<Case> read_manifest() {
  std::ifstream in(std::string(ATENRT_CORPUS_DIR) + "/expected.tsv");
  std::vector<Case> cases;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    Case c;
    std::getline(fields, c.file, '\t');
    std::getline(fields, c.error_class, '\t');
    std::getline(fields, c.substring);
    cases.push_back(c);
  }
  return cases;
}

}  // namespace

TEST(Corpus, ManifestCoversEveryFile) {
  const auto cases = read_manifest();
  ASSERT_GE(cases.size(), 40u);
  std::set<std::string> listed;
  for (const auto& c : cases) listed.insert(c.file);
  for (const auto& e : fs::directory_iterator(std::string(ATENRT_CORPUS_DIR) + "/bad")) {
    EXPECT_TRUE(listed.count(e.path().filename().string())) << e.path() << " has no expectation";
  }
}

TEST(Corpus, EveryBadFileFailsCleanly) {
  for (const auto& c : read_manifest()) {
    SCOPED_TRACE(c.file);
    const std::string path = std::string(ATENRT_CORPUS_DIR) + "/bad/" + c.file;
    std::string got_class, message;
    try {
      // Sample inputs are never needed to compile: a hostile entry loads the
      // program and says why they cannot be used, naming the file and entry.
      const auto ep = load_pt2(path);
      got_class = "none";
      if (!ep.sample_inputs.unavailable.empty()) {
        got_class = "SampleInputs", message = ep.sample_inputs.unavailable;
        EXPECT_TRUE(ep.sample_inputs.tensors.empty());
      }
    } catch (const atenrt::FormatError& e) {
      got_class = "FormatError", message = e.what();
    } catch (const atenrt::UnsupportedError& e) {
      got_class = "UnsupportedError", message = e.what();
    } catch (const atenrt::Error& e) {
      got_class = "Error", message = e.what();
    }
    EXPECT_EQ(got_class, c.error_class) << message;
    EXPECT_NE(message.find(c.substring), std::string::npos)
        << "message: " << message << "\nexpected to contain: " << c.substring;
    // Every message names the file.
    EXPECT_NE(message.find(c.file), std::string::npos) << message;
  }
}

// Cutting a valid archive at every length must never crash, only fail cleanly.
TEST(Corpus, EveryTruncationOfAValidFileFailsCleanly) {
  const std::string path = std::string(ATENRT_CORPUS_DIR) + "/valid/program_raw.pt2";
  std::ifstream in(path, std::ios::binary);
  std::vector<char> raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(raw.size(), 1000u);
  std::vector<std::byte> bytes(raw.size());
  std::memcpy(bytes.data(), raw.data(), raw.size());
  for (std::size_t len = 0; len < bytes.size(); len += 7) {
    try {
      atenrt::frontend::load_pt2_from_memory(bytes.data(), len, "cut.pt2");
      ADD_FAILURE() << "a cut at " << len << " loaded";
    } catch (const atenrt::Error&) {
    }
  }
}

// Flipping bytes anywhere must never crash or leak a non-atenrt exception.
TEST(Corpus, ByteFlipsFailCleanlyOrLoad) {
  for (const char* name : {"program_raw.pt2", "program_legacy.pt2", "program_pickled.pt2"}) {
    const std::string path = std::string(ATENRT_CORPUS_DIR) + "/valid/" + name;
    std::ifstream in(path, std::ios::binary);
    std::vector<char> raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<std::byte> bytes(raw.size());
    std::memcpy(bytes.data(), raw.data(), raw.size());
    for (std::size_t pos = 0; pos < bytes.size(); pos += 13) {
      auto copy = bytes;
      copy[pos] ^= std::byte{0x5a};
      try {
        atenrt::frontend::load_pt2_from_memory(copy, name);
      } catch (const atenrt::Error&) {
      }
    }
  }
}
