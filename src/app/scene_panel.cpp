// The scene window: about + experiments, the scene's own controls, parameters, presets.
#include <imgui.h>
#include <algorithm>
#include <cstring>
#include <cmath>
#include <optional>
#include <cstdio>
#include <filesystem>
#include "app/hud.hpp"
#include "app/ui_style.hpp"
#include "app/platform.hpp"
#include "app/preset_names.hpp"
#include "app/preset_files.hpp"
#include "app/probe.hpp"
#include "app/settings.hpp"
#include "experiments/claim_runs.hpp"
#include "scenes/presets.hpp"

namespace app {

namespace {

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
        if (renameUserPreset(path, presetFileStem(m.newName), renamedTo, error)) report(m, "renamed to " + renamedTo, false);
        else report(m, error, true);
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
      report(m, "saved " + path, false);
      platform::persistFiles();
    } else {
      report(m, error, true);
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
bool experimentButtons(scenes::Scene& scene, const std::string& sceneName, PanelMemory& m) {
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
    if (scenes::wrappingButton(label.c_str())) m.requested = c;  // the app restarts into it after the panel
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
        report(m, "applied " + label, false);
        changed = true;
      } else {
        report(m, error, true);
      }
    }
    const std::string tip = scenes::presetDescription(p);
    if (!tip.empty()) scenes::panelTooltip("%s", tip.c_str());
  }
  return changed;
}

// The banner lives in its own strip across the bottom of the world's view (the app fits the world
// above it: PanelMemory::reservedBottom), so it never covers an agent. Line 1 the claim, line 2 the
// countdown, then the result in the class's words with the verdict; line 3, smaller and dim, the
// program's metric and threshold. Large enough to read from the back of a hall: lines 1-2 twice the
// UI's text size and at least 3.6 % of the window's height, smaller where the strip would take more
// than 15 % of the window's height; a line too wide for the view wraps.
struct BannerLine {
  std::string text;
  ImU32 colour;
  float size;
  ImVec2 extent;
};
void drawBannerStrip(std::vector<BannerLine>& lines, PanelMemory& m);

// A lesson's step with no claim running: its sentence alone in the strip.
void lessonBanner(PanelMemory& m) {
  if (m.lessonSay.empty()) return;
  std::vector<BannerLine> lines = {{m.lessonSay, IM_COL32(235, 235, 240, 255), 0, {}}};
  m.banner = m.lessonSay;
  drawBannerStrip(lines, m);
}

void experimentBanner(scenes::Scene& scene, const std::string& sceneName, PanelMemory& m) {
  m.reservedBottom = 0.0f;
  m.banner.clear();
  m.bannerVerdict = false;
  const scenes::Claim* c = m.experiment.claim();
  if (!c || m.experimentScene != sceneName || !scene.ctx) return lessonBanner(m);
  const double t = scene.ctx->simTime;
  if (t + 1e-9 < m.experiment.sampledUntil()) {  // the clock went back without the experiment: its start is gone
    m.experiment = scenes::ClaimTracker();
    m.after = nullptr;
    return lessonBanner(m);
  }
  std::vector<sim::Metric> metrics;
  scene.metrics(metrics);
  m.experiment.sample(t, metrics);
  // A baseline run first: the banner names the claim it is for.
  const scenes::Claim& shown = m.after ? *m.after : *c;
  const std::string claimLine = std::string("Claim: ") + shown.statement;
  std::string status, detail;
  const ImU32 white = IM_COL32(235, 235, 240, 255);
  ImU32 colour = white;
  char buf[256];
  const int digits = c->from + c->window < 10.0 ? 1 : 0;  // short experiments count tenths
  if (!m.experiment.done()) {
    if (t + 1e-9 < c->from)
      std::snprintf(buf, sizeof buf, "settling: %.*f of %.*f s, then measuring for %g s", digits, t, digits, c->from, c->window);
    else if (c->rule.reduce == scenes::Reduce::TimeUntil)
      std::snprintf(buf, sizeof buf, "waiting for it: %.*f s (at most %g s)", digits, t - c->from, c->window);
    else
      std::snprintf(buf, sizeof buf, "measuring: %.*f of %g s", digits, t - c->from, c->window);
    status = buf;
    if (const std::string ff = scenes::fastForwardNote(scenes::fastForward(*c, t, false)); !ff.empty()) status += "  (" + ff + ")";
    if (m.after)
      status = std::string("first its baseline by itself, \"") + c->title + "\": " + status;
    detail = "measuring " + scenes::describeRule(*c);
  } else {
    double value = m.experiment.value();
    m.measured[c->id] = value;
    std::vector<double> also;
    for (size_t i = 0; i < c->also.size(); ++i) also.push_back(m.experiment.alsoValue(i));
    bool known = true, waiting = false;
    if (*c->relativeTo) {
      double baseline = 0.0;
      const scenes::Claim* base = scenes::findClaim(c->relativeTo);
      if (base && experiments::BaselineRuns::headless(*base)) {
        // Measured headless beside the window (as `crowdlab claims` measures it), once per seed.
        const std::optional<double> got = experiments::baselineRuns().value(*base, scene.seed);
        waiting = !got;
        baseline = got.value_or(0.0);
      } else if (auto it = m.measured.find(c->relativeTo); it != m.measured.end()) {
        baseline = it->second;
      }
      known = baseline > 0.0;
      if (known) value /= baseline;
    }
    if (waiting) {
      status = std::string("measured; waiting for its baseline ") + c->relativeTo + ", run headless beside the window";
      detail = "measuring " + scenes::describeRule(*c);
    } else if (m.after) {
      // The baseline is measured: the app starts the claim itself now.
      status = std::string("baseline \"") + c->title + "\" measured: " + scenes::resultSentence(*c, value, also);
      detail = "now the claim itself, measured against it";
      if (!m.requested) m.requested = m.after;
    } else if (!known) {
      // The verdict `crowdlab claims` gives too (a ratio to nothing is not a measurement): shown, so
      // a run until the verdict (--claim ID --screenshot, --hidden) ends here as well.
      const double none[1] = {std::nan("")};
      const scenes::ClaimVerdict v = scenes::judge(*c, none);
      status = std::string("the baseline \"") + c->relativeTo + "\" measured nothing to compare with  ->  " +
               scenes::verdictWords(v, *c);
      detail = scenes::describeRule(*c);
      colour = IM_COL32(255, 170, 80, 255);
      m.bannerVerdict = true;
    } else {
      const double one[1] = {value};
      const scenes::ClaimVerdict v = scenes::judge(*c, one);
      status = scenes::resultSentence(*c, value, also) + "  ->  " + scenes::verdictWords(v, *c);
      detail = scenes::programLine(*c, value);
      colour = v.holds ? IM_COL32(120, 230, 140, 255) : IM_COL32(255, 170, 80, 255);
      m.bannerVerdict = true;
    }
  }
  // In a lesson the step's sentence stands where the claim's line would.
  const std::string& first = m.lessonSay.empty() ? claimLine : m.lessonSay;
  m.banner = first + "  —  " + status + "  —  " + detail;
  std::vector<BannerLine> lines = {{first, white, 0, {}}, {status, colour, 0, {}}, {detail, IM_COL32(160, 165, 180, 255), 0, {}}};
  drawBannerStrip(lines, m);
}

// Across the world's view, between the docked HUD and the scene panel; each line wrapped to it.
// Lines 1-2 large, line 3 small; a line 2 is given room for two lines (see below).
void drawBannerStrip(std::vector<BannerLine>& lines, PanelMemory& m) {
  ImGuiIO& io = ImGui::GetIO();
  ImFont* font = bannerFont();
  const float left = m.worldLeft >= 0 ? m.worldLeft : DockLayout::hudWidth();
  const float right = m.worldRight > left ? m.worldRight : io.DisplaySize.x - DockLayout::panelWidth();
  // A lesson's "step 4 of 18" keeps the strip's right corner: the lines wrap short of it.
  const float progressWidth =
      m.lessonProgress.empty() ? 0.0f : font->CalcTextSizeA(ImGui::GetFontSize(), FLT_MAX, 0.0f, m.lessonProgress.c_str()).x + 16.0f;
  const float textRight = right - progressWidth;
  const float room = std::max(textRight - left - 24.0f, 100.0f);
  // The strip takes at most kBannerShare of the window's height, so the world keeps its share of it
  // (a long claim in the narrow room between the panels of a 720 p window wraps into many lines):
  // the letters shrink to fit.
  constexpr float kBannerShare = 0.15f;
  float size = std::max(ImGui::GetFontSize() * 2.0f, io.DisplaySize.y * 0.036f), height = 0, pad = 0;
  for (int attempt = 0; attempt < 5; ++attempt) {
    for (size_t i = 0; i < lines.size(); ++i) lines[i].size = i < 2 ? size : std::min(size, std::max(ImGui::GetFontSize(), size * 0.55f));
    // The result line gets room for two lines from the start: the strip then keeps its height from the
    // countdown to the verdict, and the world is not framed again at the moment the verdict shows.
    const float lineHeight = font->CalcTextSizeA(size, FLT_MAX, 0.0f, "A").y;
    height = 0;
    for (BannerLine& l : lines) {
      l.extent = font->CalcTextSizeA(l.size, FLT_MAX, room, l.text.c_str());
      if (lines.size() > 1 && &l == &lines[1]) l.extent.y = std::max(l.extent.y, 2.0f * lineHeight);
      height += l.extent.y;
    }
    pad = size * 0.25f;
    // Never smaller than the UI's text, nor than letters 2 % of the window's height (the hall's
    // measure) where the UI's text is larger than that (3x in a 720 p window).
    const float most = io.DisplaySize.y * kBannerShare, smallest = std::min(ImGui::GetFontSize(), io.DisplaySize.y * 0.028f);
    if (height + 2 * pad <= most || size <= smallest) break;
    size = std::max(smallest, size * std::min(0.95f, most / (height + 2 * pad)));  // wrapping changes with the size: measure again
  }
  m.reservedBottom = height + 2 * pad;
  const float top = io.DisplaySize.y - m.reservedBottom;
  ImDrawList* draw = ImGui::GetForegroundDrawList();  // over everything: no tooltip hides it
  draw->AddRectFilled(ImVec2(left, top), ImVec2(right, io.DisplaySize.y), IM_COL32(10, 12, 18, 255));
  float y = top + pad;
  for (const BannerLine& l : lines) {
    const float x = std::max(left + 12.0f, left + (textRight - left - l.extent.x) * 0.5f);
    draw->AddText(font, l.size, ImVec2(x, y), l.colour, l.text.c_str(), nullptr, room);
    y += l.extent.y;
  }
  if (!m.lessonProgress.empty()) {  // small, in the strip's top right corner
    const float small = ImGui::GetFontSize();
    const ImVec2 extent = font->CalcTextSizeA(small, FLT_MAX, 0.0f, m.lessonProgress.c_str());
    draw->AddText(font, small, ImVec2(right - extent.x - 8.0f, top + 4.0f), IM_COL32(160, 165, 180, 255), m.lessonProgress.c_str());
  }
}

}  // namespace

int sampleExperimentStep(PanelMemory& m, const std::string& sceneName, double simTime, std::span<const sim::Metric> metrics) {
  if (m.experiment.claim() && m.experimentScene == sceneName) m.experiment.sample(simTime, metrics);
  return experimentFastForward(m, sceneName, simTime);
}

int experimentFastForward(const PanelMemory& m, const std::string& sceneName, double simTime) {
  const scenes::Claim* c = m.experiment.claim();
  return c && m.experimentScene == sceneName ? scenes::fastForward(*c, simTime, m.experiment.done()) : 1;
}

bool startExperimentRun(scenes::Scene& scene, const std::string& sceneName, const scenes::Claim& wanted, PanelMemory& m) {
  std::string error;
  // A claim measured against another runs that one first, by itself, unless it was measured here already.
  // A baseline measured headless runs beside it instead (started now, kept for the next time).
  const scenes::Claim* base = *wanted.relativeTo ? scenes::findClaim(wanted.relativeTo) : nullptr;
  const bool besideWindow = base && experiments::BaselineRuns::headless(*base);
  if (besideWindow) experiments::baselineRuns().request(*base, scene.seed);
  const bool baselineFirst = base && !besideWindow && !m.measured.count(base->id);
  if (m.after && std::string(m.after->relativeTo) != wanted.id) m.after = nullptr;  // R during a baseline keeps its claim
  if (baselineFirst) m.after = &wanted;
  const scenes::Claim& claim = baselineFirst ? *base : wanted;
  if (!scenes::startExperiment(scene, claim, error)) {
    report(m, error, true);
    m.experiment = scenes::ClaimTracker();
    m.after = nullptr;
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
    changed |= experimentButtons(scene, sceneName, m);
    if (*scene.about) {
      ImGui::Separator();
      ImGui::TextWrapped("%s", scene.about);
      if (*scene.aboutMore) {
        if (ImGui::SmallButton(m.aboutMore ? "Less" : "More")) m.aboutMore = !m.aboutMore;
        if (m.aboutMore) ImGui::TextWrapped("%s", scene.aboutMore);
      }
    }
    if (m.tune) changed |= m.tune->draw(scene, sceneName);
    scene.panel();
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
  if (changed && m.experiment.claim()) {
    // Hand-tuned now: no longer the claim's experiment, and the panel says so; for a few seconds the
    // line also stands by the cursor, where the user looks (the panel's line may lie below its view).
    if (m.experimentScene == sceneName) {
      report(m, std::string("Experiment \"") + m.experiment.claim()->title +
                    "\" ended: a parameter was changed by hand (its button runs it again)", false);
      m.noticeUntil = ImGui::GetTime() + 4.0;
    }
    m.experiment = scenes::ClaimTracker();
    m.after = nullptr;
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
