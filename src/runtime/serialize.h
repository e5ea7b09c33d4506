// Internal: the engine file container (docs/engine-format.md is the spec).
//
// A file is a 64-byte header, a table of sections and the sections' payloads.
// Every section carries its offset, size, alignment and a CRC-32C; the header
// and the table have CRCs of their own. parse_container() checks all of it
// (bounds, overlap, alignment, every checksum, version and required-section
// rules) before anything reads a payload.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "runtime/engine.h"

namespace atenrt::runtime::file {

inline constexpr char kMagic[8] = {'A', 'T', 'E', 'N', 'R', 'T', 'E', '\0'};
// Major: a reader reads exactly its own major version. Minor: newer minors
// only add optional sections, so any minor of the same major is read.
inline constexpr std::uint16_t kFormatMajor = 2;
inline constexpr std::uint16_t kFormatMinor = 0;
inline constexpr std::size_t kHeaderBytes = 64;
inline constexpr std::size_t kSectionEntryBytes = 48;
inline constexpr std::size_t kMaxSections = 4096;
inline constexpr std::uint32_t kPageAlignment = 4096;  // weight sections (mappable)
inline constexpr std::uint32_t kWeightAlignment = 64;  // each weight inside its section

enum class SectionKind : std::uint32_t {
  Program = 1,        // options, tensors, steps, bindings
  Weights = 2,        // constant tensors for one (isa, precision)
  // Reserved for later issues; a reader that does not know a kind skips it
  // unless the entry's Required flag is set, then it refuses the file.
  Ranges = 3,         // symbolic dimensions (dynamic shapes)
  TorchSegments = 4,  // fallback segments of hybrid engines
  Calibration = 5,    // int8 calibration scales
  Metadata = 6,       // optional: the API's metadata text (the Python package's output structure)
  PluginKernels = 7,  // the plugin kernels a program's Plugin steps need (format 2.3)
};
std::string section_kind_name(std::uint32_t kind);

inline constexpr std::uint32_t kSectionRequired = 1;  // flags: refuse if the kind is unknown

// Features a file's kernels need from the CPU (header.required_features).
inline constexpr std::uint32_t kFeatureBf16 = 1;  // bf16 compute: oneDNN needs avx512_core
inline constexpr std::uint32_t kFeatureInt8 = 2;  // int8 steps (readers before it refuse the file)
// Int8 step records carry an output scale (Quantization::output_scale):
// readers before it would misread them, so they refuse the file.
inline constexpr std::uint32_t kFeatureInt8OutputScales = 4;
inline constexpr std::uint32_t kKnownFeatures = kFeatureBf16 | kFeatureInt8 | kFeatureInt8OutputScales;

// The layouts a weights section's packed weights are in: Portable (0) means
// plain layouts only, that any CPU reads (packing then happens at load);
// otherwise a packing key, cpu::packing_key(): oneDNN's major.minor in the
// high 16 bits (format tags are numbered per oneDNN version) and the ISA its
// kernels were chosen for in the low 16.
enum class PackIsa : std::uint32_t { Portable = 0 };

enum class WeightPrecision : std::uint32_t { Float32 = 0, BFloat16 = 1, Int8 = 2 };

struct Section {
  std::uint32_t kind = 0;
  std::uint32_t flags = 0;
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
  std::uint32_t alignment = 8;
  std::uint32_t checksum = 0;  // CRC-32C of the payload
  std::uint32_t isa = 0;       // Weights: PackIsa
  std::uint32_t precision = 0; // Weights: WeightPrecision
};

struct Header {
  std::uint16_t major = kFormatMajor;
  std::uint16_t minor = kFormatMinor;
  std::uint64_t file_bytes = 0;
  std::uint32_t required_features = 0;
  std::string producer;  // "atenrt 0.1.0" (at most 15 bytes)
};

// A parsed, verified container over bytes owned by the caller.
struct Container {
  Header header;
  std::vector<Section> sections;
  std::span<const std::byte> bytes;
  std::span<const std::byte> payload(const Section& s) const { return bytes.subspan(s.offset, s.size); }
  // The one section of a kind (null if absent; more than one is refused by parse).
  const Section* find(SectionKind kind) const;
};

// Checks the header, table and every section (checksums included) and the
// version and feature rules; throws FormatError("engine file: ...").
Container parse_container(std::span<const std::byte> bytes);

// A section to write: its payload comes from `write`, called with a sink.
class Sink {
 public:
  virtual ~Sink() = default;
  virtual void write(const void* data, std::size_t n) = 0;
};

struct SectionSource {
  Section entry;  // kind, flags, alignment, isa, precision; the rest is computed
  std::uint64_t size = 0;
  // Writes exactly `size` bytes. Called twice: once to checksum, once to write.
  std::function<void(Sink&)> write;
};

// Lays out and writes a whole file: header, table, aligned payloads.
void write_container(Sink& out, const Header& header, const std::vector<SectionSource>& sections);

// The whole file of a program (Engine::serialize without an Engine: tests use
// it to write programs that the loader must refuse).
std::vector<std::byte> encode_engine(const Program& program, const EngineOptions& options);

std::uint32_t crc32c(const std::byte* data, std::size_t n, std::uint32_t crc = 0);

// Writes `path` through `write` into a file beside it, synced, then renamed
// over it: a process that has the old file mapped keeps its pages, and no
// reader ever sees half a file.
void save_atomically(const std::string& path, const std::function<void(Sink&)>& write);

// ---- plugin kernels (format 2.3; serialize_plugins.cpp)
//
// A program with Plugin steps is written with a required plugin-kernels
// section listing the kernels it needs, so that a reader without plugin
// layers refuses it naming the section, and a reader with them says which
// plugin to load before it decodes anything else.
inline constexpr std::uint16_t kPluginMinor = 3;
// The section for `program`, or nullopt when it has no Plugin step.
std::optional<SectionSource> plugin_kernels_section(const Program& program);
// Throws UnsupportedError naming the plugin, the kernel and a layer that
// needs it when a kernel the section lists is not loaded; FormatError when
// the section is malformed.
void check_plugin_kernels(std::span<const std::byte> payload);
// Checks a decoded program's Plugin steps against the file: a Plugin step
// needs the section; a malformed step is a FormatError, an unloaded kernel
// an UnsupportedError naming the step.
void check_plugin_steps(const Program& program, bool has_section);

// ---- dynamic-shape engines (format 2.2)
//
// The shape-independent network, as a Program whose dims may be -1 (dynamic)
// and whose steps have no post-ops (those are per-shape decisions), with its
// weights plain, plus a required Ranges section whose payload the builder
// defines (builder/dynamic_engine_file.cpp). A reader of plain engines
// refuses the file naming kDynamicFileMarker.
inline constexpr std::uint16_t kDynamicMinor = 2;
inline constexpr const char* kDynamicFileMarker = "holds a dynamic-shape engine";
void write_dynamic_file(Sink& out, const Program& program, const EngineOptions& options,
                        const std::vector<std::byte>& ranges, const std::string& metadata = {});
struct DynamicFile {
  Program program;  // tensors and steps checked for ids, roles and dims; layers not yet inferred
  EngineOptions options;
  std::span<const std::byte> ranges;  // the Ranges section's payload (views the file)
};
// Constants view `bytes`, which `owner` keeps alive.
DynamicFile read_dynamic_file(std::span<const std::byte> bytes, std::shared_ptr<const void> owner);

std::string producer_string();  // "atenrt <version>"

// ---- metadata (an optional section, any file kind)
//
// Text the API stores with an engine (atenrt::Engine::with_metadata; the
// Python package writes JSON). Readers that do not know the kind skip it.
inline constexpr std::size_t kMaxMetadataBytes = std::size_t{1} << 20;
// The section to add to a file's sections; `text` at most kMaxMetadataBytes.
SectionSource metadata_section(const std::string& text);
// The metadata of the engine file at `path` ("" when it has none), read with
// the header, table and section checksums verified; FormatError otherwise.
std::string read_metadata(const std::string& path);

}  // namespace atenrt::runtime::file
