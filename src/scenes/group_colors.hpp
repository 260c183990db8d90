// Colour by group: the fixed-link groups the metrics count (sim::linkedGroups), each in its own colour
// from a small palette, and colours that stay with a group from frame to frame: each group takes the
// colour most of its members had in the last frame, largest group first. A display option of the flock
// scenes, switched on by the experiments about splitting, chains and clumping.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <vector>
#include "render/color.hpp"
#include "sim/core/metrics.hpp"

namespace scenes {

class GroupColors {
 public:
  // Saturated, far apart in hue, light enough on the dark background; the light theme's ink darkens them.
  static constexpr std::array<uint32_t, 12> kPalette = {
      render::rgba(235, 80, 70),   render::rgba(250, 170, 50),  render::rgba(240, 235, 90),  render::rgba(110, 215, 80),
      render::rgba(60, 205, 200),  render::rgba(80, 140, 255),  render::rgba(175, 115, 255), render::rgba(250, 205, 160),
      render::rgba(150, 90, 40),   render::rgba(35, 130, 80),   render::rgba(140, 225, 255), render::rgba(200, 200, 200)};

  // Groups by `link` over the agents (as the metrics count them), then their colours. `id[i]` is agent
  // i's stable id (agents may change places between frames).
  template <int D>
  void update(std::span<const sim::Vec<D>> positions, std::span<const uint32_t> id, const sim::World<D>& world, float link) {
    auto& scratch = scratchOf<D>();
    sim::linkedGroups<D>(positions, world, link, scratch);
    sim::groupOfEachAgent<D>(scratch.grid, scratch, group_);
    colour(id);
  }
  // After update(): agent i's colour (this frame's order).
  uint32_t colorOf(size_t i) const { return i < slot_.size() ? kPalette[slot_[i]] : kPalette.back(); }
  // Groups in the last update (the metric's count).
  uint32_t groups() const { return groups_; }
  void clear() { slotById_.clear(); }

 private:
  template <int D>
  sim::GroupScratch<D>& scratchOf() {
    if constexpr (D == 2) return scratch2_;
    else return scratch3_;
  }
  void colour(std::span<const uint32_t> id);

  static constexpr uint8_t kNone = 255;
  sim::GroupScratch<2> scratch2_;
  sim::GroupScratch<3> scratch3_;
  std::vector<uint32_t> group_, size_, start_, members_, bySize_;
  std::vector<uint8_t> slot_, slotById_;
  uint32_t groups_ = 0;
};

}  // namespace scenes
