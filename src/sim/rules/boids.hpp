// Reynolds' three rules as small pure functions over a neighbourhood, and the integrator.
//
// Each rule returns a unit vector (or zero; alignment and cohesion fade out as they are satisfied, see
// softNormalize), so the three weights act on one scale; the weighted
// sum, scaled by maxForce, is clamped to maxForce (an acceleration, world units / s^2).
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include "sim/core/grid.hpp"
#include "sim/core/math.hpp"
#include "sim/core/nearest_keys.hpp"
#include "sim/core/world.hpp"

namespace sim {

// How strongly each of the three rules steers, on one scale (each rule is a vector of length <= 1).
// Every model that steers by Reynolds' rules (the flock, the murmuration, the finale) holds one.
struct BoidsWeights {
  float separation = 1.0f;
  float alignment = 1.0f;
  float cohesion = 1.0f;
  bool operator==(const BoidsWeights&) const = default;
};

// How the separation push grows as a neighbour comes closer.
enum class SeparationLaw : uint8_t {
  InverseDistance,  // Reynolds: normalize(self - other) / distance (boids, the murmuration)
  LinearFade,       // normalize(self - other) * (1 - distance / R): no jolt when a neighbour crosses R (finale)
};

// What the rules make of the neighbourhood sums (boidsSteering): the push's law, and the fades
// below which alignment and cohesion shrink (softNormalize; 0: a plain normalize).
struct BoidsShape {
  SeparationLaw law = SeparationLaw::InverseDistance;
  float alignmentFade = 0.0f;
  float cohesionFade = 0.0f;
};

struct BoidsParams {
  BoidsWeights weights;
  float perceptionRadius = 50.0f;   // who counts as a neighbour
  float separationRadius = 20.0f;   // closer than this pushes away; always below perception
  float minSpeed = 50.0f;   // birds cannot hover: without it alignment to a near-zero mean stalls the flock
  float maxSpeed = 120.0f;
  float maxForce = 240.0f;
  // Reynolds' refinements, off by default.
  bool useFieldOfView = false;
  float fieldOfViewDegrees = 270.0f;  // total angle seen; the rest behind is a blind spot
  bool separateRadii = false;
  float alignmentRadius = 50.0f;
  float cohesionRadius = 50.0f;
  // Reynolds' own cohesion: a unit vector towards the neighbours' centre, full strength at any
  // distance (so a crowd piles up into balls). Off: crowdlab's spring, which fades near the centre.
  bool classicCohesion = false;

  // The same made consistent, as every scene keeps it: the separation radius below the perception
  // radius (at 0.9 of it when it was not; a push reaching past what an agent perceives would act on
  // neighbours the other rules ignore), and the min speed at most the max speed.
  BoidsParams normalized() const {
    BoidsParams p = *this;
    if (!(p.separationRadius < p.perceptionRadius)) p.separationRadius = 0.9f * p.perceptionRadius;
    p.minSpeed = std::fmin(p.minSpeed, p.maxSpeed);
    return p;
  }

  // Largest radius any rule uses: the radius the neighbour search must cover.
  float searchRadius() const {
    float r = perceptionRadius;
    if (separateRadii) r = std::fmax(r, std::fmax(alignmentRadius, cohesionRadius));
    return std::fmax(r, separationRadius);
  }
};

// Sums over one agent's neighbourhood; offsets are neighbour - self (across the seam when wrapping).
template <int D>
struct BoidsAccum {
  Vec<D> separationSum{0.0f};  // sum of normalize(self - other) / distance
  Vec<D> velocitySum{0.0f};
  Vec<D> offsetSum{0.0f};
  int alignmentCount = 0;
  int cohesionCount = 0;
  int separationCount = 0;
  int perceivedCount = 0;      // neighbours within the perception radius (after the field of view)
};

// The cosine below which a neighbour falls in the blind spot.
inline float fieldOfViewCos(const BoidsParams& p) {
  if (!p.useFieldOfView || p.fieldOfViewDegrees >= 360.0f) return -2.0f;
  return std::cos(p.fieldOfViewDegrees * 0.5f * 3.14159265358979f / 180.0f);
}

// The separation push of one neighbour at `offset` (other - self, distSq its squared length > 0)
// added to the sum, by `law` (inverseRadius: 1 / R, read by LinearFade only). The one scalar form
// of the push; laneSums is its lane twin.
template <int D>
inline void addSeparationPush(BoidsAccum<D>& acc, const Vec<D>& offset, float distSq, SeparationLaw law,
                              float inverseRadius = 0.0f) {
  if (law == SeparationLaw::InverseDistance) acc.separationSum -= offset / distSq;  // normalize(self - other) / d
  else acc.separationSum -= offset * (1.0f / std::sqrt(distSq) - inverseRadius);    // dir * (1 - d / R)
  acc.separationCount++;
}

// Adds one neighbour. `heading` is the agent's unit heading (used only with the field of view).
template <int D>
inline void accumulateNeighbor(BoidsAccum<D>& acc, const BoidsParams& p, float fovCos, const Vec<D>& heading,
                               const Vec<D>& offset, float distSq, const Vec<D>& otherVelocity) {
  if (distSq <= 0.0f) return;  // coincident agents give no direction
  float dist = std::sqrt(distSq);
  if (fovCos > -1.5f && glm::dot(heading, offset) < fovCos * dist) return;
  if (dist <= p.perceptionRadius) acc.perceivedCount++;
  if (dist < p.separationRadius) addSeparationPush(acc, offset, distSq, SeparationLaw::InverseDistance);
  float alignR = p.separateRadii ? p.alignmentRadius : p.perceptionRadius;
  float cohR = p.separateRadii ? p.cohesionRadius : p.perceptionRadius;
  if (dist <= alignR) { acc.velocitySum += otherVelocity; acc.alignmentCount++; }
  if (dist <= cohR) { acc.offsetSum += offset; acc.cohesionCount++; }
}

// The largest squared distance d2 for which the rounded sqrt(d2) <= r (or < r when `strict`).
// Rounded sqrt is monotone, so comparing d2 with this bound decides the same as comparing the
// square root, without taking it: the lane sums below and accumulateNeighbor then accept exactly
// the same neighbours.
inline float squaredBoundOf(float r, bool strict) {
  auto passes = [&](float d2) { return strict ? std::sqrt(d2) < r : std::sqrt(d2) <= r; };
  if (!(r >= 0.0f)) return -1.0f;
  if (!passes(0.0f)) return -1.0f;
  float t = std::fmin(r * r, std::numeric_limits<float>::max());
  while (!passes(t)) t = std::nextafter(t, 0.0f);
  for (float u = std::nextafter(t, INFINITY); u <= std::numeric_limits<float>::max() && passes(u);
       u = std::nextafter(u, INFINITY))
    t = u;
  return t;
}

// ---- the same sums over many candidates, a register of lanes at a time (boids.cpp) ----

// What laneSums counts, as squared-distance bounds compared with <= (squaredBoundOf turns a radius
// test into one), and how it pushes.
struct BoidsBounds {
  float search, perceived, separation, alignment, cohesion;
  SeparationLaw law = SeparationLaw::InverseDistance;
  float inverseSeparation = 0.0f;  // 1 / R, for LinearFade
  float close = -1.0f;             // candidates within this, the agent itself included, go to closeCount
  // accumulateNeighbor's tests.
  static BoidsBounds of(const BoidsParams& p) {
    const float r = p.searchRadius();
    return {r * r, squaredBoundOf(p.perceptionRadius, false), squaredBoundOf(p.separationRadius, true),
            squaredBoundOf(p.separateRadii ? p.alignmentRadius : p.perceptionRadius, false),
            squaredBoundOf(p.separateRadii ? p.cohesionRadius : p.perceptionRadius, false)};
  }
};

// What laneSums also collects on the same pass when asked (the finale's ORCA neighbour lists): the
// `keep` nearest candidates within rangeSq (<=), other than agent `self`, as NearestKeys' kept keys
// (rankNearest: keys->kept, keptIndex, keptDistSq; keys->count is left as it is). Slots name
// agents through `indices` (null: a slot is its agent's index), in increasing order.
struct NearKeysRequest {
  NearestKeys* keys = nullptr;
  const uint32_t* indices = nullptr;
  uint32_t self = 0;
  float rangeSq = 0.0f;
  int keep = 0;
};

// The sums of the agent at `self` over every candidate of `runs`: the same neighbours and tests as
// accumulateNeighbor without the field of view (for InverseDistance), a register of lanes at a time
// with masks instead of branches. A candidate at distance 0 (the agent itself, when it is among
// them) gives nothing. The lanes are summed in a fixed order, so the result is the same for any
// thread count and instruction set (lanes.hpp). `minImage`: offsets take the minimum image on a
// torus of `worldSize` per candidate (a block that wraps onto itself) instead of the run's shift.
// `checks` gets the candidates other than the agent, `closeCount` (if asked for) those within
// bounds.close, `nearKeys` (if asked for, with closeCount) the nearest candidates. This is the one place the boids neighbourhood sums are written in lanes (boids,
// spatial hash and gpu scenes' CPU flock, the murmuration, the finale).
template <int D>
BoidsAccum<D> laneSums(const Vec<D>& self, const CandidateAxes<D>& axes, std::span<const CandidateRun<D>> runs,
                       bool minImage, const Vec<D>& worldSize, const BoidsBounds& bounds, uint32_t& checks,
                       int* closeCount = nullptr, const NearKeysRequest* nearKeys = nullptr);

// boidsAcceleration then integrate for `sums.size()` (at most kBoidsLaneBatch) consecutive agents
// first, first + 1, ... at once, an agent a lane (boids.cpp). The same operations in the same order,
// so the same bits as the scalar pair, without its chain of square roots, divisions and
// data-dependent branches per agent. `state` holds the agents' current position and velocity one
// axis at a time (readable a register past the last agent); the results go to next*[first + lane].
inline constexpr uint32_t kBoidsLaneBatch = 8;
template <int D>
void integrateLanes(std::span<const BoidsAccum<D>> sums, uint32_t first, const CandidateAxes<D>& state,
                    const BoidsParams& p, float dt, const World<D>& world, Vec<D>* nextPosition, Vec<D>* nextVelocity);

// Unit vector when |v| >= scale, fading linearly to zero below it. A plain normalize turns the tiny
// leftover of a satisfied rule (already aligned, already at the centroid) into a full-strength push
// in a random direction, which makes the flock jitter and mill instead of flowing.
template <int D>
inline Vec<D> softNormalize(const Vec<D>& v, float scale) {
  float l = std::sqrt(glm::dot(v, v));
  // A comparison, not std::fmax: fmax is a library call at -O2 / -O3 (it must honour NaN), and this
  // runs for every agent. l is never NaN here, so the result is the same.
  return l > 1e-12f ? v / (l > scale ? l : scale) : Vec<D>(0.0f);
}

// The push: a unit vector away from the close neighbours (InverseDistance), or the linearly faded
// sum clamped to length 1 (LinearFade: weak when the neighbours are barely inside R).
template <int D>
inline Vec<D> separationRule(const BoidsAccum<D>& acc, SeparationLaw law = SeparationLaw::InverseDistance) {
  if (!acc.separationCount) return Vec<D>(0.0f);
  return law == SeparationLaw::InverseDistance ? safeNormalize(acc.separationSum) : clampLength(acc.separationSum, 1.0f);
}
// Steer towards the neighbours' mean velocity. `fade`: below this difference the vector shrinks (softNormalize).
template <int D>
inline Vec<D> alignmentRule(const BoidsAccum<D>& acc, const Vec<D>& velocity, float fade = 0.0f) {
  return acc.alignmentCount ? softNormalize(acc.velocitySum / float(acc.alignmentCount) - velocity, fade) : Vec<D>(0.0f);
}
// Steer towards the neighbours' centroid. `fade`: below this distance the vector shrinks.
template <int D>
inline Vec<D> cohesionRule(const BoidsAccum<D>& acc, float fade = 0.0f) {
  return acc.cohesionCount ? softNormalize(acc.offsetSum / float(acc.cohesionCount), fade) : Vec<D>(0.0f);
}

// The one boids rule: the three rules on a neighbourhood's sums, weighted and added, on the rules'
// scale (each rule at most 1 long). Every model steers by this (the flock scales it by maxForce,
// the murmuration adds its flight and fear terms, the finale corrects its preferred velocity with
// it); boids_lanes.hpp has its lane twin, shaders/boids.comp the GPU's copy.
template <int D>
inline Vec<D> boidsSteering(const BoidsAccum<D>& acc, const Vec<D>& velocity, const BoidsWeights& w,
                            const BoidsShape& shape) {
  return w.separation * separationRule(acc, shape.law) + w.alignment * alignmentRule(acc, velocity, shape.alignmentFade) +
         w.cohesion * cohesionRule(acc, shape.cohesionFade);
}

// The fade scales: alignment reaches full strength at a tenth of the max speed; cohesion grows
// linearly with the centroid offset up to the perception radius (a spring, not a constant pull, so
// flocks keep their spacing instead of collapsing into milling balls) unless classicCohesion asks
// for the constant pull (a fade of 0 is a plain normalize).
inline BoidsShape boidsShape(const BoidsParams& p) {
  return {SeparationLaw::InverseDistance, 0.1f * p.maxSpeed, p.classicCohesion ? 0.0f : p.perceptionRadius};
}

// The flock's acceleration: the rule scaled by maxForce and clamped to it.
template <int D>
inline Vec<D> boidsAcceleration(const BoidsAccum<D>& acc, const Vec<D>& velocity, const BoidsParams& p) {
  return clampLength(boidsSteering(acc, velocity, p.weights, boidsShape(p)) * p.maxForce, p.maxForce);
}

// Semi-implicit Euler with the force and speed clamps, then the world's edges.
// minSpeed lifts a slow (but moving) agent back to that speed along its heading.
template <int D>
inline void integrate(Vec<D>& position, Vec<D>& velocity, const Vec<D>& acceleration, float dt, float maxSpeed,
                      const World<D>& world, float minSpeed = 0.0f) {
  velocity = clampLength(velocity + acceleration * dt, maxSpeed);
  if (minSpeed > 0.0f) {
    float s2 = glm::dot(velocity, velocity);
    if (s2 < minSpeed * minSpeed && s2 > 1e-12f) velocity *= minSpeed / std::sqrt(s2);
  }
  position += velocity * dt;
  world.applyBounds(position, velocity);
}

}  // namespace sim
