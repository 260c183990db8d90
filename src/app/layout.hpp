// Where everything sits in the window, computed in one place: the panels (HUD, scene panel, insets)
// and the free rectangle they leave, which the world is fitted into (world_view.hpp). The world is
// never laid under a panel: what a class must see stays uncovered at any UI scale and window size.
#pragma once
#include <span>
#include <string>
#include <vector>
#include <glm/glm.hpp>
#include <nlohmann/json_fwd.hpp>

namespace app {

// A rectangle in window points: x, y of its top-left corner, its width and height.
struct Box {
  float x = 0.0f, y = 0.0f, w = 0.0f, h = 0.0f;
  float right() const { return x + w; }
  float bottom() const { return y + h; }
  float area() const { return w > 0.0f && h > 0.0f ? w * h : 0.0f; }
  bool overlaps(const Box& o) const { return x < o.right() && o.x < right() && y < o.bottom() && o.y < bottom(); }
  Box intersection(const Box& o) const;
  bool operator==(const Box&) const = default;
};

// The largest rectangle of `area` that no panel overlaps, each panel cut away from the side that
// leaves the most (a tall column from the side, a short strip from the top). Never smaller than
// 64 x 64 points, however the panels crowd the window.
Box freeRectangle(const Box& area, std::span<const Box> panels);

// The window as last laid out: reported by --state-out, read by the tests and users' scripts.
struct ScreenLayout {
  glm::vec2 window{0.0f};
  Box free;
  std::vector<Box> panels;
  // The drawn agents' bounding box, window points (zero when none is drawn).
  Box agents;
  // The scene panel's experiment buttons (zero when it shows none) and the panel's visible bottom.
  Box experiments;
  float panelBottom = 0.0f;
};

// {"window": [w, h], "free": [x, y, w, h], "agents_box": [x, y, w, h], "panels": [[x, y, w, h], ...],
//  "experiments": [x, y, w, h], "panel_bottom": y}
nlohmann::json layoutJson(const ScreenLayout& layout);

}  // namespace app
