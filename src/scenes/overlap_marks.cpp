#include "scenes/overlap_marks.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include "render/color.hpp"

namespace scenes {

std::vector<std::pair<uint32_t, uint32_t>> overlappingPairs(std::span<const sim::Vec2> positions, float radius) {
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  if (positions.empty() || !(radius > 0.0f)) return pairs;
  // Cells one diameter wide: an overlapping pair lies in the same or a neighbouring cell.
  const float cell = 2.0f * radius, reach = 0.99f * 2.0f * radius;
  auto key = [](int64_t x, int64_t y) { return (x << 32) ^ (y & 0xFFFFFFFF); };
  std::unordered_map<int64_t, std::vector<uint32_t>> cells;
  cells.reserve(positions.size());
  for (uint32_t i = 0; i < positions.size(); ++i) {
    const sim::Vec2 p = positions[i];
    if (!std::isfinite(p.x) || !std::isfinite(p.y)) continue;
    cells[key(int64_t(std::floor(p.x / cell)), int64_t(std::floor(p.y / cell)))].push_back(i);
  }
  for (uint32_t i = 0; i < positions.size(); ++i) {
    const sim::Vec2 p = positions[i];
    if (!std::isfinite(p.x) || !std::isfinite(p.y)) continue;
    const int64_t cx = int64_t(std::floor(p.x / cell)), cy = int64_t(std::floor(p.y / cell));
    for (int64_t dy = -1; dy <= 1; ++dy)
      for (int64_t dx = -1; dx <= 1; ++dx) {
        const auto found = cells.find(key(cx + dx, cy + dy));
        if (found == cells.end()) continue;
        for (uint32_t j : found->second) {
          if (j <= i) continue;
          const sim::Vec2 d = positions[j] - p;
          if (d.x * d.x + d.y * d.y < reach * reach) pairs.push_back({i, j});
        }
      }
  }
  return pairs;
}

void ringOverlapping(render::DebugDraw& debug, std::span<const sim::Vec2> positions, float radius,
                     std::span<const std::pair<uint32_t, uint32_t>> pairs, uint32_t color) {
  std::vector<bool> ringed(positions.size(), false);
  for (const auto& [i, j] : pairs)
    for (uint32_t k : {i, j})
      if (!ringed[k]) {
        ringed[k] = true;
        debug.circle(positions[k], radius, color);
      }
}

void drawMagnifier(render::DebugDraw& debug, const Magnifier& m, std::span<const sim::Vec2> positions, float radius,
                   std::span<const uint32_t> colors, std::span<const std::pair<uint32_t, uint32_t>> pairs, uint32_t overlapColor) {
  const float insetRadius = m.sourceRadius * m.zoom;
  const uint32_t frame = render::rgba(235, 235, 240, 220);
  debug.circle(m.source, m.sourceRadius, frame);
  const sim::Vec2 d = m.inset - m.source;
  const float gap = std::sqrt(d.x * d.x + d.y * d.y);
  if (gap > m.sourceRadius + insetRadius) {
    const sim::Vec2 u = d / gap;
    debug.line(m.source + u * m.sourceRadius, m.inset - u * insetRadius, frame);
  }
  debug.disk(m.inset, insetRadius, render::rgba(14, 16, 22, 245));
  std::vector<bool> overlapping(positions.size(), false);
  for (const auto& [i, j] : pairs) overlapping[i] = overlapping[j] = true;
  // Bodies reaching past the inset's edge are left out: a magnifier shows what lies inside it.
  const float inside = m.sourceRadius - radius;
  for (size_t i = 0; i < positions.size(); ++i) {
    const sim::Vec2 off = positions[i] - m.source;
    if (off.x * off.x + off.y * off.y > inside * inside) continue;
    const sim::Vec2 at = m.inset + off * m.zoom;
    const uint32_t c = i < colors.size() ? colors[i] : render::rgba(200, 200, 200);
    debug.disk(at, radius * m.zoom, render::withAlpha(c, 110));  // translucent: where two overlap it is denser
    debug.circle(at, radius * m.zoom, overlapping[i] ? overlapColor : render::withAlpha(c, 230));
  }
  debug.circle(m.inset, insetRadius, frame);
}

}  // namespace scenes
