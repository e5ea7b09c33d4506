// The plain weights of a dynamic engine, held once (plain_weights.h).
#include "builder/plain_weights.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <unordered_map>

namespace atenrt::builder {

using network::ConstantParams;
using network::LayerKind;

namespace {

std::uintptr_t page_size() {
  static const std::uintptr_t size = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  return size;
}

std::uintptr_t address(const std::byte* p) { return reinterpret_cast<std::uintptr_t>(p); }

}  // namespace

PlainWeights::PlainWeights(network::Network& net) {
  std::vector<network::Layer*> constants;
  for (network::Layer* layer : net.layers()) {
    if (layer->kind() == LayerKind::Constant) constants.push_back(layer);
  }
  // Which storages something besides the network's constants owns too
  // (counted before this takes any handle of its own).
  std::unordered_map<const Storage*, long> views, owners;
  for (const auto* layer : constants) {
    const Tensor& v = layer->params_as<ConstantParams>().value;
    if (!v.defined() || v.nbytes() == 0) continue;
    ++views[v.storage().get()];
    owners[v.storage().get()] = v.storage().use_count();
  }
  std::unordered_map<const Storage*, std::shared_ptr<Storage>> own;  // shared storage -> this engine's copy
  std::unordered_map<const Storage*, std::size_t> index;             // into held_
  for (network::Layer* layer : constants) {
    Tensor value = layer->params_as<ConstantParams>().value;
    if (!value.defined() || value.nbytes() == 0) continue;
    const Storage* from = value.storage().get();
    if (from->read_only() || owners.at(from) > views.at(from)) {
      auto& copy = own[from];
      if (!copy) {
        copy = std::make_shared<Storage>(std::vector<std::byte>(from->data(), from->data() + from->nbytes()));
      }
      value = Tensor(copy, value.dtype(), value.sizes(), value.strides(), value.storage_offset());
      net.set_params(layer, ConstantParams{value});
    }
    auto [it, added] = index.emplace(value.storage().get(), held_.size());
    if (added) held_.push_back({value.storage(), {}, nullptr, 0});
    held_[it->second].views.push_back(value);
  }
}

void PlainWeights::release(const runtime::SharedWeightPacks& packs) {
  for (auto& h : held_) {
    if (h.pages) continue;
    bool all = true;
    std::uintptr_t begin = UINTPTR_MAX, end = 0;
    for (const auto& v : h.views) {
      all = all && runtime::plain_rebuildable(packs, v);
      begin = std::min(begin, address(v.raw_data()));
      end = std::max(end, address(v.raw_data()) + v.nbytes());
    }
    if (!all) continue;
    // Whole pages only: the ends share theirs with other allocations.
    begin = (begin + page_size() - 1) / page_size() * page_size();
    end = end / page_size() * page_size();
    if (end <= begin) continue;
    auto* pages = reinterpret_cast<std::byte*>(begin);
    if (madvise(pages, end - begin, MADV_DONTNEED) != 0) continue;  // then they stay, as before
    h.pages = pages;
    h.page_bytes = end - begin;
  }
}

void PlainWeights::restore(const runtime::SharedWeightPacks& packs) {
  for (auto& h : held_) {
    if (!h.pages) continue;
    for (const auto& v : h.views) runtime::rebuild_plain(packs, v);
    h.pages = nullptr;
    h.page_bytes = 0;
  }
}

std::size_t PlainWeights::released_in(const Tensor& value) const {
  if (!value.defined()) return 0;
  for (const auto& h : held_) {
    if (h.storage != value.storage() || !h.pages) continue;
    const std::uintptr_t begin = std::max(address(value.raw_data()), address(h.pages));
    const std::uintptr_t end = std::min(address(value.raw_data()) + value.nbytes(), address(h.pages) + h.page_bytes);
    return end > begin ? end - begin : 0;
  }
  return 0;
}

std::size_t PlainWeights::released_bytes() const {
  std::size_t n = 0;
  for (const auto& h : held_) n += h.page_bytes;
  return n;
}

}  // namespace atenrt::builder
