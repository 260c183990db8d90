// A flock: structure-of-arrays agent storage plus one boids step over it.
// Used by the Boids playground (2D) and shared with later scenes.
//
// With method == Grid every step rebuilds the uniform grid and puts position, velocity and id in
// cell order, so agents change index from step to step: follow one by its `id` (indexOfId), and
// keep other per-agent data either keyed by id or reordered with grid().reorder() after step().
#pragma once
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>
#include "sim/boids.hpp"
#include "sim/grid.hpp"
#include "sim/neighbors.hpp"
#include "sim/parallel.hpp"
#include "sim/rng.hpp"

namespace sim {

// The largest squared distance d2 for which the rounded sqrt(d2) <= r (or < r when `strict`).
// Rounded sqrt is monotone, so comparing d2 with this bound decides the same as comparing the
// square root, without taking it: the grid step's vector loop and accumulateNeighbor then accept
// exactly the same neighbours.
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

template <int D>
class Flock {
 public:
  World<D> world;
  BoidsParams params;
  NeighborMethod method = NeighborMethod::BruteForce;
  float cellSize = 50.0f;                      // grid cell size asked for (see grid().effectiveCellSize())
  SearchMode searchMode = SearchMode::AutoRings;

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
    resize(size());  // scenes may have resized the public arrays
    const size_t n = size();
    const float radius = params.searchRadius();
    const float fovCos = fieldOfViewCos(params);
    if (method == NeighborMethod::Grid) {
      grid_.build(position, world, cellSize);
      grid_.reorder(position, nextPosition_);
      grid_.reorder(velocity, nextVelocity_);
      grid_.reorder(id, idScratch_);
    }
    auto finish = [&](size_t i, const BoidsAccum<D>& acc, uint32_t checks) {
      Vec<D> np = position[i], nv = velocity[i];
      integrate(np, nv, boidsAcceleration(acc, velocity[i], params), dt, params.maxSpeed, world, params.minSpeed);
      nextPosition_[i] = np;
      nextVelocity_[i] = nv;
      checks_[i] = checks;
      neighbors_[i] = static_cast<uint32_t>(acc.perceivedCount);
    };
    if (method == NeighborMethod::Grid && !params.useFieldOfView) {
      const Thresholds t = thresholds();
      parallelFor(n, [&](size_t i) {
        uint32_t checks = 0;
        BoidsAccum<D> acc = gatherFromGrid(static_cast<uint32_t>(i), radius, t, checks);
        finish(i, acc, checks);
      }, 256);
    } else if (method == NeighborMethod::Grid) {
      // The field of view needs each neighbour's direction: the plain per-neighbour path.
      parallelFor(n, [&](size_t i) {
        BoidsAccum<D> acc;
        const Vec<D> heading = safeNormalize(velocity[i]);
        uint32_t checks = grid_.forEachInRadius(static_cast<uint32_t>(i), grid_.sortedPositions()[i], radius,
                                                [&](uint32_t j, const Vec<D>& off, float d2) {
                                                  accumulateNeighbor(acc, params, fovCos, heading, off, d2, velocity[j]);
                                                }, searchMode);
        finish(i, acc, checks);
      });
    } else {
      BruteForceSearch<D> brute{std::span<const Vec<D>>(position), &world};
      parallelFor(n, [&](size_t i) {
        BoidsAccum<D> acc;
        const Vec<D> heading = safeNormalize(velocity[i]);
        uint32_t checks = brute.forEachInRadius(static_cast<uint32_t>(i), position[i], radius,
                                                [&](uint32_t j, const Vec<D>& off, float d2) {
                                                  accumulateNeighbor(acc, params, fovCos, heading, off, d2, velocity[j]);
                                                });
        finish(i, acc, checks);
      });
    }
    position.swap(nextPosition_);
    velocity.swap(nextVelocity_);
    lastChecks_ = 0;
    lastNeighbors_ = 0;
    for (size_t i = 0; i < n; ++i) { lastChecks_ += checks_[i]; lastNeighbors_ += neighbors_[i]; }
  }

  // What one agent sees, computed by the same rules as step() from the current state: for the
  // "show radii" overlay. With the grid it builds a grid of the current positions (O(N)) and
  // searches it the way the next step will, so it lists the same neighbours the step will use.
  struct Probe {
    std::vector<uint32_t> neighbors;  // current indices; within the search radius and the field of view
    Vec<D> separation{0.0f}, alignment{0.0f}, cohesion{0.0f}, acceleration{0.0f};
  };
  void probe(size_t i, Probe& out) const {
    out.neighbors.clear();
    BoidsAccum<D> acc;
    const float fovCos = fieldOfViewCos(params);
    const Vec<D> heading = safeNormalize(velocity[i]);
    auto visit = [&](uint32_t j, const Vec<D>& off, float d2) {
      int before = acc.perceivedCount + acc.alignmentCount + acc.cohesionCount + acc.separationCount;
      accumulateNeighbor(acc, params, fovCos, heading, off, d2, velocity[j]);
      int after = acc.perceivedCount + acc.alignmentCount + acc.cohesionCount + acc.separationCount;
      if (after != before) out.neighbors.push_back(j);
    };
    if (method == NeighborMethod::Grid) {
      auditGrid_.build(position, world, cellSize);
      auto order = auditGrid_.order();
      uint32_t self = 0;
      while (order[self] != i) ++self;
      auditGrid_.forEachInRadius(self, auditGrid_.sortedPositions()[self], params.searchRadius(),
                                 [&](uint32_t j, const Vec<D>& off, float d2) { visit(order[j], off, d2); }, searchMode);
    } else {
      BruteForceSearch<D> brute{std::span<const Vec<D>>(position), &world};
      brute.forEachInRadius(static_cast<uint32_t>(i), position[i], params.searchRadius(), visit);
    }
    out.separation = separationRule(acc);
    out.alignment = alignmentRule(acc, velocity[i]);
    out.cohesion = cohesionRule(acc);
    out.acceleration = boidsAcceleration(acc, velocity[i], params);
  }

  // Neighbours the active search would miss in the current state, compared with brute force, over
  // every sampleStride-th agent (1: all of them, exact; cost O(N^2 / sampleStride)). A neighbour
  // is what step() counts in lastNeighbors(). Zero for brute force, and for the grid in AutoRings
  // mode; Classic3x3 with cells smaller than the radius misses some.
  uint64_t countMissedNeighbors(size_t sampleStride = 1) const {
    if (method != NeighborMethod::Grid || size() == 0) return 0;
    sampleStride = std::max<size_t>(sampleStride, 1);
    auditGrid_.build(position, world, cellSize);
    const float radius = params.searchRadius();
    const float fovCos = fieldOfViewCos(params);
    const size_t samples = (size() + sampleStride - 1) / sampleStride;
    BruteForceSearch<D> brute{std::span<const Vec<D>>(auditGrid_.sortedPositions()), &world};
    std::atomic<uint64_t> missed{0};
    parallelForRange(samples, [&](size_t begin, size_t end) {
      uint64_t local = 0;
      for (size_t s = begin; s < end; ++s) {
        // Sample by sorted index: each sample is an agent, and brute force runs on the same copy.
        const uint32_t k = static_cast<uint32_t>(s * sampleStride);
        const Vec<D> p = auditGrid_.sortedPositions()[k];
        const Vec<D> heading = safeNormalize(velocity[auditGrid_.order()[k]]);
        const Vec<D> none(0.0f);
        BoidsAccum<D> all, found;
        brute.forEachInRadius(k, p, radius, [&](uint32_t, const Vec<D>& off, float d2) {
          accumulateNeighbor(all, params, fovCos, heading, off, d2, none);
        });
        auditGrid_.forEachInRadius(k, p, radius, [&](uint32_t, const Vec<D>& off, float d2) {
          accumulateNeighbor(found, params, fovCos, heading, off, d2, none);
        }, searchMode);
        // The grid checks exact distances, so what it finds is a subset of what brute force finds.
        local += uint64_t(all.perceivedCount - found.perceivedCount);
      }
      missed.fetch_add(local, std::memory_order_relaxed);
    }, 16);
    return missed.load();
  }

  // Current index of the agent with this id, or size() when there is none.
  size_t indexOfId(uint32_t agentId) const {
    return size_t(std::find(id.begin(), id.end(), agentId) - id.begin());
  }

  // Per agent, in the current order: distance checks and neighbours of the last step.
  std::span<const uint32_t> lastCheckCounts() const { return {checks_.data(), size()}; }
  std::span<const uint32_t> lastNeighborCounts() const { return {neighbors_.data(), size()}; }
  uint64_t lastChecks() const { return lastChecks_; }
  uint64_t lastNeighbors() const { return lastNeighbors_; }
  double meanNeighbors() const { return size() ? double(lastNeighbors_) / double(size()) : 0.0; }
  // The grid of the last step, built from the positions it started from.
  const UniformGrid<D>& grid() const { return grid_; }

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

  // Squared-distance bounds equivalent to accumulateNeighbor's radius tests (see squaredBoundOf).
  struct Thresholds {
    float search, perceived, separation, alignment, cohesion;
  };
  Thresholds thresholds() const {
    const BoidsParams& p = params;
    const float r = p.searchRadius();
    return {r * r, squaredBoundOf(p.perceptionRadius, false), squaredBoundOf(p.separationRadius, true),
            squaredBoundOf(p.separateRadii ? p.alignmentRadius : p.perceptionRadius, false),
            squaredBoundOf(p.separateRadii ? p.cohesionRadius : p.perceptionRadius, false)};
  }

  static constexpr int kLanes = 8;      // accumulators per sum: independent, so the loop vectorises
  static constexpr int kBuffer = 256;   // candidates gathered before they are accumulated

  // Agent i's neighbourhood sums from the grid (sorted order), the same neighbours and tests as
  // accumulateNeighbor without the field of view. Each contiguous run of candidates is copied with
  // its offsets (seam shift added) into small SoA buffers; then every lane accumulates with masks
  // instead of branches. Sums run in a fixed lane order, so the result is the same for any thread count.
  BoidsAccum<D> gatherFromGrid(uint32_t i, float radius, const Thresholds& t, uint32_t& checks) const {
    const Vec<D>* pos = grid_.sortedPositions().data();
    const Vec<D>* vel = velocity.data();
    const Vec<D> p = pos[i];
    const auto block = grid_.block(p, radius, searchMode);
    const bool minImage = block.anyWhole();
    const Vec<D> size = world.size, half = world.size * 0.5f;

    alignas(32) float off[D][kBuffer];
    alignas(32) float v[D][kBuffer];
    alignas(32) float sepSum[D][kLanes] = {}, velSum[D][kLanes] = {}, offSum[D][kLanes] = {};
    alignas(32) int32_t perceived[kLanes] = {}, separated[kLanes] = {}, aligned[kLanes] = {}, cohered[kLanes] = {};

    auto accumulate = [&](int count) {
      const int padded = (count + kLanes - 1) / kLanes * kLanes;
      for (int m = count; m < padded; ++m) {  // far away: every test fails
        for (int k = 0; k < D; ++k) { off[k][m] = 1e18f; v[k][m] = 0.0f; }
      }
      for (int m0 = 0; m0 < padded; m0 += kLanes) {
        for (int l = 0; l < kLanes; ++l) {
          const int m = m0 + l;
          float d2 = off[0][m] * off[0][m];
          for (int k = 1; k < D; ++k) d2 += off[k][m] * off[k][m];  // glm::dot's order
          const bool valid = d2 > 0.0f && d2 <= t.search;             // coincident agents give no direction
          const bool sep = valid && d2 <= t.separation;
          const bool ali = valid && d2 <= t.alignment;
          const bool coh = valid && d2 <= t.cohesion;
          const float inv = sep ? 1.0f / d2 : 0.0f;
          for (int k = 0; k < D; ++k) {
            sepSum[k][l] -= off[k][m] * inv;
            velSum[k][l] += ali ? v[k][m] : 0.0f;
            offSum[k][l] += coh ? off[k][m] : 0.0f;
          }
          perceived[l] += (valid && d2 <= t.perceived) ? 1 : 0;
          separated[l] += sep ? 1 : 0;
          aligned[l] += ali ? 1 : 0;
          cohered[l] += coh ? 1 : 0;
        }
      }
    };

    int fill = 0;
    uint32_t candidates = 0;
    grid_.forEachRange(block, [&](uint32_t begin, uint32_t end, const Vec<D>& shift) {
      candidates += end - begin;
      while (begin < end) {
        const int take = static_cast<int>(std::min<uint32_t>(end - begin, uint32_t(kBuffer - fill)));
        const Vec<D>* q = pos + begin;
        const Vec<D>* qv = vel + begin;
        if (minImage) {
          // The block wraps onto itself: the minimum image per agent, exactly as World::delta.
          for (int m = 0; m < take; ++m) {
            for (int k = 0; k < D; ++k) {
              float d = q[m][k] - p[k];
              d = d > half[k] ? d - size[k] : (d < -half[k] ? d + size[k] : d);
              off[k][fill + m] = d;
              v[k][fill + m] = qv[m][k];
            }
          }
        } else {
          for (int m = 0; m < take; ++m) {
            for (int k = 0; k < D; ++k) {
              off[k][fill + m] = (q[m][k] - p[k]) + shift[k];
              v[k][fill + m] = qv[m][k];
            }
          }
        }
        fill += take;
        begin += uint32_t(take);
        if (fill == kBuffer) {
          accumulate(fill);
          fill = 0;
        }
      }
    });
    if (fill) accumulate(fill);
    checks = candidates - 1;  // every candidate but the agent itself

    BoidsAccum<D> acc;
    for (int l = 0; l < kLanes; ++l) {
      for (int k = 0; k < D; ++k) {
        acc.separationSum[k] += sepSum[k][l];
        acc.velocitySum[k] += velSum[k][l];
        acc.offsetSum[k] += offSum[k][l];
      }
      acc.perceivedCount += perceived[l];
      acc.separationCount += separated[l];
      acc.alignmentCount += aligned[l];
      acc.cohesionCount += cohered[l];
    }
    return acc;
  }

  std::vector<Vec<D>> nextPosition_, nextVelocity_;
  std::vector<uint32_t> idScratch_;
  std::vector<uint32_t> checks_, neighbors_;
  uint64_t lastChecks_ = 0, lastNeighbors_ = 0;
  UniformGrid<D> grid_;
  mutable UniformGrid<D> auditGrid_;  // probe() and countMissedNeighbors(): a grid of the current state
};

}  // namespace sim
