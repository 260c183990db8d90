#include "sim/rules/boids.hpp"

#include "sim/core/lanes.hpp"

namespace sim {

namespace {

// OneRadius: perception, alignment and cohesion all take in the whole search radius (the default),
// so one mask serves the three of them.
template <class L, int D, bool MinImage, bool OneRadius>
CROWDLAB_LANES_INLINE BoidsAccum<D> sumsOverRuns(uint32_t self, const CandidateAxes<D>& axes,
                                                 std::span<const CandidateRun<D>> runs, const Vec<D>& worldSize,
                                                 const BoidsBounds& t, uint32_t& checks) {
  using Floats = typename L::Floats;
  using Ints = typename L::Ints;
  const float* const* axis = axes.position;
  const float* const* vel = axes.velocity;
  Floats p[D], size[D], half[D];
  for (int k = 0; k < D; ++k) {
    p[k] = L::splat(axis[k][self]);
    size[k] = L::splat(worldSize[k]);
    half[k] = L::splat(worldSize[k] * 0.5f);
  }
  const Floats zero = L::splat(0.0f), one = L::splat(1.0f);
  const Floats search = L::splat(t.search), perceivedR = L::splat(t.perceived),
               separationR = L::splat(t.separation), alignmentR = L::splat(t.alignment),
               cohesionR = L::splat(t.cohesion);

  Floats sepSum[D], velSum[D], offSum[D];
  for (int k = 0; k < D; ++k) sepSum[k] = velSum[k] = offSum[k] = zero;
  Ints perceived = L::splat(int32_t(0)), separated = perceived, aligned = perceived, cohered = perceived;
  uint32_t candidates = 0;
  for (const CandidateRun<D>& run : runs) {
    candidates += run.end - run.begin;
    Floats shift[D];
    for (int k = 0; k < D; ++k) shift[k] = L::splat(run.shift[k]);
    // One register of candidates from j; `live` masks off lanes past the run's end.
    auto lanesAt = [&](uint32_t j, Ints live) CROWDLAB_LANES_INLINE_LAMBDA {
      Floats off[D];
      Floats d2 = zero;
      for (int k = 0; k < D; ++k) {
        Floats d = L::load(axis[k] + j) - p[k];
        if constexpr (MinImage) {
          d = L::choose(d > half[k], d - size[k], L::choose(d < -half[k], d + size[k], d));
        } else {
          d = d + shift[k];
        }
        off[k] = d;
        d2 = k == 0 ? d * d : d2 + d * d;  // glm::dot's order
      }
      const Ints valid = live & (d2 > zero) & (d2 <= search);  // coincident agents give no direction
      const Ints sep = valid & (d2 <= separationR);
      const Ints ali = OneRadius ? valid : valid & (d2 <= alignmentR);
      const Ints coh = OneRadius ? valid : valid & (d2 <= cohesionR);
      const Floats inv = L::keep(sep, one / d2);  // lanes at distance 0 divide by zero, and are dropped
      for (int k = 0; k < D; ++k) {
        sepSum[k] -= off[k] * inv;
        velSum[k] += L::keep(ali, L::load(vel[k] + j));
        offSum[k] += L::keep(coh, off[k]);
      }
      perceived -= OneRadius ? valid : valid & (d2 <= perceivedR);  // a true mask is -1
      separated -= sep;
      if constexpr (!OneRadius) {
        aligned -= ali;
        cohered -= coh;
      }
    };
    uint32_t j = run.begin;
    for (; j + lanes::kLanes <= run.end; j += lanes::kLanes) lanesAt(j, L::allLanes());
    if (j < run.end) lanesAt(j, L::firstLanes(run.end - j));
  }
  checks = candidates - 1;  // every candidate but the agent itself

  BoidsAccum<D> acc;
  for (int k = 0; k < D; ++k) {
    acc.separationSum[k] = L::sum(sepSum[k]);
    acc.velocitySum[k] = L::sum(velSum[k]);
    acc.offsetSum[k] = L::sum(offSum[k]);
  }
  acc.perceivedCount = L::sum(perceived);
  acc.separationCount = L::sum(separated);
  acc.alignmentCount = OneRadius ? acc.perceivedCount : L::sum(aligned);
  acc.cohesionCount = OneRadius ? acc.perceivedCount : L::sum(cohered);
  return acc;
}

// Picks the variant: minimum image per agent or not, one radius for three rules or not.
template <class L, int D>
CROWDLAB_LANES_INLINE BoidsAccum<D> pickSums(uint32_t self, const CandidateAxes<D>& axes,
                                             std::span<const CandidateRun<D>> runs, bool minImage,
                                             const Vec<D>& worldSize, const BoidsBounds& t, uint32_t& checks) {
  const bool oneRadius = t.perceived >= t.search && t.alignment >= t.search && t.cohesion >= t.search;
  if (minImage) {
    return oneRadius ? sumsOverRuns<L, D, true, true>(self, axes, runs, worldSize, t, checks)
                     : sumsOverRuns<L, D, true, false>(self, axes, runs, worldSize, t, checks);
  }
  return oneRadius ? sumsOverRuns<L, D, false, true>(self, axes, runs, worldSize, t, checks)
                   : sumsOverRuns<L, D, false, false>(self, axes, runs, worldSize, t, checks);
}

template <int D>
BoidsAccum<D> sumsBaseline(uint32_t self, const CandidateAxes<D>& axes, std::span<const CandidateRun<D>> runs,
                           bool minImage, const Vec<D>& worldSize, const BoidsBounds& t, uint32_t& checks) {
  return pickSums<lanes::Baseline, D>(self, axes, runs, minImage, worldSize, t, checks);
}

template <int D>
CROWDLAB_LANES_AVX2 BoidsAccum<D> sumsAvx2(uint32_t self, const CandidateAxes<D>& axes,
                                           std::span<const CandidateRun<D>> runs, bool minImage,
                                           const Vec<D>& worldSize, const BoidsBounds& t, uint32_t& checks) {
  return pickSums<lanes::Avx2, D>(self, axes, runs, minImage, worldSize, t, checks);
}

}  // namespace

template <int D>
BoidsAccum<D> laneSums(uint32_t self, const CandidateAxes<D>& axes, std::span<const CandidateRun<D>> runs,
                       bool minImage, const Vec<D>& worldSize, const BoidsBounds& bounds, uint32_t& checks) {
  return lanes::wide() ? sumsAvx2<D>(self, axes, runs, minImage, worldSize, bounds, checks)
                       : sumsBaseline<D>(self, axes, runs, minImage, worldSize, bounds, checks);
}

template BoidsAccum<2> laneSums<2>(uint32_t, const CandidateAxes<2>&, std::span<const CandidateRun<2>>, bool,
                                   const Vec<2>&, const BoidsBounds&, uint32_t&);
template BoidsAccum<3> laneSums<3>(uint32_t, const CandidateAxes<3>&, std::span<const CandidateRun<3>>, bool,
                                   const Vec<3>&, const BoidsBounds&, uint32_t&);

}  // namespace sim
