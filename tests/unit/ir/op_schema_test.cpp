#include "ir/op_schema.h"

#include <gtest/gtest.h>

#include "atenrt/errors.h"

namespace atenrt::ir {
namespace {

TEST(OpSchema, ParsesArgumentsDefaultsAndKwargOnly) {
  auto s = parse_schema("aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  EXPECT_EQ(s.name, "aten::add");
  EXPECT_EQ(s.overload, "Tensor");
  ASSERT_EQ(s.arguments.size(), 3u);
  EXPECT_EQ(s.arguments[2].name, "alpha");
  EXPECT_TRUE(s.arguments[2].kwarg_only);
  ASSERT_TRUE(s.arguments[2].default_value);
  EXPECT_EQ(*s.arguments[2].default_value, Argument(std::int64_t{1}));
  EXPECT_EQ(s.returns, std::vector<std::string>{"Tensor"});
}

TEST(OpSchema, FixedSizeListScalarDefaultRepeats) {
  const OpSchema* s = find_schema("aten::max_pool2d");
  ASSERT_NE(s, nullptr);
  std::vector<NamedArgument> args = {{"self", TensorRef{"x"}}, {"kernel_size", IntList{3, 3}}};
  fill_schema_defaults("pool", "aten.max_pool2d.default", args);
  ASSERT_EQ(args.size(), 6u);
  EXPECT_EQ(args[1].name, "kernel_size");
  EXPECT_EQ(args[2].arg, Argument(IntList{}));       // stride=[]
  EXPECT_EQ(args[3].arg, Argument(IntList{0, 0}));   // padding=0 for int[2]
  EXPECT_EQ(args[4].arg, Argument(IntList{1, 1}));   // dilation=1
  EXPECT_EQ(args[5].arg, Argument(false));
}

TEST(OpSchema, FillsDefaultsInSchemaOrderWhateverTheInputOrder) {
  std::vector<NamedArgument> args = {{"other", TensorRef{"b"}}, {"self", TensorRef{"a"}}};
  fill_schema_defaults("add", "aten.add.Tensor", args);
  ASSERT_EQ(args.size(), 3u);
  EXPECT_EQ(args[0].name, "self");
  EXPECT_EQ(args[1].name, "other");
  EXPECT_EQ(args[2].name, "alpha");
  EXPECT_EQ(args[2].kind, ArgumentKind::Keyword);
}

TEST(OpSchema, FloatAndStringDefaults) {
  std::vector<NamedArgument> args = {{"self", TensorRef{"x"}}};
  fill_schema_defaults("g", "aten.gelu.default", args);
  ASSERT_EQ(args.size(), 2u);
  EXPECT_EQ(args[1].arg, Argument(std::string("none")));

  std::vector<NamedArgument> lrelu = {{"self", TensorRef{"x"}}};
  fill_schema_defaults("l", "aten.leaky_relu.default", lrelu);
  ASSERT_EQ(lrelu.size(), 2u);
  EXPECT_DOUBLE_EQ(std::get<double>(lrelu[1].arg.value), 0.01);
}

TEST(OpSchema, NewerOpsHaveSchemas) {
  EXPECT_NE(find_schema("aten::_native_batch_norm_legit_no_training"), nullptr);
  std::vector<NamedArgument> args = {
      {"query", TensorRef{"q"}}, {"key", TensorRef{"k"}}, {"value", TensorRef{"v"}}};
  fill_schema_defaults("sdpa", "aten.scaled_dot_product_attention.default", args);
  ASSERT_EQ(args.size(), 8u);
  EXPECT_TRUE(args[3].arg.is_none());
  EXPECT_EQ(args[5].arg, Argument(false));
}

TEST(OpSchema, MissingRequiredArgumentNamesNodeOpAndArgument) {
  std::vector<NamedArgument> args = {{"self", TensorRef{"x"}}};
  try {
    fill_schema_defaults("conv1", "aten.convolution.default", args);
    FAIL() << "expected an error";
  } catch (const FormatError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("conv1"), std::string::npos) << msg;
    EXPECT_NE(msg.find("aten.convolution.default"), std::string::npos) << msg;
    EXPECT_NE(msg.find("'input'"), std::string::npos) << msg;
  }
}

TEST(OpSchema, UnknownArgumentIsRefused) {
  std::vector<NamedArgument> args = {{"self", TensorRef{"x"}}, {"bogus", std::int64_t{1}}};
  EXPECT_THROW(fill_schema_defaults("r", "aten.relu.default", args), FormatError);
}

TEST(OpSchema, EveryEmbeddedSchemaParses) {
  // find_schema builds the whole table; a parse failure would throw here.
  EXPECT_NE(find_schema("aten::convolution"), nullptr);
  EXPECT_NE(find_schema("aten::add.Tensor"), nullptr);
  EXPECT_EQ(find_schema("aten::no_such_op"), nullptr);
}

}  // namespace
}  // namespace atenrt::ir

namespace atenrt::ir {
namespace {

TEST(OpSchema, EnumDefaultsUseSerdeNumbering) {
  // aten::arange-style `ScalarType? dtype=4` is c10 Long, serde 5.
  const OpSchema* s = find_schema("aten::_to_copy");
  ASSERT_NE(s, nullptr);
  for (const auto& line : {std::string("aten::x(Tensor a, MemoryFormat memory_format=0, ScalarType? dtype=4) -> Tensor")}) {
    auto parsed = parse_schema(line);
    EXPECT_EQ(*parsed.arguments[1].default_value, Argument(MemoryFormatArg{1}));
    EXPECT_EQ(*parsed.arguments[2].default_value, Argument(ScalarTypeArg{DType::Int64, 5}));
  }
}

}  // namespace
}  // namespace atenrt::ir
