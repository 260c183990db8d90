// Trails: a fading history of each agent's positions, drawn as line segments in the debug draw's one
// batched line call. A display option of the scenes whose claims are about paths (seek's orbits,
// arrive's clean stop): a path shows in one picture what otherwise takes seconds of watching.
#pragma once
#include <algorithm>
#include <cmath>
#include <span>
#include <vector>
#include "render/color.hpp"
#include "render/debug_draw.hpp"
#include "sim/core/math.hpp"

namespace scenes {

class Trails {
 public:
  static constexpr double kEvery = 0.1;  // simulated seconds between two samples

  // Samples the agents (index i is agent i, as long as the count stays) once every kEvery simulated
  // seconds, keeping `seconds` of history. A clock that went back (a restart) or a new count starts over.
  void record(std::span<const sim::Vec2> positions, double simTime, float seconds) {
    const size_t keep = size_t(std::clamp(std::ceil(double(seconds) / kEvery), 1.0, 600.0)) + 1;
    if (simTime < lastTime_ || positions.size() != agents_ || keep != keep_) clear();
    agents_ = positions.size();
    keep_ = keep;
    if (samples_ > 0 && simTime - lastTime_ < kEvery - 1e-9) return;
    lastTime_ = simTime;
    points_.resize(agents_ * keep_);
    const size_t slot = head_ % keep_;
    for (size_t i = 0; i < agents_; ++i) points_[i * keep_ + slot] = positions[i];
    ++head_;
    samples_ = std::min(samples_ + 1, keep_);
  }

  // Each agent's path, newest segment in `color`, fading to transparent at its oldest.
  void draw(render::DebugDraw& debug, uint32_t color) const {
    if (samples_ < 2) return;
    const uint32_t alpha = color >> 24;
    for (size_t i = 0; i < agents_; ++i)
      for (size_t k = 1; k < samples_; ++k) {  // k samples back from the newest
        const sim::Vec2& a = points_[i * keep_ + (head_ - k) % keep_];
        const sim::Vec2& b = points_[i * keep_ + (head_ - k - 1) % keep_];
        const float fade = 1.0f - float(k) / float(samples_);
        debug.line(a, b, render::withAlpha(color, uint8_t(float(alpha) * fade)));
      }
  }

  void clear() {
    points_.clear();
    head_ = samples_ = 0;
    lastTime_ = -1.0;
  }

 private:
  std::vector<sim::Vec2> points_;  // agent-major rings of keep_ samples
  size_t agents_ = 0, keep_ = 0, head_ = 0, samples_ = 0;
  double lastTime_ = -1.0;
};

}  // namespace scenes
