// The settings table and its checks (include/atenrt/settings.h), the text
// escaping, and the dry-run report's rules.
#include <gtest/gtest.h>

#include <cstdlib>
#include <limits>
#include <set>

#include "atenrt/atenrt.h"
#include "atenrt/inspect.h"
#include "atenrt/text.h"

using namespace atenrt;

namespace {

std::string error_of(const CompileSettings& s) {
  try {
    validate(s);
  } catch (const SettingsError& e) {
    return e.what();
  }
  return "";
}

TEST(Settings, TableDescribesEveryFieldOnceWithItsDefault) {
  std::set<std::string> names, flags;
  for (const auto& s : settings_table()) {
    EXPECT_TRUE(names.insert(s.name).second) << s.name;
    EXPECT_TRUE(flags.insert(s.cli_flag).second) << s.cli_flag;
    EXPECT_FALSE(s.help.empty()) << s.name;
    EXPECT_EQ(find_setting(s.name), &s);
    EXPECT_EQ(find_setting(s.cli_flag), &s);
  }
  // Defaults read through the table equal the struct's.
  const CompileSettings d;
  EXPECT_EQ(std::get<std::int64_t>(get_setting(d, "min_block_size")), d.min_block_size);
  EXPECT_EQ(std::get<std::string>(get_setting(d, "precision")), "fp32");
  EXPECT_EQ(find_setting("num_threads")->phase, SettingPhase::Load);
  EXPECT_EQ(find_setting("precision")->phase, SettingPhase::Compile);
  EXPECT_EQ(find_setting("max_memory")->phase, SettingPhase::Load);
  EXPECT_EQ(find_setting("--max-memory")->type, SettingType::Bytes);
  EXPECT_EQ(settings_table().size(), 21u) << "a new CompileSettings field needs a row in settings_table()";
}

TEST(Settings, SetChecksRangesAndChoices) {
  CompileSettings s;
  set_setting(s, "optimization_level", std::int64_t{2});
  EXPECT_EQ(s.optimization_level, 2);
  set_setting(s, "precision", std::string("bf16"));
  EXPECT_EQ(s.precision, Precision::BF16);
  EXPECT_THROW(set_setting(s, "optimization_level", std::int64_t{4}), SettingsError);
  EXPECT_THROW(set_setting(s, "num_threads", std::int64_t{-1}), SettingsError);
  EXPECT_THROW(set_setting(s, "min_block_size", std::int64_t{0}), SettingsError);
  EXPECT_THROW(set_setting(s, "precision", std::string("fp8")), SettingsError);
  // int8 needs calibration data or a cache; calibration settings need int8.
  CompileSettings int8;
  set_setting(int8, "precision", std::string("int8"));
  EXPECT_THROW(validate(int8), SettingsError);
  set_setting(int8, "calibration", std::string("batches.npz"));
  EXPECT_NO_THROW(validate(int8));
  set_setting(int8, "calibration_method", std::string("entropy"));
  EXPECT_EQ(int8.calibration_method, CalibrationMethod::Entropy);
  EXPECT_THROW(set_setting(int8, "calibration_method", std::string("kl")), SettingsError);
  int8.precision = Precision::FP32;
  EXPECT_THROW(validate(int8), SettingsError);
  EXPECT_EQ(find_setting("--calibration-cache")->type, SettingType::Path);
  EXPECT_THROW(set_setting(s, "precision", std::int64_t{1}), SettingsError);  // wrong type
  try {
    set_setting(s, "min_blok_size", std::int64_t{1});
    FAIL();
  } catch (const SettingsError& e) {
    EXPECT_NE(std::string(e.what()).find("did you mean 'min_block_size'"), std::string::npos) << e.what();
  }
}

TEST(Settings, ByteSizesTakeBinarySuffixes) {
  EXPECT_EQ(parse_byte_size("4096"), 4096);
  EXPECT_EQ(parse_byte_size("512K"), 512 << 10);
  EXPECT_EQ(parse_byte_size("64m"), 64 << 20);
  EXPECT_EQ(parse_byte_size("2G"), 2ll << 30);
  EXPECT_EQ(parse_byte_size("2GiB"), 2ll << 30);
  EXPECT_EQ(parse_byte_size("3kb"), 3 << 10);
  EXPECT_EQ(parse_byte_size("1T"), 1ll << 40);
  EXPECT_EQ(parse_byte_size("0"), 0);
  EXPECT_EQ(parse_byte_size("9223372036854775807"), std::numeric_limits<std::int64_t>::max());
  for (const char* bad : {"", "G", "1.5G", "-1", " 1G", "1 G", "12X", "1GG", "9223372036854775808",
                          "99999999999999999999", "8388608T"}) {
    EXPECT_THROW(parse_byte_size(bad), SettingsError) << bad;
  }
  try {
    parse_byte_size("12Q");
    FAIL();
  } catch (const SettingsError& e) {
    EXPECT_NE(std::string(e.what()).find("byte size '12Q'"), std::string::npos) << e.what();
  }
  CompileSettings s;
  set_setting(s, "max_memory", std::string("8G"));
  EXPECT_EQ(s.max_memory, 8ll << 30);
  set_setting(s, "--max-memory", std::int64_t{4096});
  EXPECT_EQ(s.max_memory, 4096);
  EXPECT_THROW(set_setting(s, "max_memory", std::int64_t{-1}), SettingsError);
  EXPECT_THROW(set_setting(s, "max_memory", true), SettingsError);
  s.max_memory = -5;
  EXPECT_NE(error_of(s).find("max_memory"), std::string::npos);
}

TEST(Settings, ValidateChecksNamesAndSuggests) {
  CompileSettings s;
  EXPECT_EQ(error_of(s), "");
  s.torch_executed_ops = {"aten.relu.default", "aten.relu", "aten.sin.default"};
  EXPECT_EQ(error_of(s), "");
  s.torch_executed_ops = {"aten.reluu"};
  EXPECT_NE(error_of(s).find("did you mean 'aten.relu'"), std::string::npos) << error_of(s);
  s = {};
  s.disabled_passes = {"dead_cod"};
  EXPECT_NE(error_of(s).find("did you mean 'dead_code'"), std::string::npos) << error_of(s);
  s = {};
  s.disabled_decompositions = {"aten.foo.default"};
  EXPECT_NE(error_of(s).find("unknown decomposition 'aten.foo.default'"), std::string::npos) << error_of(s);
  s = {};
  s.disabled_decomposition_groups = {"normalisation"};
  EXPECT_NE(error_of(s).find("did you mean 'normalization'"), std::string::npos) << error_of(s);
  s = {};
  s.num_threads = -3;
  EXPECT_NE(error_of(s).find("num_threads"), std::string::npos);
  s = {};
  s.min_block_size = -1;
  EXPECT_NE(error_of(s).find("min_block_size"), std::string::npos);
}

TEST(Settings, CompileAndDryRunValidateBeforeReadingTheFile) {
  CompileSettings s;
  s.disabled_passes = {"nope"};
  EXPECT_THROW(compile("/nonexistent.pt2", s), SettingsError);
  EXPECT_THROW(dry_run("/nonexistent.pt2", s), SettingsError);
}

TEST(Settings, NearestNameIsOnlyForLikelyTypos) {
  EXPECT_EQ(nearest_name("activatoin", {"activation", "elementwise"}), "activation");
  EXPECT_EQ(nearest_name("zzzzzz", {"activation", "elementwise"}), "");
}

TEST(Text, EscapesControlAndInvalidBytesKeepsUtf8) {
  EXPECT_EQ(escape_text("plain text\nnext\tline"), "plain text\nnext\tline");
  EXPECT_EQ(escape_text("a\x1b[31mb"), "a\\x1B[31mb");
  EXPECT_EQ(escape_text(std::string("x\xff\xfey")), "x\\xFF\\xFEy");
  EXPECT_EQ(escape_text("caf\xc3\xa9"), "caf\xc3\xa9");           // é stays
  EXPECT_EQ(escape_text("\xc2\x9b"), "\\xC2\\x9B");               // C1 control (CSI) does not
  EXPECT_EQ(escape_text(std::string("\xe2\x82", 2)), "\\xE2\\x82");  // truncated sequence
}

TEST(Build, VersionAndOneDnn) {
  const auto& b = build_info();
  EXPECT_FALSE(b.version.empty());
  EXPECT_NE(b.onednn_version.find('.'), std::string::npos);
}

TEST(Converters, ListedWithFamilies) {
  const auto all = list_converters();
  EXPECT_GT(all.size(), 100u);
  const auto families = converter_families();
  for (const auto& c : all) {
    EXPECT_TRUE(std::find(families.begin(), families.end(), c.family) != families.end()) << c.family;
  }
}

}  // namespace
