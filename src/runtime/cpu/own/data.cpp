// Our own data-movement kernels (any dtype, bytes moved as elements):
// shuffle (reshape/permute), slice, concatenation, gather (axis mode), cast,
// shape, fill and padding. oneDNN 2.6 has no gather; the rest are copies that
// need no primitive.
#include <algorithm>

#include "atenrt/errors.h"
#include "network/network.h"
#include "runtime/cpu/own/parallel.h"
#include "runtime/cpu/own/util.h"

namespace atenrt::runtime::cpu::own {
namespace {

using network::LayerKind;

bool identity(const Dims& perm) {
  for (std::size_t i = 0; i < perm.size(); ++i) {
    if (perm[i] != static_cast<std::int64_t>(i)) return false;
  }
  return true;
}

// Source strides of a permuted view: out dim i reads in dim perm[i].
Dims permuted_strides(const Dims& in_dims, const Dims& perm) {
  const Dims cs = contiguous(in_dims);
  Dims s;
  for (auto p : perm) s.push_back(cs[p]);
  return s;
}

std::unique_ptr<Kernel> shuffle(const KernelRequest& r) {
  const auto& p = std::get<network::ShuffleParams>(r.step->params);
  const Dims in = r.inputs[0].tensor->dims, out = r.outputs[0]->dims;
  const std::size_t elem = element_size(r.outputs[0]->dtype);
  const bool first = !identity(p.first_perm), second = !identity(p.second_perm);
  if (first && second) return nullptr;
  Dims view_dims = out, view_strides = contiguous(out);
  if (first) {
    // permute, then reshape: the permuted copy is already the reshaped bytes
    view_dims.clear();
    for (auto d : p.first_perm) view_dims.push_back(in[d]);
    view_strides = permuted_strides(in, p.first_perm);
  } else if (second) {
    // reshape to `mid`, then permute to `out`
    Dims mid(out.size());
    for (std::size_t i = 0; i < out.size(); ++i) mid[p.second_perm[i]] = out[i];
    view_dims = out;
    view_strides = permuted_strides(mid, p.second_perm);
  }
  const std::int64_t bytes = numel_of(out) * static_cast<std::int64_t>(elem);
  const bool copy_only = !first && !second;
  return fn_kernel([=](const KernelArgs& a) {
    if (copy_only) {
      // A zero-size tensor may have no buffer at all: memcpy's pointers must not be null even for 0 bytes.
      // One buffer for both (make_shuffle's in-place offer taken): nothing to copy.
      if (bytes > 0 && a.outputs[0] != a.inputs[0]) std::memcpy(a.outputs[0], a.inputs[0], bytes);
    } else {
      strided_copy(a.outputs[0], a.inputs[0], view_dims, view_strides, elem);
    }
  });
}

std::unique_ptr<Kernel> slice(const KernelRequest& r) {
  const auto& p = std::get<network::SliceParams>(r.step->params);
  const Dims cs = contiguous(r.inputs[0].tensor->dims);
  const Dims out = r.outputs[0]->dims;
  const std::size_t elem = element_size(r.outputs[0]->dtype);
  std::int64_t offset = 0;
  Dims strides;
  for (std::size_t d = 0; d < out.size(); ++d) {
    if (out[d] > 0) offset += p.start[d] * cs[d];
    strides.push_back(p.step[d] * cs[d]);
  }
  return fn_kernel([=](const KernelArgs& a) {
    strided_copy(a.outputs[0], static_cast<const std::byte*>(a.inputs[0]) + offset * elem, out,
                 strides, elem);
  });
}

std::unique_ptr<Kernel> concatenation_runs(const KernelRequest& r, bool channels_last) {
  // The dims in storage order: channels-last moves dim 1 to the end.
  const auto stored = [channels_last](Dims d) {
    if (channels_last) std::rotate(d.begin() + 1, d.begin() + 2, d.end());
    return d;
  };
  const Dims out = stored(r.outputs[0]->dims);
  const int rank = static_cast<int>(out.size());
  std::int64_t axis = std::get<network::ConcatenationParams>(r.step->params).axis;
  if (axis < 0) axis += rank;
  if (channels_last && (axis != 1 || rank < 3)) return nullptr;
  if (channels_last) axis = rank - 1;
  const std::size_t elem = element_size(r.outputs[0]->dtype);
  std::int64_t outer = 1, inner = 1;
  for (int i = 0; i < rank; ++i) {
    if (i < axis) outer *= out[i];
    if (i > axis) inner *= out[i];
  }
  std::vector<std::int64_t> chunk;  // bytes per outer index, per input
  for (const auto& in : r.inputs) chunk.push_back(stored(in.tensor->dims)[axis] * inner * elem);
  const std::int64_t row = out[axis] * inner * elem;
  const std::int64_t total = outer * row;
  return fn_kernel([=](const KernelArgs& a) {
    if (total == 0) return;
    auto* dst = static_cast<std::byte*>(a.outputs[0]);
    // The result's bytes are shared among the engine's threads (DenseNet's
    // and SqueezeNet's concatenations copy megabytes per step); each copies
    // the parts of the runs inside its share. A zero-size input has no bytes
    // to copy (and may have no buffer: memcpy's pointers must not be null).
    parallel_for(total, 64 * 1024, [&](std::int64_t begin, std::int64_t end) {
      for (std::int64_t o = begin / row; o < outer && o * row < end; ++o) {
        std::int64_t at = o * row;
        for (std::size_t i = 0; i < chunk.size(); ++i) {
          const std::int64_t lo = std::max(at, begin), hi = std::min(at + chunk[i], end);
          if (lo < hi) {
            std::memcpy(dst + lo, static_cast<const std::byte*>(a.inputs[i]) + o * chunk[i] + (lo - at),
                        static_cast<std::size_t>(hi - lo));
          }
          at += chunk[i];
        }
      }
    });
  });
}

std::unique_ptr<Kernel> gather(const KernelRequest& r) {
  const auto& p = std::get<network::GatherParams>(r.step->params);
  if (p.mode != network::GatherMode::Axis) return nullptr;
  const auto& data = *r.inputs[0].tensor;
  const DType index_type = r.inputs[1].tensor->dtype;
  const int rank = static_cast<int>(data.dims.size());
  const std::int64_t axis = p.axis < 0 ? p.axis + rank : p.axis;
  std::int64_t outer = 1, inner = 1;
  for (int i = 0; i < rank; ++i) {
    if (i < axis) outer *= data.dims[i];
    if (i > axis) inner *= data.dims[i];
  }
  const std::int64_t len = data.dims[axis];
  const std::int64_t m = numel_of(r.inputs[1].tensor->dims);
  const std::size_t row = inner * element_size(data.dtype);
  const std::string name = r.step->name;
  return fn_kernel([=](const KernelArgs& a) {
    const auto* src = static_cast<const std::byte*>(a.inputs[0]);
    auto* dst = static_cast<std::byte*>(a.outputs[0]);
    for (std::int64_t j = 0; j < m; ++j) {
      std::int64_t idx = load_i(index_type, a.inputs[1], j);
      if (idx < -len || idx >= len) {
        throw InputError("layer '" + name + "' (Gather): index " + std::to_string(idx) +
                         " is out of range for a dim of size " + std::to_string(len));
      }
    }
    if (row == 0) return;  // zero-size rows: nothing to copy, and the tensors may have no buffer
    for (std::int64_t o = 0; o < outer; ++o) {
      for (std::int64_t j = 0; j < m; ++j) {
        std::int64_t idx = load_i(index_type, a.inputs[1], j);
        if (idx < 0) idx += len;
        std::memcpy(dst + (o * m + j) * row, src + (o * len + idx) * row, row);
      }
    }
  });
}

std::unique_ptr<Kernel> cast(const KernelRequest& r) {
  const DType from = r.inputs[0].tensor->dtype, to = r.outputs[0]->dtype;
  if (!numeric(from) || !numeric(to)) return nullptr;
  const std::int64_t n = numel_of(r.outputs[0]->dims);
  const bool exact_int = !is_floating(from);
  return fn_kernel([=](const KernelArgs& a) {
    for (std::int64_t i = 0; i < n; ++i) {
      if (exact_int) {
        store_i(to, a.outputs[0], i, load_i(from, a.inputs[0], i));
      } else {
        store_f(to, a.outputs[0], i, load_f(from, a.inputs[0], i));
      }
    }
  });
}

std::unique_ptr<Kernel> shape(const KernelRequest& r) {
  const Dims dims = r.inputs[0].tensor->dims;
  return fn_kernel([=](const KernelArgs& a) {
    if (!dims.empty()) std::memcpy(a.outputs[0], dims.data(), dims.size() * sizeof(std::int64_t));  // 0-d: no bytes
  });
}

std::unique_ptr<Kernel> fill(const KernelRequest& r) {
  const auto p = std::get<network::FillParams>(r.step->params);
  const DType to = r.outputs[0]->dtype;
  if (!numeric(to)) return nullptr;
  const Dims out = r.outputs[0]->dims;
  const int rank = static_cast<int>(out.size());
  std::int64_t inner = 1;
  const std::int64_t axis = rank == 0 ? 0 : (p.axis < 0 ? p.axis + rank : p.axis);
  for (int i = static_cast<int>(axis) + 1; i < rank; ++i) inner *= out[i];
  const std::int64_t len = rank == 0 ? 1 : out[axis];
  const std::int64_t n = numel_of(out);
  return fn_kernel([=](const KernelArgs& a) {
    for (std::int64_t i = 0; i < n; ++i) {
      const double v = p.op == network::FillOp::Constant
                           ? p.value
                           : p.value + p.delta * static_cast<double>((i / inner) % len);
      store_f(to, a.outputs[0], i, v);
    }
  });
}

// Every byte of the bool condition non-zero, else the assertion's message
// (it names the graph node and the condition) as an InputError.
std::unique_ptr<Kernel> check(const KernelRequest& r) {
  const std::string message = std::get<network::CheckParams>(r.step->params).message;
  const std::int64_t n = numel_of(r.outputs[0]->dims);
  return fn_kernel([=](const KernelArgs& a) {
    const auto* cond = static_cast<const std::uint8_t*>(a.inputs[0]);
    for (std::int64_t i = 0; i < n; ++i) {
      if (cond[i] == 0) throw InputError(message);
    }
    if (a.outputs[0] != a.inputs[0]) std::memcpy(a.outputs[0], cond, static_cast<std::size_t>(n));
  });
}

std::unique_ptr<Kernel> padding(const KernelRequest& r) {
  const auto p = std::get<network::PaddingParams>(r.step->params);
  const DType type = r.outputs[0]->dtype;
  if (p.mode == network::PaddingMode::Constant && !numeric(type)) return nullptr;
  const Dims in = r.inputs[0].tensor->dims, out = r.outputs[0]->dims;
  for (auto d : in) {
    if (d == 0) return nullptr;
  }
  const std::size_t elem = element_size(type);
  const Dims cs = contiguous(in);
  const int rank = static_cast<int>(out.size());
  const std::int64_t n = numel_of(out);
  // One fill value in the output dtype's bytes.
  std::vector<std::byte> value(elem);
  if (p.mode == network::PaddingMode::Constant) store_f(type, value.data(), 0, p.value);
  return fn_kernel([=](const KernelArgs& a) {
    const auto* src = static_cast<const std::byte*>(a.inputs[0]);
    auto* dst = static_cast<std::byte*>(a.outputs[0]);
    std::vector<std::int64_t> idx(rank, 0);
    for (std::int64_t i = 0; i < n; ++i) {
      std::int64_t offset = 0;
      bool inside = true;
      for (int d = 0; d < rank; ++d) {
        std::int64_t c = idx[d] - p.pre[d];
        const std::int64_t len = in[d];
        switch (p.mode) {
          case network::PaddingMode::Constant: inside = inside && c >= 0 && c < len; break;
          case network::PaddingMode::Reflect:
            if (len == 1) c = 0;
            while (c < 0 || c >= len) c = c < 0 ? -c : 2 * (len - 1) - c;
            break;
          case network::PaddingMode::Replicate: c = std::clamp<std::int64_t>(c, 0, len - 1); break;
          case network::PaddingMode::Circular: c = ((c % len) + len) % len; break;
        }
        offset += c * cs[d];
      }
      std::memcpy(dst + i * elem, inside ? src + offset * elem : value.data(), elem);
      for (int d = rank - 1; d >= 0; --d) {
        if (++idx[d] < out[d]) break;
        idx[d] = 0;
      }
    }
  });
}

}  // namespace

std::unique_ptr<Kernel> make_concatenation_runs(const KernelRequest& r, bool channels_last) {
  return concatenation_runs(r, channels_last);
}

KernelChoice make_shuffle(const KernelRequest& r) {
  KernelChoice c;
  c.kernel = make_data_kernel(r);
  c.output_layouts.resize(r.outputs.size());
  const auto& p = std::get<network::ShuffleParams>(r.step->params);
  if (c.kernel && identity(p.first_perm) && identity(p.second_perm)) c.in_place_input = 0;
  return c;
}

std::unique_ptr<Kernel> make_data_kernel(const KernelRequest& r) {
  for (const auto& in : r.inputs) {
    if (!in.layout.is_plain()) return nullptr;
  }
  switch (r.step->kind()) {
    case LayerKind::Shuffle: return shuffle(r);
    case LayerKind::Slice: return slice(r);
    case LayerKind::Concatenation: return concatenation_runs(r, false);
    case LayerKind::Gather: return gather(r);
    case LayerKind::Cast: return cast(r);
    case LayerKind::Shape: return shape(r);
    case LayerKind::Fill: return fill(r);
    case LayerKind::Padding: return padding(r);
    case LayerKind::Check: return check(r);
    default: return nullptr;
  }
}

}  // namespace atenrt::runtime::cpu::own
