// Concatenation of channel-blocked or channels-last inputs (convolution
// outputs) along channels, keeping that layout: DenseNet-style blocks concatenate conv
// outputs and feed the result to batch norm and the next conv, which then
// read it with no reorder to plain and back.
#include "runtime/cpu/onednn/makers.h"
#include "runtime/cpu/onednn/primitive_kernel.h"
#include "runtime/cpu/own/util.h"

namespace atenrt::runtime::cpu::onednn {

KernelChoice make_concatenation(const KernelRequest& r) {
  const auto& p = std::get<network::ConcatenationParams>(r.step->params);
  const auto& y = *r.outputs[0];
  if (!r.blocked_output_allowed || r.inputs.empty() || r.inputs[0].layout.is_plain()) return {};
  if (!all_f32(r, r.inputs.size()) || y.dtype != DType::Float32) return {};
  const auto rank = static_cast<std::int64_t>(y.dims.size());
  if ((p.axis < 0 ? p.axis + rank : p.axis) != 1) return {};
  const md_t first = desc_of(r.inputs[0], dt::f32);
  const auto out = same_channel_blocking(first, y.dims);
  const std::int64_t run = channel_run(first, r.inputs[0].tensor->dims);
  if (!out || run == 0) return {};
  const bool channels_last = compat::blocking_of(first).inner_nblks == 0;
  // With every input in the same blocking and a whole number of blocks, each
  // batch index of input i is one run of C_i * spatial values, placed in the
  // result as a plain concatenation along channels places its runs: our own
  // run copy does it (oneDNN 2.6's simple concat took about
  // ten times as long on DenseNet's blocks here). Channels-last: each pixel
  // of input i is one run of C_i values.
  for (const auto& in : r.inputs) {
    if (!channels_last && in.tensor->dims[1] % run != 0) return {};
    if (same_channel_blocking(first, in.tensor->dims) != desc_of(in, dt::f32)) return {};
  }
  auto k = own::make_concatenation_runs(r, channels_last);
  if (!k) return {};
  Layout layout;
  layout.blocked = std::make_shared<BlockedDesc>(*out);
  return {std::move(k), {layout}};
}

}  // namespace atenrt::runtime::cpu::onednn
