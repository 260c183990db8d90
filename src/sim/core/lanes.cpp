#include "sim/core/lanes.hpp"

namespace sim::lanes {
namespace {
bool wideAllowed = true;
}  // namespace

bool wide() {
#if CROWDLAB_LANES_DISPATCH
  static const bool hasAvx2 = __builtin_cpu_supports("avx2");
  return wideAllowed && hasAvx2;
#else
  return false;
#endif
}

void setWide(bool allowed) { wideAllowed = allowed; }

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
