// Training IR (torch >= 2.6's default export: not functional) end to end, on
// a hand-written 8.20 archive (tests/corpus/valid/training_inplace.pt2,
// make_corpus.py training_inplace_entries): `relu_` on an intermediate, `add_`
// on a buffer, `copy_` into a buffer, `mul_` on a user input. Lowering
// functionalizes them; the mutated buffers and input are engine outputs in the
// signature's order. Expected values are PyTorch eager's for the same module:
//   count.add_(1); h = x.clone().relu_(); mean.copy_(h.mean(0)); y.mul_(2); return h + y
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "atenrt/atenrt.h"
#include "atenrt/inspect.h"
#include "test_paths.h"

using namespace atenrt;

namespace {

TEST(TrainingIr, InPlaceOpsOnBuffersInputsAndIntermediates) {
  auto engine = compile(std::string(ATENRT_CORPUS_DIR) + "/valid/training_inplace.pt2");
  auto ctx = engine.create_context();
  Tensor x(DType::Float32, {2, 4});
  Tensor y(DType::Float32, {4});
  const float xs[] = {-1, 2, -3, 4, 5, -6, 7, -8};
  const float ys[] = {0.5f, 1, 1.5f, 2};
  std::copy(std::begin(xs), std::end(xs), x.mutable_data<float>());
  std::copy(std::begin(ys), std::end(ys), y.mutable_data<float>());
  const auto& out = ctx.run({x, y});
  ASSERT_EQ(out.size(), 4u);
  ASSERT_EQ(out[0].dtype(), DType::Int64);
  EXPECT_EQ(out[0].data<std::int64_t>()[0], 4);  // the buffer count: 3 + 1
  const std::vector<float> mean{2.5f, 1, 3.5f, 2}, y2{1, 2, 3, 4}, sum{1, 4, 3, 8, 6, 2, 10, 4};
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(out[1].data<float>()[i], mean[i]) << i;  // buffer mean
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(out[2].data<float>()[i], y2[i]) << i;    // user input y
  for (std::size_t i = 0; i < 8; ++i) EXPECT_EQ(out[3].data<float>()[i], sum[i]) << i;   // relu(x) + y * 2
  // The caller's tensors are not written: engines are immutable.
  EXPECT_EQ(y.data<float>()[0], 0.5f);
}

// Mutation outputs are named after what they update: a buffer by its fqn
// ("count"), unless a value or input already has that name (the graph has a
// node "mean": the buffer mean's output is "mean.mutated"); a user input as
// "<input>.mutated". No output shares a name with an input or another output.
TEST(TrainingIr, MutationOutputsAreNamedAfterWhatTheyUpdate) {
  const auto engine = compile(std::string(ATENRT_CORPUS_DIR) + "/valid/training_inplace.pt2");
  std::vector<std::string> names;
  for (const auto& o : engine.outputs()) names.push_back(o.name);
  EXPECT_EQ(names, (std::vector<std::string>{"count", "mean.mutated", "y.mutated", "add"}));
  for (const auto& in : engine.inputs()) {
    EXPECT_EQ(std::find(names.begin(), names.end(), in.name), names.end()) << in.name;
  }
  // The same names from inspect, with what each output updates.
  const InspectReport r = inspect(std::string(ATENRT_CORPUS_DIR) + "/valid/training_inplace.pt2");
  EXPECT_NE(r.text.find("  count: int64[]  (buffer_mutation of 'count')\n"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("  mean.mutated: float32[4]  (buffer_mutation of 'mean')\n"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("  y.mutated: float32[4]  (user_input_mutation of 'y')\n"), std::string::npos) << r.text;
  EXPECT_NE(r.json.find("\"value_name\": \"copy_\""), std::string::npos) << r.json;
}

}  // namespace
