// The one boids rule (boidsSteering, boids.hpp) for a register of agents at once, an agent a lane:
// the same operations in the same order, so the same bits, with masks instead of branches. The
// flock's integrateLanes (boids.cpp), the murmuration and the finale's stages call it.
#pragma once
#include "sim/core/lanes.hpp"
#include "sim/rules/boids.hpp"

namespace sim {

// A register of agents' neighbourhood sums (BoidsAccum), one field at a time.
template <class L, int D>
struct BoidsLaneSums {
  typename L::Floats separation[D], velocity[D], offset[D];
  typename L::Ints separated;            // true where separationCount > 0
  typename L::Floats aligned, cohered;   // alignmentCount, cohesionCount
};

template <class L, int D>
CROWDLAB_LANES_INLINE typename L::Floats dotLanes(const typename L::Floats (&v)[D]) {
  typename L::Floats r = v[0] * v[0];
  for (int k = 1; k < D; ++k) r = r + v[k] * v[k];  // glm::dot's order
  return r;
}

// boidsSteering, lane for lane: separationRule, alignmentRule and cohesionRule (safeNormalize or
// clampLength to 1, softNormalize), weighted and added. Lanes a scalar branch would skip compute
// anyway and are dropped by a mask (their infinities and NaNs included).
template <class L, int D>
CROWDLAB_LANES_INLINE void boidsSteeringLanes(const BoidsLaneSums<L, D>& s, const typename L::Floats (&velocity)[D],
                                              typename L::Floats wSeparation, typename L::Floats wAlignment,
                                              typename L::Floats wCohesion, const BoidsShape& shape,
                                              typename L::Floats (&out)[D]) {
  using Floats = typename L::Floats;
  using Ints = typename L::Ints;
  const Floats zero = L::splat(0.0f), one = L::splat(1.0f), tiny = L::splat(1e-12f);
  Floats sep[D], ali[D], coh[D];
  {
    for (int k = 0; k < D; ++k) sep[k] = s.separation[k];
    const Floats l2 = dotLanes<L, D>(sep);
    const Floats inv = one / L::sqrt(l2);
    if (shape.law == SeparationLaw::InverseDistance) {
      const Ints keep = s.separated & (l2 > tiny);  // safeNormalize
      for (int k = 0; k < D; ++k) sep[k] = L::keep(keep, sep[k] * inv);
    } else {
      const Ints over = (l2 > one) & (l2 > zero);  // clampLength(sum, 1)
      for (int k = 0; k < D; ++k) sep[k] = L::keep(s.separated, L::choose(over, sep[k] * inv, sep[k]));
    }
  }
  // softNormalize of the mean velocity's difference and of the mean offset.
  auto softNormalizeMean = [&](Floats(&v)[D], const Floats (&sum)[D], Floats count, const Floats* minus,
                               float fade) CROWDLAB_LANES_INLINE_LAMBDA {
    const Floats scale = L::splat(fade);
    for (int k = 0; k < D; ++k) v[k] = minus ? sum[k] / count - minus[k] : sum[k] / count;
    const Floats len = L::sqrt(dotLanes<L, D>(v));
    const Floats by = L::choose(len > scale, len, scale);
    const Ints keep = (count > zero) & (len > tiny);
    for (int k = 0; k < D; ++k) v[k] = L::keep(keep, v[k] / by);
  };
  softNormalizeMean(ali, s.velocity, s.aligned, velocity, shape.alignmentFade);
  softNormalizeMean(coh, s.offset, s.cohered, nullptr, shape.cohesionFade);
  for (int k = 0; k < D; ++k) out[k] = wSeparation * sep[k] + wAlignment * ali[k] + wCohesion * coh[k];
}

// Up to lanes::kLanes agents' BoidsAccum, an agent a lane (lanes past `count` hold zero sums).
template <class L, int D>
CROWDLAB_LANES_INLINE BoidsLaneSums<L, D> boidsLaneSumsOf(const BoidsAccum<D>* sums, uint32_t count) {
  constexpr int kL = lanes::kLanes;
  alignas(32) float sep[D][kL] = {}, vel[D][kL] = {}, off[D][kL] = {}, aligned[kL] = {}, cohered[kL] = {};
  alignas(32) uint32_t separated[kL] = {};
  for (uint32_t l = 0; l < count; ++l) {
    const BoidsAccum<D>& a = sums[l];
    for (int k = 0; k < D; ++k) {
      sep[k][l] = a.separationSum[k];
      vel[k][l] = a.velocitySum[k];
      off[k][l] = a.offsetSum[k];
    }
    aligned[l] = float(a.alignmentCount);
    cohered[l] = float(a.cohesionCount);
    separated[l] = uint32_t(a.separationCount);
  }
  BoidsLaneSums<L, D> s;
  for (int k = 0; k < D; ++k) {
    s.separation[k] = L::load(sep[k]);
    s.velocity[k] = L::load(vel[k]);
    s.offset[k] = L::load(off[k]);
  }
  s.separated = L::load(separated) != L::splat(int32_t(0));
  s.aligned = L::load(aligned);
  s.cohered = L::load(cohered);
  return s;
}

}  // namespace sim
