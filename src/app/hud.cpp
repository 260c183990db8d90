#include "app/hud.hpp"
#include "app/look.hpp"

#include <imgui.h>
#include <algorithm>
#include <cstdio>
#include <string>
#include "app/platform.hpp"

namespace app {

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
      ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Help")) {
      if (ImGui::MenuItem("Keys", "F1", &hud.showHelp)) {}
      ImGui::EndMenu();
    }
    for (const auto& e : scenes) {
      if (current != e.name) continue;
      ImGui::SameLine(ImGui::GetWindowWidth() * 0.5f - ImGui::CalcTextSize(e.title).x * 0.5f);
      ImGui::TextUnformatted(e.title);
    }
    ImGui::EndMainMenuBar();
  }

  const float top = DockLayout::menuBarHeight();
  ImGui::SetNextWindowPos(ImVec2(0, top), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(DockLayout::hudWidth(), ImGui::GetIO().DisplaySize.y - top), ImGuiCond_Always);
  const bool open = ImGui::Begin("HUD", nullptr, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoSavedSettings);
  hud.collapsed = ImGui::IsWindowCollapsed();
  if (open) {
    ImGui::Text("%.0f FPS   %.2f ms/frame (2 s)", s.fps, s.fps > 0 ? 1000.0f / s.fps : 0.0f);
    char overlay[64];
    std::snprintf(overlay, sizeof(overlay), "frame ms (max %.1f)", hud.frameTimes.max());
    hud.frameTimes.plot("##frames", 0.0f, std::max(1.0f, hud.frameTimes.max() * 1.2f),
                        ImVec2(ImGui::GetContentRegionAvail().x, 44), overlay);
    ImGui::TextWrapped("sim %.2f ms/step (median 2 s)   render %.2f ms", s.stepMs, s.renderMs);  // the HUD is narrow at 720 p
    if (s.metricsMs >= 0.005) ImGui::TextDisabled("metric sampling %.2f ms/step, apart from the step", s.metricsMs);
    ImGui::Text("draw calls %d (agents: %d)   agents %zu", s.stats.drawCalls, s.stats.agentDrawCalls, s.stats.agents);
    ImGui::Text("steps %llu%s", static_cast<unsigned long long>(s.steps), s.paused ? "   PAUSED" : "");
    if (s.behindRealTime) {
      const Rgb warn = readableAccent({1, 0.55f, 0.3f});
      ImGui::TextColored(ImVec4(warn.r, warn.g, warn.b, 1), "Simulation slower than real time (%.0f%%):\none step takes %.0f ms%s",
                         100.0 * std::min(1.0, s.realTimeShare), std::max(s.stepMs, s.slowStepSeconds * 1000.0),
                         s.stepRunning ? " (stepping...)" : "");
    }
    if (s.benchmarkSecondsLeft > 0) ImGui::Text("benchmarking... %.0f s", s.benchmarkSecondsLeft);
    else if (ImGui::Button("Benchmark this scene (10 s)")) act.benchmark = true;
    if (s.stepsDropped) ImGui::TextDisabled("steps dropped to keep up: %d", s.stepsDropped);
    ImGui::SliderFloat("speed", &speed, 0.1f, 4.0f, "%.1fx", ImGuiSliderFlags_AlwaysClamp | ImGuiSliderFlags_Logarithmic);
    if (ImGui::Checkbox("vsync", &vsync)) act.vsyncChanged = true;
    ImGui::SameLine();
    if (ImGui::Button(s.paused ? "Resume" : "Pause")) act.togglePause = true;
    ImGui::SameLine();
    if (ImGui::Button("Step")) act.singleStep = true;
    ImGui::SameLine();
    if (ImGui::Button("Restart")) act.restart = true;
    if (ImGui::CollapsingHeader("Display")) {
      if (!hud.editingScale) hud.uiScaleEdit = s.uiScale;
      // Applied on release: rebuilding the font atlas on every drag step would stall the window.
      ImGui::SliderFloat("UI scale", &hud.uiScaleEdit, 1.0f, 3.0f, "%.2f", ImGuiSliderFlags_AlwaysClamp);
      hud.editingScale = ImGui::IsItemActive();
      if (ImGui::IsItemDeactivatedAfterEdit()) act.uiScale = hud.uiScaleEdit;
      bool dark = s.darkTheme;
      if (ImGui::Checkbox("dark theme", &dark)) act.toggleTheme = true;
      if (s.recording) {
        ImGui::Text("recording %d / %d frames", s.recordedFrames, s.recordTotal);
        if (ImGui::Button("Stop recording")) act.stopRecording = true;
      } else if (platform::hasUserFiles()) {  // a PNG sequence needs a folder to go to
        ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.4f);
        ImGui::InputInt("##frames", &hud.recordFrames, 60, 600);
        hud.recordFrames = std::clamp(hud.recordFrames, 1, 100000);
        ImGui::SameLine();
        if (ImGui::Button("Record frames (PNG)")) act.recordFrames = hud.recordFrames;
      }
    }
    if (!log.names().empty() && ImGui::CollapsingHeader("Metrics")) {
      std::vector<float> values;
      for (size_t c = 0; c < log.names().size(); ++c) {
        log.tail(c, 600, values);
        char label[96];
        std::snprintf(label, sizeof(label), "%s %.4g", log.names()[c].c_str(), values.empty() ? 0.0 : double(values.back()));
        ImGui::PlotLines("##metric", values.data(), int(values.size()), 0, label, FLT_MAX, FLT_MAX,
                         ImVec2(ImGui::GetContentRegionAvail().x, 36));
      }
      if (ImGui::Button("Export CSV")) act.exportCsv = true;
    }
    if (!hud.message.empty()) ImGui::TextWrapped("%s", hud.message.c_str());
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    ImGui::TextWrapped("%s", s.glInfo.c_str());
    ImGui::PopStyleColor();
    ImGui::TextDisabled("F1 keys   Tab hide UI");
  }
  ImGui::End();
  return act;
}

// From the font atlas, not the current frame's font: the app lays out the world before a frame begins.
float DockLayout::em() {
  const ImGuiIO& io = ImGui::GetIO();
  return io.Fonts->Fonts.empty() ? 13.0f : io.Fonts->Fonts[0]->FontSize * io.FontGlobalScale;
}
float DockLayout::hudWidth() { return std::min(em() * kHudEm, ImGui::GetIO().DisplaySize.x * kMostOfWindow); }
float DockLayout::panelWidth() { return std::min(em() * kPanelEm, ImGui::GetIO().DisplaySize.x * kMostOfWindow); }
float DockLayout::menuBarHeight() { return em() + ImGui::GetStyle().FramePadding.y * 2.0f; }

void drawHelp(const std::vector<scenes::SceneEntry>& scenes, const std::string& sceneTitle, std::span<const scenes::KeyAction> sceneKeys) {
  ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowBgAlpha(0.92f);
  ImGui::Begin("Keys", nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse);
  const char* keys[][2] = {
      {"1 - 9", "switch scene (the order below)"},       {"Space", "pause / resume"},
      {"Right arrow", "single step"},  {"R", "restart the scene (a running experiment from its start)"},
      {"Tab", "hide / show all UI"},   {"F1", "this help"},
      {"F11", "fullscreen"},           {"F12", "screenshot (PNG named after scene and time)"},
      {"Home", "reset the camera (and stop following)"},    {"Esc", "close menu / help / fullscreen; twice: quit"},
      {"N", "select the next agent (scenes with a selection)"}, {"F", "camera follows the selected agent / stops"},
      {"Ctrl Q", "quit"},
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
  ImGui::Separator();
  for (size_t i = 0; i < scenes.size(); ++i)
    ImGui::Text("%s  %s  (--scene %s)", i < 9 ? std::to_string(i + 1).c_str() : " ", scenes[i].title, scenes[i].name);
  ImGui::End();
}

}  // namespace app
