#include "sim/core/lanes.hpp"

namespace sim::lanes {
namespace {
bool cpuHasAvx2() {
#if CROWDLAB_LANES_DISPATCH
  __builtin_cpu_init();  // this may run before the runtime's own initialisation of the CPU model
  return __builtin_cpu_supports("avx2");
#else
  return false;
#endif
}
}  // namespace

// A kernel run before this is initialised (another file's static initialiser) reads false and takes
// the baseline build, which gives the same bits.
std::atomic<bool> detail::gWide{cpuHasAvx2()};

void setWide(bool allowed) { detail::gWide.store(allowed && cpuHasAvx2(), std::memory_order_relaxed); }

const char* name() {
#if defined(CROWDLAB_LANES_PORTABLE) || !(defined(__GNUC__) || defined(__clang__))
  return "portable-x8";
#elif defined(__AVX2__)
  return "avx2-x8";
#elif defined(__x86_64__)
  return wide() ? "avx2-x8" : "sse2-x8";
#elif defined(__wasm_simd128__)
  return "simd128-x8";
#else
  return "vector-x8";
#endif
}

}  // namespace sim::lanes
