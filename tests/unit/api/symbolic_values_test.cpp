// Symbolic bools and floats as torch 2.12-2.14 write them, end to end
// (tests/corpus/valid/symbolic_{static,dynamic}.pt2, hand-written from the
// format notes: make_corpus.py symbolic_program): `_operator.ge` with an
// as_sym_bool output, `_assert_scalar`, `sym_constrain_range_for_size`,
// `_assert_tensor_metadata`, `torch.sym_float`/`_operator.truediv`
// (as_sym_float) feeding aten ops, `torch.sym_not`/`_operator.or_` feeding
// `aten.scalar_tensor`, `math.trunc`, and a SymBool graph output. Expected
// values are Python's: n = x.size(0); x * (n / 4); float(n >= 2 or not n >= 2);
// full([trunc(n / 4) + n, 3], n / 4); n >= 2.
#include <gtest/gtest.h>

#include "atenrt/atenrt.h"
#include "atenrt/errors.h"
#include "frontend/pt2_reader.h"
#include "lowering/graph_utils.h"
#include "lowering/lower.h"
#include "test_paths.h"

using namespace atenrt;

namespace {

std::string archive(const char* name) { return std::string(ATENRT_CORPUS_DIR) + "/valid/" + name; }

Tensor iota(std::int64_t rows) {
  Tensor x(DType::Float32, {rows, 4});
  for (std::int64_t i = 0; i < rows * 4; ++i) x.mutable_data<float>()[i] = static_cast<float>(i) - 3.5f;
  return x;
}

TEST(SymbolicValues, StaticArchiveFoldsAndChecksItsAssertions) {
  auto ctx = compile(archive("symbolic_static.pt2")).create_context();
  const Tensor x = iota(2);
  const auto& out = ctx.run({x});
  ASSERT_EQ(out.size(), 4u);
  ASSERT_EQ(out[0].sizes(), (std::vector<std::int64_t>{2, 4}));
  for (std::int64_t i = 0; i < 8; ++i) EXPECT_FLOAT_EQ(out[0].data<float>()[i], x.data<float>()[i] * 0.5f) << i;
  ASSERT_EQ(out[1].sizes(), (std::vector<std::int64_t>{2, 3}));  // trunc(2 / 4) + 2 = 2 rows
  for (std::int64_t i = 0; i < 6; ++i) EXPECT_EQ(out[1].data<float>()[i], 0.5f) << i;
  ASSERT_EQ(out[2].numel(), 1);
  EXPECT_EQ(out[2].data<float>()[0], 1.0f);  // n >= 2 or not (n >= 2)
  ASSERT_EQ(out[3].dtype(), DType::Bool);    // the SymBool output, as a 0-d bool tensor
  EXPECT_EQ(out[3].to_bytes().at(0), std::byte{1});
}

TEST(SymbolicValues, StaticArchiveLowersToNoSymbolicNodes) {
  ir::Graph g = frontend::load_pt2(archive("symbolic_static.pt2")).graph;
  const auto report = lowering::lower(g, lowering::LoweringSettings{});
  EXPECT_EQ(report.pass_changes("symbolic_values"), 3 + 15) << report.to_string();  // 3 assertions, 15 arguments
  const auto ops = lowering::op_histogram(g);
  // Only `ge` stays among the symbolic nodes: it is a graph output.
  for (const char* op : {"aten._assert_scalar.default", "aten._assert_tensor_metadata.default",
                         "aten.sym_constrain_range_for_size.default", "aten.sym_size.int", "torch.sym_float",
                         "torch.sym_not", "operator.or_", "operator.truediv", "operator.add", "math.trunc"}) {
    EXPECT_FALSE(ops.contains(op)) << op << " is left in:\n" << lowering::graph_to_string(g);
  }
  EXPECT_TRUE(ops.contains("operator.ge")) << lowering::graph_to_string(g);
}

TEST(SymbolicValues, DynamicArchiveComputesTheBoolAtRunTime) {
  auto ctx = compile(archive("symbolic_dynamic.pt2")).create_context();
  for (std::int64_t rows : {2, 5, 64}) {
    SCOPED_TRACE(rows);
    const auto& out = ctx.run({iota(rows)});
    ASSERT_EQ(out.size(), 2u);
    ASSERT_EQ(out[0].numel(), 1);
    EXPECT_EQ(out[0].data<float>()[0], 1.0f);
    ASSERT_EQ(out[1].numel(), 1);
    EXPECT_EQ(out[1].to_bytes().at(0), std::byte{1});  // rows >= 2 across the range [2, 64]
  }
}

}  // namespace
