// Higher-order ops end to end on hand-written torch 2.14 archives
// (tests/corpus/valid/hop_{static,dynamic}.pt2, make_corpus.py hop_program):
// cond on a size comparison (its true branch taken), wrap_with_set_grad_enabled
// whose body passes an input through, a disabled wrap_with_autocast. What
// PyTorch computes: y = x * w + 1 if x.size(0) > 1 else x - w; return tanh(-y), y.
#include <gtest/gtest.h>

#include <cmath>

#include "atenrt/atenrt.h"
#include "atenrt/errors.h"
#include "test_paths.h"

using namespace atenrt;

namespace {

std::string archive(const char* name) { return std::string(ATENRT_CORPUS_DIR) + "/valid/" + name; }

TEST(HigherOrder, CondWithAKnownPredicateAndTheWrappersInline) {
  auto ctx = compile(archive("hop_static.pt2")).create_context();
  Tensor x(DType::Float32, {2, 4}), w(DType::Float32, {2, 4});
  for (int i = 0; i < 8; ++i) {
    x.mutable_data<float>()[i] = static_cast<float>(i) - 3.5f;
    w.mutable_data<float>()[i] = 0.25f * static_cast<float>(i % 3);
  }
  const auto& out = ctx.run({x, w});
  ASSERT_EQ(out.size(), 2u);
  for (int i = 0; i < 8; ++i) {
    const float y = x.data<float>()[i] * w.data<float>()[i] + 1.0f;
    EXPECT_EQ(out[1].data<float>()[i], y) << i;
    EXPECT_NEAR(out[0].data<float>()[i], std::tanh(-y), 1e-6) << i;
  }
}

TEST(HigherOrder, CondOnARunTimeSizeIsRefusedNamingTheNode) {
  try {
    compile(archive("hop_dynamic.pt2"));
    FAIL() << "compiled";
  } catch (const UnsupportedError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("node 'cond' (higher_order.cond)"), std::string::npos) << m;
    EXPECT_NE(m.find("known only at run time"), std::string::npos) << m;
  }
}

}  // namespace
