#include "app/world_view.hpp"

#include <algorithm>

namespace app {

WorldViewport freeWorldViewport(glm::vec2 window, const ViewportReservations& reserved) {
  const Box area{0.0f, reserved.top, window.x, window.y - reserved.top - reserved.bottom};
  const Box free = freeRectangle(area, reserved.panels);
  return {{free.x, free.y}, {free.w, free.h}};
}

void ViewFit::fit(scenes::Scene& scene, scenes::SceneContext& ctx) {
  ctx.camera2D.viewport = viewport_.size;
  ctx.camera3D.viewport = viewport_.size;
  scene.homeCamera(ctx);
  ctx.userView = false;
}

bool ViewFit::update(const WorldViewport& viewport, scenes::Scene& scene, scenes::SceneContext& ctx) {
  if (viewport == viewport_) return false;
  const glm::vec2 before = viewport_.size;
  viewport_ = viewport;
  if (!ctx.userView || before.x <= 0.0f || before.y <= 0.0f) {
    fit(scene, ctx);
    return true;
  }
  // The user's view: the same part of the world, scaled to the new size, about the same centre.
  render::Camera2D& cam = ctx.camera2D;
  cam.zoom *= std::min(viewport.size.x / before.x, viewport.size.y / before.y);
  cam.viewport = viewport.size;
  ctx.camera3D.viewport = viewport.size;
  if (scene.view == scenes::View::TwoD) {
    // ...and over the world: its centre inside the rectangle Home would show.
    scenes::SceneContext probe = ctx;
    scene.homeCamera(probe);
    const glm::vec2 half = probe.camera2D.viewport * 0.5f / probe.camera2D.zoom;
    cam.center = glm::clamp(cam.center, probe.camera2D.center - half, probe.camera2D.center + half);
  }
  return true;
}

}  // namespace app
