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
#include "scenes/params.hpp"

namespace scenes {

// Auto-generated ImGui widgets for declared parameters; returns true when any value changed.
// `filter` keeps only parameters whose names are listed (nullptr: all).
bool paramWidgets(std::span<const Param> params, std::initializer_list<const char*> only = {});
// A separator with a dim title, for grouping a panel.
void sectionTitle(const char* title);
// One line of colour names, each in its colour (RGBA8, as render/color.hpp packs it).
void legend(std::initializer_list<std::pair<const char*, uint32_t>> entries);

// 1234567 -> "1,234,567" into a caller's buffer (no allocation): counts a room reads at a glance.
const char* withCommas(uint64_t v, char (&out)[32]);

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

}  // namespace scenes
