// Flock measurements that turn what the eye sees into numbers.
#pragma once
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>
#include "sim/core/grid.hpp"
#include "sim/core/math.hpp"
#include "sim/core/world.hpp"

namespace sim {

// Two agents of radius r overlap when their centres are closer than 0.99 * 2r, and an agent is inside
// a wall or an obstacle when its centre is closer than 0.99 * r: the 1 % keeps agents that merely
// touch (ORCA's contact distance, float rounding) from counting. The overlap claims rest on it.
constexpr float kOverlapShare = 0.99f;
constexpr float overlapDistance(float radius) { return kOverlapShare * 2.0f * radius; }
constexpr float penetrationDistance(float radius) { return kOverlapShare * radius; }

// The one test of an overlapping pair, for a neighbour scan that visits (self, other, d2) in one
// numbering: true for a pair closer than overlapDistance(radius), once per pair (other > self).
// Scans that measure more on the way (nearest distance, ORCA's neighbours) count with it.
struct OverlapPair {
  explicit OverlapPair(float radius) : closeSq(overlapDistance(radius) * overlapDistance(radius)) {}
  bool operator()(uint32_t self, uint32_t other, float d2) const { return other > self && d2 < closeSq; }
  float closeSq;
};

// Overlapping pairs among the agents of a grid built on them (any cell size): the count the overlap
// claims and figures rest on, where nothing else is measured in the same scan.
template <int D>
uint64_t countOverlaps(const UniformGrid<D>& grid, float radius) {
  const OverlapPair overlapping(radius);
  const float close = overlapDistance(radius);
  const auto sorted = grid.sortedPositions();
  uint64_t pairs = 0;
  for (uint32_t k = 0; k < grid.size(); ++k)
    grid.forEachInRadius(k, sorted[k], close, [&](uint32_t j, const Vec<D>&, float d2) {
      if (overlapping(k, j, d2)) ++pairs;
    });
  return pairs;
}

// The median of the values, the mean of the middle two for an even count; 0 for none. The one median
// of the program: step times in the HUD and the benchmarks, frame times, figures of repeated runs.
// In the header: the app's stepper links it without the rest of the core (its TSan build).
inline double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  const size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + long(mid), values.end());
  if (values.size() % 2) return values[mid];
  return 0.5 * (values[mid] + *std::max_element(values.begin(), values.begin() + long(mid)));
}

// |mean unit heading|: 0 for disorder, 1 when every agent moves the same way. Agents at rest are skipped.
template <int D>
double polarization(std::span<const Vec<D>> velocities);

// Mean distance from each agent to its nearest other agent (exact). 0 for fewer than two agents.
// Brute force, O(N^2): the reference the grid version is tested against.
template <int D>
double meanNearestNeighborDistance(std::span<const Vec<D>> positions, const World<D>& world);

// The same, exact, through a uniform grid built in `scratch` (about O(N) for spread agents): what a
// scene samples while it runs, so no O(N^2) hides behind a step.
template <int D>
double meanNearestNeighborDistance(std::span<const Vec<D>> positions, const World<D>& world, UniformGrid<D>& scratch);
// Groups of agents linked by a fixed distance: two agents closer than `link` are in one group, and
// so is everyone reachable by such links (single linkage). Uses a uniform grid with cells of `link`,
// so the cost is O(N) at a flock's density; never depends on who reacts to whom (k, radii).
struct GroupStats {
  int groups = 0;              // connected pieces (a lone agent is one)
  double largestShare = 0.0;   // share of the agents in the largest piece, 0..1
};
// Scratch a caller keeps between calls, so measuring does not allocate once it has grown.
template <int D>
struct GroupScratch {
  UniformGrid<D> grid;
  std::vector<uint32_t> parent, size;
};
// Over a grid already built on the agents (any cell size: the search covers `link` exactly).
template <int D>
GroupStats linkedGroups(const UniformGrid<D>& grid, float link, GroupScratch<D>& scratch);
// Builds scratch.grid with cells of `link` first (an open world: over the agents' bounding box).
template <int D>
GroupStats linkedGroups(std::span<const Vec<D>> positions, const World<D>& world, float link, GroupScratch<D>& scratch);
// After linkedGroups: each agent's group, in the agents' own order (not the grid's). Equal numbers,
// one group; a number is one member's place in the grid's order (so below the agent count).
template <int D>
void groupOfEachAgent(const UniformGrid<D>& grid, GroupScratch<D>& scratch, std::vector<uint32_t>& group);

// Velocity fluctuations as Cavagna et al. (PNAS 2010) define them: each velocity minus the flock's
// collective motion, which they take as the mean velocity V plus the best-fitting rigid rotation and
// uniform dilation about the centroid (so a flock that merely turns or breathes has none). Returns
// RMS |u_i| / |V|: how much the birds move inside the flock (0: a rigid body; a lively flock ripples).
// 0 when V is zero.
template <int D>
double velocityFluctuation(std::span<const Vec<D>> positions, std::span<const Vec<D>> velocities);

}  // namespace sim
