#include "sim/models/orca_crowd.hpp"
#include "sim/core/metrics.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include "sim/core/lanes.hpp"

// ---- Crowd ----
namespace sim::orca {

void Crowd::resize(size_t n) {
  position.resize(n);
  velocity.resize(n);
  preferred.resize(n);
  queryRadius_.resize(n, 3.4e38f);  // new agents ask with the full neighbour distance first
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
  if (n) lo = hi = position[0];
  for (const Vec2& p : position) {
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
  grid_.build(position, box, cell);
}

void Crowd::step(float dt) {
  const size_t n = size();
  resize(n);
  const int maxNeighbors = glm::clamp(params.maxNeighbors, 1, kMaxNeighbors);
  capacity_ = neighborCapacity(maxNeighbors);
  sortedVelocity_.resize(n);
  sortedPreferred_.resize(n);
  nextSorted_.resize(n);
  feasible_.resize(n);
  for (auto* v : {&checks_, &within_, &overlaps_}) v->resize(n);
  minDistSq_.resize(n);

  buildGrid();
  const auto order = grid_.order();
  const auto sorted = grid_.sortedPositions();
  parallelFor(n, [&](size_t k) {
    sortedVelocity_[k] = velocity[order[k]];
    sortedPreferred_[k] = preferred[order[k]];
  }, 1024);

  // Neighbours, and the figures of the state we start from. A crowded agent's nearest neighbours
  // lie well inside the neighbour distance: it first asks within a radius that held its k nearest
  // last step (plus what a step can change), and only when that finds fewer than k asks again with
  // the full distance. Exact: when a radius holds k agents, the k nearest are among them.
  const float close = overlapDistance(params.radius);
  const float reach = stepReach(params, dt);
  parallelForRange(n, [&](size_t firstAgent, size_t lastAgent) {
    // Reused across the chunk's agents: their arrays need no zeroing per agent.
    NearestNeighbors near;
    PlaneSet planes;
    for (size_t k = firstAgent; k < lastAgent; ++k) {
      const uint32_t i = order[k];
      uint32_t closePairs = 0, checks = 0;
      float minSq = 3.4e38f;
      float radius = std::clamp(queryRadius_[i], std::min(reach, params.neighborDist), params.neighborDist);
      for (;;) {
        near.count = 0;
        near.capacity = capacity_;
        closePairs = 0;
        minSq = 3.4e38f;
        checks += grid_.forEachInRadius(uint32_t(k), sorted[k], radius, [&](uint32_t j, const Vec2& off, float d2) {
          near.offer(j, off, d2);
          minSq = std::min(minSq, d2);
          if (d2 < close * close && j > k) ++closePairs;
        });
        if (near.count >= maxNeighbors || radius >= params.neighborDist) break;
        radius = params.neighborDist;
      }
      queryRadius_[i] = near.count >= maxNeighbors
                            ? 1.1f * (std::sqrt(near.distSq[maxNeighbors - 1]) + 2.0f * params.maxSpeed * dt)
                            : params.neighborDist;
      checks_[k] = checks;
      overlaps_[k] = closePairs;
      minDistSq_[k] = minSq;
      const int kept = keptNeighbors(near, maxNeighbors, stepSafety ? reach * reach : 0.0f);
      within_[k] = uint32_t(kept);
      buildProgram(planes, uint32_t(k), sorted[k], sortedVelocity_[k], near, kept, sortedVelocity_, obstaclesOf(i), params,
                   dt, stepSafety);
      const LpResult r = solve(planes.span(), sortedPreferred_[k], params.maxSpeed);
      nextSorted_[k] = r.velocity;
      feasible_[k] = r.feasible ? 1 : 0;
    }
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
    velocity[i] = nextSorted_[k];
    position[i] += nextSorted_[k] * dt;
  }, 1024);
}

Crowd::Stats Crowd::measure() {
  const size_t n = size();
  for (auto* v : {&checks_, &within_, &overlaps_}) v->resize(n);
  minDistSq_.resize(n);
  buildGrid();
  const auto sorted = grid_.sortedPositions();
  const float closeSq = overlapDistance(params.radius) * overlapDistance(params.radius);
  parallelFor(n, [&](size_t k) {
    uint32_t within = 0, close = 0;
    float minSq = 3.4e38f;
    checks_[k] = grid_.forEachInRadius(uint32_t(k), sorted[k], params.neighborDist, [&](uint32_t j, const Vec2&, float d2) {
      ++within;
      minSq = std::min(minSq, d2);
      if (d2 < closeSq && j > k) ++close;
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
    const Vec2 off = position[j] - position[i];
    const float d2 = glm::dot(off, off);
    if (d2 <= r2) near.offer(uint32_t(j), off, d2);
  }
  const float reach = stepReach(params, dt);
  const int kept = keptNeighbors(near, maxNeighbors, stepSafety ? reach * reach : 0.0f);
  PlaneSet planes;
  buildProgram(planes, uint32_t(i), position[i], velocity[i], near, kept, velocity, obstaclesOf(uint32_t(i)), params,
               dt, stepSafety);
  const LpResult r = solve(planes.span(), preferred[i], params.maxSpeed);
  out.planes.assign(planes.items.begin(), planes.items.begin() + planes.count);
  out.neighbors.assign(near.index.begin(), near.index.begin() + kept);
  feasibleRegion(planes.span(), params.maxSpeed, out.region);
  out.preferred = preferred[i];
  out.chosen = r.velocity;
  out.feasible = r.feasible;
  out.maxViolation = r.maxViolation;
}

}  // namespace sim::orca
