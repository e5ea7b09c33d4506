// Int8 post-training quantization, as TensorRT's implicit int8 with a
// calibrator: run the fp32 program over calibration batches, record the
// range of every input an int8 step would quantize, pick a scale per tensor
// (min/max, a percentile of |x|, or the entropy method), then make the
// convolutions and constant-weight matmuls where int8 pays Int8 steps with
// per-channel symmetric int8 weights (runtime/program.h, Quantization).
// Everything else stays fp32: each int8 step quantizes its own input and
// returns float32 (where only int8 convolutions read a result, the engine
// stores it quantized instead: runtime/cpu/README.md, int8 activations).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "atenrt/tensor.h"
#include "runtime/backend.h"
#include "runtime/engine.h"
#include "runtime/program.h"

namespace atenrt::builder {

enum class CalibrationMethod { MinMax, Percentile, Entropy };
const char* calibration_method_name(CalibrationMethod m);

struct CalibrationSettings {
  std::vector<std::vector<Tensor>> batches;  // each: the program's inputs, in binding order
  CalibrationMethod method = CalibrationMethod::Percentile;
  double percentile = 99.99;  // of |x|, for Percentile
};

// What calibration chose for one tensor: the scale its int8 form uses, and
// whether it was never negative (then it quantizes to uint8, one more bit).
struct TensorScale {
  float scale = 1.0f;
  bool non_negative = false;
  float abs_max = 0.0f;  // what was seen (reported; the scale may clip below it)
};
// By tensor name: the table a calibration cache file holds.
using CalibrationTable = std::map<std::string, TensorScale>;

// The steps int8 would take (see int8.cpp for why each is chosen).
std::vector<int> int8_candidates(const runtime::Program& program);

// Runs `program` in fp32 over the batches and returns a scale for the input
// of every candidate step. Throws InputError naming the batch and input when
// a batch does not fit the program's inputs.
CalibrationTable calibrate(const runtime::Program& program, const CalibrationSettings& settings,
                           const runtime::EngineOptions& options);

// Makes each candidate the table covers an Int8 step (its weight replaced by
// the int8 quantization); returns how many. Weights are quantized within
// what the backend computes exactly, and steps whose input is signed stay
// fp32 where it computes only unsigned ones (a CPU without int8 dot-product
// instructions: runtime/quantization.h, Int8Exactness).
int quantize_steps(runtime::Program& program, const CalibrationTable& table, const runtime::Int8Exactness& exact);
int quantize_steps(runtime::Program& program, const CalibrationTable& table);  // for the CPU backend

// The calibration cache: one line per tensor ("name scale non_negative
// abs_max", names percent-escaped), after a header line naming the format.
std::string calibration_cache_text(const CalibrationTable& table);
// Throws FormatError naming `where` and the line for anything malformed.
CalibrationTable parse_calibration_cache(const std::string& text, const std::string& where);

}  // namespace atenrt::builder
