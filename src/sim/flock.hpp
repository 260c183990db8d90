// A flock: structure-of-arrays agent storage plus one boids step over it.
// Used by the Boids playground (2D) and shared with later scenes.
#pragma once
#include <cstdint>
#include <span>
#include <vector>
#include "sim/boids.hpp"
#include "sim/neighbors.hpp"
#include "sim/parallel.hpp"
#include "sim/rng.hpp"

namespace sim {

template <int D>
class Flock {
 public:
  World<D> world;
  BoidsParams params;
  NeighborMethod method = NeighborMethod::BruteForce;

  // Agent state, one entry per agent (structure of arrays). `id` is stable across reorders.
  std::vector<Vec<D>> position;
  std::vector<Vec<D>> velocity;
  std::vector<uint32_t> id;

  size_t size() const { return position.size(); }

  // Places n agents uniformly in the world with random headings at half the max speed.
  void spawn(size_t n, uint64_t seed) {
    Rng rng(seed);
    resize(n);
    for (size_t i = 0; i < n; ++i) {
      position[i] = rng.inBox<D>(world.min, world.max());
      velocity[i] = rng.unitVec<D>() * (params.maxSpeed * 0.5f);
      id[i] = static_cast<uint32_t>(i);
    }
  }

  // Keeps existing agents, adds new random ones or drops the last ones.
  void resizeKeeping(size_t n, uint64_t seed) {
    size_t old = size();
    resize(n);
    Rng rng(seed ^ (0x9E3779B97F4A7C15ull * (old + 1)));
    for (size_t i = old; i < n; ++i) {
      position[i] = rng.inBox<D>(world.min, world.max());
      velocity[i] = rng.unitVec<D>() * (params.maxSpeed * 0.5f);
      id[i] = static_cast<uint32_t>(i);
    }
  }

  // One step: every agent's new velocity from the previous state only, then integrate.
  void step(float dt) {
    const size_t n = size();
    const float radius = params.searchRadius();
    const float fovCos = fieldOfViewCos(params);
    BruteForceSearch<D> brute{std::span<const Vec<D>>(position), &world};
    parallelFor(n, [&](size_t i) {
      BoidsAccum<D> acc;
      const Vec<D> p = position[i];
      const Vec<D> v = velocity[i];
      const Vec<D> heading = safeNormalize(v);
      uint32_t checks = brute.forEachInRadius(static_cast<uint32_t>(i), p, radius,
                                              [&](uint32_t j, const Vec<D>& off, float d2) {
                                                accumulateNeighbor(acc, params, fovCos, heading, off, d2, velocity[j]);
                                              });
      Vec<D> np = p, nv = v;
      integrate(np, nv, boidsAcceleration(acc, v, params), dt, params.maxSpeed, world, params.minSpeed);
      nextPosition_[i] = np;
      nextVelocity_[i] = nv;
      checks_[i] = checks;
      neighbors_[i] = static_cast<uint32_t>(acc.perceivedCount);
    });
    position.swap(nextPosition_);
    velocity.swap(nextVelocity_);
    lastChecks_ = 0;
    lastNeighbors_ = 0;
    for (size_t i = 0; i < n; ++i) { lastChecks_ += checks_[i]; lastNeighbors_ += neighbors_[i]; }
  }

  // What one agent sees, computed by the same code path as step(): for the "show radii" overlay.
  struct Probe {
    std::vector<uint32_t> neighbors;  // within the search radius and the field of view
    Vec<D> separation{0.0f}, alignment{0.0f}, cohesion{0.0f}, acceleration{0.0f};
  };
  void probe(size_t i, Probe& out) const {
    out.neighbors.clear();
    BoidsAccum<D> acc;
    const float fovCos = fieldOfViewCos(params);
    const Vec<D> heading = safeNormalize(velocity[i]);
    BruteForceSearch<D> brute{std::span<const Vec<D>>(position), &world};
    brute.forEachInRadius(static_cast<uint32_t>(i), position[i], params.searchRadius(),
                          [&](uint32_t j, const Vec<D>& off, float d2) {
                            int before = acc.perceivedCount + acc.alignmentCount + acc.cohesionCount + acc.separationCount;
                            accumulateNeighbor(acc, params, fovCos, heading, off, d2, velocity[j]);
                            int after = acc.perceivedCount + acc.alignmentCount + acc.cohesionCount + acc.separationCount;
                            if (after != before) out.neighbors.push_back(j);
                          });
    out.separation = separationRule(acc);
    out.alignment = alignmentRule(acc, velocity[i]);
    out.cohesion = cohesionRule(acc);
    out.acceleration = boidsAcceleration(acc, velocity[i], params);
  }

  uint64_t lastChecks() const { return lastChecks_; }
  uint64_t lastNeighbors() const { return lastNeighbors_; }
  double meanNeighbors() const { return size() ? double(lastNeighbors_) / double(size()) : 0.0; }

 private:
  void resize(size_t n) {
    position.resize(n);
    velocity.resize(n);
    id.resize(n);
    nextPosition_.resize(n);
    nextVelocity_.resize(n);
    checks_.resize(n);
    neighbors_.resize(n);
  }

  std::vector<Vec<D>> nextPosition_, nextVelocity_;
  std::vector<uint32_t> checks_, neighbors_;
  uint64_t lastChecks_ = 0, lastNeighbors_ = 0;
};

}  // namespace sim
