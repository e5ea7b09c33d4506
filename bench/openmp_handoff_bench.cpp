// What one hand-off to the OpenMP team costs when it follows a serial gap, as
// each engine step's parallel region follows the last step: the time a region
// of fixed work takes beyond that work. It depends on how idle threads wait,
// which libgomp reads from the environment when it loads, so compare runs:
//
//   OMP_WAIT_POLICY=passive build/bench/openmp_handoff_bench
//   GOMP_SPINCOUNT=10000    build/bench/openmp_handoff_bench   (what the CLI and Python ask for)
//   build/bench/openmp_handoff_bench                           (libgomp's default: spin ~ms)
//
// Counters: overhead_us per region. The gap argument is the serial time before
// the region (microseconds): short gaps are consecutive steps; long ones are
// a service between requests.
#include <benchmark/benchmark.h>

#include <chrono>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace {

using Clock = std::chrono::steady_clock;

double elapsed_us(Clock::time_point since) {
  return std::chrono::duration<double, std::micro>(Clock::now() - since).count();
}

// Spins on the clock (not sleep): the thread stays busy as a step's own code would.
void busy_for_us(double us) {
  const auto start = Clock::now();
  while (elapsed_us(start) < us) {
  }
}

constexpr double kWorkUs = 50;  // each thread's share of a small step

void BM_RegionAfterGap(benchmark::State& state) {
  const double gap_us = static_cast<double>(state.range(0));
  double overhead_us = 0;
  for (auto _ : state) {
    busy_for_us(gap_us);
    const auto start = Clock::now();
#pragma omp parallel
    busy_for_us(kWorkUs);
    const double region_us = elapsed_us(start);
    overhead_us += region_us - kWorkUs;
    state.SetIterationTime(region_us * 1e-6);
  }
  state.counters["overhead_us"] = benchmark::Counter(overhead_us / static_cast<double>(state.iterations()));
#ifdef _OPENMP
  state.counters["threads"] = omp_get_max_threads();
#endif
}
BENCHMARK(BM_RegionAfterGap)->Arg(5)->Arg(20)->Arg(100)->Arg(1000)->UseManualTime()->Iterations(2000);

}  // namespace

BENCHMARK_MAIN();
