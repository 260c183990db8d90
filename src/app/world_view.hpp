// Where the world is drawn, computed in one place, and the rule that keeps it filling that place:
// the view is fitted to the free world viewport on every change of it (start, resize, F11, Tab,
// UI scale, theme, a panel opened, folded or resized, a strip reserved below) until the user zooms,
// pans or orbits; then the user's
// view is kept (the same part of the world, scaled to the new viewport) and stays over the world.
#pragma once
#include <vector>
#include <glm/glm.hpp>
#include "app/layout.hpp"
#include "scenes/scene.hpp"

namespace app {

// What takes room from the world, in window points: the world is drawn only in what they leave
// (layout.hpp), so no agent or room of a scene lies under a panel.
struct ViewportReservations {
  float top = 0.0f;     // the menu bar, while the UI is shown
  // A strip across the bottom the world is fitted above, not under: the claim banner sets its
  // height here each frame it is shown (0: none). It is kept with the UI hidden (Tab) too.
  float bottom = 0.0f;
  std::vector<Box> panels;  // the HUD, the scene panel, insets: as they will be drawn this frame
};

struct WorldViewport {
  glm::vec2 origin{0.0f}, size{1.0f};  // window points
  bool operator==(const WorldViewport&) const = default;
};

// THE free world viewport: the largest rectangle of the window the reservations leave (layout.hpp's
// freeRectangle; never smaller than 64 x 64 points).
WorldViewport freeWorldViewport(glm::vec2 window, const ViewportReservations& reserved);

// The world rectangle a scene's Home frames in 2D (its fitted camera's view, margin included).
struct WorldRect {
  glm::vec2 min{0.0f}, max{0.0f};
};

class ViewFit {
 public:
  // Call every frame with this frame's viewport; a change refits a fitted view, and keeps a user's
  // view (scaled to the new size, its centre over the world). True when the viewport changed.
  bool update(const WorldViewport& viewport, scenes::Scene& scene, scenes::SceneContext& ctx);
  // Home, a new scene, a theme: the scene's own framing of its world, fitted to the viewport.
  void fit(scenes::Scene& scene, scenes::SceneContext& ctx);
  // The user zoomed, panned or orbited since the last fit: the "Fit (Home)" control shows.
  static bool userView(const scenes::SceneContext& ctx) { return ctx.userView; }
  const WorldViewport& viewport() const { return viewport_; }

 private:
  WorldViewport viewport_{{0.0f, 0.0f}, {0.0f, 0.0f}};
};

}  // namespace app
