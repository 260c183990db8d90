#include "sim/core/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>
#include "sim/core/knn.hpp"
#include "sim/core/parallel.hpp"

namespace sim {

template <int D>
double polarization(std::span<const Vec<D>> velocities) {
  glm::vec<D, double> sum(0.0);
  size_t moving = 0;
  for (const Vec<D>& v : velocities) {
    float l2 = glm::dot(v, v);
    if (l2 <= 1e-12f) continue;
    sum += glm::vec<D, double>(v / std::sqrt(l2));
    ++moving;
  }
  return moving ? glm::length(sum) / double(moving) : 0.0;
}

// Brute force, in parallel: exact and simple. Scenes call it every few steps, not every step.
template <int D>
double meanNearestNeighborDistance(std::span<const Vec<D>> positions, const World<D>& world) {
  const size_t n = positions.size();
  if (n < 2) return 0.0;
  std::vector<float> nearest(n);
  parallelFor(n, [&](size_t i) {
    float best = std::numeric_limits<float>::max();
    for (size_t j = 0; j < n; ++j) {
      if (j == i) continue;
      Vec<D> d = world.delta(positions[i], positions[j]);
      best = std::fmin(best, glm::dot(d, d));
    }
    nearest[i] = std::sqrt(best);
  }, 64);
  double sum = 0.0;
  for (float d : nearest) sum += d;
  return sum / double(n);
}

template <int D>
double meanNearestNeighborDistance(std::span<const Vec<D>> positions, const World<D>& world, UniformGrid<D>& scratch) {
  const size_t n = positions.size();
  if (n < 2) return 0.0;
  // Cells about two mean spacings wide: a handful of agents each, so the nearest is a ring or two away.
  double volume = 1.0;
  for (int k = 0; k < D; ++k) volume *= double(world.size[k]);
  const float cell = float(2.0 * std::pow(volume / double(n), 1.0 / D));
  scratch.build(positions, world, std::max(cell, 1e-3f));
  std::vector<uint32_t> nearest(n);
  std::vector<float> distSq(n);
  nearestNeighborsAll<D>(scratch, 1, nearest, distSq);
  double sum = 0.0;
  for (float d : distSq) sum += std::sqrt(double(d));
  return sum / double(n);
}

template double polarization<2>(std::span<const Vec2>);
template double polarization<3>(std::span<const Vec3>);
template double meanNearestNeighborDistance<2>(std::span<const Vec2>, const World<2>&);
template double meanNearestNeighborDistance<3>(std::span<const Vec3>, const World<3>&);
template double meanNearestNeighborDistance<2>(std::span<const Vec2>, const World<2>&, UniformGrid<2>&);
template double meanNearestNeighborDistance<3>(std::span<const Vec3>, const World<3>&, UniformGrid<3>&);

}  // namespace sim
