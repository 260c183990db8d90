// The panels' ImGui helpers: widgets for declared parameters, and layout helpers for panels that
// must never cut text: a row of widgets wraps to the next line where the panel is too narrow for it
// (a large UI scale, a 720 p window), instead of running past the panel's edge. The scenes' panels
// and the app's use the same ones. (UI only: the headless layers never include this.)
#pragma once
#include <cstdint>
#include <imgui.h>  // IM_FMTARGS
#include <initializer_list>
#include <span>
#include <utility>
#include "scenes/number_text.hpp"
#include "scenes/params.hpp"
#include "scenes/plot_history.hpp"

namespace scenes {

// Auto-generated ImGui widgets for declared parameters; returns true when any value changed.
// `filter` keeps only parameters whose names are listed (nullptr: all).
bool paramWidgets(std::span<const Param> params, std::initializer_list<const char*> only = {});
// A separator with a dim title, for grouping a panel.
void sectionTitle(const char* title);
// One line of colour names, each in its colour (RGBA8, as render/color.hpp packs it).
void legend(std::initializer_list<std::pair<const char*, uint32_t>> entries);


// After an item: the next one, `width` points wide, on the same line where it fits, else on the next.
void sameLineIfFits(float width);
// The same, for a button with this label next (as ImGui::Button sizes it).
void sameLineIfFits(const char* buttonLabel);
// Widths of the next item, for sameLineIfFits.
float buttonWidth(const char* label);
float checkboxWidth(const char* label);  // a checkbox or a radio button with its label
float textWidth(const char* text);
// A button whose label wraps over several lines where the room left on the line is too narrow for it
// (a long claim title at 3x); otherwise ImGui::Button. True when pressed.
bool wrappingButton(const char* label);

// The last item's tooltip, as every panel shows one: only after the pointer has rested on the item
// for kTooltipDelaySeconds (a pointer passing over a panel never flashes text), and laid over the
// panel the item is in, wrapped to its width, never over the world beside it. printf-style.
constexpr double kTooltipDelaySeconds = 0.6;
void panelTooltip(const char* format, ...) IM_FMTARGS(1);

// A plot a class can read: the range's ends written on its left axis (with `unit`), the time axis
// under it ("older <- -> now"), at least 3.5 text lines tall at any UI scale. Values outside
// [lo, hi] are clamped by ImGui. `size` as ImGui takes it (0: default width or height, negative
// width: the region's width minus that); its height is a minimum at UI scale 1. `overlay` is text
// drawn over the plot.
void plotWithAxes(const char* id, const float* data, int count, int offset, float lo, float hi, ImVec2 size,
                  const char* overlay = nullptr, const char* unit = "");
// A history, oldest to newest, so.
inline void plotHistory(const PlotHistory& h, const char* id, float lo, float hi, ImVec2 size,
                        const char* overlay = nullptr, const char* unit = "") {
  plotWithAxes(id, h.values.data(), h.count, h.oldest(), lo, hi, size, overlay, unit);
}

}  // namespace scenes
