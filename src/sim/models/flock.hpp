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
#include <cstring>
#include <limits>
#include <span>
#include <vector>
#include "sim/rules/boids.hpp"
#include "sim/core/grid.hpp"
#include "sim/core/neighbors.hpp"
#include "sim/core/parallel.hpp"
#include "sim/core/rng.hpp"

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
    const bool vector = kVectorKernel && !params.useFieldOfView;  // the field of view needs per-neighbour tests
    if (method == NeighborMethod::Grid) {
      sortIntoCells();
      if (vector) stepGridVector(dt);
      else stepPerNeighbor(dt);
    } else {
      if (vector) stepBruteVector(dt);
      else stepPerNeighbor(dt);
    }
    position.swap(nextPosition_);
    velocity.swap(nextVelocity_);
    lastChecks_ = 0;
    lastNeighbors_ = 0;
    for (size_t i = 0; i < size(); ++i) {
      lastChecks_ += checks_[i];
      lastNeighbors_ += neighbors_[i];
    }
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
    out.alignment = alignmentRule(acc, velocity[i], alignmentFade(params));
    out.cohesion = cohesionRule(acc, cohesionFade(params));
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

  // Rebuilds the grid and puts the agents in cell order, in one pass that also lays the
  // velocities out per axis for the vector kernel.
  void sortIntoCells() {
    const size_t n = size();
    grid_.build(position, world, cellSize);
    idScratch_.resize(n);
    for (auto& axis : velocityAxis_) axis.resize(n + UniformGrid<D>::kAxisPadding, 0.0f);
    const auto order = grid_.order();
    parallelFor(n, [&](size_t k) {
      const uint32_t from = order[k];
      nextPosition_[k] = position[from];
      nextVelocity_[k] = velocity[from];
      idScratch_[k] = id[from];
      for (int a = 0; a < D; ++a) velocityAxis_[a][k] = velocity[from][a];
    }, 2048);
    position.swap(nextPosition_);
    velocity.swap(nextVelocity_);
    id.swap(idScratch_);
  }

  // Agent i's rules on its neighbourhood sums, then integration, into the next state.
  void finish(size_t i, const BoidsAccum<D>& acc, uint32_t checks, float dt) {
    Vec<D> np = position[i], nv = velocity[i];
    integrate(np, nv, boidsAcceleration(acc, velocity[i], params), dt, params.maxSpeed, world, params.minSpeed);
    nextPosition_[i] = np;
    nextVelocity_[i] = nv;
    checks_[i] = checks;
    neighbors_[i] = static_cast<uint32_t>(acc.perceivedCount);
  }

  // Each neighbour through accumulateNeighbor: the reference path, and the one the field of view needs.
  void stepPerNeighbor(float dt) {
    const float radius = params.searchRadius();
    const float fovCos = fieldOfViewCos(params);
    BruteForceSearch<D> brute{std::span<const Vec<D>>(position), &world};
    parallelFor(size(), [&](size_t i) {
      BoidsAccum<D> acc;
      const Vec<D> heading = safeNormalize(velocity[i]);
      auto visit = [&](uint32_t j, const Vec<D>& off, float d2) {
        accumulateNeighbor(acc, params, fovCos, heading, off, d2, velocity[j]);
      };
      const uint32_t self = static_cast<uint32_t>(i);
      const uint32_t checks = method == NeighborMethod::Grid
                                  ? grid_.forEachInRadius(self, grid_.sortedPositions()[i], radius, visit, searchMode)
                                  : brute.forEachInRadius(self, position[i], radius, visit);
      finish(i, acc, checks, dt);
    });
  }

  // The grid with the vector kernel, cell by cell: the agents of one cell share the block and its runs.
  void stepGridVector(float dt) {
    const float radius = params.searchRadius();
    const Thresholds t = thresholds();
    const auto rings = grid_.rings(radius, searchMode);
    Axes axes;
    for (int k = 0; k < D; ++k) {
      axes.position[k] = grid_.sortedAxis(k).data();
      axes.velocity[k] = velocityAxis_[k].data();
    }
    auto stepCell = [&](uint32_t cell, const typename UniformGrid<D>::Coord& coord) {
      const uint32_t first = grid_.cellStart()[cell], last = grid_.cellStart()[cell + 1];
      if (first == last) return;
      const auto block = grid_.block(coord, rings);
      Run runs[kMaxRuns];
      int runCount = 0;
      grid_.forEachRange(block, [&](uint32_t b, uint32_t e, const Vec<D>& shift) {
        if (runCount < kMaxRuns) runs[runCount] = {b, e, shift};
        ++runCount;
      });
      // Neighbourhoods of a few agents first, then their rules: the rules' square roots and
      // divisions of neighbouring agents then overlap instead of waiting on each other.
      BoidsAccum<D> acc[kBatch];
      uint32_t checks[kBatch];
      for (uint32_t b = first; b < last; b += kBatch) {
        const uint32_t e = std::min(last, b + kBatch);
        for (uint32_t i = b; i < e; ++i) {
          if (runCount > kMaxRuns) {
            // A block too wide to keep at hand (cells far smaller than the radius): per neighbour.
            acc[i - b] = BoidsAccum<D>{};
            checks[i - b] = grid_.forEachInRadius(i, grid_.sortedPositions()[i], radius,
                                                  [&](uint32_t j, const Vec<D>& off, float d2) {
                                                    accumulateNeighbor(acc[i - b], params, -2.0f, Vec<D>(0.0f), off,
                                                                       d2, velocity[j]);
                                                  }, searchMode);
          } else {
            acc[i - b] = gatherFromRuns(i, axes, runs, runCount, block.anyWhole(), t, checks[i - b]);
          }
        }
        for (uint32_t i = b; i < e; ++i) finish(i, acc[i - b], checks[i - b], dt);
      }
    };
    // In parallel over rows of cells (x fastest), each row in order.
    const uint32_t nx = uint32_t(grid_.cellsPerAxis().x);
    parallelFor(grid_.numCells() / nx, [&](size_t row) {
      const uint32_t base = uint32_t(row) * nx;
      auto coord = grid_.cellCoord(base);
      for (uint32_t x = 0; x < nx; ++x) {
        coord.x = int(x);
        stepCell(base + x, coord);
      }
    }, 1);
  }

  // Brute force with the same vector kernel: one run holding every agent, minimum image on a torus.
  void stepBruteVector(float dt) {
    const size_t n = size();
    const Thresholds t = thresholds();
    Axes axes;
    for (int k = 0; k < D; ++k) {
      positionAxis_[k].resize(n + UniformGrid<D>::kAxisPadding, 0.0f);
      velocityAxis_[k].resize(n + UniformGrid<D>::kAxisPadding, 0.0f);
      axes.position[k] = positionAxis_[k].data();
      axes.velocity[k] = velocityAxis_[k].data();
    }
    parallelFor(n, [&](size_t i) {
      for (int k = 0; k < D; ++k) {
        positionAxis_[k][i] = position[i][k];
        velocityAxis_[k][i] = velocity[i][k];
      }
    }, 4096);
    const Run all{0, uint32_t(n), Vec<D>(0.0f)};
    const bool wrap = world.boundary == Boundary::Wrap;
    parallelFor(n, [&](size_t i) {
      uint32_t checks = 0;
      const BoidsAccum<D> acc = gatherFromRuns(uint32_t(i), axes, &all, 1, wrap, t, checks);
      finish(i, acc, checks, dt);
    }, 16);
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

  // A contiguous run of candidates (one row of the search block) and its seam shift.
  struct Run {
    uint32_t begin, end;
    Vec<D> shift;
  };
  // Positions and velocities one axis at a time, each padded so whole registers can be read past the end.
  struct Axes {
    const float* position[D];
    const float* velocity[D];
  };
  static constexpr int kMaxRuns = 128;  // runs of a block kept at hand; wider blocks go per neighbour
  static constexpr uint32_t kBatch = 4;

#if defined(__GNUC__)
  // GCC / Clang vector extensions: one register of lanes, the width this build targets.
#if defined(__AVX__)
  static constexpr int kLanes = 8;
#else
  static constexpr int kLanes = 4;
#endif
  using Lanes = float __attribute__((vector_size(kLanes * sizeof(float))));
  using Mask = int32_t __attribute__((vector_size(kLanes * sizeof(float))));  // -1 where true, 0 elsewhere

  static Lanes loadLanes(const float* p) {
    Lanes v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
  static Lanes splat(float x) { return Lanes{} + x; }
  static Lanes keep(Mask m, Lanes v) { return (Lanes)(m & (Mask)v); }
  static Lanes choose(Mask m, Lanes a, Lanes b) { return (Lanes)((m & (Mask)a) | (~m & (Mask)b)); }
  // The sum of a register's lanes, folded in halves: a fixed order, the same on every run.
  template <class V>
  static auto sumLanes(V v) {
#if defined(__clang__) && defined(__AVX__)
    v += __builtin_shufflevector(v, v, 4, 5, 6, 7, 0, 1, 2, 3);
    v += __builtin_shufflevector(v, v, 2, 3, 0, 1, 6, 7, 4, 5);
    v += __builtin_shufflevector(v, v, 1, 0, 3, 2, 5, 4, 7, 6);
#elif defined(__clang__)
    v += __builtin_shufflevector(v, v, 2, 3, 0, 1);
    v += __builtin_shufflevector(v, v, 1, 0, 3, 2);
#else
    Mask lane{};
    for (int l = 0; l < kLanes; ++l) lane[l] = l;
    for (int half = kLanes / 2; half > 0; half /= 2) v += __builtin_shuffle(v, lane ^ half);
#endif
    return v[0];
  }

  // Agent i's neighbourhood sums from the grid (sorted order): the same neighbours and tests as
  // accumulateNeighbor without the field of view. Each run is a contiguous range of agents in the
  // grid's per-axis arrays, read a register of lanes at a time (lanes past its end masked off);
  // every test is a mask, not a branch. The lanes are summed in a fixed order at the end, so the
  // result is the same for any thread count. MinImage: the block wraps onto itself, so offsets
  // take the minimum image per agent (exactly as World::delta) instead of the run's shift.
  // Picks the kernel variant: minimum image per agent or not, one radius for three rules or not.
  BoidsAccum<D> gatherFromRuns(uint32_t i, const Axes& axes, const Run* runs, int runCount, bool minImage,
                               const Thresholds& t, uint32_t& checks) const {
    const bool oneRadius = t.perceived >= t.search && t.alignment >= t.search && t.cohesion >= t.search;
    if (minImage) {
      return oneRadius ? gatherFromRuns<true, true>(i, axes, runs, runCount, t, checks)
                       : gatherFromRuns<true, false>(i, axes, runs, runCount, t, checks);
    }
    return oneRadius ? gatherFromRuns<false, true>(i, axes, runs, runCount, t, checks)
                     : gatherFromRuns<false, false>(i, axes, runs, runCount, t, checks);
  }

  // OneRadius: perception, alignment and cohesion all take in the whole search radius (the default),
  // so one mask serves the three of them.
  template <bool MinImage, bool OneRadius>
  BoidsAccum<D> gatherFromRuns(uint32_t i, const Axes& axes, const Run* runs, int runCount, const Thresholds& t,
                               uint32_t& checks) const {
    const float* const* axis = axes.position;
    const float* const* vel = axes.velocity;
    Lanes p[D], size[D], half[D];
#pragma GCC unroll 3
    for (int k = 0; k < D; ++k) {
      p[k] = splat(axis[k][i]);
      size[k] = splat(world.size[k]);
      half[k] = splat(world.size[k] * 0.5f);
    }
    const Lanes zero = splat(0.0f), one = splat(1.0f);
    const Lanes search = splat(t.search), perceivedR = splat(t.perceived), separationR = splat(t.separation),
                alignmentR = splat(t.alignment), cohesionR = splat(t.cohesion);
    Mask laneIndex{};
    for (int l = 0; l < kLanes; ++l) laneIndex[l] = l;
    const Mask allLanes = Mask{} - 1;

    Lanes sepSum[D], velSum[D], offSum[D];
#pragma GCC unroll 3
    for (int k = 0; k < D; ++k) sepSum[k] = velSum[k] = offSum[k] = zero;
    Mask perceived{}, separated{}, aligned{}, cohered{};
    uint32_t candidates = 0;
    for (int r = 0; r < runCount; ++r) {
      const uint32_t begin = runs[r].begin, end = runs[r].end;
      candidates += end - begin;
      Lanes shift[D];
#pragma GCC unroll 3
      for (int k = 0; k < D; ++k) shift[k] = splat(runs[r].shift[k]);
      // One register of candidates from j; `live` masks off lanes past the run's end.
      auto lanes = [&](uint32_t j, Mask live) __attribute__((always_inline)) {
        Lanes off[D];
        Lanes d2 = zero;
#pragma GCC unroll 3
        for (int k = 0; k < D; ++k) {
          Lanes d = loadLanes(axis[k] + j) - p[k];
          if constexpr (MinImage) d = choose(d > half[k], d - size[k], choose(d < -half[k], d + size[k], d));
          else d = d + shift[k];
          off[k] = d;
          d2 = k == 0 ? d * d : d2 + d * d;  // glm::dot's order
        }
        const Mask valid = live & (d2 > zero) & (d2 <= search);  // coincident agents give no direction
        const Mask sep = valid & (d2 <= separationR);
        const Mask ali = OneRadius ? valid : valid & (d2 <= alignmentR);
        const Mask coh = OneRadius ? valid : valid & (d2 <= cohesionR);
        const Lanes inv = keep(sep, one / d2);  // lanes at distance 0 divide by zero, and are dropped
#pragma GCC unroll 3
        for (int k = 0; k < D; ++k) {
          sepSum[k] -= off[k] * inv;
          velSum[k] += keep(ali, loadLanes(vel[k] + j));
          offSum[k] += keep(coh, off[k]);
        }
        perceived -= OneRadius ? valid : valid & (d2 <= perceivedR);  // a true mask is -1
        separated -= sep;
        if constexpr (!OneRadius) {
          aligned -= ali;
          cohered -= coh;
        }
      };
      uint32_t j = begin;
      for (; j + kLanes <= end; j += kLanes) lanes(j, allLanes);
      if (j < end) lanes(j, laneIndex < (Mask{} + int32_t(end - j)));
    }
    checks = candidates - 1;  // every candidate but the agent itself

    BoidsAccum<D> acc;
    for (int k = 0; k < D; ++k) {
      acc.separationSum[k] = sumLanes(sepSum[k]);
      acc.velocitySum[k] = sumLanes(velSum[k]);
      acc.offsetSum[k] = sumLanes(offSum[k]);
    }
    acc.perceivedCount = sumLanes(perceived);
    acc.separationCount = sumLanes(separated);
    acc.alignmentCount = OneRadius ? acc.perceivedCount : sumLanes(aligned);
    acc.cohesionCount = OneRadius ? acc.perceivedCount : sumLanes(cohered);
    return acc;
  }
  static constexpr bool kVectorKernel = true;
#else
  static constexpr bool kVectorKernel = false;  // other compilers take the per-neighbour path
  BoidsAccum<D> gatherFromRuns(uint32_t, const Axes&, const Run*, int, bool, const Thresholds&, uint32_t&) const {
    return {};
  }
#endif

  std::vector<Vec<D>> nextPosition_, nextVelocity_;
  std::vector<uint32_t> idScratch_;
  std::vector<float> positionAxis_[D], velocityAxis_[D];  // one axis at a time, padded like grid().sortedAxis()
  std::vector<uint32_t> checks_, neighbors_;
  uint64_t lastChecks_ = 0, lastNeighbors_ = 0;
  UniformGrid<D> grid_;
  mutable UniformGrid<D> auditGrid_;  // probe() and countMissedNeighbors(): a grid of the current state
};

}  // namespace sim
