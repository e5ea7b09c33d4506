// Recurrent layers (aten.lstm.input, aten.gru.input, which training-IR
// exports keep) unrolled over their static time steps into the existing
// layers: one input projection for every step at once, then per step a
// hidden projection, sigmoid/tanh gates and elementwise updates.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "conversion/impl/converter_utils.h"

namespace atenrt::conversion::impl::recurrent {

enum class Cell { Lstm, Gru };

struct RecurrentArgs {
  Cell cell = Cell::Lstm;
  NetworkTensor* input = nullptr;           // [T, B, I] ([B, T, I] when batch_first)
  std::vector<NetworkTensor*> hx;           // LSTM: h0, c0; GRU: h0; each [L*D, B, H]
  std::vector<NetworkTensor*> params;       // per layer and direction: w_ih, w_hh[, b_ih, b_hh]
  bool has_biases = true;
  std::int64_t num_layers = 1;
  bool bidirectional = false;
  bool batch_first = false;
};

// Why the arguments cannot be unrolled (projections, a parameter count that
// does not match, dims known only at run time), or nullopt.
std::optional<std::string> recurrent_problem(Cell cell, std::size_t params, bool has_biases, std::int64_t num_layers,
                                             bool bidirectional, double dropout, bool train);

// (output, h_n[, c_n]) as torch computes them.
std::vector<NetworkTensor*> recurrent(const Scope& s, const RecurrentArgs& a);

}  // namespace atenrt::conversion::impl::recurrent
