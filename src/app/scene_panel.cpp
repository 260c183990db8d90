// The scene window: about + experiments, the scene's own controls, parameters, presets.
#include <imgui.h>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include "app/hud.hpp"
#include "app/look.hpp"
#include "app/platform.hpp"
#include "app/preset_names.hpp"
#include "app/preset_files.hpp"
#include "app/settings.hpp"
#include "scenes/presets.hpp"

namespace app {

namespace {

// The last item's centre, in window points.
void itemCentre(float (&at)[2]) {
  const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
  at[0] = 0.5f * (lo.x + hi.x);
  at[1] = 0.5f * (lo.y + hi.y);
}

void report(PanelMemory& m, const std::string& text, bool error) {
  m.message = text;
  m.messageIsError = error;
  if (error) std::fprintf(stderr, "crowdlab: %s\n", text.c_str());
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
    const std::string path = file.string(), stem = file.stem().string();
    ImGui::PushID(path.c_str());
    if (m.renaming == path) {
      // Renaming: the new name, then OK or Cancel.
      ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.5f);
      const bool entered = ImGui::InputText("##newname", m.newName, sizeof(m.newName), ImGuiInputTextFlags_EnterReturnsTrue);
      sameLineIfFits("OK");
      if (ImGui::SmallButton("OK") || entered) {
        std::string renamedTo;
        if (renameUserPreset(path, presetFileStem(m.newName), renamedTo, error)) report(m, "renamed to " + renamedTo, false);
        else report(m, error, true);
        m.renaming.clear();
        platform::persistFiles();
      }
      sameLineIfFits("Cancel");
      if (ImGui::SmallButton("Cancel")) m.renaming.clear();
    } else if (m.deleting == path) {
      ImGui::TextWrapped("Delete %s?", presetNameOfStem(stem).c_str());
      if (ImGui::SmallButton("Delete")) {
        if (deleteUserPreset(path, error)) report(m, "deleted " + path, false);
        else report(m, error, true);
        m.deleting.clear();
        platform::persistFiles();
      }
      sameLineIfFits("Keep it");
      if (ImGui::SmallButton("Keep it")) m.deleting.clear();
    } else {
      if (ImGui::SmallButton("load")) load(path);
      sameLineIfFits("rename");
      if (ImGui::SmallButton("rename")) {
        m.renaming = path;
        m.deleting.clear();
        std::snprintf(m.newName, sizeof(m.newName), "%s", stem.c_str());
      }
      sameLineIfFits("delete");
      if (ImGui::SmallButton("delete")) {
        m.deleting = path;
        m.renaming.clear();
      }
      ImGui::SameLine();
      ImGui::TextWrapped("%s", presetNameOfStem(stem).c_str());
    }
    ImGui::PopID();
  }
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.6f);
  ImGui::InputText("##savename", m.saveName, sizeof(m.saveName));
  itemCentre(m.presetNameAt);
  ImGui::SameLine();
  const std::string dir = userPresetDir(sceneName);
  const std::string path = dir + "/" + presetFileStem(m.saveName) + ".json";
  auto save = [&] {
    m.replacePending.clear();
    if (makeDirectories(dir, error) && scenes::savePresetFile(scene.params(), path, sceneName, error)) {
      report(m, "saved " + path, false);
      platform::persistFiles();
    } else {
      report(m, error, true);
    }
  };
  if (m.replacePending != path) m.replacePending.clear();  // the name changed: nothing to confirm
  if (ImGui::Button("Save preset")) {
    std::error_code ec;
    if (std::filesystem::exists(std::filesystem::symlink_status(path, ec))) m.replacePending = path;  // ask first
    else save();
  }
  if (!m.replacePending.empty()) {
    ImGui::TextWrapped("A preset named \"%s\" exists. Replace it?", m.saveName);
    if (ImGui::Button("Replace")) save();
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) m.replacePending.clear();
  }
  if (!platform::hasUserFiles()) {
    ImGui::TextDisabled("presets are saved in this browser");
    return changed;
  }
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.6f);
  ImGui::InputTextWithHint("##loadpath", "path/to/preset.json", m.loadPath, sizeof(m.loadPath));
  ImGui::SameLine();
  if (ImGui::Button("Load file")) load(m.loadPath);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
  ImGui::TextWrapped("user presets: %s", userPresetDir(sceneName).c_str());  // a long path wraps, never cut
  ImGui::PopStyleColor();
  return changed;
}

// The scene's claims, one button each: a full restart into the experiment (see claims.hpp).
bool experimentButtons(scenes::Scene& scene, const std::string& sceneName, PanelMemory& m) {
  const auto claims = scenes::claimsOf(sceneName);
  if (!claims.empty()) {
    // Wrapped, so a narrow panel (a 720 p projector) shows the whole line.
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    ImGui::TextWrapped("Experiments: the article's claims (each restarts the scene):");
    ImGui::PopStyleColor();
  }
  float x = 0, avail = ImGui::GetContentRegionAvail().x;
  for (const scenes::Claim* c : claims) {
    const float w = ImGui::CalcTextSize(c->title).x + ImGui::GetStyle().FramePadding.x * 2;
    if (x > 0 && x + w < avail) ImGui::SameLine();
    else x = 0;
    x += w + ImGui::GetStyle().ItemSpacing.x;
    if (ImGui::Button(c->title)) m.requested = c;  // the app restarts into it after the panel
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
    if (first) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
      ImGui::TextWrapped("More set-ups (presets, no claim):");
      ImGui::PopStyleColor();
    }
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

// Across the bottom of the canvas: the claim, then its countdown and, once the window has passed,
// the verdict with its number. Large enough to read from the back of a hall: twice the UI's text
// size and at least 3.6 % of the window's height (a capital letter then is about 2.5 % of it); a line
// too wide for the world's view wraps instead of shrinking.
void experimentBanner(scenes::Scene& scene, const std::string& sceneName, PanelMemory& m) {
  m.reservedBottom = 0.0f;
  m.banner.clear();
  m.bannerVerdict = false;
  const scenes::Claim* c = m.experiment.claim();
  if (!c || m.experimentScene != sceneName || !scene.ctx) return;
  const double t = scene.ctx->simTime;
  if (t + 1e-9 < m.experiment.sampledUntil()) {  // the clock went back without the experiment: its start is gone
    m.experiment = scenes::ClaimTracker();
    return;
  }
  std::vector<sim::Metric> metrics;
  scene.metrics(metrics);
  m.experiment.sample(t, metrics);
  const std::string claimLine = std::string("Claim: ") + c->statement;
  std::string status;
  ImU32 colour = IM_COL32(235, 235, 240, 255);
  if (!m.experiment.done()) {
    char buf[128];
    const int digits = c->from + c->window < 10.0 ? 1 : 0;  // short experiments count tenths
    if (t + 1e-9 < c->from)
      std::snprintf(buf, sizeof buf, "settling: %.*f of %.*f s, then measuring %s for %g s", digits, t, digits, c->from,
                    c->rule.metric, c->window);
    else
      std::snprintf(buf, sizeof buf, "measuring %s: %.*f of %g s", c->rule.metric, digits, t - c->from, c->window);
    status = buf;
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
      status = std::string("run \"") + (base ? base->title : c->relativeTo) + "\" first: this one is measured against it";
    } else {
      const double one[1] = {value};
      const scenes::ClaimVerdict v = scenes::judge(*c, one);
      status = std::string(c->rule.metric) + " " + scenes::formatValue(*c, value) + "  ->  " + v.text;
      colour = v.holds ? IM_COL32(120, 230, 140, 255) : IM_COL32(255, 170, 80, 255);
      m.bannerVerdict = true;
    }
  }
  m.banner = claimLine + "  —  " + status;
  // Centred over the world's view, between the docked HUD and the scene panel: one line when it fits,
  // else the claim over the status, each wrapped to the view's width.
  ImGuiIO& io = ImGui::GetIO();
  ImFont* font = bannerFont();
  const float left = DockLayout::hudWidth(), right = io.DisplaySize.x - DockLayout::panelWidth();
  const float room = std::max(right - left - 24.0f, 100.0f);
  const float size = std::max(ImGui::GetFontSize() * 2.0f, io.DisplaySize.y * 0.036f);
  struct Line {
    std::string text;
    ImU32 colour;
    ImVec2 extent;
  };
  std::vector<Line> lines;
  const ImVec2 whole = font->CalcTextSizeA(size, FLT_MAX, 0.0f, m.banner.c_str());
  if (whole.x <= room) {
    lines.push_back({m.banner, colour, whole});
  } else {
    for (const std::string& text : {claimLine, status})
      lines.push_back({text, text == claimLine ? IM_COL32(235, 235, 240, 255) : colour,
                       font->CalcTextSizeA(size, FLT_MAX, room, text.c_str())});
  }
  float width = 0, height = 0;
  for (const Line& l : lines) {
    width = std::max(width, l.extent.x);
    height += l.extent.y;
  }
  const float x0 = std::max(left + 12.0f, left + (right - left - width) * 0.5f);
  float y = io.DisplaySize.y - height - size * 0.4f;
  m.reservedBottom = height + size * 0.4f + 6.0f;  // the world is fitted above the banner (world_view.hpp)
  ImDrawList* draw = ImGui::GetForegroundDrawList();
  draw->AddRectFilled(ImVec2(x0 - 12, y - 6), ImVec2(x0 + width + 12, y + height + 6), IM_COL32(10, 12, 18, 200), 6.0f);
  for (const Line& l : lines) {
    draw->AddText(font, size, ImVec2(x0, y), l.colour, l.text.c_str(), nullptr, room);
    y += l.extent.y;
  }
}

}  // namespace

bool startExperimentRun(scenes::Scene& scene, const std::string& sceneName, const scenes::Claim& claim, PanelMemory& m) {
  std::string error;
  if (!scenes::startExperiment(scene, claim, error)) {
    report(m, error, true);
    m.experiment = scenes::ClaimTracker();
    return false;
  }
  m.experiment.begin(claim);
  m.experimentScene = sceneName;
  report(m, std::string("experiment: ") + claim.statement, false);
  return true;
}

bool drawScenePanel(scenes::Scene& scene, const std::string& sceneName, const std::string& title, bool stepRunning,
                    PanelMemory& m) {
  const ImGuiIO& io = ImGui::GetIO();
  const float width = DockLayout::panelWidth(), top = DockLayout::menuBarHeight();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - width, top), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(width, io.DisplaySize.y - top - m.reservedBottom), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(DockLayout::kBackgroundAlpha);
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
    ImGui::PushTextWrapPos(0.0f);  // every line of text wraps at the panel's edge (the scenes' too): never cut
    if (stepRunning) {
      // The scene is being stepped on the worker thread: its state must not be touched now.
      const Rgb warn = readableAccent({1, 0.6f, 0.3f});
      ImGui::TextColored(ImVec4(warn.r, warn.g, warn.b, 1), "simulating a slow step...");
      ImGui::PopTextWrapPos();
      ImGui::PopItemWidth();
      ImGui::End();
      return false;
    }
    if (ImGui::CollapsingHeader("About this scene", ImGuiTreeNodeFlags_DefaultOpen)) {
      if (*scene.about()) ImGui::TextWrapped("%s", scene.about());
      changed |= experimentButtons(scene, sceneName, m);
    }
    if (m.tune) changed |= m.tune->draw(scene, sceneName);
    scene.panel();
    if (ImGui::CollapsingHeader("Parameters", ImGuiTreeNodeFlags_DefaultOpen)) {
      if (ImGui::SmallButton("Reset to defaults")) {
        scenes::applyDefaults(scene.params());
        changed = true;
      }
      changed |= scenes::paramWidgets(scene.params());
    }
    const bool presetsOpen = ImGui::CollapsingHeader("Presets");
    itemCentre(m.presetsHeaderAt);
    if (presetsOpen) changed |= presetsSection(scene, sceneName, m);
    const bool sweepOpen = ImGui::CollapsingHeader("Sweep");
    itemCentre(m.sweepHeaderAt);
    if (sweepOpen) changed |= drawSweepSection(m.sweep, scene, sceneName);
    if (!m.message.empty()) {
      const Rgb error = readableAccent({1, 0.45f, 0.4f});
      if (m.messageIsError) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(error.r, error.g, error.b, 1));
      ImGui::TextWrapped("%s", m.message.c_str());
      if (m.messageIsError) ImGui::PopStyleColor();
    }
  }
  if (open) {
    m.scrollY = ImGui::GetScrollY();
    ImGui::PopTextWrapPos();
    ImGui::PopItemWidth();
  }
  ImGui::End();
  if (changed && m.experiment.claim()) {
    // Hand-tuned now: no longer the claim's experiment, and the panel says so.
    if (m.experimentScene == sceneName)
      report(m, std::string("Experiment \"") + m.experiment.claim()->title +
                    "\" ended: a parameter was changed by hand (its button runs it again)", false);
    m.experiment = scenes::ClaimTracker();
  }
  return changed;
}

}  // namespace app
