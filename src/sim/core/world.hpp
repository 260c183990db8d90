// The box the agents live in and what happens at its edges.
#pragma once
#include <cmath>
#include "sim/core/math.hpp"

namespace sim {

enum class Boundary { Wrap, Bounce, Open };

template <int D>
struct World {
  Vec<D> min{0.0f};
  Vec<D> size{1000.0f};
  Boundary boundary = Boundary::Wrap;

  Vec<D> max() const { return min + size; }
  Vec<D> center() const { return min + size * 0.5f; }

  // Offset from a to b; on a torus the shortest one across the seam (minimum image).
  Vec<D> delta(const Vec<D>& a, const Vec<D>& b) const {
    Vec<D> d = b - a;
    if (boundary == Boundary::Wrap) {
      for (int k = 0; k < D; ++k) {
        float h = size[k] * 0.5f;
        if (d[k] > h) d[k] -= size[k];
        else if (d[k] < -h) d[k] += size[k];
      }
    }
    return d;
  }

  // Keeps a position inside the world after it moved; may flip velocity on bounce.
  void applyBounds(Vec<D>& p, Vec<D>& v) const {
    if (boundary == Boundary::Wrap) {
      for (int k = 0; k < D; ++k) {
        float t = (p[k] - min[k]) / size[k];
        if (t < 0.0f || t >= 1.0f) {
          p[k] = min[k] + (t - std::floor(t)) * size[k];
          if (p[k] >= min[k] + size[k]) p[k] = min[k];  // float rounding at the seam
        }
      }
    } else if (boundary == Boundary::Bounce) {
      for (int k = 0; k < D; ++k) {
        if (p[k] < min[k]) { p[k] = 2 * min[k] - p[k]; v[k] = std::abs(v[k]); }
        float hi = min[k] + size[k];
        if (p[k] > hi) { p[k] = 2 * hi - p[k]; v[k] = -std::abs(v[k]); }
        p[k] = std::fmin(std::fmax(p[k], min[k]), hi);
      }
    }
  }
};

// The size of a world that holds n agents at `areaPerAgent` square units each, `aspectWide` by
// `aspectHigh` (16:9 by default): the one rule by which a scene's world grows with N so that its
// density, and with it each agent's neighbour count, stays the same.
inline Vec2 worldForDensity(double n, double areaPerAgent, double aspectWide = 16.0, double aspectHigh = 9.0) {
  const double height = std::sqrt(n * areaPerAgent * aspectHigh / aspectWide);
  return Vec2(float(height * aspectWide / aspectHigh), float(height));
}

// The torus the gpu scene and `bench --case gpu-boids` put n boids on: 16:9, sized so each sees
// about 10 others within `radius` (bench boids2d's density), and at least 4 cells of `radius` per axis.
inline World<2> flockWorldFor(size_t n, float radius) {
  const double r = radius, expectedNeighbors = 10.0;
  World<2> world;
  world.size = glm::max(worldForDensity(double(n), 3.14159265358979 * r * r / expectedNeighbors), Vec2(4.0f * radius));
  world.boundary = Boundary::Wrap;
  return world;
}

}  // namespace sim
