#include "scenes/claims.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include "scenes/experiment.hpp"
#include <cstring>
#include <limits>
#include "scenes/presets.hpp"

namespace scenes {

namespace {

constexpr double kStep = kExperimentStep;

ClaimRule atLeast(const char* metric, Reduce reduce, double threshold) { return {metric, reduce, 0, true, threshold}; }
ClaimRule atMost(const char* metric, Reduce reduce, double threshold) { return {metric, reduce, 0, false, threshold}; }
ClaimRule belowFor(const char* metric, double level, double seconds) {
  return {metric, Reduce::LongestBelow, level, true, seconds};
}

// The corridor runs table: every method at the article's three widths. The article: 4 passes,
// 2.5 slows, 2 jams. "Passes" is the mean throughput at least 20 per minute; "slows" and "jams" are
// throughput against the same method at width 4 (below 90 %, below 10 %).
std::vector<Claim> corridorTable() {
  struct Method {
    const char* key;
    const char* label;
    std::vector<const char*> sets;
    const char* fix;
  };
  const Method methods[] = {
      {"separation", "separation", {"method=separation", "lanes=false"}, ""},
      {"orca-like", "ORCA-like (article)", {"method=orca-like", "lanes=false"}, ""},
      {"orca", "ORCA", {"method=orca", "lanes=false"}, ""},
      {"orca-lanes", "ORCA + lanes", {"method=orca", "lanes=true"}, "lanes: each direction keeps right"},
  };
  static const std::string ids[4][3] = {
      {"orca-corridor.separation-w4", "orca-corridor.separation-w2.5", "orca-corridor.separation-w2"},
      {"orca-corridor.orca-like-w4", "orca-corridor.orca-like-w2.5", "orca-corridor.orca-like-w2"},
      {"orca-corridor.orca-w4", "orca-corridor.orca-w2.5", "orca-corridor.orca-w2"},
      {"orca-corridor.orca-lanes-w4", "orca-corridor.orca-lanes-w2.5", "orca-corridor.orca-lanes-w2"}};
  static const std::string titles[4][3] = {
      {"Separation, width 4", "Separation, width 2.5", "Separation, width 2"},
      {"ORCA-like, width 4", "ORCA-like, width 2.5", "ORCA-like, width 2"},
      {"ORCA, width 4", "ORCA, width 2.5", "ORCA, width 2"},
      {"ORCA + lanes, width 4", "ORCA + lanes, width 2.5", "ORCA + lanes, width 2"}};
  // The built-in presets that already are one of these runs (their buttons then are this claim).
  const char* presets[4][3] = {{"", "", ""},
                               {"5-orca-like.json", "", ""},
                               {"6-orca-without-lanes.json", "", "2-width-2-jam.json"},
                               {"1-width-4-orca-lanes.json", "3-width-2.5-lanes.json", ""}};
  const char* widths[3] = {"width=4", "width=2.5", "width=2"};
  const char* statements[3] = {"Width 4 diameters: the two groups pass each other",
                               "Width 2.5 diameters: the flow slows down",
                               "Width 2 diameters: the corridor jams"};
  std::vector<Claim> out;
  for (int m = 0; m < 4; ++m) {
    for (int w = 0; w < 3; ++w) {
      Claim c{ids[m][w].c_str(), "orca-corridor", titles[m][w].c_str(), statements[w], presets[m][w], methods[m].sets, "",
              60.0, 10.0, atLeast("throughput_per_min", Reduce::Final, 20.0), false};
      c.sets.push_back("groupSize=20");
      c.sets.push_back(widths[w]);
      c.fix = methods[m].fix;
      if (w > 0) {
        c.relativeTo = ids[m][0].c_str();
        c.rule = atMost("throughput_per_min", Reduce::Final, w == 1 ? 0.9 : 0.1);
        c.unit = "x";
      }
      c.also = {"overlaps_total"};
      c.result = w == 0 ? "{v:0} people a minute got through the corridor"
                        : "The flow is {v:%} of the same method's flow at width 4";
      out.push_back(c);
    }
  }
  return out;
}

std::vector<Claim> buildClaims() {
  std::vector<Claim> c;
  // ---- Murmuration ----
  c.push_back({"murmuration.k1-chains", "murmuration", "k = 1: chains and pairs (2D)",
               "With k = 1 the flock breaks into chains and pairs", "",
               {"mode2D=true", "k=1", "roostPull=0", "roostRadius=500", "colorGroups=true", "showLinks=true", "fitFlock=true", "agentScale=2"}, "", 20.0, 10.0,
               atMost("largest_group_share", Reduce::Mean, 0.5), true});
  c.back().result = "The flock broke into {a0:0} groups; the largest holds {v:%} of the birds";
  c.back().also = {"groups"};
  c.push_back({"murmuration.k7-lively", "murmuration", "k = 7: one lively flock",
               "With k = 7 it is one living flock with waves", "", {"k=7", "colorTurning=true"}, "", 20.0, 5.0,
               atLeast("velocity_fluctuation", Reduce::Mean, 0.1), true});
  c.back().result = "Birds move inside the flock by {v:%} of its speed; the largest group holds {a0:%} of them";
  c.back().also = {"largest_group_share", "groups"};
  c.push_back({"murmuration.k30-monolith", "murmuration", "k = 30: a monolith",
               "With k = 15-30 it sets into a monolith that moves as one body", "", {"k=30", "colorTurning=true"}, "", 20.0, 5.0,
               atMost("velocity_fluctuation", Reduce::Mean, 0.8), false});
  c.back().result = "Birds move inside the flock {v:%} as much as with k = 7";
  c.back().relativeTo = "murmuration.k7-lively";
  c.back().unit = "x of k = 7";
  c.back().also = {"largest_group_share"};
  c.push_back({"murmuration.falcon-splits", "murmuration", "Falcon: the flock splits (2D)",
               "A falcon makes the flock split and merge again", "", {"mode2D=true", "k=7", "colorGroups=true", "fitFlock=true"}, "falcon", 14.0, 0.0,
               belowFor("largest_group_share", 0.7, 2.0), true});
  c.back().result = "For {v:1} s the largest part held under 70 % of the birds";
  c.back().seedShare = 2.0 / 3.0;
  c.back().unit = "s below 70 %";
  c.back().also = {"groups"};
  // The same stoop in 3D, reported only: a thin sheet of birds is holed more often than cut.
  c.push_back({"murmuration.falcon-splits-3d", "murmuration", "Falcon: the flock splits (3D)",
               "A falcon makes the flock split (3D)", "", {"k=7", "colorGroups=true"}, "falcon", 14.0, 0.0,
               belowFor("largest_group_share", 0.7, 2.0), false});
  c.back().result = "For {v:1} s the largest part held under 70 % of the birds";
  c.back().seedShare = 2.0 / 3.0;
  c.back().unit = "s below 70 %";
  c.back().also = {"groups"};
  // The merge happens later, and when it does is the claim: the window runs from 8 s (the falcon is
  // through by then) until the largest part holds 80 % of the birds again, at most 60 s; the banner's
  // verdict then is what the picture at the window's end shows.
  c.push_back({"murmuration.falcon-merges", "murmuration", "Falcon: ... and merges (2D)",
               "After the falcon the parts merge again", "", {"mode2D=true", "k=7", "colorGroups=true", "fitFlock=true"}, "falcon", 60.0, 8.0,
               {"largest_group_share", Reduce::TimeUntil, 0.8, false, 60.0}, false});
  c.back().result = "The parts merged again: one group holds 80 % of the birds {v:1} s after the falcon (at 8 s)";
  c.back().resultNever = "The parts did not merge again within 60 s: the largest holds under 80 % of the birds";
  c.back().unit = "s until 80 % in one group";
  c.back().also = {"groups"};

  // ---- Boids ----
  c.push_back({"boids.separation-scatters", "boids", "Separation only",
               "Separation alone: the flock scatters like dust", "1-separation-only.json", {"colorGroups=true", "showLinks=true"}, "formed-flock",
               10.0, 0.0, atMost("largest_group_share", Reduce::Final, 0.1), true});
  c.back().result = "The flock scattered: the largest group holds {v:%} of the boids ({a1:0} groups)";
  c.back().also = {"mean_nn_distance", "groups"};
  c.push_back({"boids.alignment-parade", "boids", "Alignment only",
               "Alignment alone: a parade, parallel but not held together", "2-alignment-only.json", {"colorGroups=true"}, "",
               20.0, 10.0, atLeast("polarization", Reduce::Mean, 0.9), false});
  c.back().result = "The boids fly parallel (polarisation {v:1} of 1) in {a0:0} separate groups";
  c.back().also = {"groups", "largest_group_share"};
  c.push_back({"boids.cohesion-balls", "boids", "Cohesion only (classic)",
               "Cohesion alone: the crowd collapses into a pulsing ball", "3-cohesion-only.json",
               {"classicCohesion=true", "colorGroups=true", "showLinks=true"}, "", 20.0, 10.0, atMost("groups", Reduce::Mean, 45.0), true});
  c.back().result = "Cohesion pulled the boids into {v:0} clumps; the largest holds {a1:%} of them";
  c.back().also = {"mean_nn_distance", "largest_group_share"};
  c.push_back({"boids.balanced-flock", "boids", "Balanced",
               "All three in balance: a living flock", "4-balanced.json", {"centreOnFlock=true"}, "", 20.0, 10.0,
               atLeast("polarization", Reduce::Mean, 0.7), false});
  c.back().result = "The flock flies aligned (polarisation {v:1} of 1) in {a0:0} groups";
  c.back().also = {"groups", "mean_nn_distance"};

  // ---- Spatial hash ----
  c.push_back({"spatial-hash.classic-misses", "spatial-hash", "Classic 3x3, cells of 10",
               "Cells of 10 with radius 50: agents miss their neighbours", "1-classic-3x3-breaks.json", {"showChecks=true"}, "",
               2.0, 0.5, atLeast("missed_neighbors", Reduce::Mean, 0.3), true});
  c.back().result = "The 3x3 block missed {v:0} neighbours a step (most of them: the red lines)";
  c.back().also = {"neighbors_per_agent"};
  c.push_back({"spatial-hash.auto-rings-fix", "spatial-hash", "Auto rings fix it",
               "Cells of 10 are correct again once the search covers the radius", "2-auto-rings-fix-it.json", {"showChecks=true"}, "",
               2.0, 0.5, atMost("missed_neighbors", Reduce::Max, 0.0), true});
  c.back().result = "At worst {v:0} neighbours were missed";
  c.back().fix = "auto rings: ceil(r / cellSize) rings of cells";
  c.back().also = {"neighbors_per_agent"};
  c.push_back({"spatial-hash.grid", "spatial-hash", "Grid, N = 2000",
               "The grid checks only nearby cells: about K per agent, not N", "", {"N=2000", "method=grid", "showChecks=true"}, "",
               1.0, 0.5, atMost("checks_per_agent", Reduce::Mean, 200.0), false});
  c.back().result = "With the grid each agent checks {v:0} others (of 2000)";
  c.back().unit = "checks/agent";
  c.push_back({"spatial-hash.brute-vs-grid", "spatial-hash", "Brute force, N = 2000",
               "Brute force at N = 2000 costs an order of magnitude more than the grid", "3-brute-force.json",
               {"N=2000", "showChecks=true"}, "", 1.0, 0.5, atLeast("checks_per_agent", Reduce::Mean, 10.0), true});
  c.back().result = "Brute force checks {v:0} times as many pairs as the grid";
  c.back().relativeTo = "spatial-hash.grid";
  c.back().unit = "x the grid's checks";

  // ---- ORCA corridor ----
  for (const Claim& k : corridorTable()) c.push_back(k);
  c.push_back({"orca-corridor.orca-like-overlaps", "orca-corridor", "ORCA-like: through each other?",
               "The article's ORCA-like demo: counterflows pass without colliding", "5-orca-like.json", {}, "",
               60.0, 0.0, atMost("overlaps_total", Reduce::Final, 0.0), false});
  c.back().result = "Agents overlapped for {v:0} agent-steps in all (bodies passing through each other)";

  // ---- Steering ----
  c.push_back({"steering.seek-orbits", "steering", "Seek only",
               "Seek alone overshoots the target and orbits it", "1-seek-only.json", {"trails=3"}, "", 30.0, 10.0,
               atMost("settled_share", Reduce::Mean, 0.1), true});
  c.back().result = "Only {v:%} of the agents came to rest at the target; the rest orbit it";
  c.back().also = {"mean_speed"};
  c.push_back({"steering.arrive-settles", "steering", "Seek + arrive",
               "Arrive: the agents stop cleanly at the target", "2-seek-arrive.json", {"trails=30"}, "", 12.5, 12.5,
               atLeast("settled_share", Reduce::Min, 0.95), true});
  c.back().result = "At least {v:%} of the agents stood still at the target the whole time";
  c.back().fix = "separation joins arrive's desired velocity instead of taking the force budget first";
  c.back().also = {"mean_speed"};
  c.push_back({"steering.smoothing-arrives", "steering", "Arrive + smoothing 0.3 s",
               "Smoothing the steering keeps a clean stop (no orbiting)", "2-seek-arrive.json", {"smoothing=0.3", "trails=30"},
               "", 12.5, 12.5, atLeast("settled_share", Reduce::Min, 0.95), true});
  c.back().result = "At least {v:%} of the agents stood still at the target the whole time";
  c.back().fix = "smoothing is a response time on the velocity, not a lag on the acceleration";
  c.back().also = {"mean_speed"};

  // ---- Finale ----
  // Step times: the fastest step of the window on each side, so a busy machine's pre-emptions do not
  // decide the ratio (the usual benchmarking practice).
  c.push_back({"finale.hash-on", "finale", "Hash on, N = 12000",
               "With the spatial hash a big crowd steps fast", "", {"N=12000", "hash=true", "showStepCost=true"}, "", 0.1, 0.05,
               atMost("step_ms", Reduce::Min, 1e9), false});
  c.back().result = "With the hash one step takes {v:1} ms";
  c.back().unit = "ms/step";
  c.push_back({"finale.hash-off", "finale", "Hash off, N = 12000",
               "Turn the hash off and the frame rate collapses", "", {"N=12000", "hash=false", "showStepCost=true"}, "", 0.1, 0.05,
               atLeast("step_ms", Reduce::Min, 10.0), true});
  c.back().result = "Without the hash a step takes {v:1} times as long";
  c.back().relativeTo = "finale.hash-on";
  c.back().unit = "x slower";
  c.push_back({"finale.orca-on", "finale", "ORCA on",
               "With ORCA dense groups stay collision free", "", {"orca=true"}, "", 15.0, 5.0,
               atMost("overlaps_total", Reduce::Max, 0.0), true});
  c.back().result = "At most {v:0} pairs of agents overlapped";
  c.push_back({"finale.orca-off", "finale", "ORCA off",
               "Turn ORCA off and dense groups stick together", "", {"orca=false"}, "", 15.0, 5.0,
               atLeast("overlaps_total", Reduce::Mean, 1.0), true});
  c.back().result = "On average {v:0} pairs of agents overlapped";
  c.back().unit = "overlapping pairs";

  // ---- GPU (the article's part 6) ----
  // Measured from frames the window draws (draw calls, CPU time submitting them, compute-shader steps):
  // experiment buttons and `crowdlab --claim ID`; `crowdlab claims` lists them as window-only. On
  // llvmpipe (software OpenGL) the "GPU" runs on the same CPU cores, so the compute claim cannot show there.
  c.push_back({"gpu.instanced", "gpu", "One instanced draw",
               "Instancing: one draw call for every agent", "", {"N=20000", "render=instanced", "sim=cpu"}, "", 1.0, 0.5,
               atMost("agent_submit_ms", Reduce::Min, 1e9), false});
  c.back().result = "All 20000 agents went out in {a0:0} draw call a frame: {v:2} ms of CPU time submitting";
  c.back().unit = "ms";
  c.back().also = {"agent_draw_calls"};
  c.back().needsWindow = true;
  c.push_back({"gpu.per-agent", "gpu", "One draw per agent",
               "One draw call per agent: the CPU drowns in submitting them", "", {"N=20000", "render=per-agent", "sim=cpu"},
               "", 1.0, 0.5, atLeast("agent_submit_ms", Reduce::Min, 10.0), false});
  c.back().relativeTo = "gpu.instanced";
  c.back().unit = "x the instanced draw's";
  c.back().result = "{a0:0} draw calls a frame took {v:0} times the CPU time of one instanced draw";
  c.back().also = {"agent_draw_calls"};
  c.back().needsWindow = true;
  c.push_back({"gpu.cpu-sim", "gpu", "Simulation on the CPU, N = 100000",
               "The CPU steps a big flock", "", {"N=100000", "sim=cpu", "render=instanced"}, "", 1.0, 0.5,
               atMost("sim_step_ms", Reduce::Min, 1e9), false});
  c.back().result = "The CPU stepped 100000 boids in {v:1} ms";
  c.back().unit = "ms/step";
  c.back().needsWindow = true;
  c.push_back({"gpu.gpu-sim", "gpu", "Simulation on the GPU, N = 100000",
               "Compute shaders step the same flock much faster than the CPU", "", {"N=100000", "sim=gpu", "render=instanced"},
               "", 1.0, 0.5, atMost("sim_step_ms", Reduce::Min, 0.5), false});
  c.back().relativeTo = "gpu.cpu-sim";
  c.back().unit = "x the CPU's step";
  c.back().result = "The compute shaders' step took {v:1} x the CPU's time (software OpenGL, where the GPU is these CPU cores: {a0:0})";
  c.back().also = {"software_gl"};
  c.back().needsWindow = true;
  return c;
}

}  // namespace

std::span<const Claim> allClaims() {
  static const std::vector<Claim> claims = buildClaims();
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
  ExperimentSetup setup{claim.scene, claim.preset, {claim.sets.begin(), claim.sets.end()}, claim.start};
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
  return buf;
}

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

ClaimRun runClaim(const Claim& claim, uint64_t seed, double baseline) {
  ClaimRun run;
  const SceneEntry* entry = findScene(claim.scene);
  if (!entry) {
    run.error = std::string("claim ") + claim.id + ": unknown scene " + claim.scene;
    return run;
  }
  SceneContext ctx;
  std::unique_ptr<Scene> scene = entry->create();
  scene->seed = seed;
  scene->ctx = &ctx;
  if (!startExperiment(*scene, claim, run.error)) return run;
  ClaimTracker tracker;
  tracker.begin(claim);
  std::vector<sim::Metric> metrics;
  const int steps = int(std::lround((claim.from + claim.window) / kStep));
  for (int s = 1; s <= steps && !tracker.done(); ++s) {
    scene->step(float(kStep));
    scene->sampleMetrics();
    ctx.simTime = double(s) * kStep;
    metrics.clear();
    scene->metrics(metrics);
    tracker.sample(ctx.simTime, metrics);
  }
  run.raw = run.value = tracker.value();
  if (*claim.relativeTo) run.value = baseline > 0.0 ? run.value / baseline : std::nan("");
  for (size_t i = 0; i < claim.also.size(); ++i) run.also.push_back(tracker.alsoValue(i));
  run.ok = true;
  return run;
}

}  // namespace scenes
