// Vector maths shared by every scene, written once and generic over the dimension (2D or 3D).
#pragma once
#include <cmath>
#include <cstdint>
#include <glm/glm.hpp>

namespace sim {

template <int D>
using Vec = glm::vec<D, float, glm::defaultp>;
using Vec2 = Vec<2>;
using Vec3 = Vec<3>;

template <int D>
inline float lengthSq(const Vec<D>& v) { return glm::dot(v, v); }

// Zero stays zero instead of becoming NaN: a rule with nothing to say contributes nothing.
template <int D>
inline Vec<D> safeNormalize(const Vec<D>& v) {
  float l2 = glm::dot(v, v);
  return l2 > 1e-12f ? v * (1.0f / std::sqrt(l2)) : Vec<D>(0.0f);
}

template <int D>
inline Vec<D> clampLength(const Vec<D>& v, float maxLength) {
  float l2 = glm::dot(v, v);
  if (l2 > maxLength * maxLength && l2 > 0.0f) return v * (maxLength / std::sqrt(l2));
  return v;
}

inline float cross2(const Vec2& a, const Vec2& b) { return a.x * b.y - a.y * b.x; }
inline Vec2 perpLeft(const Vec2& v) { return {-v.y, v.x}; }

// Heading of a velocity as a unit vector; keeps `fallback` when the agent stands still.
template <int D>
inline Vec<D> headingOf(const Vec<D>& velocity, const Vec<D>& fallback) {
  float l2 = glm::dot(velocity, velocity);
  return l2 > 1e-10f ? velocity * (1.0f / std::sqrt(l2)) : fallback;
}

}  // namespace sim
