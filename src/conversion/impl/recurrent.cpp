#include "conversion/impl/recurrent.h"

#include "atenrt/errors.h"
#include "conversion/impl/activation.h"
#include "conversion/impl/elementwise.h"
#include "conversion/impl/matmul.h"
#include "conversion/impl/shape.h"
#include "conversion/impl/slice.h"

namespace atenrt::conversion::impl::recurrent {
namespace {

namespace ew = elementwise;
namespace act = activation;

NetworkTensor* add(const Scope& s, NetworkTensor* a, NetworkTensor* b) {
  return ew::add(s, {a, std::nullopt}, {b, std::nullopt}, Scalar::of_int(1));
}
NetworkTensor* mul(const Scope& s, NetworkTensor* a, NetworkTensor* b) {
  return ew::mul(s, {a, std::nullopt}, {b, std::nullopt});
}
NetworkTensor* sub(const Scope& s, NetworkTensor* a, NetworkTensor* b) {
  return ew::sub(s, {a, std::nullopt}, {b, std::nullopt}, Scalar::of_int(1));
}

struct Weights {
  NetworkTensor* w_ih = nullptr;
  NetworkTensor* w_hh = nullptr;
  NetworkTensor* b_ih = nullptr;
  NetworkTensor* b_hh = nullptr;
};

// One direction of one layer over every step of x [T, B, I]: the outputs
// per step ([B, H] each, in time order) and the final h (and c).
struct DirectionResult {
  std::vector<NetworkTensor*> steps;
  NetworkTensor* h = nullptr;
  NetworkTensor* c = nullptr;
};

DirectionResult run_direction(const Scope& s, Cell cell, NetworkTensor* x, const Weights& w, NetworkTensor* h,
                              NetworkTensor* c, bool reverse) {
  const std::int64_t steps = x->dims[0];
  const int gates = cell == Cell::Lstm ? 4 : 3;
  // x @ w_ihᵀ + b_ih for every step in one matmul: [T, B, gates*H].
  NetworkTensor* xg = matmul::linear(s, x, w.w_ih, w.b_ih);
  DirectionResult r;
  r.steps.assign(static_cast<std::size_t>(steps), nullptr);
  for (std::int64_t k = 0; k < steps; ++k) {
    const std::int64_t t = reverse ? steps - 1 - k : k;
    const Scope st = s.child("t" + std::to_string(t));
    NetworkTensor* xt = shape::squeeze(st, slice::slice(st, xg, 0, t, t + 1, 1), {0}, false);
    NetworkTensor* hg = matmul::linear(st, h, w.w_hh, w.b_hh);
    auto xi = slice::chunk(st, xt, gates, 1);
    auto hi = slice::chunk(st, hg, gates, 1);
    if (cell == Cell::Lstm) {
      NetworkTensor* i = act::sigmoid(st, add(st, xi[0], hi[0]));
      NetworkTensor* f = act::sigmoid(st, add(st, xi[1], hi[1]));
      NetworkTensor* g = act::tanh(st, add(st, xi[2], hi[2]));
      NetworkTensor* o = act::sigmoid(st, add(st, xi[3], hi[3]));
      c = add(st, mul(st, f, c), mul(st, i, g));
      h = mul(st, o, act::tanh(st, c));
    } else {
      NetworkTensor* rg = act::sigmoid(st, add(st, xi[0], hi[0]));
      NetworkTensor* z = act::sigmoid(st, add(st, xi[1], hi[1]));
      NetworkTensor* n = act::tanh(st, add(st, xi[2], mul(st, rg, hi[2])));
      h = add(st, n, mul(st, z, sub(st, h, n)));  // (1 - z) * n + z * h
    }
    r.steps[static_cast<std::size_t>(t)] = h;
  }
  r.h = h;
  r.c = c;
  return r;
}

NetworkTensor* state(const Scope& s, NetworkTensor* all, std::int64_t index) {
  return shape::squeeze(s, slice::slice(s, all, 0, index, index + 1, 1), {0}, false);
}

}  // namespace

std::optional<std::string> recurrent_problem(Cell cell, std::size_t params, bool has_biases, std::int64_t num_layers,
                                             bool bidirectional, double dropout, bool train) {
  if (num_layers < 1) return "num_layers must be at least 1";
  if (train && dropout > 0.0) return "dropout between layers in training mode draws random masks";
  const std::size_t per = has_biases ? 4 : 2;
  const std::size_t want = static_cast<std::size_t>(num_layers) * (bidirectional ? 2 : 1) * per;
  if (params != want) {
    return std::string(cell == Cell::Lstm ? "lstm" : "gru") + " with " + std::to_string(params) +
           " parameter tensors, expected " + std::to_string(want) +
           (cell == Cell::Lstm ? " (projections, proj_size > 0, are not supported)" : "");
  }
  return std::nullopt;
}

std::vector<NetworkTensor*> recurrent(const Scope& s, const RecurrentArgs& a) {
  const char* name = a.cell == Cell::Lstm ? "lstm" : "gru";
  if (auto why = recurrent_problem(a.cell, a.params.size(), a.has_biases, a.num_layers, a.bidirectional, 0.0, false)) {
    throw UnsupportedError(*why);
  }
  static_dims(a.input, name);
  if (a.input->rank() != 3) throw UnsupportedError(std::string(name) + " takes a 3-d input");
  const std::size_t states = a.cell == Cell::Lstm ? 2 : 1;
  if (a.hx.size() != states) throw UnsupportedError(std::string(name) + ": hx must hold " + std::to_string(states) + " tensors");
  const std::int64_t dirs = a.bidirectional ? 2 : 1;
  NetworkTensor* x = a.batch_first ? shape::transpose(s, a.input, 0, 1) : a.input;
  if (x->dims[0] == 0) throw UnsupportedError(std::string(name) + " of an empty sequence");
  std::vector<NetworkTensor*> h_n, c_n;
  const std::size_t per = a.has_biases ? 4 : 2;
  for (std::int64_t layer = 0; layer < a.num_layers; ++layer) {
    std::vector<std::vector<NetworkTensor*>> outs;
    for (std::int64_t d = 0; d < dirs; ++d) {
      const Scope ls = s.child("l" + std::to_string(layer) + (d ? "_reverse" : ""));
      const std::size_t base = static_cast<std::size_t>(layer * dirs + d) * per;
      Weights w{a.params[base], a.params[base + 1], a.has_biases ? a.params[base + 2] : nullptr,
                a.has_biases ? a.params[base + 3] : nullptr};
      const std::int64_t idx = layer * dirs + d;
      NetworkTensor* h0 = state(ls, a.hx[0], idx);
      NetworkTensor* c0 = a.cell == Cell::Lstm ? state(ls, a.hx[1], idx) : nullptr;
      auto r = run_direction(ls, a.cell, x, w, h0, c0, d == 1);
      outs.push_back(std::move(r.steps));
      h_n.push_back(r.h);
      if (r.c) c_n.push_back(r.c);
    }
    // Each step's output: [B, D*H]; the sequence [T, B, D*H] feeds the next layer.
    std::vector<NetworkTensor*> per_step;
    for (std::size_t t = 0; t < outs[0].size(); ++t) {
      per_step.push_back(dirs == 1 ? outs[0][t] : slice::cat(s, {outs[0][t], outs[1][t]}, 1));
    }
    x = slice::stack(s, per_step, 0);
  }
  std::vector<NetworkTensor*> result = {a.batch_first ? shape::transpose(s, x, 0, 1) : x, slice::stack(s, h_n, 0)};
  if (a.cell == Cell::Lstm) result.push_back(slice::stack(s, c_n, 0));
  return result;
}

}  // namespace atenrt::conversion::impl::recurrent
