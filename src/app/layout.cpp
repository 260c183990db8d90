#include "app/layout.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace app {

Box Box::intersection(const Box& o) const {
  const float x0 = std::max(x, o.x), y0 = std::max(y, o.y);
  const float x1 = std::min(right(), o.right()), y1 = std::min(bottom(), o.bottom());
  return {x0, y0, std::max(0.0f, x1 - x0), std::max(0.0f, y1 - y0)};
}

namespace {

// Every way of cutting the remaining panels out of `rect`, the largest result kept in `best`. A
// handful of panels: four ways each, tried exhaustively.
void cutPanels(const Box& rect, std::span<const Box> panels, Box& best) {
  if (panels.empty()) {
    // Ties go to the wider rectangle: the scenes' worlds are wider than tall.
    if (rect.area() > best.area() || (rect.area() == best.area() && rect.w > best.w)) best = rect;
    return;
  }
  const Box& p = panels.front();
  const std::span<const Box> rest = panels.subspan(1);
  if (!rect.overlaps(p)) return cutPanels(rect, rest, best);
  const Box beside[4] = {
      {p.right(), rect.y, rect.right() - p.right(), rect.h},  // the part right of the panel
      {rect.x, rect.y, p.x - rect.x, rect.h},                 // left of it
      {rect.x, p.bottom(), rect.w, rect.bottom() - p.bottom()},  // below it
      {rect.x, rect.y, rect.w, p.y - rect.y},                 // above it
  };
  for (const Box& b : beside)
    if (b.w > 0.0f && b.h > 0.0f && b.area() > best.area()) cutPanels(b, rest, best);
}

}  // namespace

Box freeRectangle(const Box& area, std::span<const Box> panels) {
  Box best{area.x, area.y, 0.0f, 0.0f};
  cutPanels(area, panels, best);
  constexpr float kLeast = 64.0f;
  best.w = std::max(best.w, kLeast);
  best.h = std::max(best.h, kLeast);
  return best;
}

nlohmann::json layoutJson(const ScreenLayout& layout) {
  auto box = [](const Box& b) { return nlohmann::json::array({b.x, b.y, b.w, b.h}); };
  nlohmann::json panels = nlohmann::json::array();
  for (const Box& p : layout.panels) panels.push_back(box(p));
  return {{"window", {layout.window.x, layout.window.y}}, {"free", box(layout.free)}, {"agents_box", box(layout.agents)},
          {"panels", panels}, {"experiments", box(layout.experiments)}, {"panel_bottom", layout.panelBottom}};
}

}  // namespace app
