// Cameras: 2D pan/zoom (world y points down, like screen pixels) and a 3D orbit camera (z up).
#pragma once
#include <glm/glm.hpp>

namespace render {

struct Camera2D {
  glm::vec2 center{640.0f, 360.0f};  // world point at the viewport centre
  float zoom = 1.0f;                 // pixels per world unit
  glm::vec2 viewport{1280.0f, 720.0f};

  glm::mat4 viewProjection() const;
  glm::vec2 screenToWorld(glm::vec2 screenPixels) const;
  // Zoom by `factor` keeping the world point under `screenPixels` fixed.
  void zoomAt(glm::vec2 screenPixels, float factor);
  void panPixels(glm::vec2 deltaPixels) { center -= deltaPixels / zoom; }
  // Frames a world rectangle with a margin.
  void fit(glm::vec2 worldMin, glm::vec2 worldMax, float margin = 1.03f);
};

struct OrbitCamera {
  glm::vec3 target{0.0f};
  float yaw = 0.6f;      // radians around z
  float pitch = 0.35f;   // radians above the horizon
  float distance = 120.0f;
  float fovY = 0.9f;
  glm::vec2 viewport{1280.0f, 720.0f};

  glm::vec3 eye() const;
  glm::mat4 view() const;
  glm::mat4 projection() const;
  glm::mat4 viewProjection() const { return projection() * view(); }
  void orbit(glm::vec2 deltaPixels);
  void zoom(float factor);
  // A ray from the eye through a screen pixel, for picking a point on a plane.
  glm::vec3 rayDirection(glm::vec2 screenPixels) const;
};

}  // namespace render
