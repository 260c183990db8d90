// The scene window: about + experiments, the scene's own controls, parameters, presets.
#include <imgui.h>
#include <algorithm>
#include <cstring>
#include <cmath>
#include <optional>
#include <cstdio>
#include <filesystem>
#include "app/scene_panel.hpp"

#include "app/hud.hpp"
#include "app/ui_style.hpp"
#include "app/platform.hpp"
#include "app/preset_names.hpp"
#include "app/preset_files.hpp"
#include "app/probe.hpp"
#include "app/settings.hpp"
#include "experiments/claim_runs.hpp"
#include "scenes/presets.hpp"
#include "scenes/scene_window.hpp"

namespace app {

void reportOnPanel(PanelMemory& m, const std::string& text, bool error) {
  m.message = text;
  m.messageIsError = error;
  if (error) std::fprintf(stderr, "crowdlab: %s\n", text.c_str());
}

namespace {

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
      reportOnPanel(m, "loaded " + path, false);
      changed = true;
    } else {
      reportOnPanel(m, error + " (nothing changed)", true);
    }
  };
  bool firstRow = true;
  for (const auto& file : userPresets(sceneName)) {
    const std::string path = file.string(), stem = file.stem().string();
    ImGui::PushID(path.c_str());
    auto note = [&](const char* name) { if (firstRow) probe::markItem(name); };  // the first row's, for the tests
    if (m.renaming == path) {
      // Renaming: the new name, then OK or Cancel.
      ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.5f);
      const bool entered = ImGui::InputText("##newname", m.newName, sizeof(m.newName), ImGuiInputTextFlags_EnterReturnsTrue);
      sameLineIfFits("OK");
      const bool ok = ImGui::SmallButton("OK");
      note("preset_confirm_at");
      if (ok || entered) {
        std::string renamedTo;
        if (renameUserPreset(path, presetFileStem(m.newName), renamedTo, error)) reportOnPanel(m, "renamed to " + renamedTo, false);
        else reportOnPanel(m, error, true);
        m.renaming.clear();
        platform::persistFiles();
      }
      sameLineIfFits("Cancel");
      if (ImGui::SmallButton("Cancel")) m.renaming.clear();
    } else if (m.deleting == path) {
      ImGui::TextWrapped("Delete %s?", presetNameOfStem(stem).c_str());
      const bool confirmed = ImGui::SmallButton("Delete");
      note("preset_confirm_at");
      if (confirmed) {
        if (deleteUserPreset(path, error)) reportOnPanel(m, "deleted " + path, false);
        else reportOnPanel(m, error, true);
        m.deleting.clear();
        platform::persistFiles();
      }
      sameLineIfFits("Keep it");
      if (ImGui::SmallButton("Keep it")) m.deleting.clear();
    } else {
      if (ImGui::SmallButton("load")) load(path);
      sameLineIfFits("rename");
      const bool rename = ImGui::SmallButton("rename");
      note("preset_rename_at");
      if (rename) {
        m.renaming = path;
        m.deleting.clear();
        std::snprintf(m.newName, sizeof(m.newName), "%s", stem.c_str());
      }
      sameLineIfFits("delete");
      const bool remove = ImGui::SmallButton("delete");
      note("preset_delete_at");
      if (remove) {
        m.deleting = path;
        m.renaming.clear();
      }
      const std::string name = presetNameOfStem(stem);
      sameLineIfFits(std::min(scenes::textWidth(name.c_str()), 6.0f * ImGui::GetFontSize()));  // a long name wraps beside them
      ImGui::TextWrapped("%s", name.c_str());
    }
    ImGui::PopID();
    firstRow = false;
  }
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.6f);
  ImGui::InputText("##savename", m.saveName, sizeof(m.saveName));
  probe::markItem("preset_name_at");
  sameLineIfFits("Save preset");
  const std::string dir = userPresetDir(sceneName);
  const std::string path = dir + "/" + presetFileStem(m.saveName) + ".json";
  auto save = [&] {
    m.replacePending.clear();
    if (makeDirectories(dir, error) && scenes::savePresetFile(scene.params(), path, sceneName, error)) {
      reportOnPanel(m, "saved " + path, false);
      platform::persistFiles();
    } else {
      reportOnPanel(m, error, true);
    }
  };
  if (m.replacePending != path) m.replacePending.clear();  // the name changed: nothing to confirm
  const bool saveClicked = ImGui::Button("Save preset");
  probe::markItem("save_preset_at");
  if (saveClicked) {
    std::error_code ec;
    if (std::filesystem::exists(std::filesystem::symlink_status(path, ec))) m.replacePending = path;  // ask first
    else save();
  }
  if (!m.replacePending.empty()) {
    ImGui::TextWrapped("A preset named \"%s\" exists. Replace it?", m.saveName);
    const bool replaceClicked = ImGui::Button("Replace");
    probe::markItem("replace_preset_at");
    if (replaceClicked) save();
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) m.replacePending.clear();
  }
  if (!platform::hasUserFiles()) {
    ImGui::TextDisabled("presets are saved in this browser");
    return changed;
  }
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.6f);
  ImGui::InputTextWithHint("##loadpath", "path/to/preset.json", m.loadPath, sizeof(m.loadPath));
  sameLineIfFits("Load file");
  if (ImGui::Button("Load file")) load(m.loadPath);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
  ImGui::TextWrapped("user presets: %s", userPresetDir(sceneName).c_str());  // a long path wraps, never cut
  ImGui::PopStyleColor();
  return changed;
}

// The scene's claims, one button each: a full restart into the experiment (see claims.hpp).
bool experimentButtons(scenes::Scene& scene, const std::string& sceneName, PanelMemory& m, ExperimentState& e) {
  const auto claims = scenes::claimsOf(sceneName);
  if (!claims.empty()) {
    // Wrapped, so a narrow panel (a 720 p projector) shows the whole line.
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    ImGui::TextWrapped("Experiments: the article's claims (each restarts the scene):");
    ImGui::PopStyleColor();
  }
  // As many buttons on a line as fit; a title wider than the panel wraps inside its button. Claims
  // in a row whose titles share their part before ", " (the method: "Separation, width 4") stand on
  // one line headed by it, each button its own part, so a scene of 28 claims fits a 720 p panel.
  std::vector<std::string> groups;
  for (const scenes::Claim* c : claims) {
    const char* comma = std::strstr(c->title, ", ");
    groups.push_back(comma ? std::string(c->title, comma) : std::string());
  }
  const ImVec2 blockTop = ImGui::GetCursorScreenPos();
  ImVec2 blockEnd = blockTop;
  std::string lineGroup;  // the method heading the line now ("" a line of whole titles)
  for (size_t i = 0; i < claims.size(); ++i) {
    const scenes::Claim* c = claims[i];
    const std::string& group = groups[i];
    const bool grouped = !group.empty() && ((i > 0 && groups[i - 1] == group) || (i + 1 < claims.size() && groups[i + 1] == group));
    const std::string label = grouped ? std::string(c->title + group.size() + 2) + "##" + c->id : std::string(c->title);
    const bool heads = grouped && group != lineGroup;  // a new line, headed by its method
    if (heads) ImGui::TextDisabled("%s:", group.c_str());
    if (heads || (i > 0 && (grouped || lineGroup.empty()))) sameLineIfFits(label.c_str());
    lineGroup = grouped ? group : "";
    if (scenes::wrappingButton(label.c_str())) e.requested = c;  // the app restarts into it after the panel
    blockEnd = ImVec2(std::max(blockEnd.x, ImGui::GetItemRectMax().x), std::max(blockEnd.y, ImGui::GetItemRectMax().y));
    panelTooltip("%s\nThe article: %s\nMeasured: %s, over %.0f s%s%s%s", c->title, c->statement, scenes::describeRule(*c).c_str(),
                 c->window, c->from > 0 ? " after it settles" : "", *c->relativeTo ? "\nMeasured against: " : "", c->relativeTo);
  }
  m.experiments = claims.empty() ? Box{} : Box{blockTop.x, blockTop.y, blockEnd.x - blockTop.x, blockEnd.y - blockTop.y};
  m.panelVisibleBottom = ImGui::GetWindowPos().y + ImGui::GetWindowHeight();
  // Built-in presets no claim uses (pursuit, formations, huge N...): set-ups to explore, applied as they are.
  bool changed = false, first = true;
  for (const auto& p : scenes::builtinPresets(sceneName)) {
    bool claimed = false;
    for (const scenes::Claim* c : claims) claimed |= std::string(c->preset) == p.file;
    if (claimed) continue;
    if (first) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
      ImGui::TextWrapped("More set-ups (presets, no claim):");
      ImGui::PopStyleColor();
    }
    const std::string label = scenes::presetTitle(p);
    if (!first) sameLineIfFits(label.c_str());
    first = false;
    if (scenes::wrappingButton(label.c_str())) {
      std::string error;
      if (scenes::applyBuiltinPreset(scene.params(), p, error)) {
        reportOnPanel(m, "applied " + label, false);
        changed = true;
      } else {
        reportOnPanel(m, error, true);
      }
    }
    const std::string tip = scenes::presetDescription(p);
    if (!tip.empty()) scenes::panelTooltip("%s", tip.c_str());
  }
  return changed;
}

}  // namespace

bool drawScenePanel(scenes::Scene& scene, const std::string& sceneName, const std::string& title, bool stepRunning,
                    PanelMemory& m, ExperimentState& e) {
  const ImGuiIO& io = ImGui::GetIO();
  const float width = DockLayout::panelWidth(), top = DockLayout::menuBarHeight();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - width, top), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(width, io.DisplaySize.y - top - e.reservedBottom), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(DockLayout::kBackgroundAlpha);
  bool changed = false;
  if (!stepRunning) drawExperimentBanner(scene, sceneName, e);  // not while the worker steps the scene
  const bool open = ImGui::Begin((title + "###scene").c_str(), nullptr,
                                 ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoSavedSettings |
                                     DockLayout::kPanelFlags);
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
      // The panel keeps its height meanwhile, so its scroll position survives the step (one short
      // frame would clamp it to the top, and the user's place in a long panel would be lost).
      ImGui::Dummy(ImVec2(1.0f, std::max(0.0f, m.contentHeight - ImGui::GetCursorPosY())));
      probe::keepLastFrames();  // the widgets are where they were: their places stay readable
      ImGui::PopTextWrapPos();
      ImGui::PopItemWidth();
      ImGui::End();
      return false;
    }
    // The experiments first, visible without scrolling in a 720 p window; then the scene's lede, the
    // rest of its text behind "More" (and in the F1 help).
    changed |= experimentButtons(scene, sceneName, m, e);
    if (*scene.about) {
      ImGui::Separator();
      ImGui::TextWrapped("%s", scene.about);
      if (*scene.aboutMore) {
        if (ImGui::SmallButton(m.aboutMore ? "Less" : "More")) m.aboutMore = !m.aboutMore;
        if (m.aboutMore) ImGui::TextWrapped("%s", scene.aboutMore);
      }
    }
    if (m.tune) changed |= m.tune->draw(scene, sceneName);
    if (scenes::SceneUi* ui = scenes::uiOf(scene)) ui->panel();
    if (ImGui::CollapsingHeader("Parameters", ImGuiTreeNodeFlags_DefaultOpen)) {
      if (ImGui::SmallButton("Reset to defaults")) {
        scenes::applyDefaults(scene.params());
        changed = true;
      }
      changed |= scenes::paramWidgets(scene.params());
      probe::markItem("last_param_at");
    }
    const bool presetsOpen = ImGui::CollapsingHeader("Presets");
    probe::markItem("presets_header_at");
    if (presetsOpen) changed |= presetsSection(scene, sceneName, m);
    const bool sweepOpen = ImGui::CollapsingHeader("Sweep");
    probe::markItem("sweep_header_at");
    if (sweepOpen) changed |= drawSweepSection(m.sweep, scene, sceneName);
    probe::set("panel_message_in_view", false);
    if (!m.message.empty()) {
      const Rgb error = readableAccent({1, 0.45f, 0.4f});
      if (m.messageIsError) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(error.r, error.g, error.b, 1));
      ImGui::TextWrapped("%s", m.message.c_str());
      probe::set("panel_message_in_view", ImGui::IsItemVisible());
      if (m.messageIsError) ImGui::PopStyleColor();
    }
  }
  if (open) {
    probe::set("panel_scroll", std::lround(ImGui::GetScrollY()));
    m.contentHeight = ImGui::GetCursorPosY();
    ImGui::PopTextWrapPos();
    ImGui::PopItemWidth();
  }
  ImGui::End();
  if (changed && e.tracker.claim()) {
    // Hand-tuned now: no longer the claim's experiment, and the panel says so; for a few seconds the
    // line also stands by the cursor, where the user looks (the panel's line may lie below its view).
    if (e.scene == sceneName) {
      reportOnPanel(m, std::string("Experiment \"") + e.tracker.claim()->title +
                    "\" ended: a parameter was changed by hand (its button runs it again)", false);
      m.noticeUntil = ImGui::GetTime() + 4.0;
    }
    e.tracker = scenes::ClaimTracker();
    e.after = nullptr;
  }
  const bool noticeShown = ImGui::GetTime() < m.noticeUntil && !m.message.empty();
  probe::set("panel_notice_at_cursor", noticeShown);
  if (noticeShown) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(DockLayout::panelWidth() * 0.85f);
    ImGui::TextUnformatted(m.message.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
  return changed;
}

}  // namespace app
