// A small ring of recent values for a plot: scene panels' metrics, the HUD's frame times. Data only;
// scenes::plotHistory (param_ui.hpp) draws it.
#pragma once
#include <algorithm>
#include <array>

namespace scenes {

struct PlotHistory {
  std::array<float, 240> values{};
  int next = 0, count = 0;

  void clear() { next = count = 0; }
  void push(float v) {
    values[size_t(next)] = v;
    next = (next + 1) % int(values.size());
    count = std::min(count + 1, int(values.size()));
  }
  // The largest value held; 1 while empty.
  float max() const { return count ? *std::max_element(values.begin(), values.begin() + count) : 1.0f; }

  // Where the oldest value is, for a plot drawn oldest to newest.
  int oldest() const { return count < int(values.size()) ? 0 : next; }
};

}  // namespace scenes
