// A small ring of recent values for a plot (ImGui::PlotLines): scene panels' metrics, the HUD's frame times.
#pragma once
#include <imgui.h>
#include <algorithm>
#include <array>
#include <cstdio>

namespace scenes {

inline void plotWithAxes(const char* id, const float* data, int count, int offset, float lo, float hi, ImVec2 size,
                         const char* overlay = nullptr, const char* unit = "");

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
  void plot(const char* id, float lo, float hi, ImVec2 size, const char* overlay = nullptr, const char* unit = "") const {
    plotWithAxes(id, values.data(), count, count < int(values.size()) ? 0 : next, lo, hi, size, overlay, unit);
  }
};

// A plot a class can read: the range's ends written on its left axis (with `unit`), the time axis
// under it ("older <- -> now"), at least 3.5 text lines tall at any UI scale. Values outside
// [lo, hi] are clamped by ImGui. `size` as ImGui takes it; its height is a minimum at UI scale 1.
inline void plotWithAxes(const char* id, const float* data, int count, int offset, float lo, float hi, ImVec2 size,
                         const char* overlay, const char* unit) {
  const float line = ImGui::GetTextLineHeight();
  char top[32], bottom[32];
  std::snprintf(top, sizeof top, "%.*g%s%s", hi >= 1000.0f && hi < 10000.0f ? 4 : 3, double(hi), *unit ? " " : "", unit);  // 1170, not 1.17e+03
  std::snprintf(bottom, sizeof bottom, "%.3g", double(lo));
  const float axis = std::max(ImGui::CalcTextSize(top).x, ImGui::CalcTextSize(bottom).x) + ImGui::GetStyle().ItemSpacing.x;
  const float height = std::max(size.y * ImGui::GetIO().FontGlobalScale, 3.5f * line);
  ImGui::BeginGroup();
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImU32 ink = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  draw->AddText(ImVec2(at.x + axis - ImGui::GetStyle().ItemSpacing.x - ImGui::CalcTextSize(top).x, at.y), ink, top);
  draw->AddText(ImVec2(at.x + axis - ImGui::GetStyle().ItemSpacing.x - ImGui::CalcTextSize(bottom).x, at.y + height - line), ink, bottom);
  ImGui::SetCursorScreenPos(ImVec2(at.x + axis, at.y));
  const float room = ImGui::GetContentRegionAvail().x;
  const float width = std::min(size.x > 0 ? size.x : room + std::min(size.x, 0.0f), room);  // never past the panel's edge
  ImGui::PlotLines(id, data, count, offset, overlay, lo, hi, ImVec2(std::max(width, std::min(4.0f * line, room)), height));
  const ImVec2 end = ImGui::GetItemRectMax();
  ImGui::SetCursorScreenPos(ImVec2(at.x + axis, end.y));
  ImGui::TextDisabled("older");
  ImGui::SameLine(0.0f, 0.0f);
  const char* now = "now";
  ImGui::SetCursorScreenPos(ImVec2(end.x - ImGui::CalcTextSize(now).x, ImGui::GetCursorScreenPos().y));
  ImGui::TextDisabled("%s", now);
  ImGui::EndGroup();
}

}  // namespace scenes
