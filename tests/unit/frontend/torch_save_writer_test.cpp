// The torch.save writer (ir/torch_save.h) read back by the restricted reader
// the .pt2 weights use: every dtype byte for byte, shapes (0-d and empty
// included), tuple order and dict names. torch.load of torch 1.13 reading the
// same files is tests/cli/test_sample_inputs.py.
#include "ir/torch_save.h"

#include <gtest/gtest.h>

#include <cstring>

#include "atenrt/errors.h"
#include "frontend/weights.h"

namespace atenrt {
namespace {

std::vector<std::pair<std::string, Tensor>> read_back(const std::string& file) {
  std::vector<std::byte> bytes(file.size());
  std::memcpy(bytes.data(), file.data(), file.size());
  frontend::ReadLimits limits;
  frontend::ByteBudget budget(limits.max_total_bytes);
  return frontend::load_torch_save_outputs(bytes, "written.pt", limits, budget);
}

Tensor counting(DType dtype, std::vector<std::int64_t> sizes) {
  Tensor t(dtype, std::move(sizes));
  auto* p = reinterpret_cast<unsigned char*>(t.raw_mutable_data());
  for (std::size_t i = 0; i < t.nbytes(); ++i) p[i] = static_cast<unsigned char>(dtype == DType::Bool ? i % 2 : i * 7 + 3);
  return t;
}

TEST(TorchSaveWriter, EveryDtypeRoundTripsByteForByte) {
  std::vector<Tensor> tensors;
  for (DType d : {DType::Float32, DType::Float16, DType::BFloat16, DType::Float64, DType::Int64, DType::Int32,
                  DType::Int16, DType::Int8, DType::UInt8, DType::Bool}) {
    tensors.push_back(counting(d, {2, 3}));
  }
  tensors.push_back(counting(DType::Float32, {}));          // 0-d
  tensors.push_back(counting(DType::Int64, {0, 4}));        // empty
  tensors.push_back(counting(DType::Float32, {70000}));     // sizes past BININT2
  tensors.push_back(counting(DType::Int8, {1, 1, 1, 1, 2}));
  const auto back = read_back(io::torch_save_bytes(tensors));
  ASSERT_EQ(back.size(), tensors.size());
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(back[i].first, "arr_" + std::to_string(i));
    EXPECT_EQ(back[i].second.dtype(), tensors[i].dtype());
    EXPECT_EQ(back[i].second.sizes(), tensors[i].sizes());
    EXPECT_EQ(back[i].second.to_bytes(), tensors[i].to_bytes());
  }
}

TEST(TorchSaveWriter, NamesMakeADictInOrderAndAViewIsWrittenAsItsValues) {
  const Tensor base = counting(DType::Int32, {3, 4});
  // Column 1 of `base`: a strided view, written as 3 plain elements.
  const Tensor column(base.storage(), DType::Int32, {3}, {4}, 1);
  const auto back = read_back(io::torch_save_bytes({column, base}, {"out.0", "weight"}));
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].first, "out.0");
  EXPECT_EQ(back[1].first, "weight");
  ASSERT_EQ(back[0].second.sizes(), (std::vector<std::int64_t>{3}));
  for (int i = 0; i < 3; ++i) EXPECT_EQ(back[0].second.data<std::int32_t>()[i], base.data<std::int32_t>()[4 * i + 1]);
  EXPECT_EQ(back[1].second.to_bytes(), base.to_bytes());
  EXPECT_THROW(io::torch_save_bytes({base}, {"a", "b"}), Error);
  EXPECT_TRUE(read_back(io::torch_save_bytes({})).empty());
}

}  // namespace
}  // namespace atenrt
