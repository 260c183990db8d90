#include "render/camera.hpp"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

namespace render {

glm::mat4 Camera2D::viewProjection() const {
  glm::vec2 half = viewport * 0.5f / zoom;
  // Bottom/top swapped so world y grows downwards, like pixels.
  return glm::ortho(center.x - half.x, center.x + half.x, center.y + half.y, center.y - half.y, -1.0f, 1.0f);
}

glm::vec2 Camera2D::screenToWorld(glm::vec2 s) const { return center + (s - viewport * 0.5f) / zoom; }

void Camera2D::zoomAt(glm::vec2 s, float factor) {
  glm::vec2 before = screenToWorld(s);
  zoom = std::clamp(zoom * factor, 0.02f, 50.0f);
  glm::vec2 after = screenToWorld(s);
  center += before - after;
}

void Camera2D::fit(glm::vec2 lo, glm::vec2 hi, float margin) {
  center = (lo + hi) * 0.5f;
  glm::vec2 size = glm::max(hi - lo, glm::vec2(1e-3f)) * margin;
  zoom = std::min(viewport.x / size.x, viewport.y / size.y);
}

glm::vec3 OrbitCamera::eye() const {
  float cp = std::cos(pitch);
  return target + distance * glm::vec3(cp * std::cos(yaw), cp * std::sin(yaw), std::sin(pitch));
}
glm::mat4 OrbitCamera::view() const { return glm::lookAt(eye(), target, glm::vec3(0, 0, 1)); }
glm::mat4 OrbitCamera::projection() const {
  float aspect = viewport.y > 0 ? viewport.x / viewport.y : 1.0f;
  return glm::perspective(fovY, aspect, std::max(0.05f, distance * 0.01f), distance * 20.0f + 1000.0f);
}
void OrbitCamera::orbit(glm::vec2 d) {
  yaw -= d.x * 0.006f;
  pitch = std::clamp(pitch + d.y * 0.006f, -1.45f, 1.45f);
}
void OrbitCamera::zoom(float factor) { distance = std::clamp(distance * factor, 2.0f, 5000.0f); }

glm::vec3 OrbitCamera::rayDirection(glm::vec2 s) const {
  glm::vec2 ndc{2.0f * s.x / viewport.x - 1.0f, 1.0f - 2.0f * s.y / viewport.y};
  glm::mat4 inv = glm::inverse(viewProjection());
  glm::vec4 nearP = inv * glm::vec4(ndc, -1.0f, 1.0f), farP = inv * glm::vec4(ndc, 1.0f, 1.0f);
  return glm::normalize(glm::vec3(farP) / farP.w - glm::vec3(nearP) / nearP.w);
}

}  // namespace render
