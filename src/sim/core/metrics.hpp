// Flock measurements that turn what the eye sees into numbers.
#pragma once
#include <span>
#include "sim/core/grid.hpp"
#include "sim/core/math.hpp"
#include "sim/core/world.hpp"

namespace sim {

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

}  // namespace sim
