#include "sim/core/lanes.hpp"

#include <algorithm>

namespace sim::lanes {
namespace {
Level cpuBest() {
#if CROWDLAB_LANES_DISPATCH
  __builtin_cpu_init();  // this may run before the runtime's own initialisation of the CPU model
#if CROWDLAB_LANES_HAS_AVX512
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512dq"))
    return Level::Avx512;
#endif
  if (__builtin_cpu_supports("avx2")) return Level::Avx2;
#endif
  return Level::Baseline;
}
const Level kBest = cpuBest();
constexpr Level kAll[] = {Level::Baseline, Level::Avx2, Level::Avx512};
}  // namespace

// A kernel run before this is initialised (another file's static initialiser) reads Baseline and
// takes the baseline build, which gives the same bits. (kBest, defined above in this file, is set first.)
std::atomic<Level> detail::gLevel{kBest};

Level best() { return kBest; }
std::span<const Level> available() { return std::span<const Level>(kAll, size_t(kBest) + 1); }
void setLevel(Level highest) { detail::gLevel.store(std::min(highest, kBest), std::memory_order_relaxed); }
void setWide(bool allowed) { setLevel(allowed ? kBest : Level::Baseline); }

const char* name() {
#if defined(CROWDLAB_LANES_PORTABLE) || !(defined(__GNUC__) || defined(__clang__))
  return "portable-x8";
#elif defined(__AVX2__)
  return "avx2-x8";
#elif defined(__x86_64__)
  switch (level()) {
    case Level::Avx512: return "avx512-x8";
    case Level::Avx2: return "avx2-x8";
    default: return "sse2-x8";
  }
#elif defined(__wasm_simd128__)
  return "simd128-x8";
#else
  return "vector-x8";
#endif
}

}  // namespace sim::lanes
