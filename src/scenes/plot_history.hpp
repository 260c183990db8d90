// A small ring of recent values for a plot (ImGui::PlotLines): scene panels' metrics, the HUD's frame times.
#pragma once
#include <imgui.h>
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

  // Oldest to newest, drawn between lo and hi. `size` as ImGui takes it (0: default width or height,
  // negative width: the region's width minus that); `overlay` is text drawn over the plot.
  void plot(const char* id, float lo, float hi, ImVec2 size, const char* overlay = nullptr) const {
    ImGui::PlotLines(id, values.data(), count, count < int(values.size()) ? 0 : next, overlay, lo, hi, size);
  }
};

}  // namespace scenes
