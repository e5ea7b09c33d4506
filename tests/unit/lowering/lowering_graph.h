// Hand-built graphs for the lowering tests: the shared builder
// (support/graph_builder.h) with each node's omitted arguments filled from
// its schema, as the frontend fills them when it reads a .pt2.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "support/graph_builder.h"

namespace atenrt::lowering::testing {

// (Named apart from lowering::GraphBuilder, the decompositions' own builder.)
using TestGraphBuilder = atenrt::testing::GraphBuilder;

inline TestGraphBuilder lowering_graph() {
  TestGraphBuilder b;
  b.fill_schema_defaults = true;
  return b;
}

inline ir::NamedArgument A(const char* name, ir::Argument a) { return TestGraphBuilder::arg(name, std::move(a)); }
inline ir::Argument R(const std::string& v) { return TestGraphBuilder::t(v); }

// A float32 tensor with the given values (a weight's data).
inline Tensor f32(const std::vector<std::int64_t>& sizes, const std::vector<float>& values) {
  Tensor t(DType::Float32, sizes);
  for (std::size_t i = 0; i < values.size(); ++i) t.mutable_data<float>()[i] = values[i];
  return t;
}

}  // namespace atenrt::lowering::testing
