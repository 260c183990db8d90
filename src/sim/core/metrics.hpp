// Flock measurements that turn what the eye sees into numbers.
#pragma once
#include <span>
#include "sim/core/math.hpp"
#include "sim/core/world.hpp"

namespace sim {

// |mean unit heading|: 0 for disorder, 1 when every agent moves the same way. Agents at rest are skipped.
template <int D>
double polarization(std::span<const Vec<D>> velocities);

// Mean distance from each agent to its nearest other agent (exact). 0 for fewer than two agents.
template <int D>
double meanNearestNeighborDistance(std::span<const Vec<D>> positions, const World<D>& world);

}  // namespace sim
