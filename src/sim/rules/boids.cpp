#include "sim/rules/boids.hpp"

#include <bit>

#include "sim/core/lanes.hpp"
#include "sim/rules/boids_lanes.hpp"

namespace sim {

namespace {

// What a pass collects besides the sums.
enum class Extras { None, Close, CloseAndKeys };

// OneRadius: perception, alignment and cohesion all take in the whole search radius (the default),
// so one mask serves the three of them. Close: count candidates within bounds.close; Keys: also the
// nearest candidates (NearKeysRequest).
template <class L, int D, bool MinImage, bool OneRadius, SeparationLaw Law, Extras Extra>
CROWDLAB_LANES_INLINE BoidsAccum<D> sumsOverRuns(const Vec<D>& self, const CandidateAxes<D>& axes,
                                                 std::span<const CandidateRun<D>> runs, const Vec<D>& worldSize,
                                                 const BoidsBounds& t, uint32_t& checks, int& closeCount,
                                                 const NearKeysRequest* nearKeys) {
  constexpr bool Close = Extra != Extras::None, Keys = Extra == Extras::CloseAndKeys;
  using Floats = typename L::Floats;
  using Ints = typename L::Ints;
  const float* const* axis = axes.position;
  const float* const* vel = axes.velocity;
  Floats p[D], size[D], half[D];
  for (int k = 0; k < D; ++k) {
    p[k] = L::splat(self[k]);
    size[k] = L::splat(worldSize[k]);
    half[k] = L::splat(worldSize[k] * 0.5f);
  }
  const Floats zero = L::splat(0.0f), one = L::splat(1.0f);
  const Floats search = L::splat(t.search), perceivedR = L::splat(t.perceived),
               separationR = L::splat(t.separation), alignmentR = L::splat(t.alignment),
               cohesionR = L::splat(t.cohesion), closeR = L::splat(t.close), invSep = L::splat(t.inverseSeparation);

  Floats sepSum[D], velSum[D], offSum[D];
  for (int k = 0; k < D; ++k) sepSum[k] = velSum[k] = offSum[k] = zero;
  Ints perceived = L::splat(int32_t(0)), separated = perceived, aligned = perceived, cohered = perceived,
       close = perceived;
  uint32_t candidates = 0;
  const Floats keyRange = L::splat(Keys ? nearKeys->rangeSq : 0.0f);
  const Ints keySelf = L::splat(int32_t(Keys ? nearKeys->self : 0u)), laneIndex = L::laneIndex();
  if constexpr (Keys) nearKeys->keys->count = 0;
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
      // The push's weight on the offset; lanes at distance 0 divide by zero, and are dropped.
      Floats w;
      if constexpr (Law == SeparationLaw::InverseDistance) {
        w = L::keep(sep, one / d2);  // normalize(self - other) / d = -offset / d^2
      } else {
        w = L::keep(sep, one / L::sqrt(L::keep(sep, d2) + L::keep(~sep, one)) - invSep);  // -offset (1/d - 1/R)
      }
      for (int k = 0; k < D; ++k) {
        sepSum[k] -= off[k] * w;
        velSum[k] += L::keep(ali, L::load(vel[k] + j));
        offSum[k] += L::keep(coh, off[k]);
      }
      perceived -= OneRadius ? valid : valid & (d2 <= perceivedR);  // a true mask is -1
      separated -= sep;
      if constexpr (!OneRadius) {
        aligned -= ali;
        cohered -= coh;
      }
      if constexpr (Close) close -= live & (d2 <= closeR);
      if constexpr (Keys) {
        const Ints slot = laneIndex + L::splat(int32_t(j));
        const Ints index = nearKeys->indices ? L::load(nearKeys->indices + j) : slot;
        // Every register appended, most without a key: a branch here would mispredict.
        nearKeys->keys->template append<L>(d2, index, L::bits(live & (d2 <= keyRange) & (index != keySelf)),
                                           nearKeys->keep);
      }
    };
    uint32_t j = run.begin;
    for (; j + lanes::kLanes <= run.end; j += lanes::kLanes) lanesAt(j, L::allLanes());
    if (j < run.end) lanesAt(j, L::firstLanes(run.end - j));
  }
  checks = candidates > 0 ? candidates - 1 : 0;  // every candidate but the agent itself

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
  if constexpr (Close) closeCount = L::sum(close);
  if constexpr (Keys) nearKeys->keys->template rankNearest<L>(nearKeys->keep);
  return acc;
}

// Picks the variant, one choice at a time: minimum image per agent or not, one radius for three
// rules or not, the push; then what else the pass collects.
template <class L, int D, bool... Chosen>
CROWDLAB_LANES_INLINE BoidsAccum<D> pickSums(const Vec<D>& self, const CandidateAxes<D>& axes,
                                             std::span<const CandidateRun<D>> runs, bool minImage,
                                             const Vec<D>& worldSize, const BoidsBounds& t, uint32_t& checks,
                                             int& close, Extras extra, const NearKeysRequest* nearKeys) {
  constexpr size_t kChosen = sizeof...(Chosen);
  if constexpr (kChosen == 3) {
    constexpr bool kFlags[] = {Chosen...};
    constexpr SeparationLaw kLaw = kFlags[2] ? SeparationLaw::LinearFade : SeparationLaw::InverseDistance;
    switch (extra) {
      case Extras::None:
        return sumsOverRuns<L, D, kFlags[0], kFlags[1], kLaw, Extras::None>(self, axes, runs, worldSize, t, checks,
                                                                              close, nearKeys);
      case Extras::Close:
        return sumsOverRuns<L, D, kFlags[0], kFlags[1], kLaw, Extras::Close>(self, axes, runs, worldSize, t, checks,
                                                                               close, nearKeys);
      default:
        return sumsOverRuns<L, D, kFlags[0], kFlags[1], kLaw, Extras::CloseAndKeys>(self, axes, runs, worldSize, t,
                                                                                      checks, close, nearKeys);
    }
  } else {
    const bool oneRadius = t.perceived >= t.search && t.alignment >= t.search && t.cohesion >= t.search;
    const bool next = kChosen == 0 ? minImage : kChosen == 1 ? oneRadius : t.law == SeparationLaw::LinearFade;
    return next ? pickSums<L, D, Chosen..., true>(self, axes, runs, minImage, worldSize, t, checks, close, extra,
                                                  nearKeys)
                : pickSums<L, D, Chosen..., false>(self, axes, runs, minImage, worldSize, t, checks, close, extra,
                                                   nearKeys);
  }
}

// integrateLanes: boidsAcceleration (the one rule's lane twin, clampLength) and integrate, lane
// for lane. Lanes past the batch compute on zeros and are never stored; lanes a scalar branch would
// skip compute anyway and are dropped by a mask (their infinities and NaNs included).
template <class L, int D>
CROWDLAB_LANES_INLINE void integrateBatch(std::span<const BoidsAccum<D>> sums, uint32_t first,
                                          const CandidateAxes<D>& state, const BoidsParams& p, float dt,
                                          const World<D>& world, Vec<D>* nextPosition, Vec<D>* nextVelocity) {
  using Floats = typename L::Floats;
  using Ints = typename L::Ints;
  const uint32_t count = uint32_t(sums.size());
  const Floats zero = L::splat(0.0f), one = L::splat(1.0f), tiny = L::splat(1e-12f);
  Floats v[D];
  for (int k = 0; k < D; ++k) v[k] = L::load(state.velocity[k] + first);
  Floats steer[D];
  boidsSteeringLanes<L, D>(boidsLaneSumsOf<L, D>(sums.data(), count), v, L::splat(p.weights.separation),
                           L::splat(p.weights.alignment), L::splat(p.weights.cohesion), boidsShape(p), steer);
  // clampLength(v, limit), as math.hpp has it.
  auto clampLanes = [&](Floats(&x)[D], float limit) CROWDLAB_LANES_INLINE_LAMBDA {
    const Floats l2 = dotLanes<L, D>(x);
    const Ints over = (l2 > L::splat(limit * limit)) & (l2 > zero);
    const Floats scale = L::splat(limit) / L::sqrt(l2);
    for (int k = 0; k < D; ++k) x[k] = L::choose(over, x[k] * scale, x[k]);
  };
  const Floats maxForce = L::splat(p.maxForce), step = L::splat(dt);
  Floats accel[D];
  for (int k = 0; k < D; ++k) accel[k] = steer[k] * maxForce;
  clampLanes(accel, p.maxForce);
  // integrate: the speed clamps, then the position.
  Floats nv[D], np[D];
  for (int k = 0; k < D; ++k) nv[k] = v[k] + accel[k] * step;
  clampLanes(nv, p.maxSpeed);
  if (p.minSpeed > 0.0f) {
    const Floats s2 = dotLanes<L, D>(nv);
    const Ints slow = (s2 < L::splat(p.minSpeed * p.minSpeed)) & (s2 > tiny);
    const Floats lift = L::splat(p.minSpeed) / L::sqrt(s2);
    for (int k = 0; k < D; ++k) nv[k] = L::choose(slow, nv[k] * lift, nv[k]);
  }
  // Positions leaving the world: the scalar bounds, for those lanes only (a lane inside the world,
  // finite, is one applyBounds leaves as it is).
  Ints outside = L::splat(int32_t(0));
  for (int k = 0; k < D; ++k) {
    np[k] = L::load(state.position[k] + first) + nv[k] * step;
    const Floats lo = L::splat(world.min[k]), size = L::splat(world.size[k]);
    if (world.boundary == Boundary::Wrap) {
      const Floats t = (np[k] - lo) / size;
      outside = outside | (t < zero) | (t >= one);
    } else if (world.boundary == Boundary::Bounce) {
      outside = outside | ~((np[k] >= lo) & (np[k] <= L::splat(world.min[k] + world.size[k])));
    }
  }
  for (uint32_t l = 0; l < count; ++l)
    for (int k = 0; k < D; ++k) {
      nextPosition[first + l][k] = L::lane(np[k], int(l));
      nextVelocity[first + l][k] = L::lane(nv[k], int(l));
    }
  for (unsigned bits = L::bits(outside) & ((1u << count) - 1u); bits; bits &= bits - 1) {
    const uint32_t i = first + uint32_t(std::countr_zero(bits));
    world.applyBounds(nextPosition[i], nextVelocity[i]);
  }
}

}  // namespace

template <int D>
BoidsAccum<D> laneSums(const Vec<D>& self, const CandidateAxes<D>& axes, std::span<const CandidateRun<D>> runs,
                       bool minImage, const Vec<D>& worldSize, const BoidsBounds& bounds, uint32_t& checks,
                       int* closeCount, const NearKeysRequest* nearKeys) {
  int close = 0;
  const Extras extra = !closeCount ? Extras::None : nearKeys && nearKeys->keys ? Extras::CloseAndKeys : Extras::Close;
  BoidsAccum<D> acc;
  lanes::dispatchLanes([&](auto kind) CROWDLAB_LANES_INLINE_LAMBDA {
    acc = pickSums<typename decltype(kind)::type, D>(self, axes, runs, minImage, worldSize, bounds, checks, close, extra,
                                                     nearKeys);
  });
  if (closeCount) *closeCount = close;
  return acc;
}

static_assert(kBoidsLaneBatch == uint32_t(lanes::kLanes));

template <int D>
void integrateLanes(std::span<const BoidsAccum<D>> sums, uint32_t first, const CandidateAxes<D>& state,
                    const BoidsParams& p, float dt, const World<D>& world, Vec<D>* nextPosition, Vec<D>* nextVelocity) {
  lanes::dispatchLanes([&](auto kind) CROWDLAB_LANES_INLINE_LAMBDA {
    integrateBatch<typename decltype(kind)::type, D>(sums, first, state, p, dt, world, nextPosition, nextVelocity);
  });
}

template void integrateLanes<2>(std::span<const BoidsAccum<2>>, uint32_t, const CandidateAxes<2>&, const BoidsParams&,
                                float, const World<2>&, Vec<2>*, Vec<2>*);
template void integrateLanes<3>(std::span<const BoidsAccum<3>>, uint32_t, const CandidateAxes<3>&, const BoidsParams&,
                                float, const World<3>&, Vec<3>*, Vec<3>*);
template BoidsAccum<2> laneSums<2>(const Vec<2>&, const CandidateAxes<2>&, std::span<const CandidateRun<2>>, bool,
                                   const Vec<2>&, const BoidsBounds&, uint32_t&, int*, const NearKeysRequest*);
template BoidsAccum<3> laneSums<3>(const Vec<3>&, const CandidateAxes<3>&, std::span<const CandidateRun<3>>, bool,
                                   const Vec<3>&, const BoidsBounds&, uint32_t&, int*, const NearKeysRequest*);

}  // namespace sim
