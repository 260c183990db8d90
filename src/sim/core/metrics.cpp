#include "sim/core/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>
#include "sim/core/grid.hpp"
#include "sim/core/knn.hpp"
#include "sim/core/parallel.hpp"
#include "sim/core/metric.hpp"

namespace sim {

// The flock's measures (Flock::appendMetrics, appendSearchMetrics), described once.
constexpr MetricInfo kFlockMetrics[] = {
    {"mean_neighbors", "neighbours per agent (last step)"},
    {"polarization", "polarization (0 = random, 1 = aligned)", "", 0.0, 1.0},
    {"mean_nn_distance", "nearest-neighbour distance (world units; the murmuration's are metres)"},
    {"groups", "groups (count)"},
    {"largest_group_share", "largest group (share of agents)", "", 0.0, 1.0},
    {"checks_per_frame", "distance checks per step"},
    {"checks_per_agent", "distance checks per agent"},
    {"neighbors_per_agent", "neighbours per agent"},
};
[[maybe_unused]] const bool flockDescribed = describeMetrics(kFlockMetrics);

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

template <int D>
GroupStats linkedGroups(const UniformGrid<D>& grid, float link, GroupScratch<D>& scratch) {
  GroupStats out;
  const uint32_t n = grid.size();
  if (n == 0) return out;
  std::vector<uint32_t>& parent = scratch.parent;
  std::vector<uint32_t>& size = scratch.size;
  parent.resize(n);
  size.assign(n, 0);
  std::iota(parent.begin(), parent.end(), 0u);
  auto root = [&](uint32_t a) {
    while (parent[a] != a) a = parent[a] = parent[parent[a]];
    return a;
  };
  const auto sorted = grid.sortedPositions();
  for (uint32_t i = 0; i < n; ++i) {
    grid.forEachInRadius(i, sorted[i], link, [&](uint32_t j, const Vec<D>&, float) {
      if (j <= i) return;
      const uint32_t a = root(i), b = root(j);
      if (a != b) parent[std::max(a, b)] = std::min(a, b);
    });
  }
  uint32_t largest = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t r = root(i);
    if (r == i) ++out.groups;
    largest = std::max(largest, ++size[r]);
  }
  out.largestShare = double(largest) / double(n);
  return out;
}

template <int D>
GroupStats linkedGroups(std::span<const Vec<D>> positions, const World<D>& world, float link, GroupScratch<D>& scratch) {
  if (positions.empty()) return {};
  // An open world's box may not hold a flock that flew off: the agents' bounding box then.
  World<D> box = world;
  if (world.boundary == Boundary::Open) {
    Vec<D> lo = positions[0], hi = positions[0];
    for (const Vec<D>& p : positions) {
      lo = glm::min(lo, p);
      hi = glm::max(hi, p);
    }
    box.min = lo;
    box.size = glm::max(hi - lo, Vec<D>(1e-3f));
  }
  scratch.grid.build(positions, box, std::max(link, 1e-3f));  // past kMaxCells it grows its cells: still exact
  return linkedGroups(scratch.grid, link, scratch);
}

template <int D>
void groupOfEachAgent(const UniformGrid<D>& grid, GroupScratch<D>& scratch, std::vector<uint32_t>& group) {
  const uint32_t n = grid.size();
  group.resize(n);
  if (scratch.parent.size() < n) return group.assign(n, 0u);  // no linkedGroups over this grid yet
  std::vector<uint32_t>& parent = scratch.parent;
  const auto order = grid.order();
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t r = i;
    while (parent[r] != r) r = parent[r] = parent[parent[r]];
    group[order[i]] = r;
  }
}

template <int D>
double velocityFluctuation(std::span<const Vec<D>> positions, std::span<const Vec<D>> velocities) {
  using V = glm::vec<D, double>;
  const size_t n = std::min(positions.size(), velocities.size());
  if (n == 0) return 0.0;
  V mean(0.0), center(0.0);
  for (size_t i = 0; i < n; ++i) {
    mean += V(velocities[i]);
    center += V(positions[i]);
  }
  mean /= double(n);
  center /= double(n);
  const double speed = glm::length(mean);
  if (!(speed > 1e-9)) return 0.0;
  // Least squares for the dilation rate (u ~ delta r) and the rotation (u ~ omega x r); the two are
  // orthogonal at every point (r . (omega x r) = 0), so each is fitted on its own.
  double rr = 0.0, ru = 0.0;
  glm::dmat3 inertia(0.0);
  glm::dvec3 torque(0.0);
  for (size_t i = 0; i < n; ++i) {
    const V r = V(positions[i]) - center, u = V(velocities[i]) - mean;
    rr += glm::dot(r, r);
    ru += glm::dot(r, u);
    glm::dvec3 r3(0.0), u3(0.0);
    for (int k = 0; k < D; ++k) { r3[k] = r[k]; u3[k] = u[k]; }
    inertia += glm::dot(r3, r3) * glm::dmat3(1.0) - glm::outerProduct(r3, r3);
    torque += glm::cross(r3, u3);
  }
  const double dilation = rr > 1e-12 ? ru / rr : 0.0;
  glm::dvec3 omega(0.0);
  if constexpr (D == 2) {
    if (rr > 1e-12) omega.z = torque.z / rr;
  } else {
    if (std::abs(glm::determinant(inertia)) > 1e-12 * rr * rr * rr) omega = glm::inverse(inertia) * torque;
  }
  double sum = 0.0;
  for (size_t i = 0; i < n; ++i) {
    const V r = V(positions[i]) - center;
    glm::dvec3 r3(0.0);
    for (int k = 0; k < D; ++k) r3[k] = r[k];
    const glm::dvec3 spin = glm::cross(omega, r3);
    V u = V(velocities[i]) - mean - dilation * r;
    for (int k = 0; k < D; ++k) u[k] -= spin[k];
    sum += glm::dot(u, u);
  }
  return std::sqrt(sum / double(n)) / speed;
}

template GroupStats linkedGroups<2>(std::span<const Vec2>, const World<2>&, float, GroupScratch<2>&);
template GroupStats linkedGroups<2>(const UniformGrid<2>&, float, GroupScratch<2>&);
template GroupStats linkedGroups<3>(const UniformGrid<3>&, float, GroupScratch<3>&);
template GroupStats linkedGroups<3>(std::span<const Vec3>, const World<3>&, float, GroupScratch<3>&);
template void groupOfEachAgent<2>(const UniformGrid<2>&, GroupScratch<2>&, std::vector<uint32_t>&);
template void groupOfEachAgent<3>(const UniformGrid<3>&, GroupScratch<3>&, std::vector<uint32_t>&);
template double velocityFluctuation<2>(std::span<const Vec2>, std::span<const Vec2>);
template double velocityFluctuation<3>(std::span<const Vec3>, std::span<const Vec3>);
template double polarization<2>(std::span<const Vec2>);
template double polarization<3>(std::span<const Vec3>);
template double meanNearestNeighborDistance<2>(std::span<const Vec2>, const World<2>&);
template double meanNearestNeighborDistance<3>(std::span<const Vec3>, const World<3>&);
template double meanNearestNeighborDistance<2>(std::span<const Vec2>, const World<2>&, UniformGrid<2>&);
template double meanNearestNeighborDistance<3>(std::span<const Vec3>, const World<3>&, UniformGrid<3>&);

}  // namespace sim
