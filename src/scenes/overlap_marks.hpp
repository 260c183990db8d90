// Overlapping bodies made visible: a claim about collisions ("turn ORCA off and bodies overlap") is
// shown, not only counted. The pairs are found as the metrics count them (centres closer than 0.99 of a
// diameter); each overlapping body gets a ring, and a magnifier draws the bodies around a point (the
// crush at the target) several times larger beside it, where a crowd of 3-pixel arrows becomes
// circles visibly inside each other. Display only: nothing here touches the simulation.
#pragma once
#include <cstdint>
#include <span>
#include <utility>
#include <vector>
#include "render/debug_draw.hpp"
#include "sim/core/math.hpp"

namespace scenes {

// Every pair (i < j) of circles of `radius` whose centres are closer than 0.99 * 2 * radius.
std::vector<std::pair<uint32_t, uint32_t>> overlappingPairs(std::span<const sim::Vec2> positions, float radius);

// A ring on each body that overlaps another.
void ringOverlapping(render::DebugDraw& debug, std::span<const sim::Vec2> positions, float radius,
                     std::span<const std::pair<uint32_t, uint32_t>> pairs, uint32_t color);

// The magnifier: the bodies within `sourceRadius` of `source`, drawn `zoom` times larger as
// translucent disks with outlines inside a backed circle at `inset` (overlapping bodies' outlines in
// `overlapColor`), a ring around the source and a line joining the two.
struct Magnifier {
  sim::Vec2 source{0.0f}, inset{0.0f};
  float sourceRadius = 1.0f, zoom = 5.0f;
};
void drawMagnifier(render::DebugDraw& debug, const Magnifier& m, std::span<const sim::Vec2> positions, float radius,
                   std::span<const uint32_t> colors, std::span<const std::pair<uint32_t, uint32_t>> pairs, uint32_t overlapColor);

}  // namespace scenes
