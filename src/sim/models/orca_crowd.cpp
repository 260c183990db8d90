#include "sim/models/orca_crowd.hpp"
#include "sim/core/metrics.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include "sim/core/lanes.hpp"
#include "sim/core/nearest_keys.hpp"

// ---- Crowd ----
namespace sim::orca {

namespace {

// What one agent's neighbour query in Crowd::step saw, beside its nearest neighbours.
struct CrowdQuery {
  uint32_t checks = 0;      // candidates looked at (self excluded)
  uint32_t closePairs = 0;  // within closeSq and later in cell order (each pair counted once)
  float minDistSq = 3.4e38f;
};

// One agent's query in lanes: eight candidates of a grid row at a time from the cell-ordered
// coordinates, those within `radius` appended to `near` (in increasing index order, so ties keep
// the lower index, the order orca::NearestNeighbors gives), then cut to the nearest `keep`. One
// candidate at a time, the insertion into a sorted list lost a branch about once per candidate.
template <class L>
CROWDLAB_LANES_INLINE CrowdQuery queryNearest(const UniformGrid<2>& grid, const float* xs, const float* ys,
                                              uint32_t self, const Vec2& p, float radius, float closeSq, int keep,
                                              NearestKeys& near) {
  using Floats = typename L::Floats;
  using Ints = typename L::Ints;
  const Floats px = L::splat(p.x), py = L::splat(p.y), r2 = L::splat(radius * radius), c2 = L::splat(closeSq);
  const Ints own = L::splat(int32_t(self));
  Floats minSq = L::splat(3.4e38f);
  Ints checks = L::splat(int32_t(0)), close = L::splat(int32_t(0));
  near.count = 0;
  grid.forEachRange(grid.block(p, radius, SearchMode::AutoRings), [&](uint32_t begin, uint32_t end, const Vec2&) {
    const Ints last = L::splat(int32_t(end));
    for (uint32_t j0 = begin; j0 < end; j0 += uint32_t(lanes::kLanes)) {
      const Ints j = L::laneIndex() + L::splat(int32_t(j0));
      const Ints live = (j < last) & (j != own);
      const Floats dx = L::load(xs + j0) - px, dy = L::load(ys + j0) - py;
      const Floats d2 = dx * dx + dy * dy;
      const Ints in = live & (d2 <= r2);
      checks -= live;  // a true lane is -1
      close -= in & (d2 < c2) & (j > own);  // OverlapPair's test, a lane each
      minSq = L::choose(in & (d2 < minSq), d2, minSq);
      if (const unsigned bits = L::bits(in)) near.append<L>(d2, j, bits, keep);
    }
  });
  near.selectNearest<L>(keep);
  CrowdQuery q;
  q.checks = uint32_t(L::sum(checks));
  q.closePairs = uint32_t(L::sum(close));
  for (int l = 0; l < lanes::kLanes; ++l) q.minDistSq = std::min(q.minDistSq, L::lane(minSq, l));
  return q;
}

constexpr size_t kBatch = lanes::kLanes;  // programs built and solved at once

// What one thread of Crowd::step reuses from agent to agent: the arrays need no zeroing per agent.
struct CrowdScratch {
  NearestKeys near;
  ProgramBatch programs;  // built and solved as rows, as the finale's (see ProgramBatch)
  std::array<std::array<uint32_t, kMaxNeighbors>, kBatch> neighbors;
  std::array<std::array<Vec2, kMaxNeighbors>, kBatch> offsets;
  std::array<ProgramInput, kBatch> inputs;
  std::array<Vec2, kBatch> preferredOf;
  std::array<uint32_t, kBatch> slot;
  std::array<LpResult, kBatch> results;
};

}  // namespace

void Crowd::resize(size_t n) {
  position_.resize(n);
  velocity_.resize(n);
  preferred_.resize(n);
  queryRadius_.resize(n, 3.4e38f);  // new agents ask with the full neighbour distance first
}

void Crowd::setAgents(std::span<const Vec2> positions, std::span<const Vec2> velocities) {
  const size_t n = std::min(positions.size(), velocities.size());
  resize(n);
  std::copy_n(positions.begin(), n, position_.begin());
  std::copy_n(velocities.begin(), n, velocity_.begin());
  std::fill(preferred_.begin(), preferred_.end(), Vec2{0.0f});
}

std::span<const Segment> Crowd::obstaclesOf(uint32_t agent) const {
  if (obstacleSets.empty() || agent >= obstacleSet.size()) return obstacles;
  const Range& r = obstacleSets[std::min<size_t>(obstacleSet[agent], obstacleSets.size() - 1)];
  const size_t begin = std::min<size_t>(r.begin, obstacles.size());
  return std::span<const Segment>(obstacles).subspan(begin, std::min<size_t>(r.count, obstacles.size() - begin));
}

void Crowd::buildGrid() {
  const size_t n = size();
  Vec2 lo{0.0f}, hi{0.0f};
  if (n) lo = hi = position_[0];
  for (const Vec2& p : position_) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  World<2> box;
  box.boundary = Boundary::Open;
  box.min = lo - Vec2{1.0f};
  box.size = hi - lo + Vec2{2.0f};
  // Cells of half the neighbour distance (the first query of a crowded agent is smaller, see step()),
  // and at most about eight cells per agent: a
  // sparse crowd spread over a large box (a ring of 10k agents) would otherwise spend its time
  // clearing empty cells.
  const float cell = std::max(0.5f * params.neighborDist, std::sqrt(box.size.x * box.size.y / (8.0f * float(n) + 1.0f)));
  grid_.build(position_, box, cell);
}

void Crowd::step(float dt) {
  const ThreadChoice::Scope threads(threadChoice_);
  const size_t n = size();
  const int maxNeighbors = glm::clamp(params.maxNeighbors, 1, kMaxNeighbors);
  capacity_ = neighborCapacity(maxNeighbors);
  sortedVelocity_.resize(n);
  sortedPreferred_.resize(n);
  sortedQueryRadius_.resize(n);
  nextSorted_.resize(n);
  feasible_.resize(n);
  for (auto* v : {&checks_, &within_, &overlaps_}) v->resize(n);
  minDistSq_.resize(n);

  buildGrid();
  const auto order = grid_.order();
  const auto sorted = grid_.sortedPositions();
  parallelFor(n, [&](size_t k) {
    sortedVelocity_[k] = velocity_[order[k]];
    sortedPreferred_[k] = preferred_[order[k]];
    sortedQueryRadius_[k] = queryRadius_[order[k]];
  }, 1024);

  // Neighbours, and the figures of the state we start from. A crowded agent's nearest neighbours
  // lie well inside the neighbour distance: it first asks within a radius that held its k nearest
  // last step (plus what a step can change), and only when that finds fewer than k asks again with
  // the full distance. Exact: when a radius holds k agents, the k nearest are among them.
  const OverlapPair overlapping(params.radius);
  const float reach = stepReach(params, dt);
  // The grid's coordinate arrays are padded past the end: a row's last register reads there.
  static_assert(UniformGrid<2>::kAxisPadding >= size_t(lanes::kLanes));
  static_assert(kBatch == size_t(ProgramBatch::kLanes));
  const float* sortedX = grid_.sortedAxis(0).data();
  const float* sortedY = grid_.sortedAxis(1).data();
  parallelForRange(n, [&](size_t firstAgent, size_t lastAgent) {
    // Programs are built and solved eight at a time (buildPrograms, solve over programs: the same
    // bits as one at a time). An agent with nothing near and no wall has the empty program: its
    // preferred velocity within max speed, at once, so sparse crowds do not half-fill the lanes.
    // Scratch kept per thread: setting 12 KB of planes up for every chunk would cost as much as a
    // batch of small programs.
    thread_local CrowdScratch scratch;
    NearestKeys& near = scratch.near;
    auto& programs = scratch.programs;
    auto& neighbors = scratch.neighbors;
    auto& offsets = scratch.offsets;
    auto& inputs = scratch.inputs;
    auto& preferredOf = scratch.preferredOf;
    auto& slot = scratch.slot;
    auto& results = scratch.results;
    size_t batched = 0;
    auto solveBatch = [&] {
      buildPrograms(programs, std::span<const ProgramInput>(inputs.data(), batched), sortedVelocity_, params, dt,
                    stepSafety);
      solve(programs, std::span<const Vec2>(preferredOf.data(), batched), params.maxSpeed,
            std::span<LpResult>(results.data(), batched));
      for (size_t b = 0; b < batched; ++b) {
        nextSorted_[slot[b]] = results[b].velocity;
        feasible_[slot[b]] = results[b].feasible ? 1 : 0;
      }
      batched = 0;
    };
    for (size_t k = firstAgent; k < lastAgent; ++k) {
      const uint32_t i = order[k];
      uint32_t checks = 0;
      CrowdQuery q;
      float radius = std::clamp(sortedQueryRadius_[k], std::min(reach, params.neighborDist), params.neighborDist);
      for (;;) {
        lanes::dispatchLanes([&](auto kind) CROWDLAB_LANES_INLINE_LAMBDA {
          q = queryNearest<typename decltype(kind)::type>(grid_, sortedX, sortedY, uint32_t(k), sorted[k],
                                                          radius, overlapping.closeSq, capacity_, near);
        });
        checks += q.checks;
        if (near.count >= maxNeighbors || radius >= params.neighborDist) break;
        radius = params.neighborDist;
      }
      sortedQueryRadius_[k] = near.count >= maxNeighbors
                            ? 1.1f * (std::sqrt(near.distSq(maxNeighbors - 1)) + 2.0f * params.maxSpeed * dt)
                            : params.neighborDist;
      checks_[k] = checks;
      overlaps_[k] = q.closePairs;
      minDistSq_[k] = q.minDistSq;
      const int kept = keptNeighbors(near.count, maxNeighbors, stepSafety ? reach * reach : 0.0f,
                                     [&](int m) { return near.distSq(m); });
      within_[k] = uint32_t(kept);
      const std::span<const Segment> walls = obstaclesOf(i);
      if (kept == 0 && walls.empty()) {
        nextSorted_[k] = clampLength(sortedPreferred_[k], params.maxSpeed);
        feasible_[k] = 1;
        continue;
      }
      for (int m = 0; m < kept; ++m) {
        neighbors[batched][size_t(m)] = near.index[m];
        offsets[batched][size_t(m)] = sorted[near.index[m]] - sorted[k];
      }
      inputs[batched] = {uint32_t(k), sorted[k], sortedVelocity_[k],
                         std::span<const uint32_t>(neighbors[batched].data(), size_t(kept)),
                         std::span<const Vec2>(offsets[batched].data(), size_t(kept)), walls};
      preferredOf[batched] = sortedPreferred_[k];
      slot[batched++] = uint32_t(k);
      if (batched == kBatch) solveBatch();
    }
    if (batched) solveBatch();
  }, 64);

  stats_ = {};
  float minSq = 3.4e38f;
  for (size_t k = 0; k < n; ++k) {
    stats_.checks += checks_[k];
    stats_.neighbors += within_[k];
    stats_.overlaps += overlaps_[k];
    stats_.infeasible += feasible_[k] ? 0 : 1;
    minSq = std::min(minSq, minDistSq_[k]);
  }
  stats_.minDistance = minSq < 3.4e38f ? std::sqrt(minSq) : minSq;

  parallelFor(n, [&](size_t k) {
    const uint32_t i = order[k];
    velocity_[i] = nextSorted_[k];
    queryRadius_[i] = sortedQueryRadius_[k];
    position_[i] += nextSorted_[k] * dt;
  }, 1024);
}

Crowd::Stats Crowd::measure() {
  const size_t n = size();
  for (auto* v : {&checks_, &within_, &overlaps_}) v->resize(n);
  minDistSq_.resize(n);
  buildGrid();
  const auto sorted = grid_.sortedPositions();
  const OverlapPair overlapping(params.radius);
  parallelFor(n, [&](size_t k) {
    uint32_t within = 0, close = 0;
    float minSq = 3.4e38f;
    checks_[k] = grid_.forEachInRadius(uint32_t(k), sorted[k], params.neighborDist, [&](uint32_t j, const Vec2&, float d2) {
      ++within;
      minSq = std::min(minSq, d2);
      if (overlapping(uint32_t(k), j, d2)) ++close;
    });
    within_[k] = within;
    overlaps_[k] = close;
    minDistSq_[k] = minSq;
  }, 64);
  Stats s;
  float minSq = 3.4e38f;
  for (size_t k = 0; k < n; ++k) {
    s.checks += checks_[k];
    s.neighbors += within_[k];
    s.overlaps += overlaps_[k];
    minSq = std::min(minSq, minDistSq_[k]);
  }
  s.minDistance = minSq < 3.4e38f ? std::sqrt(minSq) : minSq;
  return s;
}

void Crowd::probe(size_t i, float dt, Probe& out) const {
  // The program step() builds for agent i, with neighbours found by brute force on the current state.
  const int maxNeighbors = glm::clamp(params.maxNeighbors, 1, kMaxNeighbors);
  NearestNeighbors near;
  near.capacity = neighborCapacity(maxNeighbors);
  const float r2 = params.neighborDist * params.neighborDist;
  for (size_t j = 0; j < size(); ++j) {
    if (j == i) continue;
    const Vec2 off = position_[j] - position_[i];
    const float d2 = glm::dot(off, off);
    if (d2 <= r2) near.offer(uint32_t(j), off, d2);
  }
  const float reach = stepReach(params, dt);
  const int kept = keptNeighbors(near, maxNeighbors, stepSafety ? reach * reach : 0.0f);
  PlaneSet planes;
  buildProgram(planes, uint32_t(i), position_[i], velocity_[i], near, kept, velocity_, obstaclesOf(uint32_t(i)), params,
               dt, stepSafety);
  const LpResult r = solve(planes.span(), preferred_[i], params.maxSpeed);
  out.planes.assign(planes.items.begin(), planes.items.begin() + planes.count);
  out.neighbors.assign(near.index.begin(), near.index.begin() + kept);
  feasibleRegion(planes.span(), params.maxSpeed, out.region);
  out.preferred = preferred_[i];
  out.chosen = r.velocity;
  out.feasible = r.feasible;
  out.maxViolation = r.maxViolation;
}

}  // namespace sim::orca
