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

// The scene's claims, one button each: a full restart into the experiment (see claims.hpp).
bool experimentButtons(scenes::Scene& scene, const std::string& sceneName, PanelMemory& m) {
  const auto claims = scenes::claimsOf(sceneName);
  if (!claims.empty()) ImGui::TextDisabled("Experiments: the article's claims (each restarts the scene):");
  float x = 0, avail = ImGui::GetContentRegionAvail().x;
  for (const scenes::Claim* c : claims) {
    const float w = ImGui::CalcTextSize(c->title).x + ImGui::GetStyle().FramePadding.x * 2;
    if (x > 0 && x + w < avail) ImGui::SameLine();
    else x = 0;
    x += w + ImGui::GetStyle().ItemSpacing.x;
    if (ImGui::Button(c->title)) {
      std::string error;
      if (scenes::startExperiment(scene, *c, error)) {
        m.experiment.begin(*c);
        m.experimentScene = sceneName;
        m.restarted = true;
        report(m, std::string("experiment: ") + c->statement, false);
        return false;  // the scene already reconciled and reset
      }
      report(m, error, true);
    }
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("The article: %s\nMeasured: %s, over %.0f s%s", c->statement, scenes::describeRule(*c).c_str(),
                        c->window, c->from > 0 ? " after it settles" : "");
  }
  // Built-in presets no claim uses (pursuit, formations, huge N...): set-ups to explore, applied as they are.
  bool changed = false, first = true;
  x = 0;
  for (const auto& p : scenes::builtinPresets(sceneName)) {
    bool claimed = false;
    for (const scenes::Claim* c : claims) claimed |= std::string(c->preset) == p.file;
    if (claimed) continue;
    if (first) ImGui::TextDisabled("More set-ups (presets, no claim):");
    first = false;
    const std::string label = scenes::presetTitle(p);
    const float w = ImGui::CalcTextSize(label.c_str()).x + ImGui::GetStyle().FramePadding.x * 2;
    if (x > 0 && x + w < avail) ImGui::SameLine();
    else x = 0;
    x += w + ImGui::GetStyle().ItemSpacing.x;
    if (ImGui::Button(label.c_str())) {
      std::string error;
      if (scenes::applyBuiltinPreset(scene.params(), p, error)) {
        report(m, "applied " + label, false);
        changed = true;
      } else {
        report(m, error, true);
      }
    }
    const std::string tip = scenes::presetDescription(p);
    if (!tip.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tip.c_str());
  }
  return changed;
}

// One line across the top of the canvas, twice the UI's text size: the claim, then its verdict with
// the number once the window has passed.
void experimentBanner(scenes::Scene& scene, const std::string& sceneName, PanelMemory& m) {
  const scenes::Claim* c = m.experiment.claim();
  if (!c || m.experimentScene != sceneName || !scene.ctx) return;
  const double t = scene.ctx->simTime;
  if (t + 1e-9 < m.experiment.sampledUntil()) {  // restarted (key R) or another scene: the claim's start is gone
    m.experiment = scenes::ClaimTracker();
    return;
  }
  std::vector<sim::Metric> metrics;
  scene.metrics(metrics);
  m.experiment.sample(t, metrics);
  std::string line = std::string("Claim: ") + c->statement + "  —  ";
  ImU32 colour = IM_COL32(235, 235, 240, 255);
  if (!m.experiment.done()) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "measuring %s: %.0f of %.0f s", c->rule.metric, std::max(0.0, t - c->from),
                  c->window);
    line += buf;
  } else {
    double value = m.experiment.value();
    m.measured[c->id] = value;
    bool known = true;
    if (*c->relativeTo) {
      auto base = m.measured.find(c->relativeTo);
      known = base != m.measured.end() && base->second > 0.0;
      if (known) value /= base->second;
    }
    if (!known) {
      const scenes::Claim* base = scenes::findClaim(c->relativeTo);
      line += std::string("run \"") + (base ? base->title : c->relativeTo) + "\" first: this one is measured against it";
    } else {
      const double one[1] = {value};
      const scenes::ClaimVerdict v = scenes::judge(*c, one);
      line += std::string(c->rule.metric) + " " + scenes::formatValue(*c, value) + "  ->  " + v.text;
      colour = v.holds ? IM_COL32(120, 230, 140, 255) : IM_COL32(255, 170, 80, 255);
    }
  }
  // Centred over the world's view, between the docked HUD and the scene panel; smaller (down to 1.2x)
  // only when twice the text size would not fit.
  ImGuiIO& io = ImGui::GetIO();
  ImFont* font = ImGui::GetFont();
  const float left = DockLayout::hudWidth(), right = io.DisplaySize.x - DockLayout::panelWidth();
  const float room = std::max(right - left - 24.0f, 100.0f);
  float size = ImGui::GetFontSize() * 2.0f;
  ImVec2 extent = font->CalcTextSizeA(size, FLT_MAX, 0.0f, line.c_str());
  if (extent.x > room) {
    size = std::max(ImGui::GetFontSize() * 1.2f, size * room / extent.x);
    extent = font->CalcTextSizeA(size, FLT_MAX, 0.0f, line.c_str());
  }
  const ImVec2 at(std::max(left + 12.0f, left + (right - left - extent.x) * 0.5f), io.DisplaySize.y - extent.y - size * 0.8f);
  ImDrawList* draw = ImGui::GetForegroundDrawList();
  draw->AddRectFilled(ImVec2(at.x - 12, at.y - 6), ImVec2(at.x + extent.x + 12, at.y + extent.y + 6),
                      IM_COL32(10, 12, 18, 200), 6.0f);
  draw->AddText(font, size, at, colour, line.c_str());
}

}  // namespace

bool drawScenePanel(scenes::Scene& scene, const std::string& sceneName, const std::string& title, bool stepRunning,
                    PanelMemory& m) {
  const ImGuiIO& io = ImGui::GetIO();
  const float width = DockLayout::panelWidth(), top = DockLayout::menuBarHeight();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - width, top), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(width, io.DisplaySize.y - top), ImGuiCond_Always);
  bool changed = false;
  if (!stepRunning) experimentBanner(scene, sceneName, m);  // not while the worker steps the scene
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
      changed |= experimentButtons(scene, sceneName, m);
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
  if (changed) m.experiment = scenes::ClaimTracker();  // hand-tuned now: no longer the claim's experiment
  return changed;
}

}  // namespace app
