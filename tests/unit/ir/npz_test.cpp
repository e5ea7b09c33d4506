#include "ir/npz.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "atenrt/errors.h"

namespace atenrt::io {
namespace {

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("atenrt_npz_" + name)).string();
}

TEST(Npz, RoundTripsPositionalArraysOfSeveralDtypes) {
  Tensor a(DType::Float32, {2, 3});
  for (int i = 0; i < 6; ++i) a.mutable_data<float>()[i] = 0.5f * static_cast<float>(i);
  Tensor b(DType::Int64, {4});
  for (int i = 0; i < 4; ++i) b.mutable_data<std::int64_t>()[i] = -i;
  Tensor c(DType::Bool, {});
  c.mutable_data<bool>()[0] = true;
  const auto path = temp_path("roundtrip.npz");
  write_npz(path, {a, b, c});
  auto back = read_npz(path);
  ASSERT_EQ(back.size(), 3u);
  EXPECT_EQ(back[0].sizes(), a.sizes());
  EXPECT_EQ(back[0].to_bytes(), a.to_bytes());
  EXPECT_EQ(back[1].dtype(), DType::Int64);
  EXPECT_EQ(back[1].to_bytes(), b.to_bytes());
  EXPECT_EQ(back[2].dim(), 0);
  EXPECT_TRUE(back[2].data<bool>()[0]);
  std::filesystem::remove(path);
}

TEST(Npz, RejectsPayloadShorterThanShape) {
  Tensor a(DType::Float32, {4});
  std::string npy = serialize_npy(a);
  npy.resize(npy.size() - 4);
  EXPECT_THROW(parse_npy(npy, "x.npy"), FormatError);
}

// numpy.asfortranarray(np.arange(6).reshape(2, 3)) saves its payload column
// by column (0 3 1 4 2 5): read back, it is the same 2x3 array row by row.
TEST(Npz, FortranOrderedArraysAreReadRowMajor) {
  Tensor c_order(DType::Int32, {2, 3});
  for (int i = 0; i < 6; ++i) c_order.mutable_data<std::int32_t>()[i] = i;
  std::string npy = serialize_npy(c_order);
  const auto flag = npy.find("'fortran_order': False");
  ASSERT_NE(flag, std::string::npos);
  npy.replace(flag, 22, "'fortran_order': True ");  // same header length
  const std::int32_t column_major[6] = {0, 3, 1, 4, 2, 5};
  std::memcpy(npy.data() + npy.size() - sizeof(column_major), column_major, sizeof(column_major));
  const Tensor t = parse_npy(npy, "f.npy");
  ASSERT_EQ(t.sizes(), (std::vector<std::int64_t>{2, 3}));
  ASSERT_TRUE(t.is_contiguous());
  for (int i = 0; i < 6; ++i) EXPECT_EQ(t.data<std::int32_t>()[i], i) << i;
  // A flag that is neither True nor False is refused naming it.
  npy.replace(flag, 22, "'fortran_order': Maybe");
  try {
    parse_npy(npy, "f.npy");
    FAIL();
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("'fortran_order' is 'Maybe'"), std::string::npos) << e.what();
  }
}

TEST(Npz, RejectsGarbageFile) {
  const auto path = temp_path("garbage.npz");
  std::ofstream(path) << "this is not a zip";
  try {
    read_npz(path);
    FAIL();
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos);
  }
  std::filesystem::remove(path);
}

// The header is checked before the payload: a refusal from the check comes
// first, and a member whose declared size differs from its header's needs is
// refused before it is inflated.
TEST(Npz, HeaderIsCheckedBeforeThePayload) {
  Tensor a(DType::Float32, {4096, 64});
  const auto path = temp_path("header_first.npz");
  write_npz(path, {a});
  std::vector<std::string> seen;
  try {
    read_npz(path, [&](std::size_t i, const std::string& where, DType dtype,
                       const std::vector<std::int64_t>& shape) {
      seen.push_back(where);
      EXPECT_EQ(i, 0u);
      EXPECT_EQ(dtype, DType::Float32);
      EXPECT_EQ(shape, (std::vector<std::int64_t>{4096, 64}));
      throw InputError("refused by the check");
    });
    FAIL() << "read";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "refused by the check");
  }
  EXPECT_EQ(seen, (std::vector<std::string>{path + ":arr_0.npy"}));
  // The same file under a total limit below its 1 MiB payload.
  try {
    read_npz(path, {}, 1000);
    FAIL() << "read";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("input limit"), std::string::npos) << e.what();
  }
  std::filesystem::remove(path);
}

TEST(Npz, ShapeWhoseBytesOverflowIsRefusedNamingIt) {
  std::string npy = serialize_npy(Tensor(DType::Float32, {1}));
  const auto at = npy.find("(1,)");
  ASSERT_NE(at, std::string::npos);
  npy.replace(at, 4, "(999999999999999, 999999999999999)");
  try {
    parse_npy(npy, "x.npy");
    FAIL();
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("overflows"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("x.npy"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace atenrt::io
