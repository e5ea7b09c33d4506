// Engine files (docs/engine-format.md): round trips, and every check of the
// loader reached with bad data. Mutated files are re-signed (checksums fixed
// up) so that each test reaches the check behind the checksums and asserts
// its specific message.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>
#include <unistd.h>

#include "engine_resign.h"
#include "mixed_network.h"
#include "resnet_like.h"
#include "runtime/serialize.h"
#include "support/temp_path.h"
#include "support/thread_count.h"

namespace atenrt::testing {
namespace {

using namespace atenrt::network;
namespace file = runtime::file;

void expect_refused(const std::vector<std::byte>& bytes, const std::string& fragment) {
  try {
    runtime::Engine::deserialize(bytes);
    ADD_FAILURE() << "accepted a bad engine file (" << fragment << ")";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << "wanted '" << fragment << "', got: " << e.what();
  }
}

void expect_refused_resigned(std::vector<std::byte> bytes, const std::string& fragment) {
  resign_engine_file(bytes);
  expect_refused(bytes, fragment);
}

template <typename T>
void put(std::vector<std::byte>& f, std::size_t at, T v) {
  ASSERT_LE(at + sizeof(T), f.size());
  std::memcpy(f.data() + at, &v, sizeof(T));
}

const std::vector<std::byte>& good_file() {
  static const auto bytes = builder::build(mixed()).serialize();
  return bytes;
}

// Offsets of the sections of the good file.
struct Layout {
  std::size_t table = file::kHeaderBytes;
  std::size_t program = 0, weights = 0, weights_size = 0;
  std::size_t entry(int i) const { return table + static_cast<std::size_t>(i) * file::kSectionEntryBytes; }
};
Layout layout_of(const std::vector<std::byte>& f) {
  const auto c = file::parse_container(f);
  Layout l;
  l.program = c.find(file::SectionKind::Program)->offset;
  l.weights = c.find(file::SectionKind::Weights)->offset;
  l.weights_size = c.find(file::SectionKind::Weights)->size;
  return l;
}

class VectorSink : public file::Sink {
 public:
  std::vector<std::byte> out;
  void write(const void* data, std::size_t n) override {
    const auto* p = static_cast<const std::byte*>(data);
    out.insert(out.end(), p, p + n);
  }
};

// The good file's sections plus `extra`, written anew by the container writer.
std::vector<std::byte> with_extra_section(file::Section extra, std::vector<std::byte> payload) {
  const auto& good = good_file();
  const auto c = file::parse_container(good);
  std::vector<file::SectionSource> sources;
  for (const auto& s : c.sections) {
    auto bytes = c.payload(s);
    sources.push_back({s, s.size, [bytes](file::Sink& out) { out.write(bytes.data(), bytes.size()); }});
  }
  auto shared = std::make_shared<std::vector<std::byte>>(std::move(payload));
  sources.push_back({extra, shared->size(), [shared](file::Sink& out) { out.write(shared->data(), shared->size()); }});
  VectorSink sink;
  file::write_container(sink, c.header, sources);
  return std::move(sink.out);
}

TEST(EngineFile, SaveLoadRunIsBitIdentical) {
  for (auto precision : {runtime::Precision::Float32, runtime::Precision::BFloat16}) {
    for (bool resnet : {false, true}) {
      builder::BuilderConfig config;
      config.precision = precision;
      auto engine = builder::build(resnet ? resnet_like() : mixed(), config);
      const std::string path = temp_path("engine");
      engine.save(path);
      auto loaded = runtime::Engine::load(path);
      std::remove(path.c_str());
      const auto inputs = resnet ? random_inputs(resnet_like()) : mixed_inputs();
      auto a = engine.create_context();
      auto b = loaded.create_context();
      const auto ra = a.run(inputs);
      const auto rb = b.run(inputs);
      ASSERT_EQ(ra.size(), rb.size());
      for (const auto& [name, t] : ra) EXPECT_TRUE(bit_identical(t, rb.at(name))) << name;
      EXPECT_EQ(engine.serialize(), loaded.serialize());
      if (!resnet && precision == runtime::Precision::Float32) {
        Network ref = mixed();
        const auto want = reference::run(ref, inputs);
        for (const auto& [name, t] : rb) EXPECT_TRUE(close(t, want.at(name), 1e-4)) << name;
      }
    }
  }
}

// The thread count given when loading an engine file is the one its kernels
// are made with: oneDNN's primitives keep the team they were made for, and
// `atenrt run engine.atrt --threads 1` ran two threads per conv before.
TEST(EngineFile, LoadTimeThreadCountIsTheOneItsKernelsUse) {
  if (std::thread::hardware_concurrency() < 2) GTEST_SKIP() << "one core: every engine runs one thread";
  const std::string path = temp_path("engine");
  builder::build(resnet_like()).save(path);  // made with OpenMP's default count
  const auto inputs = random_inputs(resnet_like());
  const auto one = runtime::Engine::load(path, 0, 1);
  const auto two = runtime::Engine::load(path, 0, 2);
  std::remove(path.c_str());
  EXPECT_EQ(one.options().num_threads, 1);
  EXPECT_EQ(threads_a_run_starts(one, inputs), 0) << "an engine loaded for one thread ran more";
  EXPECT_GT(threads_a_run_starts(two, inputs), 0) << "the check itself: a two-thread run starts a worker";
}

TEST(EngineFile, LayoutIsAlignedAndNamesItsProducer) {
  const auto& f = good_file();
  const auto c = file::parse_container(f);
  EXPECT_EQ(c.header.major, file::kFormatMajor);
  EXPECT_EQ(c.header.producer, file::producer_string());
  EXPECT_EQ(c.header.producer.rfind("atenrt ", 0), 0u);
  ASSERT_EQ(c.sections.size(), 2u);
  const auto* w = c.find(file::SectionKind::Weights);
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->offset % 4096, 0u) << "weights must be mappable";
  EXPECT_EQ(w->flags & file::kSectionRequired, file::kSectionRequired);
}

TEST(EngineFile, CorruptFilesAreRefusedByTheirChecksums) {
  const auto& good = good_file();
  ASSERT_NO_THROW(runtime::Engine::deserialize(good));
  // every 97th byte flipped (header, table, padding, payloads), and the last one
  for (std::size_t at = 12; at < good.size(); at += 97) {
    auto bad = good;
    bad[at] ^= std::byte{0x40};
    try {
      runtime::Engine::deserialize(bad);
      ADD_FAILURE() << "accepted a flipped byte at " << at;
    } catch (const FormatError& e) {
      const std::string msg = e.what();
      EXPECT_TRUE(msg.find("checksum") != std::string::npos || msg.find("padding") != std::string::npos) << msg;
    }
  }
  auto last = good;
  last.back() ^= std::byte{1};
  expect_refused(last, "checksum mismatch");
  for (std::size_t n : {std::size_t{0}, std::size_t{7}, std::size_t{12}, std::size_t{63}, std::size_t{64},
                        good.size() / 2, good.size() - 1}) {
    const std::vector<std::byte> cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n));
    expect_refused(cut, n < 12 ? "magic" : (n < 64 ? "truncated header" : "truncated or padded"));
  }
  auto longer = good;
  longer.push_back(std::byte{0});
  expect_refused(longer, "truncated or padded");
  EXPECT_THROW(runtime::Engine::load(temp_path("does_not_exist")), FormatError);
  const std::string path = temp_path("foreign");
  {
    std::ofstream out(path, std::ios::binary);
    out << "PK\x03\x04 not an engine at all, but long enough to have a header";
  }
  try {
    runtime::Engine::load(path);
    ADD_FAILURE() << "accepted a foreign file";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
  std::remove(path.c_str());
}

TEST(EngineFile, OtherFormatVersionsAreRefusedNamingBoth) {
  auto bad = good_file();
  put<std::uint32_t>(bad, 8, 1);  // a format 1 file (its header had a u32 version here)
  expect_refused(bad, "format 1.0 cannot be read by " + file::producer_string() + " (reads format 2.x)");
  auto newer = good_file();
  put<std::uint16_t>(newer, 8, 3);
  expect_refused(newer, "format 3.0 written by '" + file::producer_string() + "'");
  auto minor = good_file();  // a newer minor of the same major is read
  put<std::uint16_t>(minor, 10, 7);
  resign_engine_file(minor);
  EXPECT_NO_THROW(runtime::Engine::deserialize(minor));
}

TEST(EngineFile, HeaderAndTableChecks) {
  const auto& good = good_file();
  const Layout l = layout_of(good);
  auto bad = good;
  put<std::uint32_t>(bad, 12, 80);
  expect_refused_resigned(bad, "header size 80 is not 64");
  bad = good;
  put<std::uint32_t>(bad, 36, 0x80);
  expect_refused_resigned(bad, "CPU features this build does not know (mask 0x80)");
  bad = good;
  // fp32 program, header claims int8 (a bf16 claim is refused earlier on CPUs
  // without avx512_core: "needs avx512_core (bf16 compute)")
  put<std::uint32_t>(bad, 36, file::kFeatureInt8);
  expect_refused_resigned(bad, "bf16/int8 requirements do not match");
  bad = good;
  put<std::uint32_t>(bad, 36, file::kFeatureInt8 | file::kFeatureInt8OutputScales);
  expect_refused_resigned(bad, "bf16/int8 requirements do not match");
  bad = good;
  put<std::uint32_t>(bad, 32, 5000);
  expect_refused_resigned(bad, "section count 5000 out of range");
  bad = good;
  put<std::uint32_t>(bad, 32, 1000);
  expect_refused_resigned(bad, "lies outside the file");
  bad = good;
  put<std::uint64_t>(bad, 24, 1u << 30);
  expect_refused_resigned(bad, "lies outside the file");
  bad = good;
  put<std::uint8_t>(bad, 41, 0x07);
  expect_refused_resigned(bad, "producer name is not printable");
  bad = good;
  put<std::uint32_t>(bad, l.entry(1) + 24, 48);
  expect_refused_resigned(bad, "alignment 48 is not a power of two");
  bad = good;
  put<std::uint64_t>(bad, l.entry(1) + 8, l.weights + 64);
  expect_refused_resigned(bad, "offset " + std::to_string(l.weights + 64) + " is not aligned");
  bad = good;
  put<std::uint64_t>(bad, l.entry(1) + 16, ~std::uint64_t{0} - 8);
  expect_refused_resigned(bad, "lie outside the file's payload area");
  bad = good;
  put<std::uint64_t>(bad, l.entry(0) + 8, 16);
  expect_refused_resigned(bad, "lie outside the file's payload area");  // inside the header
  bad = good;
  put<std::uint64_t>(bad, l.entry(0) + 16, l.weights - l.program + 8);
  expect_refused_resigned(bad, "sections overlap");
  bad = good;
  put<std::uint32_t>(bad, l.entry(1), static_cast<std::uint32_t>(file::SectionKind::Program));
  expect_refused_resigned(bad, "2 program sections");
  bad = good;
  put<std::uint32_t>(bad, l.entry(0), 77);
  expect_refused_resigned(bad, "section 0 (unknown kind 77) is required but");
  bad = good;
  put<std::uint32_t>(bad, l.entry(1) + 32, (99u << 24) | 3);
  expect_refused_resigned(bad, "weights packed for oneDNN 99.0 avx2 cannot be read by " + file::producer_string());
  bad = good;
  put<std::uint32_t>(bad, l.entry(1) + 36, 9);
  expect_refused_resigned(bad, "precision 9 out of range");
  bad = good;
  put<std::uint32_t>(bad, l.entry(1) + 36, static_cast<std::uint32_t>(file::WeightPrecision::Int8));
  expect_refused_resigned(bad, "no weights section for this engine's precision");
  bad = good;
  bad[l.weights - 1] = std::byte{1};  // padding before the weights
  expect_refused_resigned(bad, "padding byte at offset " + std::to_string(l.weights - 1));
  bad = good;
  put<std::uint32_t>(bad, l.program, 5);  // payload changed, not re-signed
  expect_refused(bad, "section 0 (program) checksum mismatch");
}

TEST(EngineFile, UnknownSectionsAreSkippedUnlessRequired) {
  file::Section calibration;  // reserved (int8), not read yet
  calibration.kind = static_cast<std::uint32_t>(file::SectionKind::Calibration);
  calibration.alignment = 8;
  const std::vector<std::byte> payload(24, std::byte{0x5A});
  const auto optional = with_extra_section(calibration, payload);
  EXPECT_NO_THROW(runtime::Engine::deserialize(optional));
  calibration.flags = file::kSectionRequired;
  expect_refused(with_extra_section(calibration, payload),
                 "section 2 (calibration) is required but " + file::producer_string() + " does not read it");
  file::Section future;
  future.kind = 1000;
  future.alignment = 4096;
  EXPECT_NO_THROW(runtime::Engine::deserialize(with_extra_section(future, payload)));
  auto corrupt = with_extra_section(future, payload);
  corrupt.back() ^= std::byte{1};  // skipped sections are still verified
  expect_refused(corrupt, "section 2 (unknown kind 1000) checksum mismatch");
}

// The program section starts with the options (i64 threads, 4 bools), then
// the tensor count.
TEST(EngineFile, ProgramSectionChecks) {
  const auto& good = good_file();
  const Layout l = layout_of(good);
  auto bad = good;
  put<std::int64_t>(bad, l.program, 5000);
  expect_refused_resigned(bad, "program section: thread count 5000 out of range");
  bad = good;
  put<std::uint8_t>(bad, l.program + 8, 2);
  expect_refused_resigned(bad, "program section: bad boolean");
  bad = good;
  put<std::uint64_t>(bad, l.program + 12, std::uint64_t{1} << 40);
  expect_refused_resigned(bad, "program section: count 1099511627776 exceeds the");
  bad = good;
  put<std::uint64_t>(bad, l.program + 20, 1u << 20);  // first tensor's name length
  expect_refused_resigned(bad, "program section: count 1048576 exceeds the");

  // Plain weights: a compiled engine keeps only the packs of what it packed,
  // and these programs are written without the engine (encode_engine).
  builder::BuilderConfig plain;
  plain.engine.prepack_weights = false;
  const auto engine = builder::build(mixed(), plain);
  auto encode = [&](const runtime::Program& p) { return file::encode_engine(p, engine.options()); };
  auto activation_id = [&] {
    for (std::size_t i = 0; i < engine.program().tensors.size(); ++i) {
      if (engine.program().tensors[i].role == runtime::TensorRole::Activation) return i;
    }
    return std::size_t{0};
  }();
  runtime::Program p = engine.program();
  p.tensors[activation_id].dtype = static_cast<DType>(200);
  expect_refused(encode(p), "program section: dtype 200 out of range");
  p = engine.program();
  p.tensors[activation_id].role = static_cast<runtime::TensorRole>(3);
  expect_refused(encode(p), "program section: tensor role 3 out of range (0..2)");
  p = engine.program();
  p.tensors[activation_id].dims = {-3};
  expect_refused(encode(p), "has dim -3 out of range");
  p = engine.program();
  p.tensors[activation_id].dims = {(std::int64_t{1} << 40) + 1};
  expect_refused(encode(p), "out of range (0..2^40)");
  p = engine.program();
  p.tensors[activation_id].dims = {std::int64_t{1} << 40, std::int64_t{1} << 40};
  expect_refused(encode(p), "is larger than 2^62 bytes");
  p = engine.program();
  p.steps[0].precision = static_cast<runtime::Precision>(runtime::kPrecisionCount);
  expect_refused(encode(p), "program section: precision 3 out of range");
  p = engine.program();  // int8 on a float32 weight
  p.steps[0].precision = runtime::Precision::Int8;
  p.steps[0].quant = {0.5f, false, {1.0f}};
  expect_refused(encode(p), "an int8 step takes a float32 input and an int8 weight");
  p = engine.program();
  ASSERT_EQ(p.steps[0].kind(), LayerKind::Convolution);
  ASSERT_FALSE(p.steps[0].post_ops.empty());
  p.steps[0].post_ops[0].activation.op = static_cast<ActivationOp>(kActivationOpCount);
  expect_refused(encode(p), "program section: activation op " + std::to_string(kActivationOpCount) + " out of range");
  p = engine.program();
  p.steps[0].post_ops[0].kind = static_cast<runtime::PostOpKind>(2);
  expect_refused(encode(p), "program section: post-op kind 2 out of range");
  // Program::validate, after decoding: ids, order, shapes.
  p = engine.program();
  p.steps[0].inputs[0] = 999;
  expect_refused(encode(p), "999");
  p = engine.program();
  std::swap(p.steps[0], p.steps[1]);  // reads before it is produced
  EXPECT_THROW(runtime::Engine::deserialize(encode(p)), FormatError);
  p = engine.program();
  p.tensors[p.steps[0].outputs[0]].dims.push_back(2);
  EXPECT_THROW(runtime::Engine::deserialize(encode(p)), FormatError);
}

TEST(EngineFile, StepKindIsRangeChecked) {
  // Options (12 bytes), tensors (u64 count; name, dtype, dims, role each),
  // steps (u64 count; the first step's name, then its layer kind byte).
  const auto& good = good_file();
  const auto prog = builder::build(mixed()).program();
  std::size_t at = layout_of(good).program + 12 + 8;
  for (const auto& t : prog.tensors) at += 8 + t.name.size() + 1 + 8 + 8 * t.dims.size() + 1;
  at += 8 + 8 + prog.steps[0].name.size();
  ASSERT_EQ(good[at], std::byte{static_cast<std::uint8_t>(prog.steps[0].params.index())});
  auto bad = good;
  put<std::uint8_t>(bad, at, 250);
  expect_refused_resigned(bad, "program section: layer kind 250 out of range");
}

// Weights index entries follow a u64 count; the conv weight w (entry 0) is stored packed.
TEST(EngineFile, WeightsSectionChecks) {
  const auto& good = good_file();
  const Layout l = layout_of(good);
  const std::size_t e0 = l.weights + 8;
  auto bad = good;
  put<std::uint64_t>(bad, l.weights, 1u << 30);
  expect_refused_resigned(bad, "weights section: count 1073741824 exceeds the");
  bad = good;
  put<std::uint64_t>(bad, e0 + 32, 1);
  expect_refused_resigned(bad, "packed dims hold");
  bad = good;
  put<std::uint64_t>(bad, l.weights, 0);
  expect_refused_resigned(bad, "weights section: constant 'w' has no bytes");
  bad = good;
  put<std::uint32_t>(bad, e0, 100000);
  expect_refused_resigned(bad, "entry 0: tensor id 100000 out of range");
  bad = good;
  put<std::uint32_t>(bad, e0, 0);  // tensor 0 is the input x
  expect_refused_resigned(bad, "(tensor 'x') is not a constant");
  bad = good;
  put<std::uint8_t>(bad, e0 + 4, static_cast<std::uint8_t>(DType::Int64));
  expect_refused_resigned(bad, "packed dtype 4 does not fit a float32 weight");
  bad = good;
  put<std::uint8_t>(bad, e0 + 5, 3);
  expect_refused_resigned(bad, "layout 3 out of range (0: plain, 1: packed)");
  bad = good;
  put<std::uint16_t>(bad, e0 + 6, 1);
  expect_refused_resigned(bad, "reserved fields are not zero");
  bad = good;
  put<std::uint64_t>(bad, e0 + 24, 12);
  expect_refused_resigned(bad, "12 bytes, the packed layout needs");
  bad = good;
  put<std::uint64_t>(bad, e0 + 16, 72);
  expect_refused_resigned(bad, "are unaligned or outside the section's data");
  bad = good;
  put<std::uint64_t>(bad, e0 + 16, 0);  // inside the index
  expect_refused_resigned(bad, "are unaligned or outside the section's data");
  bad = good;
  put<std::uint64_t>(bad, e0 + 16, l.weights_size + 64 - l.weights_size % 64);
  expect_refused_resigned(bad, "are unaligned or outside the section's data");
}

}  // namespace
}  // namespace atenrt::testing

namespace atenrt::testing {
namespace {

// Loading maps the file and reads pre-packed weights in place: nothing is
// packed again on the machine that packed them, and the weights' bytes are
// the file's pages.
TEST(EngineFile, LoadMapsPrepackedWeightsWithoutRepacking) {
  for (auto precision : {runtime::Precision::Float32, runtime::Precision::BFloat16}) {
    builder::BuilderConfig config;
    config.precision = precision;
    auto engine = builder::build(resnet_like(), config);
    const std::string path = temp_path("mapped");
    engine.save(path);
    auto loaded = runtime::Engine::load(path);
    std::remove(path.c_str());  // a mapping outlives the name
    const auto built = engine.memory(), m = loaded.memory();
    EXPECT_GT(m.packed_bytes, 0u);
    EXPECT_EQ(m.repacked_weights, 0u) << loaded.load_note();
    EXPECT_TRUE(loaded.load_note().empty()) << loaded.load_note();
    EXPECT_EQ(m.mapped_bytes + m.derived_bytes, m.packed_bytes + m.constant_bytes)
        << "every weight is read from the mapping (but what a kernel derives: Winograd's transforms)";
    EXPECT_EQ(m.packed_bytes, built.packed_bytes);
    // The compiled engine holds its packed weights once: not also their plain bytes
    // (what stays plain is what some kernel reads plain: biases, small constants).
    EXPECT_EQ(built.constant_bytes, m.constant_bytes);
    EXPECT_LT(built.constant_bytes, built.packed_bytes / 10);
    const auto inputs = random_inputs(resnet_like());
    auto a = engine.create_context();
    auto b = loaded.create_context();
    EXPECT_TRUE(bit_identical(a.run(inputs).at("logits"), b.run(inputs).at("logits")));
    if (precision == runtime::Precision::BFloat16 &&
        runtime::cpu_backend().precision_unavailable(precision).empty()) {
      // bf16 engines store their packed weights in bf16: about half of fp32.
      EXPECT_LT(m.packed_bytes, builder::build(resnet_like()).memory().packed_bytes * 6 / 10);
    } else if (precision == runtime::Precision::BFloat16) {
      // No bf16 kernels on this CPU: the layers, and so the weights, stay fp32.
      EXPECT_EQ(m.packed_bytes, builder::build(resnet_like()).memory().packed_bytes);
    }
  }
}

}  // namespace
}  // namespace atenrt::testing

namespace atenrt::testing {
namespace {

// A mapped file truncated under a loaded engine: running is a clean error,
// not a SIGBUS (docs/engine-format.md: replace engine files by renaming).
TEST(EngineFile, TruncatedWhileMappedIsACleanError) {
  auto engine = builder::build(resnet_like());
  const std::string path = temp_path("truncated");
  engine.save(path);
  auto loaded = runtime::Engine::load(path);
  const auto inputs = random_inputs(resnet_like());
  auto ctx = loaded.create_context();
  EXPECT_NO_THROW(ctx.run(inputs));
  ASSERT_EQ(::truncate(path.c_str(), 4096), 0);
  try {
    ctx.run(inputs);
    ADD_FAILURE() << "ran on a truncated mapping";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("shrank while in use"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
  EXPECT_THROW(runtime::Engine::load(path), FormatError);  // and loading it again is refused
  std::remove(path.c_str());
}

}  // namespace
}  // namespace atenrt::testing
