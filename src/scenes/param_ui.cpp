// Sliders, checkboxes and combos generated from parameter declarations.
#include <imgui.h>
#include <algorithm>
#include <cstdarg>
#include <cfloat>
#include <cstdio>
#include <cstring>
#include <string>
#include "scenes/param_ui.hpp"
#include "scenes/scene.hpp"

namespace scenes {

bool paramWidgets(std::span<const Param> params, std::initializer_list<const char*> only) {
  bool changed = false;
  for (const Param& p : params) {
    if (p.noSlider) continue;  // the scene's own panel draws it
    if (only.size() && std::none_of(only.begin(), only.end(), [&](const char* n) { return std::strcmp(n, p.name) == 0; }))
      continue;
    ImGui::PushID(p.name);
    // A label too long for the room beside its widget goes above it, wrapped, and the widget takes
    // the whole width: a narrow panel or a large UI scale never cuts a label.
    const char* label = p.label;
    const float beside = ImGui::GetContentRegionAvail().x - ImGui::CalcItemWidth() - ImGui::GetStyle().ItemInnerSpacing.x;
    const bool above = p.type != ParamType::Bool && ImGui::CalcTextSize(p.label).x > beside;
    if (above) {
      ImGui::TextWrapped("%s", p.label);
      ImGui::SetNextItemWidth(-FLT_MIN);
      label = "##value";
    }
    ImGuiSliderFlags flags = ImGuiSliderFlags_AlwaysClamp | (p.logarithmic ? ImGuiSliderFlags_Logarithmic : 0);
    bool edited = false;
    switch (p.type) {
      case ParamType::Float:
        edited = ImGui::SliderFloat(label, static_cast<float*>(p.value), p.min, p.max, "%.3g", flags);
        break;
      case ParamType::Int:
        edited = ImGui::SliderInt(label, static_cast<int*>(p.value), int(p.min), int(p.max), "%d", flags);
        break;
      case ParamType::Bool:
        if (ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(p.label).x >
            ImGui::GetContentRegionAvail().x) {
          edited = ImGui::Checkbox("##value", static_cast<bool*>(p.value));  // its label wrapped beside it
          ImGui::SameLine(0.0f, ImGui::GetStyle().ItemInnerSpacing.x);
          ImGui::TextWrapped("%s", p.label);
        } else {
          edited = ImGui::Checkbox(label, static_cast<bool*>(p.value));
        }
        break;
      case ParamType::Enum: {
        const int current = int(p.get());
        if (ImGui::BeginCombo(label, p.option(current).c_str())) {
          for (int k = 0; k < Param::optionCount(p.options); ++k) {
            std::string o = p.option(k);
            if (ImGui::Selectable(o.c_str(), k == current)) { p.set(k); edited = true; }
          }
          ImGui::EndCombo();
        }
        break;
      }
    }
    if (p.tooltip && *p.tooltip) panelTooltip("%s\n(--set %s=...)", p.tooltip, p.name);
    changed |= edited;
    ImGui::PopID();
  }
  return changed;
}

void panelTooltip(const char* format, ...) {
  // Which item the pointer rests on, and since when: one at a time, so one record does. An item is
  // known by its rectangle (text has no id); a frame without it hovered starts the wait again.
  static ImVec2 restingOn{-1.0f, -1.0f};
  static double since = 0.0;
  static int lastFrame = -1;
  if (!ImGui::IsItemHovered()) return;
  const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
  const int frame = ImGui::GetFrameCount();
  if (lo.x != restingOn.x || lo.y != restingOn.y || lastFrame < frame - 1) {
    restingOn = lo;
    since = ImGui::GetTime();
  }
  lastFrame = frame;
  if (ImGui::GetTime() - since < kTooltipDelaySeconds) return;
  // Over the item's window: below the item in the window's upper half, above it in the lower half.
  const ImVec2 at = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
  const bool below = 0.5f * (lo.y + hi.y) < at.y + 0.5f * size.y;
  const float gap = 0.25f * ImGui::GetFontSize();
  ImGui::SetNextWindowPos(ImVec2(at.x + gap, below ? hi.y + gap : lo.y - gap), ImGuiCond_Always, ImVec2(0.0f, below ? 0.0f : 1.0f));
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(std::max(size.x - 2.0f * gap - 2.0f * ImGui::GetStyle().WindowPadding.x, 4.0f * ImGui::GetFontSize()));
  va_list args;
  va_start(args, format);
  ImGui::TextV(format, args);
  va_end(args);
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

void sectionTitle(const char* title) {
  ImGui::Spacing();
  ImGui::Separator();
  ImGui::TextDisabled("%s", title);
}

void legend(std::initializer_list<std::pair<const char*, uint32_t>> entries) {
  // A swatch in the colour (opaque, whatever its alpha) and the name in the text colour: a dark
  // colour stays readable on the dark panel, and the swatch grows with the UI scale.
  const float side = 0.8f * ImGui::GetTextLineHeight();
  bool first = true;
  for (const auto& [name, color] : entries) {
    // The next entry on the same line where it fits, else on the next: a narrow panel never cuts it.
    const float width = side + 0.3f * side + ImGui::CalcTextSize(name).x;
    if (!first) sameLineIfFits(width);
    first = false;
    ImVec4 swatch = ImGui::ColorConvertU32ToFloat4(color);  // RGBA8 packs as IM_COL32 does
    swatch.w = 1.0f;
    ImGui::ColorButton(name, swatch, ImGuiColorEditFlags_NoTooltip, ImVec2(side, side));
    ImGui::SameLine(0.0f, 0.3f * side);
    ImGui::TextUnformatted(name);
  }
}

float buttonWidth(const char* label) {
  return ImGui::CalcTextSize(label, nullptr, true).x + 2.0f * ImGui::GetStyle().FramePadding.x;
}

float checkboxWidth(const char* label) {
  const float text = ImGui::CalcTextSize(label, nullptr, true).x;
  return ImGui::GetFrameHeight() + (text > 0 ? ImGui::GetStyle().ItemInnerSpacing.x + text : 0.0f);
}

float textWidth(const char* text) { return ImGui::CalcTextSize(text).x; }

void sameLineIfFits(float width) {
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + width <= right) ImGui::SameLine();
}

void sameLineIfFits(const char* buttonLabel) { sameLineIfFits(buttonWidth(buttonLabel)); }

bool wrappingButton(const char* label) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float room = ImGui::GetContentRegionAvail().x;
  if (buttonWidth(label) <= room) return ImGui::Button(label);
  // An unlabelled button of the room's width and the wrapped label's height, the label drawn over it.
  const char* end = std::strstr(label, "##");
  const float wrap = std::max(room - 2.0f * style.FramePadding.x, 1.0f);
  const ImVec2 text = ImGui::CalcTextSize(label, end, false, wrap);
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImGui::PushID(label);
  const bool pressed = ImGui::Button("##wrapped", ImVec2(room, text.y + 2.0f * style.FramePadding.y));
  ImGui::PopID();
  ImGui::GetWindowDrawList()->AddText(ImGui::GetFont(), ImGui::GetFontSize(),
                                      ImVec2(at.x + style.FramePadding.x, at.y + style.FramePadding.y),
                                      ImGui::GetColorU32(ImGuiCol_Text), label, end, wrap);
  return pressed;
}

void plotWithAxes(const char* id, const float* data, int count, int offset, float lo, float hi, ImVec2 size,
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
