// Every decomposition case of tests/lowering/cases.py through the real
// pipeline: lowered with the decomposition forced, converted, built and run
// on the engine, then compared with PyTorch. The lowering tests check the same
// cases on the reference executor; this checks that the converters take what
// the decompositions emit. It also counts the ops that compile only because
// of lowering (the number issue 5 asks for).
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <set>

#include "../lowering/case_loader.h"
#include "api/pipeline.h"
#include "conversion/registry.h"

using namespace atenrt;
using namespace atenrt::lowering::testing;

namespace {

using DecompositionsEndToEnd = LoweringCasesTest;

TEST_F(DecompositionsEndToEnd, ForcedDecompositionsRunOnTheEngineAndMatchPyTorch) {
  CompileSettings settings;
  settings.min_block_size = 1;
  for (const auto& name : names_) {
    SCOPED_TRACE("case " + name);
    LoweringCase c = load_case(dir_, name);
    auto lowering = api::lowering_settings(settings);
    lowering.prefer_decompositions = true;  // run it even where a converter exists
    ir::ExportedProgram program;
    program.graph = c.graph;
    std::vector<Tensor> inputs;
    for (const auto* spec : program.graph.user_inputs()) inputs.push_back(c.inputs.at(spec->value_name));
    try {
      CompileReport report;
      Engine engine = api::compile_program(std::move(program), settings, &report, &lowering);
      auto ctx = engine.create_context();
      const auto& outputs = ctx.run(inputs);
      ASSERT_EQ(outputs.size(), c.expected.size());
      for (std::size_t i = 0; i < outputs.size(); ++i) {
        const std::string diff = compare_to_pytorch(outputs[i], c.expected[i]);
        EXPECT_TRUE(diff.empty()) << c.op << " output " << i << ": " << diff << "\n" << report.lowering;
      }
    } catch (const std::exception& e) {
      ADD_FAILURE() << c.op << ": " << e.what();
    }
  }
}

// Compiles each case's op with lowering off and on (the default policy: a
// decomposition yields to a converter). Every case must compile with lowering
// on; the ops that compile only with it are what lowering adds.
TEST_F(DecompositionsEndToEnd, LoweringWidensWhatCompiles) {
  std::set<std::string> ops, without_lowering, with_lowering;
  for (const auto& name : names_) {
    LoweringCase c = load_case(dir_, name);
    ops.insert(c.op);
    for (bool lower : {false, true}) {
      CompileSettings settings;
      settings.min_block_size = 1;
      settings.require_full_compilation = true;  // converters only: the fallback would take the rest
      settings.lowering = lower;
      ir::ExportedProgram program;
      program.graph = c.graph;
      try {
        api::compile_program(std::move(program), settings);
        (lower ? with_lowering : without_lowering).insert(c.op);
      } catch (const UnsupportedError& e) {
        if (lower) ADD_FAILURE() << "case " << name << " (" << c.op << ") does not compile with lowering on: " << e.what();
      }
    }
  }
  std::cout << "[ lowering ] " << ops.size() << " ops in the decomposition cases: " << without_lowering.size()
            << " compile with lowering off, " << with_lowering.size() << " with lowering on\n";
  RecordProperty("ops", static_cast<int>(ops.size()));
  RecordProperty("compile_without_lowering", static_cast<int>(without_lowering.size()));
  RecordProperty("compile_with_lowering", static_cast<int>(with_lowering.size()));
  EXPECT_EQ(with_lowering.size(), ops.size());
}

}  // namespace
