// The scene window: about + experiments, the scene's own controls, parameters, presets.
#include <imgui.h>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include "app/hud.hpp"
#include "app/look.hpp"
#include "app/platform.hpp"
#include "app/settings.hpp"
#include "scenes/presets.hpp"

namespace app {

namespace {

void report(PanelMemory& m, const std::string& text, bool error) {
  m.message = text;
  m.messageIsError = error;
  if (error) std::fprintf(stderr, "crowdlab: %s\n", text.c_str());
}

// A preset name becomes a file name: letters, digits, '-' and '_' only.
std::string fileSafe(const std::string& name) {
  std::string out;
  for (char c : name) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') ? c : '-';
  return out.empty() ? "preset" : out;
}

std::vector<std::filesystem::path> userPresets(const std::string& scene) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(userPresetDir(scene), ec))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

bool presetsSection(scenes::Scene& scene, const std::string& sceneName, PanelMemory& m) {
  bool changed = false;
  std::string error;
  auto load = [&](const std::string& path) {
    if (scenes::loadPresetFile(scene.params(), path, sceneName, error)) {
      report(m, "loaded " + path, false);
      changed = true;
    } else {
      report(m, error + " (nothing changed)", true);
    }
  };
  for (const auto& file : userPresets(sceneName)) {
    ImGui::PushID(file.string().c_str());
    if (ImGui::SmallButton("load")) load(file.string());
    ImGui::SameLine();
    ImGui::TextUnformatted(file.stem().string().c_str());
    ImGui::PopID();
  }
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.6f);
  ImGui::InputText("##savename", m.saveName, sizeof(m.saveName));
  ImGui::SameLine();
  if (ImGui::Button("Save preset")) {
    std::string dir = userPresetDir(sceneName);
    std::string path = dir + "/" + fileSafe(m.saveName) + ".json";
    if (makeDirectories(dir, error) && scenes::savePresetFile(scene.params(), path, sceneName, error)) {
      report(m, "saved " + path, false);
      platform::persistFiles();
    } else {
      report(m, error, true);
    }
  }
  if (!platform::hasUserFiles()) {
    ImGui::TextDisabled("presets are saved in this browser");
    return changed;
  }
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.6f);
  ImGui::InputTextWithHint("##loadpath", "path/to/preset.json", m.loadPath, sizeof(m.loadPath));
  ImGui::SameLine();
  if (ImGui::Button("Load file")) load(m.loadPath);
  ImGui::TextDisabled("user presets: %s", userPresetDir(sceneName).c_str());
  return changed;
}

}  // namespace

bool drawScenePanel(scenes::Scene& scene, const std::string& sceneName, const std::string& title, bool stepRunning,
                    PanelMemory& m) {
  const ImGuiIO& io = ImGui::GetIO();
  const float width = DockLayout::panelWidth(), top = DockLayout::menuBarHeight();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - width, top), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(width, io.DisplaySize.y - top), ImGuiCond_Always);
  bool changed = false;
  const bool open = ImGui::Begin((title + "###scene").c_str(), nullptr,
                                 ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoSavedSettings);
  m.collapsed = ImGui::IsWindowCollapsed();
  if (open && m.resetScroll) {
    ImGui::SetScrollY(0.0f);
    m.resetScroll = false;
  }
  if (open) {
    ImGui::PushItemWidth(-DockLayout::em() * 10.0f);  // room for the labels on the right, at any scale
    if (stepRunning) {
      // The scene is being stepped on the worker thread: its state must not be touched now.
      const Rgb warn = readableAccent({1, 0.6f, 0.3f});
      ImGui::TextColored(ImVec4(warn.r, warn.g, warn.b, 1), "simulating a slow step...");
      ImGui::PopItemWidth();
      ImGui::End();
      return false;
    }
    if (ImGui::CollapsingHeader("About this scene", ImGuiTreeNodeFlags_DefaultOpen)) {
      if (*scene.about()) ImGui::TextWrapped("%s", scene.about());
      auto experiments = scenes::builtinPresets(sceneName);
      if (!experiments.empty()) ImGui::TextDisabled("Experiments (one click each):");
      float x = 0, avail = ImGui::GetContentRegionAvail().x;
      for (const auto& p : experiments) {
        std::string label = scenes::presetTitle(p);
        float w = ImGui::CalcTextSize(label.c_str()).x + ImGui::GetStyle().FramePadding.x * 2;
        if (x > 0 && x + w < avail) ImGui::SameLine();
        else x = 0;
        x += w + ImGui::GetStyle().ItemSpacing.x;
        std::string error;
        if (ImGui::Button(label.c_str())) {
          if (scenes::applyBuiltinPreset(scene.params(), p, error)) {
            report(m, "applied " + label, false);
            changed = true;
          } else {
            report(m, error, true);
          }
        }
        std::string tip = scenes::presetDescription(p);
        if (!tip.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tip.c_str());
      }
    }
    scene.panel();
    if (ImGui::CollapsingHeader("Parameters", ImGuiTreeNodeFlags_DefaultOpen)) {
      if (ImGui::SmallButton("Reset to defaults")) {
        scenes::applyDefaults(scene.params());
        changed = true;
      }
      changed |= scenes::paramWidgets(scene.params());
    }
    if (ImGui::CollapsingHeader("Presets")) changed |= presetsSection(scene, sceneName, m);
    if (!m.message.empty()) {
      const Rgb error = readableAccent({1, 0.45f, 0.4f});
      if (m.messageIsError) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(error.r, error.g, error.b, 1));
      ImGui::TextWrapped("%s", m.message.c_str());
      if (m.messageIsError) ImGui::PopStyleColor();
    }
  }
  if (open) ImGui::PopItemWidth();
  ImGui::End();
  return changed;
}

}  // namespace app
