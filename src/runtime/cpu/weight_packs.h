// Weights in the layouts the kernels read (pre-packed): made once per Engine,
// shared by its kernels, and written to engine files so that loading maps
// them instead of packing again (docs/engine-format.md, "packed weights").
//
// While an Engine is made, the oneDNN wrapper asks for each constant it wants
// packed (onednn/weight_packs.h); the pack comes from the file when one with
// exactly that layout was stored (no copy: the kernel reads the mapped
// pages), is repacked from the stored layout when this CPU wants another, or
// is packed from the plain constant. A constant that some kernel reads plain
// is stored plain.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/program.h"

namespace atenrt::runtime::cpu {

// A weight as stored packed in an engine file.
struct StoredPack {
  std::uint32_t tag = 0;  // oneDNN format tag (of the oneDNN named by the file's packing key)
  DType dtype = DType::Float32;
  Dims dims;              // the packed form's logical dims ([g,] O, I, k... for convolutions)
  const std::byte* data = nullptr;
  std::size_t bytes = 0;
};

// What a weight looks like packed, for the file writer.
struct PackForFile {
  std::uint32_t tag = 0;
  DType dtype = DType::Float32;
  Dims dims;
  const std::byte* data = nullptr;
  std::size_t bytes = 0;
};

// Which weight a pack belongs to: its plain storage (shared by every program
// made from one network) with its dims and dtype, or the program tensor
// itself for a weight a file holds only packed.
struct WeightKey {
  const void* data = nullptr;
  Dims dims;
  DType dtype = DType::Float32;
  auto operator<=>(const WeightKey&) const = default;
};
WeightKey weight_key(const ProgramTensor& tensor);
WeightKey weight_key(const Tensor& value);  // a contiguous plain constant (as the program tensor made from it)

class WeightPacks {
 public:
  WeightPacks();
  ~WeightPacks();
  WeightPacks(const WeightPacks&) = delete;
  WeightPacks& operator=(const WeightPacks&) = delete;

  // Loading: a pack from the file (checked by check_stored_pack), whose bytes
  // `owner` keeps alive.
  void add_stored(const ProgramTensor* tensor, const StoredPack& pack, std::shared_ptr<const void> owner);

  // Making kernels: packs asked for between begin_step and end_step belong
  // to that step's kernel if it was made (kept = true), else are dropped.
  void begin_step();
  void end_step(bool kept);
  bool packed_in_step(const ProgramTensor* tensor) const;
  // After all kernels: stored packs no kernel took are released.
  void finish();

  // A weight the file holds only packed (no plain bytes).
  bool has_stored(const ProgramTensor* tensor) const;

  // The one pack of a constant that every packing kernel shares, when it has
  // a oneDNN format tag (so a file can name its layout).
  std::optional<PackForFile> for_file(const ProgramTensor* tensor) const;

  // A compiled engine whose store no other engine shares, after all kernels:
  // the packs of `tensor` stop holding its plain bytes. False (nothing done)
  // when it has no pack or a kernel reads the plain bytes themselves. Only
  // then may the caller drop them (no later pack can collide with the
  // freed address: this store makes no more packs).
  bool release_plain(const ProgramTensor* tensor);

  // Dynamic engines hold each weight once (builder/plain_weights.h): the
  // plain bytes of a weight whose kernels all read packs are given back and
  // written again from a pack before anything reads them.
  // A constant some kernel made with this store reads plain (its bytes must stay).
  void note_read_plain(const ProgramTensor* tensor);
  // Whether `value`'s plain bytes can be written back from its packs: it has
  // packs, none aliases the plain bytes, no kernel reads them plain, and one
  // was reordered losslessly (same dtype) from all of them.
  bool can_rebuild_plain(const Tensor& value) const;
  // Writes them back, in place (value's own bytes). Only when can_rebuild_plain.
  void rebuild_plain(const Tensor& value) const;

  struct Totals {
    std::size_t mapped_bytes = 0;    // packs read in place from a mapped file
    std::size_t private_bytes = 0;   // packs made in memory (at build, or repacked at load)
    std::size_t repacked = 0;        // stored packs this CPU wanted in another layout
  };
  Totals totals() const;

  struct Impl;  // oneDNN-typed (onednn/weight_packs.cpp)
  Impl& impl() { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

// The packing key of this build and CPU: oneDNN's version and the ISA its
// kernels use (weights packed under one key are read in place under the same).
std::uint32_t packing_key();
std::string packing_key_name(std::uint32_t key);  // "oneDNN 2.6 avx512_core_amx"
// Whether a file's key can be read here at all (the format tags are those of
// one oneDNN major.minor); other ISAs are repacked.
bool packing_key_readable(std::uint32_t key);
// Checks a stored pack against its tensor (tag, dtype, dims, size); throws
// FormatError with `what` (the entry) in the message.
void check_stored_pack(const StoredPack& pack, const ProgramTensor& tensor, const std::string& what);

}  // namespace atenrt::runtime::cpu
