// aten.lstm.input and aten.gru.input (nn.LSTM / nn.GRU in training-IR
// exports; make_fx and run_decompositions() decompose them): unrolled over
// the sequence by impl/recurrent.
#include <optional>
#include <string>

#include "conversion/aten_ops/common.h"
#include "conversion/impl/recurrent.h"
#include "conversion/impl/shape.h"

namespace atenrt::conversion::aten_ops {
namespace {
namespace rn = impl::recurrent;
constexpr Family kFamily{.name = "recurrent"};

Capability recurrent_ok(const NodeView& node, rn::Cell cell) {
  const auto* params = node.find("params");
  const auto* list = params ? params->get_if<ir::TensorList>() : nullptr;
  if (!list) return Capability::no("params must be a list of tensors");
  const auto has_biases = node.literal_bool("has_biases");
  const auto layers = node.literal_int("num_layers");
  const auto bidirectional = node.literal_bool("bidirectional");
  const auto train = node.literal_bool("train");
  const auto dropout = node.literal_number("dropout");
  if (!has_biases || !layers || !bidirectional || !train || !dropout) {
    return Capability::no("has_biases, num_layers, dropout, train and bidirectional must be constants");
  }
  if (auto why = rn::recurrent_problem(cell, list->size(), *has_biases, *layers, *bidirectional, *dropout, *train)) {
    return Capability::no(*why);
  }
  if (const ir::TensorMeta* m = node.meta("input")) {
    if (m->sizes.size() != 3) return Capability::no("the input must be 3-d, got " + m->to_string());
    if (!m->is_static()) return Capability::no("the sequence is unrolled, so the input's dims must be static, got " + m->to_string());
  }
  return Capability::yes();
}

Outputs recurrent(const NodeArgs& args, const Scope& s, rn::Cell cell) {
  rn::RecurrentArgs a;
  a.cell = cell;
  a.input = args.tensor("input");
  a.hx = cell == rn::Cell::Lstm ? args.tensors("hx") : std::vector<NetworkTensor*>{args.tensor("hx")};
  a.params = args.tensors("params");
  a.has_biases = args.b("has_biases");
  a.num_layers = args.i("num_layers");
  a.bidirectional = args.b("bidirectional");
  a.batch_first = args.b("batch_first");
  Outputs out;
  const auto results = rn::recurrent(s, a);
  for (std::size_t k = 0; k < results.size(); ++k) {
    NetworkTensor* t = results[k];
    // torch's fake lstm kernel records h_n/c_n as [L*D, 1, B, H] (torch 2.11's training IR does),
    // while eager returns [L*D, B, H]: the graph's later nodes were traced with the recorded
    // shape, so take it when it holds the same elements.
    if (const ir::TensorMeta* m = args.output_meta(k); m && m->is_static()) {
      const auto want = m->static_sizes();
      std::int64_t n = 1;
      for (auto d : want) n *= d;
      if (want != t->dims && n == impl::numel(t->dims)) t = impl::shape::reshape(s, t, want);
    }
    out.emplace_back(t);
  }
  return out;
}

ATENRT_CONVERTER(kFamily, "aten.lstm.input", .validator = [](const NodeView& n, const ConversionSettings&) {
  return recurrent_ok(n, rn::Cell::Lstm);
})(const Scope& s, const NodeArgs& args) { return recurrent(args, s, rn::Cell::Lstm); }

ATENRT_CONVERTER(kFamily, "aten.gru.input", .validator = [](const NodeView& n, const ConversionSettings&) {
  return recurrent_ok(n, rn::Cell::Gru);
})(const Scope& s, const NodeArgs& args) { return recurrent(args, s, rn::Cell::Gru); }

}  // namespace
}  // namespace atenrt::conversion::aten_ops
