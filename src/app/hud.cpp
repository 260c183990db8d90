#include "app/hud.hpp"
#include "app/probe.hpp"
#include "app/ui_style.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // BringWindowToDisplayFront: the help in front of later windows
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>
#include "app/platform.hpp"
#include "sim/core/metric.hpp"

namespace app {

namespace {
// A metric's plot range: its description's where it has one (polarization and shares 0 - 1), else
// from 0 (or the lowest value, when negative) to a little above the highest, so noise on a steady
// value stays flat.
std::pair<float, float> plotRange(const sim::MetricInfo* info, const std::vector<float>& values) {
  if (info && info->plotHi > info->plotLo) return {float(info->plotLo), float(info->plotHi)};
  float lo = 0.0f, hi = 0.0f;
  for (float v : values) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  return {lo, hi > 0.0f ? hi * 1.15f : 1.0f};
}
}  // namespace

HudActions drawHud(HudMemory& hud, const HudState& s, const std::vector<scenes::SceneEntry>& scenes,
                   const std::string& current, float& speed, bool& vsync, const MetricsLog& log) {
  HudActions act;
  if (ImGui::BeginMainMenuBar()) {
    if (ImGui::BeginMenu("Scene")) {
      for (size_t i = 0; i < scenes.size(); ++i) {
        const scenes::SceneEntry& e = scenes[i];
        char key[8] = "";
        if (i < 9) std::snprintf(key, sizeof(key), "%zu", i + 1);  // keys 1-9: the registry's order
        if (ImGui::MenuItem(e.title, key, current == e.name)) act.switchTo = e.name;
      }
      ImGui::Separator();
      if (ImGui::MenuItem("Restart", "R")) act.restart = true;
      ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Simulation")) {
      if (ImGui::MenuItem(s.paused ? "Resume" : "Pause", "Space")) act.togglePause = true;
      if (ImGui::MenuItem("Single step", "Right")) act.singleStep = true;
      ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("View")) {
      if (ImGui::MenuItem("Screenshot", "F12")) act.screenshot = true;
      if (ImGui::MenuItem("Export metrics CSV")) act.exportCsv = true;
      if (ImGui::MenuItem("VSync", nullptr, &vsync)) act.vsyncChanged = true;
      if (ImGui::MenuItem("Light theme", "Ctrl T", !s.darkTheme)) act.toggleTheme = true;
      if (ImGui::MenuItem("Larger UI", "Ctrl +")) act.uiScale = std::min(3.0f, s.uiScale + 0.25f);
      if (ImGui::MenuItem("Smaller UI", "Ctrl -")) act.uiScale = std::max(1.0f, s.uiScale - 0.25f);
      if (ImGui::MenuItem("Diagnostics (full HUD)", "F2", hud.open)) hud.open = !hud.open;
      ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Help")) {
      if (ImGui::MenuItem("Keys", "F1", &hud.showHelp)) {}
      ImGui::EndMenu();
    }
    // The HUD's one line at the right end (FPS, agents, sim ms; a click opens the full HUD), the
    // warning before it when the simulation falls behind, and the scene's title centred where the
    // menus and the line leave room for it (at 3x on 1280 px they may not).
    char line[96];
    std::snprintf(line, sizeof line, "%.0f FPS   %zu agents   sim %.2f ms", s.fps, s.stats.agents, s.stepMs);
    const ImGuiStyle& style = ImGui::GetStyle();
    const float barWidth = ImGui::GetWindowWidth(), menusEnd = ImGui::GetCursorPosX() + style.ItemSpacing.x;
    float lineWidth = ImGui::CalcTextSize(line).x + 2.0f * style.ItemSpacing.x;
    if (barWidth - lineWidth < menusEnd) {  // only the frame rate then
      std::snprintf(line, sizeof line, "%.0f FPS", s.fps);
      lineWidth = ImGui::CalcTextSize(line).x + 2.0f * style.ItemSpacing.x;
    }
    const float lineAt = std::max(menusEnd, barWidth - lineWidth);
    float freeEnd = lineAt;
    if (s.behindRealTime) {
      const std::string warning = behindRealTimeWarning(s.realTimeShare);
      const float w = ImGui::CalcTextSize(warning.c_str()).x + style.ItemSpacing.x;
      if (lineAt - w >= menusEnd) {
        freeEnd = lineAt - w;
        ImGui::SameLine(freeEnd);
        const Rgb warn = readableAccent({1, 0.55f, 0.3f});
        ImGui::TextColored(ImVec4(warn.r, warn.g, warn.b, 1), "%s", warning.c_str());
      }
    }
    for (const auto& e : scenes) {
      if (current != e.name) continue;
      const float titleWidth = ImGui::CalcTextSize(e.title).x;
      const float at = barWidth * 0.5f - titleWidth * 0.5f;
      if (at > menusEnd && at + titleWidth + style.ItemSpacing.x < freeEnd) {
        ImGui::SameLine(at);
        ImGui::TextUnformatted(e.title);
      }
    }
    ImGui::SameLine(lineAt);
    ImGui::PushStyleColor(ImGuiCol_Text, style.Colors[hud.open ? ImGuiCol_Text : ImGuiCol_TextDisabled]);
    if (ImGui::Selectable(line, hud.open, ImGuiSelectableFlags_None, ImVec2(ImGui::CalcTextSize(line).x, 0))) hud.open = !hud.open;
    ImGui::PopStyleColor();
    probe::markItem("hud_line_at");
    ImGui::EndMainMenuBar();
  }

  DockLayout::hudOpen = hud.open;
  if (!hud.open) {
    hud.height = 0.0f;
    return act;
  }
  const float top = DockLayout::menuBarHeight();
  // As tall as its content, up to the window: the world below it stays uncovered.
  const float width = DockLayout::hudWidth();
  ImGui::SetNextWindowPos(ImVec2(0, top), ImGuiCond_Always);
  ImGui::SetNextWindowSizeConstraints(ImVec2(width, 0), ImVec2(width, ImGui::GetIO().DisplaySize.y - top));
  ImGui::SetNextWindowBgAlpha(DockLayout::kBackgroundAlpha);
  const bool open = ImGui::Begin("HUD", &hud.open, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                                                    DockLayout::kPanelFlags);
  hud.collapsed = ImGui::IsWindowCollapsed();
  hud.height = ImGui::GetWindowHeight();
  if (open) {
    ImGui::PushItemWidth(-DockLayout::em() * 4.5f);  // room for the labels ("UI scale") at any scale
    ImGui::PushTextWrapPos(0.0f);                    // every line of text wraps at the edge: never cut
    ImGui::TextWrapped("%.0f FPS   %.2f ms/frame (2 s)", s.fps, s.fps > 0 ? 1000.0f / s.fps : 0.0f);
    ImGui::TextWrapped("frame time (max %.1f ms)", hud.frameTimes.max());
    scenes::plotHistory(hud.frameTimes, "##frames", 0.0f, std::max(1.0f, hud.frameTimes.max() * 1.2f), ImVec2(0, 44), nullptr, "ms");
    ImGui::TextWrapped("sim %.2f ms/step (median 2 s)   render %.2f ms", s.stepMs, s.renderMs);  // the HUD is narrow at 720 p
    if (const std::string note = platform::pageThreadsNote(); !note.empty()) ImGui::TextDisabled("%s", note.c_str());
    if (s.metricsMs >= 0.005) ImGui::TextDisabled("metric sampling %.2f ms/step, apart from the step", s.metricsMs);
    ImGui::TextWrapped("draw calls %d (agents: %d)   agents %zu", s.stats.drawCalls, s.stats.agentDrawCalls, s.stats.agents);
    ImGui::TextWrapped("steps %llu%s", static_cast<unsigned long long>(s.steps), s.paused ? "   PAUSED" : "");
    // The warning's lines are kept free when it is not shown, so the controls below never jump.
    {
      const Rgb warn = readableAccent({1, 0.55f, 0.3f});
      const ImVec2 at = ImGui::GetCursorPos();
      // As tall as the longest warning wraps to at this width, whether it shows or not.
      const std::string longest = behindRealTimeWarning(1.0) + " (one step takes 100000 ms, stepping...)";
      const float room = ImGui::CalcTextSize(longest.c_str(), nullptr, false, ImGui::GetContentRegionAvail().x).y +
                         ImGui::GetStyle().ItemSpacing.y;
      if (s.behindRealTime) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(warn.r, warn.g, warn.b, 1));
        ImGui::TextWrapped("%s (one step takes %.0f ms%s)", behindRealTimeWarning(s.realTimeShare).c_str(),
                           std::max(s.stepMs, s.slowStepSeconds * 1000.0), s.stepRunning ? ", stepping..." : "");
        ImGui::PopStyleColor();
      }
      const float used = ImGui::GetCursorPosY() - at.y;
      if (used < room) ImGui::Dummy(ImVec2(1.0f, room - used - ImGui::GetStyle().ItemSpacing.y));
    }
    if (s.benchmarkSecondsLeft > 0) {
      ImGui::TextWrapped("benchmarking... %.0f s", s.benchmarkSecondsLeft);
    } else {
      if (ImGui::Button(scenes::buttonWidth("Benchmark this scene (10 s)") <= ImGui::GetContentRegionAvail().x ? "Benchmark this scene (10 s)" : "Benchmark (10 s)"))
        act.benchmark = true;
      probe::markItem("benchmark_button_at");
    }
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    // Kept as an empty line until it says something, for the same reason.
    if (s.stepsDropped) ImGui::TextWrapped("steps dropped to keep up: %d", s.stepsDropped);
    else ImGui::NewLine();
    ImGui::PopStyleColor();
    ImGui::SliderFloat("speed", &speed, 0.1f, 4.0f, "%.1fx", ImGuiSliderFlags_AlwaysClamp | ImGuiSliderFlags_Logarithmic);
    if (ImGui::Checkbox("vsync", &vsync)) act.vsyncChanged = true;
    sameLineIfFits(s.paused ? "Resume" : "Pause");
    if (ImGui::Button(s.paused ? "Resume" : "Pause")) act.togglePause = true;
    sameLineIfFits("Step");
    if (ImGui::Button("Step")) act.singleStep = true;
    sameLineIfFits("Restart");
    if (ImGui::Button("Restart")) act.restart = true;
    if (ImGui::CollapsingHeader("Display")) {
      if (!hud.editingScale) hud.uiScaleEdit = s.uiScale;
      // Applied on release: rebuilding the font atlas on every drag step would stall the window.
      ImGui::SliderFloat("UI scale", &hud.uiScaleEdit, 1.0f, 3.0f, "%.2f", ImGuiSliderFlags_AlwaysClamp);
      hud.editingScale = ImGui::IsItemActive();
      if (ImGui::IsItemDeactivatedAfterEdit()) act.uiScale = hud.uiScaleEdit;
      bool dark = s.darkTheme;
      if (ImGui::Checkbox("dark theme", &dark)) act.toggleTheme = true;
      ImGui::Checkbox("##worldonly", &hud.captureWorldOnly);
      ImGui::SameLine(0.0f, ImGui::GetStyle().ItemInnerSpacing.x);
      ImGui::TextWrapped("capture the world alone");  // wrapped: never cut at a large scale
      panelTooltip("Screenshots (F12) and recorded frames without the panels, for slides");
      if (s.recording) {
        ImGui::Text("recording %d / %d frames", s.recordedFrames, s.recordTotal);
        if (ImGui::Button("Stop recording")) act.stopRecording = true;
      } else if (platform::hasUserFiles()) {  // a PNG sequence needs a folder to go to
        ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.4f);
        ImGui::InputInt("##frames", &hud.recordFrames, 60, 600);
        hud.recordFrames = std::clamp(hud.recordFrames, 1, 100000);
        sameLineIfFits("Record frames");
        if (ImGui::Button("Record frames")) act.recordFrames = hud.recordFrames;
      }
    }
    if (!log.names().empty() && ImGui::CollapsingHeader("Metrics")) {
      std::vector<float> values;
      for (size_t c = 0; c < log.names().size(); ++c) {
        log.tail(c, 600, values);
        const std::string& name = log.names()[c];
        ImGui::TextWrapped("%s %.4g", name.c_str(), values.empty() ? 0.0 : double(values.back()));
        const sim::MetricInfo* info = sim::metricInfo(name);
        const auto [lo, hi] = plotRange(info, values);
        ImGui::PushID(int(c));
        scenes::plotWithAxes("##metric", values.data(), int(values.size()), 0, lo, hi, ImVec2(0, 36), nullptr, info ? info->unit : "");
        ImGui::PopID();
      }
      if (ImGui::Button("Export CSV")) act.exportCsv = true;
    }
    if (!hud.message.empty()) ImGui::TextWrapped("%s", hud.message.c_str());
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    ImGui::TextWrapped("%s", s.glInfo.c_str());
    ImGui::PopStyleColor();
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    ImGui::TextWrapped("F1 keys   Tab hide UI");
    ImGui::PopStyleColor();
    ImGui::PopTextWrapPos();
    ImGui::PopItemWidth();
  }
  ImGui::End();
  return act;
}

// From the font atlas, not the current frame's font: the app lays out the world before a frame begins.
float DockLayout::em() {
  const ImGuiIO& io = ImGui::GetIO();
  return io.Fonts->Fonts.empty() ? 13.0f : io.Fonts->Fonts[0]->FontSize * io.FontGlobalScale;
}
// Each panel: its width in text lines, at most its share of the window, the two together at most
// half of it: at large UI scales they grow narrower in text lines (the text wraps), never wider.
float DockLayout::panelWidth() {
  const float w = ImGui::GetIO().DisplaySize.x;
  return std::min(em() * kPanelEm, w * (hudOpen ? kPanelShareBesideHud : kPanelShare));
}
float DockLayout::hudWidth() {
  const float w = ImGui::GetIO().DisplaySize.x;
  return std::min(em() * kHudEm, w * kTogetherShare - panelWidth());
}
float DockLayout::titleBarHeight() { return em() + ImGui::GetStyle().FramePadding.y * 2.0f; }
float DockLayout::menuBarHeight() { return em() + ImGui::GetStyle().FramePadding.y * 2.0f; }

std::vector<Box> dockedPanels(const HudMemory& hud, bool panelCollapsed, float reservedBottom, glm::vec2 window) {
  std::vector<Box> boxes;
  DockLayout::hudOpen = hud.open;
  const float top = DockLayout::menuBarHeight();
  if (hud.open) {
    const float height = hud.collapsed ? DockLayout::titleBarHeight() : hud.height > 0.0f ? hud.height : window.y - top;
    boxes.push_back({0.0f, top, DockLayout::hudWidth(), std::min(height, window.y - top)});
  }
  const float width = DockLayout::panelWidth();
  const float height = panelCollapsed ? DockLayout::titleBarHeight() : window.y - top - reservedBottom;
  boxes.push_back({std::floor(window.x - width), top, width, height});  // where ImGui puts it: on a whole point
  return boxes;
}

std::string behindRealTimeWarning(double realTimeShare) {
  char text[128];
  std::snprintf(text, sizeof text, "slower than real time (%.0f%%): lower N or hide the UI (Tab)",
                100.0 * std::min(1.0, realTimeShare));
  return text;
}

void drawHelp(const std::vector<scenes::SceneEntry>& scenes, const std::string& sceneTitle, std::span<const scenes::KeyAction> sceneKeys,
              const scenes::Scene& scene) {
  ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowBgAlpha(0.92f);
  ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(io.DisplaySize.x * 0.95f, io.DisplaySize.y * 0.9f));  // it scrolls beyond
  ImGui::Begin("Keys", nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse);
  // In front of every window but an open menu: an inset a scene opens later (the corridor's velocity
  // space) covered the help's last rows, and a panel clicked since covered its first column.
  if (!ImGui::IsPopupOpen(nullptr, ImGuiPopupFlags_AnyPopup)) ImGui::BringWindowToDisplayFront(ImGui::GetCurrentWindow());
  const char* keys[][2] = {
      {"1 - 9", "switch scene (the order below)"},       {"Space", "pause / resume"},
      {"Right arrow", "single step (in a lesson: next step)"},  {"R", "restart the scene (a running experiment from its start)"},
      {"PageDown / PageUp", "a lesson's next / previous step (a clicker; Left too)"}, {"B", "black screen / back"},
      {"Tab", "hide / show all UI"},   {"F1", "this help"},
      {"F11", "fullscreen"},           {"F12", "screenshot (PNG named after scene and time)"},
      {"Home", "reset the camera (and stop following)"},    {"Esc", "close what is open: menu, help, fullscreen (never quits)"},
      {"F2", "diagnostics: the full HUD"},
      {"N", "select the next agent (scenes with a selection)"}, {"F", "camera follows the selected agent / stops"},
      {"Ctrl Q", "quit (asks first while a sweep, a search or a recording runs)"},
      {"Wheel", "zoom at the cursor"}, {"Right / middle drag", "pan (2D), pan (3D)"},
      {"Left drag (3D)", "orbit"},     {"Left click", "the scene's action (select, target, place)"},
      {"Ctrl + / Ctrl -", "larger / smaller UI (1x - 3x)"},
      {"Ctrl T", "light (projector) / dark theme"},
  };
  if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_SizingFixedFit)) {
    for (auto& k : keys) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      const Rgb key = readableAccent({1, 0.85f, 0.4f});
      ImGui::TextColored(ImVec4(key.r, key.g, key.b, 1), "%s", k[0]);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(k[1]);
    }
    ImGui::EndTable();
  }
  if (!sceneKeys.empty()) {
    ImGui::Separator();
    ImGui::TextDisabled("%s", sceneTitle.c_str());
    if (ImGui::BeginTable("scenekeys", 2, ImGuiTableFlags_SizingFixedFit)) {
      for (const scenes::KeyAction& k : sceneKeys) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        const Rgb key = readableAccent({1, 0.85f, 0.4f});
        ImGui::TextColored(ImVec4(key.r, key.g, key.b, 1), "%s", k.input);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(k.action);
      }
      ImGui::EndTable();
    }
  }
  if (*scene.about) {
    ImGui::Separator();
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + std::min(36.0f * ImGui::GetFontSize(), 0.6f * io.DisplaySize.x));
    ImGui::TextWrapped("%s", scene.about);
    if (*scene.aboutMore) ImGui::TextWrapped("%s", scene.aboutMore);
    ImGui::PopTextWrapPos();
  }
  ImGui::Separator();
  for (size_t i = 0; i < scenes.size(); ++i)
    ImGui::Text("%s  %s  (--scene %s)", i < 9 ? std::to_string(i + 1).c_str() : " ", scenes[i].title, scenes[i].name);
  ImGui::End();
}

}  // namespace app
