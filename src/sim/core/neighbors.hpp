// Neighbour search: the contract every search structure follows, and the brute-force reference.
//
// A radius query calls visit(j, offset, distSq) for every agent j != self with |offset| <= radius,
// where offset = (position of j) - p, taken across the seam on a wrapping world. It returns the
// number of distance checks it made, so scenes can show what a search costs.
#pragma once
#include <cstdint>
#include <span>
#include "sim/core/math.hpp"
#include "sim/core/world.hpp"

namespace sim {

enum class NeighborMethod { BruteForce, Grid };

template <int D>
struct BruteForceSearch {
  std::span<const Vec<D>> positions;
  const World<D>* world = nullptr;

  template <class Visit>
  uint32_t forEachInRadius(uint32_t self, const Vec<D>& p, float radius, Visit&& visit) const {
    const float r2 = radius * radius;
    const uint32_t n = static_cast<uint32_t>(positions.size());
    for (uint32_t j = 0; j < n; ++j) {
      if (j == self) continue;
      Vec<D> d = world->delta(p, positions[j]);
      float d2 = glm::dot(d, d);
      if (d2 <= r2) visit(j, d, d2);
    }
    return n > 0 ? n - 1 : 0;
  }
};

}  // namespace sim
