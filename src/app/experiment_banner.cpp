#include "app/experiment_banner.hpp"

#include <imgui.h>
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <optional>
#include <cstdio>
#include <vector>
#include "app/hud.hpp"
#include "app/scene_panel.hpp"
#include "app/ui_style.hpp"
#include "experiments/claim_runs.hpp"

namespace app {

namespace {

// The banner lives in its own strip across the bottom of the world's view (the app fits the world
// above it: ExperimentState::reservedBottom), so it never covers an agent. Line 1 the claim, line 2 the
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
void drawBannerStrip(std::vector<BannerLine>& lines, ExperimentState& e);

// A lesson's step with no claim running: its sentence alone in the strip.
void lessonBanner(ExperimentState& e) {
  if (e.lessonSay.empty()) return;
  std::vector<BannerLine> lines = {{e.lessonSay, IM_COL32(235, 235, 240, 255), 0, {}}};
  e.banner = e.lessonSay;
  drawBannerStrip(lines, e);
}

}  // namespace

void drawExperimentBanner(scenes::Scene& scene, const std::string& sceneName, ExperimentState& e) {
  e.reservedBottom = 0.0f;
  e.banner.clear();
  e.bannerVerdict = false;
  const scenes::Claim* c = e.tracker.claim();
  if (!c || e.scene != sceneName || !scene.ctx) return lessonBanner(e);
  const double t = scene.ctx->simTime;
  if (t + 1e-9 < e.tracker.sampledUntil()) {  // the clock went back without the experiment: its start is gone
    e.tracker = scenes::ClaimTracker();
    e.after = nullptr;
    return lessonBanner(e);
  }
  std::vector<sim::Metric> metrics;
  scene.metrics(metrics);
  e.tracker.sample(t, metrics);
  // A baseline run first: the banner names the claim it is for.
  const scenes::Claim& shown = e.after ? *e.after : *c;
  const std::string claimLine = std::string("Claim: ") + shown.statement;
  std::string status, detail;
  const ImU32 white = IM_COL32(235, 235, 240, 255);
  ImU32 colour = white;
  char buf[256];
  const int digits = c->from + c->window < 10.0 ? 1 : 0;  // short experiments count tenths
  if (!e.tracker.done()) {
    if (t + 1e-9 < c->from)
      std::snprintf(buf, sizeof buf, "settling: %.*f of %.*f s, then measuring for %g s", digits, t, digits, c->from, c->window);
    else if (c->rule.reduce == scenes::Reduce::TimeUntil)
      std::snprintf(buf, sizeof buf, "waiting for it: %.*f s (at most %g s)", digits, t - c->from, c->window);
    else
      std::snprintf(buf, sizeof buf, "measuring: %.*f of %g s", digits, t - c->from, c->window);
    status = buf;
    if (const std::string ff = scenes::fastForwardNote(scenes::fastForward(*c, t, false)); !ff.empty()) status += "  (" + ff + ")";
    if (e.after)
      status = std::string("first its baseline by itself, \"") + c->title + "\": " + status;
    detail = "measuring " + scenes::describeRule(*c);
  } else {
    double value = e.tracker.value();
    e.measured[c->id] = value;
    std::vector<double> also;
    for (size_t i = 0; i < c->also.size(); ++i) also.push_back(e.tracker.alsoValue(i));
    bool known = true, waiting = false;
    if (*c->relativeTo) {
      double baseline = 0.0;
      const scenes::Claim* base = scenes::findClaim(c->relativeTo);
      if (base && experiments::BaselineRuns::headless(*base)) {
        // Measured headless beside the window (as `crowdlab claims` measures it), once per seed.
        const std::optional<double> got = experiments::baselineRuns().value(*base, scene.seed);
        waiting = !got;
        baseline = got.value_or(0.0);
      } else if (auto it = e.measured.find(c->relativeTo); it != e.measured.end()) {
        baseline = it->second;
      }
      known = baseline > 0.0;
      if (known) value /= baseline;
    }
    if (waiting) {
      status = std::string("measured; waiting for its baseline ") + c->relativeTo + ", run headless beside the window";
      detail = "measuring " + scenes::describeRule(*c);
    } else if (e.after) {
      // The baseline is measured: the app starts the claim itself now.
      status = std::string("baseline \"") + c->title + "\" measured: " + scenes::resultSentence(*c, value, also);
      detail = "now the claim itself, measured against it";
      if (!e.requested) e.requested = e.after;
    } else if (!known) {
      // The verdict `crowdlab claims` gives too (a ratio to nothing is not a measurement): shown, so
      // a run until the verdict (--claim ID --screenshot, --hidden) ends here as well.
      const double none[1] = {std::nan("")};
      const scenes::ClaimVerdict v = scenes::judge(*c, none);
      status = std::string("the baseline \"") + c->relativeTo + "\" measured nothing to compare with  ->  " +
               scenes::verdictWords(v, *c);
      detail = scenes::describeRule(*c);
      colour = IM_COL32(255, 170, 80, 255);
      e.bannerVerdict = true;
    } else {
      const double one[1] = {value};
      const scenes::ClaimVerdict v = scenes::judge(*c, one);
      status = scenes::resultSentence(*c, value, also) + "  ->  " + scenes::verdictWords(v, *c);
      detail = scenes::programLine(*c, value);
      colour = v.holds ? IM_COL32(120, 230, 140, 255) : IM_COL32(255, 170, 80, 255);
      e.bannerVerdict = true;
    }
  }
  // In a lesson the step's sentence stands where the claim's line would.
  const std::string& first = e.lessonSay.empty() ? claimLine : e.lessonSay;
  e.banner = first + "  —  " + status + "  —  " + detail;
  std::vector<BannerLine> lines = {{first, white, 0, {}}, {status, colour, 0, {}}, {detail, IM_COL32(160, 165, 180, 255), 0, {}}};
  drawBannerStrip(lines, e);
}

namespace {

// Across the world's view, between the docked HUD and the scene panel; each line wrapped to it.
// Lines 1-2 large, line 3 small; a line 2 is given room for two lines (see below).
void drawBannerStrip(std::vector<BannerLine>& lines, ExperimentState& e) {
  ImGuiIO& io = ImGui::GetIO();
  ImFont* font = bannerFont();
  const float left = e.worldLeft >= 0 ? e.worldLeft : DockLayout::hudWidth();
  const float right = e.worldRight > left ? e.worldRight : io.DisplaySize.x - DockLayout::panelWidth();
  // A lesson's "step 4 of 18" keeps the strip's right corner: the lines wrap short of it.
  const float progressWidth =
      e.lessonProgress.empty() ? 0.0f : font->CalcTextSizeA(ImGui::GetFontSize(), FLT_MAX, 0.0f, e.lessonProgress.c_str()).x + 16.0f;
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
  e.reservedBottom = height + 2 * pad;
  const float top = io.DisplaySize.y - e.reservedBottom;
  ImDrawList* draw = ImGui::GetForegroundDrawList();  // over everything: no tooltip hides it
  draw->AddRectFilled(ImVec2(left, top), ImVec2(right, io.DisplaySize.y), IM_COL32(10, 12, 18, 255));
  float y = top + pad;
  for (const BannerLine& l : lines) {
    const float x = std::max(left + 12.0f, left + (textRight - left - l.extent.x) * 0.5f);
    draw->AddText(font, l.size, ImVec2(x, y), l.colour, l.text.c_str(), nullptr, room);
    y += l.extent.y;
  }
  if (!e.lessonProgress.empty()) {  // small, in the strip's top right corner
    const float small = ImGui::GetFontSize();
    const ImVec2 extent = font->CalcTextSizeA(small, FLT_MAX, 0.0f, e.lessonProgress.c_str());
    draw->AddText(font, small, ImVec2(right - extent.x - 8.0f, top + 4.0f), IM_COL32(160, 165, 180, 255), e.lessonProgress.c_str());
  }
}

}  // namespace

int sampleExperimentStep(ExperimentState& e, const std::string& sceneName, double simTime, std::span<const sim::Metric> metrics) {
  if (e.tracker.claim() && e.scene == sceneName) e.tracker.sample(simTime, metrics);
  return experimentFastForward(e, sceneName, simTime);
}

int experimentFastForward(const ExperimentState& e, const std::string& sceneName, double simTime) {
  const scenes::Claim* c = e.tracker.claim();
  return c && e.scene == sceneName ? scenes::fastForward(*c, simTime, e.tracker.done()) : 1;
}

bool startExperimentRun(scenes::Scene& scene, const std::string& sceneName, const scenes::Claim& wanted, ExperimentState& e,
                        PanelMemory& panel) {
  std::string error;
  // A claim measured against another runs that one first, by itself, unless it was measured here already.
  // A baseline measured headless runs beside it instead (started now, kept for the next time).
  const scenes::Claim* base = *wanted.relativeTo ? scenes::findClaim(wanted.relativeTo) : nullptr;
  const bool besideWindow = base && experiments::BaselineRuns::headless(*base);
  if (besideWindow) experiments::baselineRuns().request(*base, scene.seed);
  const bool baselineFirst = base && !besideWindow && !e.measured.count(base->id);
  if (e.after && std::string(e.after->relativeTo) != wanted.id) e.after = nullptr;  // R during a baseline keeps its claim
  if (baselineFirst) e.after = &wanted;
  const scenes::Claim& claim = baselineFirst ? *base : wanted;
  if (!scenes::startExperiment(scene, claim, error)) {
    reportOnPanel(panel, error, true);
    e.tracker = scenes::ClaimTracker();
    e.after = nullptr;
    return false;
  }
  e.tracker.begin(claim);
  e.scene = sceneName;
  reportOnPanel(panel, std::string("experiment: ") + claim.statement, false);
  return true;
}

}  // namespace app
