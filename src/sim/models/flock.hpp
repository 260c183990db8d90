// A flock: structure-of-arrays agent storage plus one boids step over it.
// Used by the Boids playground (2D) and shared with later scenes.
//
// With method == Grid every step rebuilds the uniform grid and puts position, velocity and id in
// cell order, so agents change index from step to step: follow one by its `id` (indexOfId), and
// keep other per-agent data either keyed by id or reordered with grid().reorder() after step().
#pragma once
#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>
#include "sim/rules/boids.hpp"
#include "sim/core/grid.hpp"
#include "sim/core/metric.hpp"
#include "sim/core/metrics.hpp"
#include "sim/core/neighbors.hpp"
#include "sim/core/parallel.hpp"
#include "sim/core/rng.hpp"

namespace sim {

template <int D>
class Flock {
 public:
  World<D> world;
  BoidsParams params;
  NeighborMethod method = NeighborMethod::BruteForce;
  float cellSize = 50.0f;                      // grid cell size asked for (see grid().effectiveCellSize())
  SearchMode searchMode = SearchMode::AutoRings;
  // Metrics: agents closer than this are one group, whatever the radii (3 body lengths of a boid drawn 10 long).
  float groupLink = 30.0f;

  // Agent state, one entry per agent (structure of arrays), in the current order; `ids()` are stable
  // across reorders. The flock's functions alone change it.
  std::span<const Vec<D>> positions() const { return position_; }
  std::span<const Vec<D>> velocities() const { return velocity_; }
  std::span<const uint32_t> ids() const { return id_; }

  size_t size() const { return position_.size(); }

  // Places n agents uniformly in the world with random headings at half the max speed.
  void spawn(size_t n, uint64_t seed) {
    Rng rng(seed);
    resize(n);
    lastChecks_ = lastNeighbors_ = 0;  // the counters of a step not taken yet
    for (size_t i = 0; i < n; ++i) {
      position_[i] = rng.inBox<D>(world.min, world.max());
      velocity_[i] = rng.unitVec<D>() * (params.maxSpeed * 0.5f);
      id_[i] = static_cast<uint32_t>(i);
    }
  }

  // Agents exactly where given, ids 0..n-1 in that order (tests, set pieces).
  void setAgents(std::span<const Vec<D>> positions, std::span<const Vec<D>> velocities) {
    const size_t n = std::min(positions.size(), velocities.size());
    resize(n);
    lastChecks_ = lastNeighbors_ = 0;
    for (size_t i = 0; i < n; ++i) {
      position_[i] = positions[i];
      velocity_[i] = velocities[i];
      id_[i] = static_cast<uint32_t>(i);
    }
  }
  // A whole state with its ids (the GPU's read-back, in its own order).
  void setState(std::span<const Vec<D>> positions, std::span<const Vec<D>> velocities, std::span<const uint32_t> ids) {
    const size_t n = std::min({positions.size(), velocities.size(), ids.size()});
    resize(n);
    std::copy_n(positions.begin(), n, position_.begin());
    std::copy_n(velocities.begin(), n, velocity_.begin());
    std::copy_n(ids.begin(), n, id_.begin());
  }
  // Agent i (current order) moved and turned (a scene's set piece: a pen, a formation).
  void setAgent(size_t i, const Vec<D>& position, const Vec<D>& velocity) {
    position_[i] = position;
    velocity_[i] = velocity;
  }

  // Keeps existing agents, adds new random ones or drops the last ones.
  void resizeKeeping(size_t n, uint64_t seed) {
    size_t old = size();
    resize(n);
    Rng rng(seed ^ (0x9E3779B97F4A7C15ull * (old + 1)));
    for (size_t i = old; i < n; ++i) {
      position_[i] = rng.inBox<D>(world.min, world.max());
      velocity_[i] = rng.unitVec<D>() * (params.maxSpeed * 0.5f);
      id_[i] = static_cast<uint32_t>(i);
    }
  }

  // One step: every agent's new velocity from the previous state only, then integrate.
  void step(float dt) {
    const bool vector = !params.useFieldOfView;  // the field of view needs per-neighbour tests
    if (method == NeighborMethod::Grid) {
      sortIntoCells();
      if (vector) stepGridVector(dt);
      else stepPerNeighbor(dt);
    } else {
      if (vector) stepBruteVector(dt);
      else stepPerNeighbor(dt);
    }
    position_.swap(nextPosition_);
    velocity_.swap(nextVelocity_);
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
    const Vec<D> heading = safeNormalize(velocity_[i]);
    auto visit = [&](uint32_t j, const Vec<D>& off, float d2) {
      int before = acc.perceivedCount + acc.alignmentCount + acc.cohesionCount + acc.separationCount;
      accumulateNeighbor(acc, params, fovCos, heading, off, d2, velocity_[j]);
      int after = acc.perceivedCount + acc.alignmentCount + acc.cohesionCount + acc.separationCount;
      if (after != before) out.neighbors.push_back(j);
    };
    if (method == NeighborMethod::Grid) {
      auditGrid_.build(position_, world, cellSize);
      auto order = auditGrid_.order();
      uint32_t self = 0;
      while (order[self] != i) ++self;
      auditGrid_.forEachInRadius(self, auditGrid_.sortedPositions()[self], params.searchRadius(),
                                 [&](uint32_t j, const Vec<D>& off, float d2) { visit(order[j], off, d2); }, searchMode);
    } else {
      BruteForceSearch<D> brute{std::span<const Vec<D>>(position_), &world};
      brute.forEachInRadius(static_cast<uint32_t>(i), position_[i], params.searchRadius(), visit);
    }
    out.separation = separationRule(acc);
    out.alignment = alignmentRule(acc, velocity_[i], boidsShape(params).alignmentFade);
    out.cohesion = cohesionRule(acc, boidsShape(params).cohesionFade);
    out.acceleration = boidsAcceleration(acc, velocity_[i], params);
  }

  // Neighbours the active search would miss in the current state, compared with brute force, over
  // every sampleStride-th agent (1: all of them, exact; cost O(N^2 / sampleStride)). A neighbour
  // is what step() counts in lastNeighbors(). Zero for brute force, and for the grid in AutoRings
  // mode; Classic3x3 with cells smaller than the radius misses some.
  uint64_t countMissedNeighbors(size_t sampleStride = 1) const {
    if (method != NeighborMethod::Grid || size() == 0) return 0;
    sampleStride = std::max<size_t>(sampleStride, 1);
    auditGrid_.build(position_, world, cellSize);
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
        const Vec<D> heading = safeNormalize(velocity_[auditGrid_.order()[k]]);
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

  // Current index of the agent with this id_, or size() when there is none.
  size_t indexOfId(uint32_t agentId) const {
    return size_t(std::find(id_.begin(), id_.end(), agentId) - id_.begin());
  }

  // Per agent, in the current order: neighbours of the last step.
  std::span<const uint32_t> lastNeighborCounts() const { return {neighbors_.data(), size()}; }
  uint64_t lastChecks() const { return lastChecks_; }
  uint64_t lastNeighbors() const { return lastNeighbors_; }
  double meanNeighbors() const { return size() ? double(lastNeighbors_) / double(size()) : 0.0; }

  // The flock's shape by name: mean_neighbors (of the last step), polarization and mean_nn_distance
  // (exact, on the current state, through a grid of its own whatever the flock's search).
  void appendMetrics(std::vector<Metric>& out) {
    out.push_back({"mean_neighbors", meanNeighbors()});
    out.push_back({"polarization", polarization<D>(velocity_)});
    out.push_back({"mean_nn_distance", meanNearestNeighborDistance<D>(position_, world, measureGrid_)});
    const GroupStats groups = linkedGroups<D>(position_, world, groupLink, groupScratch_);
    out.push_back({"groups", double(groups.groups)});
    out.push_back({"largest_group_share", groups.largestShare});
  }
  // What the last step's neighbour search cost, by name.
  void appendSearchMetrics(std::vector<Metric>& out) const {
    out.push_back({"checks_per_frame", double(lastChecks_)});
    out.push_back({"checks_per_agent", size() ? double(lastChecks_) / double(size()) : 0.0});
    out.push_back({"neighbors_per_agent", meanNeighbors()});
  }
  // The grid of the last step, built from the positions it started from.
  const UniformGrid<D>& grid() const { return grid_; }

 private:
  void resize(size_t n) {
    position_.resize(n);
    velocity_.resize(n);
    id_.resize(n);
    nextPosition_.resize(n);
    nextVelocity_.resize(n);
    checks_.resize(n);
    neighbors_.resize(n);
  }

  // Rebuilds the grid and puts the agents in cell order, in one pass that also lays the
  // velocities out per axis for the vector kernel.
  void sortIntoCells() {
    const size_t n = size();
    grid_.build(position_, world, cellSize);
    idScratch_.resize(n);
    for (auto& axis : velocityAxis_) axis.resize(n + UniformGrid<D>::kAxisPadding, 0.0f);
    const auto order = grid_.order();
    parallelFor(n, [&](size_t k) {
      const uint32_t from = order[k];
      nextPosition_[k] = position_[from];
      nextVelocity_[k] = velocity_[from];
      idScratch_[k] = id_[from];
      for (int a = 0; a < D; ++a) velocityAxis_[a][k] = velocity_[from][a];
    }, 2048);
    position_.swap(nextPosition_);
    velocity_.swap(nextVelocity_);
    id_.swap(idScratch_);
  }

  // Agent i's rules on its neighbourhood sums, then integration, into the next state.
  void finish(size_t i, const BoidsAccum<D>& acc, uint32_t checks, float dt) {
    Vec<D> np = position_[i], nv = velocity_[i];
    integrate(np, nv, boidsAcceleration(acc, velocity_[i], params), dt, params.maxSpeed, world, params.minSpeed);
    nextPosition_[i] = np;
    nextVelocity_[i] = nv;
    checks_[i] = checks;
    neighbors_[i] = static_cast<uint32_t>(acc.perceivedCount);
  }

  // Each neighbour through accumulateNeighbor: the reference path, and the one the field of view needs.
  void stepPerNeighbor(float dt) {
    const float radius = params.searchRadius();
    const float fovCos = fieldOfViewCos(params);
    BruteForceSearch<D> brute{std::span<const Vec<D>>(position_), &world};
    parallelFor(size(), [&](size_t i) {
      BoidsAccum<D> acc;
      const Vec<D> heading = safeNormalize(velocity_[i]);
      auto visit = [&](uint32_t j, const Vec<D>& off, float d2) {
        accumulateNeighbor(acc, params, fovCos, heading, off, d2, velocity_[j]);
      };
      const uint32_t self = static_cast<uint32_t>(i);
      const uint32_t checks = method == NeighborMethod::Grid
                                  ? grid_.forEachInRadius(self, grid_.sortedPositions()[i], radius, visit, searchMode)
                                  : brute.forEachInRadius(self, position_[i], radius, visit);
      finish(i, acc, checks, dt);
    });
  }

  // The agents' current state one axis at a time, as the lane kernels read it.
  CandidateAxes<D> stateAxes(bool fromGrid) const {
    CandidateAxes<D> axes;
    for (int k = 0; k < D; ++k) {
      axes.position[k] = fromGrid ? grid_.sortedAxis(k).data() : positionAxis_[k].data();
      axes.velocity[k] = velocityAxis_[k].data();
    }
    return axes;
  }

  // Sums of consecutive agents, handed to integrateLanes a register of agents at a time.
  struct LaneBatch {
    BoidsAccum<D> sums[kBoidsLaneBatch];
    uint32_t first = 0, count = 0;
  };
  void addToBatch(LaneBatch& batch, uint32_t i, const BoidsAccum<D>& sums, uint32_t checks,
                  const CandidateAxes<D>& axes, float dt) {
    if (batch.count == 0) batch.first = i;
    batch.sums[batch.count++] = sums;
    checks_[i] = checks;
    neighbors_[i] = static_cast<uint32_t>(sums.perceivedCount);
    if (batch.count == kBoidsLaneBatch) flushBatch(batch, axes, dt);
  }
  void flushBatch(LaneBatch& batch, const CandidateAxes<D>& axes, float dt) {
    if (batch.count == 0) return;
    integrateLanes<D>(std::span<const BoidsAccum<D>>(batch.sums, batch.count), batch.first, axes, params, dt, world,
                      nextPosition_.data(), nextVelocity_.data());
    batch.count = 0;
  }

  // The grid with the vector kernel, cell by cell: the agents of one cell share the block and its runs.
  void stepGridVector(float dt) {
    const float radius = params.searchRadius();
    const BoidsBounds bounds = BoidsBounds::of(params);
    const auto rings = grid_.rings(radius, searchMode);
    const CandidateAxes<D> axes = stateAxes(true);
    auto stepCell = [&](uint32_t cell, const typename UniformGrid<D>::Coord& coord, LaneBatch& batch) {
      const uint32_t first = grid_.cellStart()[cell], last = grid_.cellStart()[cell + 1];
      if (first == last) return;
      const auto block = grid_.block(coord, rings);
      CandidateRun<D> runs[kMaxRuns];
      int runCount = 0;
      grid_.forEachRange(block, [&](uint32_t b, uint32_t e, const Vec<D>& shift) {
        if (runCount < kMaxRuns) runs[runCount] = {b, e, shift};
        ++runCount;
      });
      for (uint32_t i = first; i < last; ++i) {
        BoidsAccum<D> sums;
        uint32_t checks = 0;
        if (runCount > kMaxRuns) {
          // A block too wide to keep at hand (cells far smaller than the radius): per neighbour.
          checks = grid_.forEachInRadius(i, grid_.sortedPositions()[i], radius,
                                         [&](uint32_t j, const Vec<D>& off, float d2) {
                                           accumulateNeighbor(sums, params, -2.0f, Vec<D>(0.0f), off, d2, velocity_[j]);
                                         }, searchMode);
        } else {
          sums = laneSums<D>(grid_.sortedPositions()[i], axes, std::span<const CandidateRun<D>>(runs, size_t(runCount)), block.anyWhole(),
                             world.size, bounds, checks);
        }
        addToBatch(batch, i, sums, checks, axes, dt);
      }
    };
    // In parallel over rows of cells (x fastest), each row in order; a row's agents are consecutive.
    const uint32_t nx = uint32_t(grid_.cellsPerAxis().x), rows = grid_.numCells() / nx;
    auto stepRow = [&](size_t row) {
      const uint32_t base = uint32_t(row) * nx;
      auto coord = grid_.cellCoord(base);
      LaneBatch batch;
      for (uint32_t x = 0; x < nx; ++x) {
        coord.x = int(x);
        stepCell(base + x, coord, batch);
      }
      flushBatch(batch, axes, dt);
    };
    const size_t n = size();
    if (n > kShortStep) {
      parallelFor(rows, stepRow, 1);
      return;
    }
    // A short step: a block of rows to each thread, with about as many agents each. Block b starts
    // at the first row whose first cell starts at agent b * n / blocks or later.
    const size_t blocks = shortBlocks(n);
    const auto starts = grid_.cellStart();
    std::array<uint32_t, kMaxShortBlocks + 1> bound{};
    for (size_t b = 1; b < blocks; ++b) {
      const size_t cell = size_t(std::lower_bound(starts.begin(), starts.end(), uint32_t(b * n / blocks)) - starts.begin());
      bound[b] = uint32_t((cell + nx - 1) / nx);
    }
    bound[blocks] = rows;
    parallelParts(blocks, [&](size_t first, size_t last) {
      for (size_t b = first; b < last; ++b)
        for (uint32_t row = bound[b]; row < bound[b + 1]; ++row) stepRow(row);
    });
  }

  // Up to kShortStep agents the grid's rule pass lasts a few tens of microseconds at most, less
  // than a oneTBB loop's fork and join pays for, so it runs on the pool's spinning helpers
  // (parallelParts), a block of rows to a thread with about as many agents in each.
  // Below kShortMinAgents a thread's block would not pay for handing it over, and the pass keeps
  // to one thread.
  // Longer passes stay on oneTBB, whose chunks balance cores that the host runs at different
  // speeds, where fixed blocks would wait for the slower one; several blocks a thread, taken in
  // turn, bought nothing (docs/performance.md, small flocks).
  static constexpr size_t kShortStep = 1024;
  static constexpr size_t kShortMinAgents = 128;
  static constexpr size_t kMaxShortBlocks = kShortStep / kShortMinAgents;
  static size_t shortBlocks(size_t n) {
    return std::clamp<size_t>(std::min<size_t>(size_t(threadCount()), n / kShortMinAgents), 1, kMaxShortBlocks);
  }

  // Brute force with the same vector kernel: one run holding every agent, minimum image on a torus.
  void stepBruteVector(float dt) {
    const size_t n = size();
    const BoidsBounds bounds = BoidsBounds::of(params);
    for (int k = 0; k < D; ++k) {
      positionAxis_[k].resize(n + UniformGrid<D>::kAxisPadding, 0.0f);
      velocityAxis_[k].resize(n + UniformGrid<D>::kAxisPadding, 0.0f);
    }
    parallelFor(n, [&](size_t i) {
      for (int k = 0; k < D; ++k) {
        positionAxis_[k][i] = position_[i][k];
        velocityAxis_[k][i] = velocity_[i][k];
      }
    }, 4096);
    const CandidateAxes<D> axes = stateAxes(false);
    const CandidateRun<D> all{0, uint32_t(n), Vec<D>(0.0f)};
    const bool wrap = world.boundary == Boundary::Wrap;
    parallelForRange(n, [&](size_t begin, size_t end) {
      LaneBatch batch;
      for (size_t i = begin; i < end; ++i) {
        uint32_t checks = 0;
        const BoidsAccum<D> sums = laneSums<D>(position_[i], axes, std::span<const CandidateRun<D>>(&all, 1), wrap,
                                               world.size, bounds, checks);
        addToBatch(batch, uint32_t(i), sums, checks, axes, dt);
      }
      flushBatch(batch, axes, dt);
    }, 16);
  }

  static constexpr int kMaxRuns = 128;  // runs of a block kept at hand; wider blocks go per neighbour

  std::vector<Vec<D>> position_, velocity_;
  std::vector<uint32_t> id_;
  std::vector<Vec<D>> nextPosition_, nextVelocity_;
  std::vector<uint32_t> idScratch_;
  std::vector<float> positionAxis_[D], velocityAxis_[D];  // one axis at a time, padded like grid().sortedAxis()
  std::vector<uint32_t> checks_, neighbors_;
  uint64_t lastChecks_ = 0, lastNeighbors_ = 0;
  UniformGrid<D> grid_;
  mutable UniformGrid<D> auditGrid_;  // probe() and countMissedNeighbors(): a grid of the current state
  UniformGrid<D> measureGrid_;        // appendMetrics' nearest-neighbour search
  GroupScratch<D> groupScratch_;      // appendMetrics' groups
};

}  // namespace sim
