// The name-based half of the fallback's allowlist (runtime/torch_policy.h):
// in-place spellings are refused, Python's pure operator names are not.
#include <gtest/gtest.h>

#include "runtime/torch_policy.h"

namespace atenrt {
namespace {

bool refused_as_in_place(const char* op) {
  return torch_policy::refusal(op, "").find("in-place") != std::string::npos;
}

TEST(TorchPolicy, TrailingUnderscoreIsInPlace) {
  EXPECT_TRUE(refused_as_in_place("aten::relu_"));
  EXPECT_TRUE(refused_as_in_place("aten::add_"));
  EXPECT_TRUE(refused_as_in_place("aten::index_put_"));
}

TEST(TorchPolicy, PythonOperatorNamesArePure) {
  // torch.export writes `x << 2` as aten.__lshift__.Scalar: pure, like __or__.
  for (const char* op : {"aten::__lshift__", "aten::__rshift__", "aten::__or__", "aten::__and__", "aten::__xor__",
                         "aten::__invert__"}) {
    EXPECT_EQ(torch_policy::refusal(op, "Scalar"), "") << op;
  }
  for (const char* op : {"aten::__ilshift__", "aten::__irshift__", "aten::__ior__", "aten::__iand__",
                         "aten::__ixor__", "aten::__iadd__"}) {
    EXPECT_TRUE(refused_as_in_place(op)) << op;
  }
}

}  // namespace
}  // namespace atenrt
