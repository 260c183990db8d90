// Deterministic, seedable random numbers (PCG32: 64-bit LCG state, xorshift + random rotation output).
// std::mt19937 + std::uniform_real_distribution is not guaranteed to give the same sequence on every
// standard library, and every scene must replay identically for a given seed.
#pragma once
#include <cmath>
#include <cstdint>
#include "sim/core/math.hpp"

namespace sim {

class Rng {
 public:
  explicit Rng(uint64_t seed = 1, uint64_t stream = 54) { reseed(seed, stream); }

  void reseed(uint64_t seed, uint64_t stream = 54) {
    state_ = 0;
    increment_ = (stream << 1u) | 1u;
    next();
    state_ += seed;
    next();
  }

  uint32_t next() {
    uint64_t old = state_;
    state_ = old * 6364136223846793005ULL + increment_;
    uint32_t xorshifted = static_cast<uint32_t>(((old >> 18u) ^ old) >> 27u);
    uint32_t rot = static_cast<uint32_t>(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((32u - rot) & 31u));
  }

  // Uniform in [0, 1) with 24 bits, exact in float.
  float uniform() { return static_cast<float>(next() >> 8) * (1.0f / 16777216.0f); }
  float uniform(float lo, float hi) { return lo + (hi - lo) * uniform(); }
  // Uniform integer in [0, n).
  uint32_t below(uint32_t n) { return n ? static_cast<uint32_t>((uint64_t(next()) * n) >> 32) : 0; }

  Vec2 unitVec2() {
    float a = uniform(0.0f, 6.28318530718f);
    return {std::cos(a), std::sin(a)};
  }
  Vec3 unitVec3() {
    float z = uniform(-1.0f, 1.0f);
    float a = uniform(0.0f, 6.28318530718f);
    float s = std::sqrt(std::max(0.0f, 1.0f - z * z));
    return {s * std::cos(a), s * std::sin(a), z};
  }
  template <int D>
  Vec<D> unitVec() {
    if constexpr (D == 2) return unitVec2();
    else return unitVec3();
  }
  template <int D>
  Vec<D> inBox(const Vec<D>& lo, const Vec<D>& hi) {
    Vec<D> r;
    for (int k = 0; k < D; ++k) r[k] = uniform(lo[k], hi[k]);
    return r;
  }

 private:
  uint64_t state_ = 0;
  uint64_t increment_ = 0;
};

}  // namespace sim
