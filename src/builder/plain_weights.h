// A dynamic engine holds each weight once (docs/dynamic-shapes.md,
// "Weights"). Its network keeps the plain weights (specializations are made
// from it, and engine files store it), and its specializations share one
// store of packs keyed by the plain bytes' address. Once every kernel made
// so far reads a weight packed, its plain pages are given back to the system
// (madvise: the address, the packs' key, stays reserved, so no other
// weight can take it) and written again from a pack, exactly, before anything
// reads them: a new specialization, or saving. Between those, the engine
// holds the packs only, as a static engine does.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <vector>

#include "network/network.h"
#include "runtime/openmp.h"
#include "runtime/shared_weight_packs.h"

namespace atenrt::builder {

class PlainWeights {
 public:
  PlainWeights() = default;
  // Takes the network's constants. A storage that anything else may read
  // (shared with the caller's graph or a torch segment, or a view of a file)
  // is copied first, so that pages given back are read by this engine only.
  explicit PlainWeights(network::Network& net);

  // After a specialization was made: gives back the pages of every storage
  // whose weights can all be written again from `packs`.
  void release(const runtime::SharedWeightPacks& packs);
  // Before the plain weights are read: writes back what release gave away.
  void restore(const runtime::SharedWeightPacks& packs);

  // Bytes of `value` (a view of a taken storage) given back now.
  std::size_t released_in(const Tensor& value) const;
  std::size_t released_bytes() const;

  // Restores now, releases again when it ends (also when what it guards
  // throws). `threads`: the engine's thread count (EngineOptions), which the
  // restoring reorders, and whatever is built meanwhile, run under.
  class Reading {
   public:
    Reading(PlainWeights& plain, const runtime::SharedWeightPacks& packs, int threads)
        : threads_(threads), plain_(plain), packs_(packs) {
      plain_.restore(packs_);
    }
    ~Reading() { plain_.release(packs_); }
    Reading(const Reading&) = delete;
    Reading& operator=(const Reading&) = delete;

   private:
    runtime::ScopedOpenMpThreads threads_;
    PlainWeights& plain_;
    const runtime::SharedWeightPacks& packs_;
  };

 private:
  struct Held {
    std::shared_ptr<Storage> storage;
    std::vector<Tensor> views;    // the network's constants over it
    std::byte* pages = nullptr;   // released: the whole pages inside it
    std::size_t page_bytes = 0;
  };
  std::vector<Held> held_;
};

}  // namespace atenrt::builder
