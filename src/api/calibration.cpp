#include "api/calibration.h"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "atenrt/errors.h"
#include "atenrt/inspect.h"
#include "ir/npz.h"

namespace atenrt::api {

namespace {

constexpr std::uintmax_t kMaxCacheBytes = 64u << 20;
constexpr std::int64_t kMaxBatches = 1 << 20;

builder::CalibrationMethod method_of(CalibrationMethod m) {
  switch (m) {
    case CalibrationMethod::MinMax: return builder::CalibrationMethod::MinMax;
    case CalibrationMethod::Entropy: return builder::CalibrationMethod::Entropy;
    case CalibrationMethod::Percentile: break;
  }
  return builder::CalibrationMethod::Percentile;
}

std::shared_ptr<builder::CalibrationSettings> read_batches(const CompileSettings& settings,
                                                           const std::vector<const network::NetworkTensor*>& inputs,
                                                           const std::vector<network::Dims>& dims) {
  const std::string& path = settings.calibration;
  if (path.empty()) throw InputError("int8: no calibration cache at '" + settings.calibration_cache + "' and no calibration data");
  // Each array: the input's shape (one batch) or [N, *shape]. Checked on the
  // header, before any payload is read.
  std::vector<std::int64_t> counts(inputs.size(), 0);
  auto check = [&](std::size_t i, const std::string& where, DType dtype, const std::vector<std::int64_t>& shape) {
    if (i >= inputs.size()) {
      throw InputError(where + ": calibration data has more arrays than the engine's " + std::to_string(inputs.size()) +
                       " inputs");
    }
    const auto& want = dims[i];
    if (dtype != inputs[i]->dtype) {
      throw InputError(where + ": calibration array for input '" + inputs[i]->name + "' is " +
                       std::string(dtype_name(dtype)) + ", the input takes " + std::string(dtype_name(inputs[i]->dtype)));
    }
    if (want == shape) {
      counts[i] = 1;
    } else if (shape.size() == want.size() + 1 && std::equal(want.begin(), want.end(), shape.begin() + 1) &&
               shape[0] >= 1 && shape[0] <= kMaxBatches) {
      counts[i] = shape[0];
    } else {
      throw InputError(where + ": calibration array for input '" + inputs[i]->name + "' has shape " + shape_to_string(shape) +
                       "; expected " + shape_to_string(want) + " or [N, " + shape_to_string(want).substr(1));
    }
  };
  // .pt (torch.save of a tensor, or a list/tuple/dict of them, one per
  // input): read by the restricted unpickler, then the same checks.
  std::vector<Tensor> arrays;
  if (path.size() >= 3 && path.compare(path.size() - 3, 3, ".pt") == 0) {
    const auto named = read_torch_save(path);
    for (std::size_t i = 0; i < named.size(); ++i) {
      check(i, path + ": " + named[i].first, named[i].second.dtype(), named[i].second.sizes());
      arrays.push_back(named[i].second);
    }
  } else {
    arrays = io::read_npz(path, check);
  }
  if (arrays.size() != inputs.size()) {
    throw InputError(path + ": calibration data has " + std::to_string(arrays.size()) + " arrays, the engine takes " +
                     std::to_string(inputs.size()) + " inputs");
  }
  for (std::size_t i = 1; i < counts.size(); ++i) {
    if (counts[i] != counts[0]) {
      throw InputError(path + ": calibration arrays hold different batch counts (" + std::to_string(counts[0]) + " and " +
                       std::to_string(counts[i]) + ")");
    }
  }
  auto out = std::make_shared<builder::CalibrationSettings>();
  out->method = method_of(settings.calibration_method);
  const std::int64_t n = counts.empty() ? 0 : counts[0];
  for (std::int64_t b = 0; b < n; ++b) {
    std::vector<Tensor> batch;
    for (std::size_t i = 0; i < arrays.size(); ++i) {
      if (arrays[i].sizes() == dims[i]) {
        batch.push_back(arrays[i]);
        continue;
      }
      Tensor one(arrays[i].dtype(), dims[i]);
      const Tensor whole = arrays[i].contiguous();
      const std::size_t bytes = one.nbytes();
      std::memcpy(one.raw_mutable_data(), whole.raw_data() + static_cast<std::size_t>(b) * bytes, bytes);
      batch.push_back(std::move(one));
    }
    out->batches.push_back(std::move(batch));
  }
  return out;
}

}  // namespace

void attach_calibration(builder::BuilderConfig& config, const CompileSettings& settings,
                        const std::vector<const network::NetworkTensor*>& inputs,
                        const std::vector<network::Dims>& dims) {
  const std::string& cache = settings.calibration_cache;
  std::error_code ec;
  if (!cache.empty() && std::filesystem::exists(cache, ec)) {
    const auto size = std::filesystem::file_size(cache, ec);
    if (ec || size > kMaxCacheBytes) {
      throw FormatError(cache + ": calibration cache is unreadable or larger than " + std::to_string(kMaxCacheBytes) + " bytes");
    }
    std::ifstream in(cache, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in) throw FormatError(cache + ": cannot read the calibration cache");
    config.calibration_table =
        std::make_shared<const builder::CalibrationTable>(builder::parse_calibration_cache(text.str(), cache));
    return;
  }
  config.calibration = read_batches(settings, inputs, dims);
}

void save_calibration_cache(const builder::BuilderConfig& config, const CompileSettings& settings,
                            const builder::BuildReport& report) {
  // No cache from a build that quantized nothing (no int8 kernels here).
  if (settings.calibration_cache.empty() || config.calibration_table || !report.precision_note.empty()) return;
  const std::string tmp = settings.calibration_cache + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << builder::calibration_cache_text(report.calibration);
    if (!out) throw Error("cannot write the calibration cache '" + tmp + "'");
  }
  std::filesystem::rename(tmp, settings.calibration_cache);
}

}  // namespace atenrt::api
