// Engine weights: the pre-packed forms the kernels share (cpu/weight_packs.h),
// which constants some kernel reads plain, the memory they cost, and the
// mapped file behind a loaded engine.
#include <cstdio>

#include "atenrt/errors.h"
#include "runtime/engine_impl.h"

namespace atenrt::runtime {

namespace {

std::string megabytes(std::size_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MB", static_cast<double>(bytes) / 1e6);
  return text;
}

}  // namespace

void Engine::Impl::begin_weights() {
  if (!packs) packs = std::make_shared<cpu::WeightPacks>();
  read_plain.assign(program.tensors.size(), false);
  for (int id : program.outputs) read_plain[id] = true;
  if (!file) return;
  for (const auto& [id, pack] : file->packs) packs->add_stored(&program.tensors[id], pack, file->owner);
}

void Engine::Impl::note_weight_uses(const Step& step, bool packing_kernel) {
  for (int id : step.inputs) {
    const auto* t = &program.tensors[id];
    if (t->role == TensorRole::Constant && !(packing_kernel && packs->packed_in_step(t))) read_plain[id] = true;
  }
}

void Engine::Impl::drop_plain_if_packed(int id) {
  // A compiled engine keeps a weight once: packed, when every kernel reads
  // the pack (and a file can name its layout), not also plain. Engines that
  // share the store (dynamic shapes' specializations) keep the plain bytes:
  // later specializations find their packs by them.
  if (file || packs.use_count() != 1) return;
  auto& t = program.tensors[id];
  if (t.role != TensorRole::Constant || read_plain[id] || !t.value.defined() || !packs->for_file(&t)) return;
  t.pack_key = t.value.raw_data();
  if (!packs->release_plain(&t)) {
    t.pack_key = nullptr;
    return;
  }
  t.value = Tensor();
  t.stored_packed = true;
}

void Engine::Impl::finish_weights() {
  // Most were dropped as their last step was made (compile()); the rest now.
  for (std::size_t i = 0; i < program.tensors.size(); ++i) drop_plain_if_packed(static_cast<int>(i));
  const bool mapped = file && file->mapping;
  memory.constant_bytes = 0;
  memory.mapped_bytes = 0;
  for (std::size_t i = 0; i < program.tensors.size(); ++i) {
    const auto& t = program.tensors[i];
    if (t.role != TensorRole::Constant) continue;
    if (t.stored_packed && read_plain[i]) {
      // Only when this machine's oneDNN could not make the kernel the file
      // was packed for: the plain bytes are not in the file.
      throw FormatError("engine file: weight '" + t.name +
                        "' is stored pre-packed only, but a kernel on this machine reads it plain; compile the "
                        "engine again from its .pt2 here");
    }
    if (!t.value.defined()) continue;
    if (read_plain[i]) packs->note_read_plain(&t);  // engines sharing the store keep its bytes
    memory.constant_bytes += tensor_bytes(t);
    if (mapped && t.value.storage()->read_only()) memory.mapped_bytes += tensor_bytes(t);
  }
  const auto totals = packs->totals();
  memory.packed_bytes = totals.mapped_bytes + totals.private_bytes;
  if (mapped) memory.mapped_bytes += totals.mapped_bytes;
  memory.repacked_weights = totals.repacked;
  packs->finish();
  if (file && totals.repacked) {
    const bool same_cpu = file->packing_key == cpu::packing_key();
    load_note = "repacked " + std::to_string(totals.repacked) + " weights (" + megabytes(totals.private_bytes) +
                " in memory): " +
                (same_cpu ? "this build of atenrt picks other kernels for them than the one that wrote the file "
                            "(compile it again to store them packed)"
                          : "packed for " + cpu::packing_key_name(file->packing_key) + ", this CPU wants " +
                                cpu::packing_key_name(cpu::packing_key()));
  }
}

void Engine::Impl::check_file() const {
  if (file && file->mapping && file->mapping->damaged()) {
    throw FormatError("engine file '" + file->mapping->path() +
                      "' shrank while in use (truncated or rewritten in place), and its weights are gone; replace "
                      "engine files by writing a new file and renaming it over the old one (docs/engine-format.md)");
  }
}

}  // namespace atenrt::runtime
