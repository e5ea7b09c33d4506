#include "atenrt/tensor.h"

#include <gtest/gtest.h>

#include <cstring>

#include "atenrt/errors.h"
#include "ir/graph.h"

namespace atenrt {
namespace {

std::shared_ptr<Storage> iota_storage(int n) {
  auto s = std::make_shared<Storage>(static_cast<std::size_t>(n) * sizeof(float));
  for (int i = 0; i < n; ++i) {
    float v = static_cast<float>(i);
    std::memcpy(s->mutable_data() + i * sizeof(float), &v, sizeof(float));
  }
  return s;
}

TEST(Tensor, TransposedViewReadsRowMajor) {
  Tensor t(iota_storage(6), DType::Float32, {3, 2}, {1, 3}, 0);  // transpose of a 2x3
  EXPECT_FALSE(t.is_contiguous());
  Tensor c = t.contiguous();
  const float* d = c.data<float>();
  EXPECT_EQ(std::vector<float>(d, d + 6), (std::vector<float>{0, 3, 1, 4, 2, 5}));
}

TEST(Tensor, OffsetViewSharesStorage) {
  auto storage = iota_storage(6);
  Tensor a(storage, DType::Float32, {3}, {1}, 2);
  EXPECT_EQ(a.data<float>()[0], 2.0f);
  EXPECT_EQ(a.storage().get(), storage.get());
}

TEST(Tensor, ViewOutsideStorageIsRefused) {
  EXPECT_THROW(Tensor(iota_storage(6), DType::Float32, {3, 3}, {3, 1}, 0), FormatError);
  EXPECT_THROW(Tensor(iota_storage(6), DType::Float32, {2}, {1}, 5), FormatError);
  EXPECT_THROW(Tensor(iota_storage(6), DType::Float32, {2}, {-1}, 0), FormatError);
  EXPECT_THROW(Tensor(iota_storage(6), DType::Float32, {std::int64_t{1} << 62, 4}, {4, 1}, 0),
               FormatError);
}

TEST(Tensor, EmptyViewNeedsNoStorage) {
  Tensor t(std::make_shared<Storage>(0), DType::Float32, {0, 5}, {5, 1}, 0);
  EXPECT_EQ(t.numel(), 0);
}

TEST(DType, SerdeCodesRoundTrip) {
  for (int i = 0; i < kDTypeCount; ++i) {
    auto d = static_cast<DType>(i);
    EXPECT_EQ(dtype_from_serde(dtype_to_serde(d)), d);
  }
  EXPECT_EQ(dtype_from_serde(7), DType::Float32);
  EXPECT_EQ(dtype_from_serde(13), DType::BFloat16);
  EXPECT_FALSE(dtype_from_serde(10).has_value());  // complex float
}

TEST(OpName, ParsesTorchSpellings) {
  auto a = ir::OpName::parse("torch.ops.aten.add.Tensor");
  EXPECT_EQ(a.str(), "aten.add.Tensor");
  EXPECT_EQ(a.schema_name(), "aten::add.Tensor");
  auto c = ir::OpName::parse("torch.ops.aten.convolution.default");
  EXPECT_EQ(c.schema_name(), "aten::convolution");
  auto g = ir::OpName::parse("_operator.getitem");
  EXPECT_EQ(g.str(), "operator.getitem");
  EXPECT_TRUE(g.overload.empty());
  auto b = ir::OpName::parse("aten._native_batch_norm_legit.no_stats");
  EXPECT_EQ(b.name, "_native_batch_norm_legit");
  EXPECT_EQ(b.overload, "no_stats");
}

}  // namespace
}  // namespace atenrt
