#include "scenes/claims.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include "scenes/experiment.hpp"
#include <cstring>
#include <limits>
#include <mutex>
#include "scenes/presets.hpp"

namespace scenes {

namespace {

constexpr double kStep = kExperimentStep;

// Each scene's claims, registered beside the scene (claims_<scene>.cpp) at static initialisation.
struct ClaimSource {
  const char* scene;
  std::vector<Claim> (*build)();
};
std::vector<ClaimSource>& claimSources() {
  static std::vector<ClaimSource> sources;
  return sources;
}

}  // namespace

bool registerClaims(const char* scene, std::vector<Claim> (*build)()) {
  claimSources().push_back({scene, build});
  return true;
}

std::span<const Claim> allClaims() {
  // In the scenes' teaching order, each scene's in its own order. Built again if a source registered
  // since (a caller during static initialisation, such as a test's parameter list, sees all there are).
  static std::mutex building;
  static std::vector<Claim> claims;
  static size_t sourcesSeen = 0;
  const std::lock_guard<std::mutex> lock(building);
  if (sourcesSeen != claimSources().size()) {
    sourcesSeen = claimSources().size();
    claims.clear();
    for (const SceneEntry& e : registeredScenes())
      for (const ClaimSource& source : claimSources())
        if (std::string(e.name) == source.scene)
          for (Claim& c : source.build()) claims.push_back(std::move(c));
  }
  return claims;
}

std::vector<const Claim*> claimsOf(const std::string& scene) {
  std::vector<const Claim*> out;
  for (const Claim& c : allClaims())
    if (scene == c.scene) out.push_back(&c);
  return out;
}

const Claim* findClaim(const std::string& id) {
  for (const Claim& c : allClaims())
    if (id == c.id) return &c;
  return nullptr;
}

bool startExperiment(Scene& scene, const Claim& claim, std::string& error) {
  ExperimentSetup setup{claim.scene, claim.preset, {claim.sets.begin(), claim.sets.end()}, claim.start, ""};
  if (startSetup(scene, setup, error)) return true;
  error = std::string("claim ") + claim.id + ": " + error;
  return false;
}

// ---- tracking one run ----

void ClaimTracker::begin(const Claim& claim) {
  *this = ClaimTracker();
  claim_ = &claim;
  rule_ = WindowReduction(claim.rule.reduce, claim.rule.level, claim.from);
  alsoSum_.assign(claim.also.size(), 0.0);
}

void ClaimTracker::sample(double time, std::span<const sim::Metric> metrics) {
  if (!claim_ || done_) return;
  // Nothing before the first step (as `crowdlab claims` samples), and each step once.
  if (time < 0.5 * kStep || (sampledAny_ && time <= lastTime_ + 1e-9)) return;
  sampledAny_ = true;
  const Claim& c = *claim_;
  lastTime_ = time;
  // A step's time is its end: the sample at `from` is the first inside the window (half a step of slack).
  if (!inWindow(time, c.from, c.from + c.window)) return;
  auto find = [&](const char* name, double& out) {
    for (const sim::Metric& m : metrics)
      if (std::string(m.name) == name) { out = m.value; return true; }
    return false;
  };
  double v = 0;
  if (find(c.rule.metric, v)) {
    last_ = v;
    rule_.add(time, v);
    // The event ends the window, so the picture at its end shows it: TimeUntil once the level is
    // reached; a LongestBelow claim once its time below reaches the threshold (the split is there,
    // not the merged flock long after it).
    if (c.rule.reduce == Reduce::TimeUntil && rule_.reached()) done_ = true;
    if (c.rule.reduce == Reduce::LongestBelow && c.rule.atLeast && rule_.value() >= c.rule.threshold) done_ = true;
  }
  bool all = true;
  for (size_t i = 0; i < c.also.size(); ++i) {
    double a = 0;
    if (find(c.also[i], a)) alsoSum_[i] += a;
    else all = false;
  }
  if (all) ++alsoCount_;
  if (time + 0.5 * kStep >= c.from + c.window) done_ = true;
}

double ClaimTracker::value() const { return rule_.any() ? rule_.value() : 0.0; }

bool ruleHolds(const ClaimRule& rule, double value) {
  if (!std::isfinite(value)) return false;
  return rule.atLeast ? value >= rule.threshold : value <= rule.threshold;
}

std::string formatValue(const Claim& claim, double value) {
  char buf[64];
  if (!std::isfinite(value)) std::snprintf(buf, sizeof buf, "n/a");
  else if (value != 0.0 && (std::abs(value) >= 1e5 || std::abs(value) < 1e-3)) std::snprintf(buf, sizeof buf, "%.3g", value);
  else std::snprintf(buf, sizeof buf, "%.3g", value);
  std::string s = buf;
  if (*claim.unit) s += std::string(" ") + claim.unit;
  return s;
}

std::string describeRule(const Claim& claim) {
  const ClaimRule& r = claim.rule;
  char buf[160];
  const char* how = r.reduce == Reduce::Final ? "at the end"
                    : r.reduce == Reduce::Mean ? "mean"
                    : r.reduce == Reduce::Min  ? "min"
                    : r.reduce == Reduce::Max  ? "max"
                                               : "";
  if (r.reduce == Reduce::LongestBelow)
    std::snprintf(buf, sizeof buf, "%s below %.3g for >= %.3g s", r.metric, r.level, r.threshold);
  else if (r.reduce == Reduce::TimeUntil)
    std::snprintf(buf, sizeof buf, "seconds until %s >= %.3g, <= %.3g", r.metric, r.level, r.threshold);
  else if (*claim.relativeTo)
    std::snprintf(buf, sizeof buf, "%s (%s) %s %.3g x %s", r.metric, how, r.atLeast ? ">=" : "<=", r.threshold,
                  claim.relativeTo);
  else
    std::snprintf(buf, sizeof buf, "%s (%s) %s %.3g", r.metric, how, r.atLeast ? ">=" : "<=", r.threshold);
  std::string out = buf;
  if (claim.cost == CostBasis::CountedWork) out += ", by counted work";
  else if (claim.cost == CostBasis::FastestTiming) out += ", by the fastest of repeated timings";
  return out;
}

int fastForward(const Claim& claim, double simTime, bool done) {
  // Frames drawn time the drawing itself: those claims take one step a frame.
  if (done || claim.needsWindow) return 1;
  // About 75 frames of settling (8 steps a frame at least) and 200 of window: a software renderer's
  // 60 ms frames at 1080p then give the verdict in about 15 s.
  constexpr int kSettling = 8, kSettlingFrames = 75, kWindowFrames = 200, kMost = 80;
  if (simTime + 0.5 * kStep < claim.from)
    return std::clamp(int(std::ceil(claim.from / kStep / kSettlingFrames)), kSettling, kMost);
  return std::clamp(int(std::ceil(claim.window / kStep / kWindowFrames)), 1, kMost);
}

std::string fastForwardNote(int factor) { return factor > 1 ? "fast-forward x" + std::to_string(factor) : ""; }

ClaimVerdict judge(const Claim& claim, std::span<const double> values) {
  ClaimVerdict v;
  for (double x : values) v.seedsPassed += ruleHolds(claim.rule, x) ? 1 : 0;
  const int needed = int(std::ceil(claim.seedShare * double(values.size()) - 1e-9));
  v.holds = !values.empty() && v.seedsPassed >= std::max(needed, 1);
  if (v.holds) {
    v.text = *claim.fix ? std::string("holds with crowdlab's fix (") + claim.fix + ")" : "holds";
    return v;
  }
  // How far off: the seeds' mean against the rule's number.
  double mean = 0;
  int finite = 0;
  for (double x : values)
    if (std::isfinite(x)) { mean += x; ++finite; }
  char buf[200];
  if (finite == 0) {
    std::snprintf(buf, sizeof buf, "article overstates (no measurable baseline: %s)", describeRule(claim).c_str());
  } else {
    mean /= finite;
    std::snprintf(buf, sizeof buf, "article overstates (measured %s, needs %s; %d of %zu seeds)",
                  formatValue(claim, mean).c_str(), describeRule(claim).c_str(), v.seedsPassed, values.size());
  }
  v.text = buf;
  return v;
}

namespace {

// One number for a sentence: "%" a percentage, "0" whole, "1" one decimal, else three significant digits.
std::string sentenceNumber(double v, const std::string& form) {
  char buf[48];
  if (!std::isfinite(v)) return "n/a";
  if (form == "%") std::snprintf(buf, sizeof buf, "%.0f %%", v * 100.0);
  else if (form == "0") std::snprintf(buf, sizeof buf, "%.0f", v);
  else if (form == "1") std::snprintf(buf, sizeof buf, "%.1f", v);
  else if (form == "2") std::snprintf(buf, sizeof buf, "%.2f", v);
  else std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

}  // namespace

std::string resultSentence(const Claim& claim, double value, std::span<const double> also) {
  const char* text = claim.rule.reduce == Reduce::TimeUntil && !std::isfinite(value) && *claim.resultNever
                         ? claim.resultNever
                         : claim.result;
  if (!*text) return std::string(claim.rule.metric) + " " + formatValue(claim, value);
  std::string out;
  for (const char* p = text; *p;) {
    const char* close = *p == '{' ? std::strchr(p, '}') : nullptr;
    if (!close) {
      out += *p++;
      continue;
    }
    std::string field(p + 1, close), form;
    if (const size_t colon = field.find(':'); colon != std::string::npos) {
      form = field.substr(colon + 1);
      field.resize(colon);
    }
    double v = std::nan("");
    if (field == "v") v = value;
    else if (field.size() == 2 && field[0] == 'a' && size_t(field[1] - '0') < also.size()) v = also[size_t(field[1] - '0')];
    out += sentenceNumber(v, form);
    p = close + 1;
  }
  return out;
}

std::string verdictWords(const ClaimVerdict& verdict, const Claim& claim) {
  if (!verdict.holds) return "the article overstates";
  return *claim.fix ? "holds with crowdlab's fix" : "holds";
}

std::string programLine(const Claim& claim, double value) {
  return describeRule(claim) + ": measured " + formatValue(claim, value);
}

}  // namespace scenes
