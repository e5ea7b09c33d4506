// Contexts on several threads running one engine, each at its own inputs
// (shapes, counts), must give what one context gives running them one at a
// time: the check the dynamic, data-dependent and hybrid tests share.
#pragma once

#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "atenrt/atenrt.h"

namespace atenrt::testing {

// Each of `threads` contexts runs `rounds` of the input sets, starting at
// its own offset; every output is compared byte for byte.
inline void expect_threads_agree_with_one_at_a_time(const Engine& engine, const std::vector<std::vector<Tensor>>& inputs,
                                                    int threads = 4, int rounds = 6) {
  std::vector<std::vector<std::vector<std::byte>>> want(inputs.size());
  {
    ExecutionContext ctx = engine.create_context();
    for (std::size_t k = 0; k < inputs.size(); ++k) {
      for (const auto& t : ctx.run(inputs[k])) want[k].push_back(t.contiguous().to_bytes());
    }
  }
  std::vector<int> mismatches(static_cast<std::size_t>(threads), 0);
  std::vector<std::thread> running;
  for (int t = 0; t < threads; ++t) {
    running.emplace_back([&, t] {
      ExecutionContext ctx = engine.create_context();
      for (int round = 0; round < rounds; ++round) {
        const std::size_t k = static_cast<std::size_t>(t * 3 + round) % inputs.size();
        const auto& out = ctx.run(inputs[k]);
        for (std::size_t o = 0; o < out.size(); ++o) mismatches[static_cast<std::size_t>(t)] += out[o].contiguous().to_bytes() != want[k][o];
      }
    });
  }
  for (auto& th : running) th.join();
  for (int t = 0; t < threads; ++t) EXPECT_EQ(mismatches[static_cast<std::size_t>(t)], 0) << "thread " << t;
}

}  // namespace atenrt::testing
