// A dynamic-shape engine's file (DynamicEngine::save / load): the runtime's
// container with the network as a program whose dims may be -1, plus the
// Ranges section written here (docs/engine-format.md, "Ranges section").
#include <cstring>

#include "atenrt/errors.h"
#include "builder/dynamic_engine.h"
#include "ir/mapped_file.h"
#include "runtime/serialize.h"
#include "runtime/serialize_fields.h"

namespace atenrt::builder {

namespace {

// Ranges payload, version 1:
//   u32 version
//   u8 constant_folding, fold_batchnorm, dead_layer_removal, fuse_post_ops, precision
//   i64 shape-cache capacity
//   u64 input count; per input: string name, u8 dtype, u64 dim count,
//     per dim: i64 min, opt, max, string symbol ("" for a static dim)
constexpr std::uint32_t kRangesVersion = 1;
constexpr std::int64_t kMaxCapacity = 1 << 16;

std::vector<std::byte> encode_ranges(const BuilderConfig& config, std::size_t capacity,
                                     const std::vector<InputRange>& ranges) {
  runtime::file::Writer w;
  w.out.reserve(64);  // (also keeps GCC 12's -Wstringop-overflow from a false alarm on the empty vector)
  w.raw<std::uint32_t>(kRangesVersion);
  w(config.constant_folding);
  w(config.fold_batchnorm);
  w(config.dead_layer_removal);
  w(config.fuse_post_ops);
  w.e(config.precision, 2);
  w(static_cast<std::int64_t>(capacity));
  runtime::file::write_input_ranges(w, ranges);
  return std::move(w.out);
}

struct DecodedRanges {
  BuilderConfig config;
  std::size_t capacity = DynamicEngine::kDefaultCapacity;
  std::vector<InputRange> ranges;
};

// Checked against the program's inputs: same names, dtypes and ranks; a
// dim is dynamic (-1 in the program) exactly when it has a symbol.
DecodedRanges decode_ranges(std::span<const std::byte> bytes, const network::Network& net) {
  runtime::file::Reader r(bytes.data(), bytes.size(), "ranges");
  DecodedRanges out;
  const auto version = r.raw<std::uint32_t>();
  if (version != kRangesVersion) r.corrupt("version " + std::to_string(version) + " (this build reads 1)");
  r(out.config.constant_folding);
  r(out.config.fold_batchnorm);
  r(out.config.dead_layer_removal);
  r(out.config.fuse_post_ops);
  r.e(out.config.precision, 2, "precision");
  std::int64_t capacity = 0;
  r(capacity);
  if (capacity < 1 || capacity > kMaxCapacity) r.corrupt("shape-cache capacity " + std::to_string(capacity) + " out of range (1..65536)");
  out.capacity = static_cast<std::size_t>(capacity);
  out.ranges = runtime::file::read_input_ranges(r, net.inputs().size());
  for (std::size_t i = 0; i < out.ranges.size(); ++i) {
    const InputRange& range = out.ranges[i];
    const network::NetworkTensor* input = net.inputs()[i];
    const std::string where = "input " + std::to_string(i) + " ('" + range.name + "')";
    if (range.name != input->name || range.dtype != input->dtype) {
      r.corrupt(where + " does not match the program's input '" + input->name + "' (" +
                std::string(dtype_name(input->dtype)) + ")");
    }
    if (range.dims.size() != input->dims.size()) r.corrupt(where + ": rank differs from the program's input");
    for (std::size_t d = 0; d < range.dims.size(); ++d) {
      const DimRange& dim = range.dims[d];
      const bool dynamic = input->dims[d] == network::kDynamicDim;
      if (dynamic == dim.symbol.empty() || (!dynamic && dim.min != input->dims[d])) {
        r.corrupt(where + " dim " + std::to_string(d) + ": the range (" + range.to_string() +
                  ") does not match the program's input dims " + shape_to_string(input->dims));
      }
    }
  }
  if (!r.done()) r.corrupt(std::to_string(r.left()) + " trailing bytes");
  return out;
}

}  // namespace

std::vector<std::byte> DynamicEngine::serialize() const {
  struct Bytes : runtime::file::Sink {
    std::vector<std::byte> out;
    void write(const void* data, std::size_t n) override {
      const auto* p = static_cast<const std::byte*>(data);
      out.insert(out.end(), p, p + n);
    }
  } sink;
  // The plain weights are read (written back from the packs while the file is made).
  std::lock_guard<std::mutex> lock(shared_->mutex);
  const PlainWeights::Reading reading(shared_->plain, *shared_->packs, shared_->config.engine.num_threads);
  runtime::file::write_dynamic_file(sink, to_program(net_, /*allow_dynamic=*/true), config_.engine,
                                    encode_ranges(config_, capacity_, ranges_));
  return std::move(sink.out);
}

void DynamicEngine::save(const std::string& path, const std::string& metadata) const {
  std::lock_guard<std::mutex> lock(shared_->mutex);
  const PlainWeights::Reading reading(shared_->plain, *shared_->packs, shared_->config.engine.num_threads);
  const runtime::Program program = to_program(net_, /*allow_dynamic=*/true);
  const auto ranges = encode_ranges(config_, capacity_, ranges_);
  runtime::file::save_atomically(path, [&](runtime::file::Sink& sink) {
    runtime::file::write_dynamic_file(sink, program, config_.engine, ranges, metadata);
  });
}

bool DynamicEngine::is_dynamic_file(std::span<const std::byte> bytes) {
  return runtime::file::parse_container(bytes).find(runtime::file::SectionKind::Ranges) != nullptr;
}

std::shared_ptr<const DynamicEngine> DynamicEngine::deserialize(std::span<const std::byte> bytes,
                                                                std::shared_ptr<const void> owner,
                                                                std::uint64_t max_memory_bytes, int num_threads) {
  runtime::file::DynamicFile file = runtime::file::read_dynamic_file(bytes, std::move(owner));
  network::Network net = network_from_program(file.program);
  DecodedRanges decoded = decode_ranges(file.ranges, net);
  decoded.config.engine = file.options;
  decoded.config.engine.max_memory_bytes = max_memory_bytes;  // a load-time setting
  if (num_threads > 0) decoded.config.engine.num_threads = num_threads;  // load-time too: before any kernel
  return std::make_shared<const DynamicEngine>(std::move(net), std::move(decoded.config), std::move(decoded.ranges),
                                               decoded.capacity);
}

// Read into memory rather than kept mapped: specializations made later read
// the plain weights, and a mapped file that shrank under them would read as
// zeros (the mapping's damage check belongs to single engines' runs).
std::shared_ptr<const DynamicEngine> DynamicEngine::with_kernel_threads(int num_threads) const {
  auto bytes = std::make_shared<const std::vector<std::byte>>(serialize());
  return deserialize(*bytes, bytes, config_.engine.max_memory_bytes, num_threads);
}

std::shared_ptr<const DynamicEngine> DynamicEngine::load(const std::string& path, std::uint64_t max_memory_bytes,
                                                         int num_threads) {
  auto mapping = ir::MappedFile::open(path);
  auto copy = std::make_shared<std::vector<std::byte>>(mapping->bytes().begin(), mapping->bytes().end());
  if (mapping->damaged()) throw FormatError("'" + path + "': engine file: shrank while it was being loaded");
  mapping.reset();
  try {
    return deserialize(*copy, copy, max_memory_bytes, num_threads);
  } catch (const FormatError& e) {
    throw FormatError("'" + path + "': " + e.what());
  } catch (const UnsupportedError& e) {
    throw UnsupportedError("'" + path + "': " + e.what());
  }
}

}  // namespace atenrt::builder
