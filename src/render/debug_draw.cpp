#include "render/debug_draw.hpp"

#include <algorithm>

namespace render {

void DebugDraw::triangle(glm::vec2 a, glm::vec2 b, glm::vec2 c, uint32_t color) {
  triangles_.push_back({glm::vec3(a, 0), color});
  triangles_.push_back({glm::vec3(b, 0), color});
  triangles_.push_back({glm::vec3(c, 0), color});
}

void DebugDraw::rect(glm::vec2 lo, glm::vec2 hi, uint32_t color) {
  line(lo, {hi.x, lo.y}, color);
  line({hi.x, lo.y}, hi, color);
  line(hi, {lo.x, hi.y}, color);
  line({lo.x, hi.y}, lo, color);
}

void DebugDraw::filledRect(glm::vec2 lo, glm::vec2 hi, uint32_t color) {
  triangle(lo, {hi.x, lo.y}, hi, color);
  triangle(lo, hi, {lo.x, hi.y}, color);
}

void DebugDraw::arrow(glm::vec2 from, glm::vec2 to, uint32_t color, float head) {
  glm::vec2 d = to - from;
  float len = glm::length(d);
  if (len < 1e-6f) return;
  glm::vec2 dir = d / len, side{-dir.y, dir.x};
  if (head <= 0.0f) head = std::min(len * 0.25f, 8.0f);
  glm::vec2 base = to - dir * head;
  line(from, base, color);
  triangle(to, base + side * head * 0.45f, base - side * head * 0.45f, color);
}

void DebugDraw::arrow(glm::vec3 from, glm::vec3 to, uint32_t color) {
  glm::vec3 d = to - from;
  float len = glm::length(d);
  if (len < 1e-6f) return;
  line(from, to, color);
  glm::vec3 dir = d / len;
  glm::vec3 side = glm::normalize(std::abs(dir.z) < 0.9f ? glm::cross(dir, glm::vec3(0, 0, 1)) : glm::cross(dir, glm::vec3(1, 0, 0)));
  glm::vec3 base = to - dir * (len * 0.2f);
  line(to, base + side * (len * 0.08f), color);
  line(to, base - side * (len * 0.08f), color);
}

}  // namespace render
