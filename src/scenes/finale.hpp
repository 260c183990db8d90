// Scene 6 — Big finale: every layer at once, at scale. Agents chase the cursor through one
// pipeline (arrive -> boids corrections -> ORCA -> clamp and integrate) on one uniform grid, up to
// 100,000 of them, with obstacles, level of detail and rule weights that are constant, hand-drawn
// curves against density, or learned. The panel shows where each step's time goes. The simulation
// side; its panel and input: finale_window.cpp.
#pragma once
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <nlohmann/json.hpp>
#include "render/color.hpp"
#include "scenes/boids_params.hpp"
#include "scenes/overlap_marks.hpp"
#include "scenes/plot_history.hpp"
#include "scenes/presets.hpp"
#include "scenes/number_text.hpp"
#include "scenes/scene.hpp"
#include "sim/models/finale.hpp"
#include "sim/core/parallel.hpp"

namespace scenes::finale {

using sim::Vec2;
using Clock = std::chrono::steady_clock;

// The agents' colours, one definition for the view and the legend.
inline uint32_t densityColor(float crush) { return render::hueColor(0.62f - 0.62f * crush, 0.7f, 0.95f); }  // 0 open .. 1 crush
inline uint32_t headingColor(float turns) { return render::hueColor(turns, 0.35f, 0.95f); }  // turns: atan2 / 2 pi
constexpr uint32_t kOrcaTierColor = render::colors::cyan, kBoidsTierColor = render::colors::orange;
constexpr uint32_t kTargetColor = render::colors::yellow;

constexpr int kDropCount = 30;  // obstacles per "Drop obstacles"
constexpr int kMaxThreads = 64;  // the threads parameter's range; more than the cores run on all of them

// The density-aware weight curves: kSamples weights each, edited by the curve editor (not by
// generated sliders) and declared as parameters so presets, --set and --list-params carry them.
constexpr int kSamples = sim::DensityWeights::kSamples;
using Curve = std::array<float, kSamples>;
constexpr float kCurveMax = 3.0f;  // the editor's slider range and the parameters' range
static_assert(kSamples == 8, "one name per sample below");
constexpr const char* kSepNames[kSamples] = {"sep0", "sep1", "sep2", "sep3", "sep4", "sep5", "sep6", "sep7"};
constexpr const char* kAliNames[kSamples] = {"ali0", "ali1", "ali2", "ali3", "ali4", "ali5", "ali6", "ali7"};
constexpr const char* kCohNames[kSamples] = {"coh0", "coh1", "coh2", "coh3", "coh4", "coh5", "coh6", "coh7"};

// The learned weight function's weights (sim::LearnedWeights), one declared parameter each: nn0...
// Their defaults are the trained weights the finale ships (kLearnedPreset, made by `crowdlab tune`;
// its description names the command), so "learned" means the trained function until changed.
constexpr int kLearnedCount = sim::LearnedWeights::kCount;
constexpr float kLearnedRange = 4.0f;
constexpr const char* kLearnedPreset = "learned-weights.json";
inline const char* learnedName(int k) {
  static const std::array<std::string, kLearnedCount> names = [] {
    std::array<std::string, kLearnedCount> n;
    for (int i = 0; i < kLearnedCount; ++i) n[size_t(i)] = "nn" + std::to_string(i);
    return n;
  }();
  return names[size_t(k)].c_str();
}
// The shipped weights, read from the embedded preset (zeros, the constant weights, without it).
inline const sim::LearnedWeights& shippedLearnedWeights() {
  static const sim::LearnedWeights weights = [] {
    sim::LearnedWeights w;
    for (const scenes::BuiltinPreset& preset : scenes::builtinPresets("finale")) {
      if (std::string(preset.file) != kLearnedPreset) continue;
      const nlohmann::json doc = nlohmann::json::parse(preset.json, nullptr, false);
      if (!doc.is_object() || !doc.contains("params") || !doc["params"].is_object()) break;
      for (int i = 0; i < kLearnedCount; ++i) {
        const auto it = doc["params"].find(learnedName(i));
        if (it != doc["params"].end() && it->is_number())
          w.w[size_t(i)] = std::clamp(it->get<float>(), -kLearnedRange, kLearnedRange);
      }
    }
    return w;
  }();
  return weights;
}

inline double msSince(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

// The scene's own settings; everything the simulation reads is in sim::FinaleParams.
struct SceneSettings {
  int count;
  bool wander;  // the target moves by itself, so the crowd keeps going while the lecturer talks
  int obstaclesAtStart;
  int colorBy;  // 0 density, 1 tier, 2 heading
  int threads;
  bool showStepCost;  // the step's cost in large type on the world: hash on and off differ in the picture as in the numbers
  bool showOverlaps;  // a magnifier on the crush at the target: bodies inside bodies with ORCA off, apart with it on
};

// The phases of one frame, in milliseconds, smoothed so the bars can be read.
struct PhaseTimes {
  static constexpr int kCount = 6;
  static constexpr const char* kNames[kCount] = {"grid build", "neighbours + rules", "ORCA", "integrate", "upload",
                                                 "draw (GL, UI, swap)"};
  static constexpr uint32_t kColors[kCount] = {render::rgba(110, 170, 255), render::rgba(90, 210, 120),
                                               render::rgba(250, 120, 90), render::rgba(240, 200, 70),
                                               render::rgba(190, 120, 250), render::rgba(150, 155, 170)};
  std::array<double, kCount> ms{};
  std::array<bool, kCount> seen{};
  void blend(int phase, double value) {
    double& m = ms[size_t(phase)];
    m = seen[size_t(phase)] ? m + 0.1 * (value - m) : value;
    seen[size_t(phase)] = true;
  }
};

class Finale : public scenes::Scene {
 public:
  Finale(scenes::SceneContext& context, uint64_t seedValue) : Scene(context, seedValue) {
    const sim::FinaleParams d{};
    sim::FinaleParams& p = sim_.params;
    params_ = {
        scenes::Param::i("N", "agents (N)", &s_.count, 100, 100000, 2000, "Number of agents; the world grows with N so the crowd keeps its density", true).withUnit("agents").ofScene(),
    };
    scenes::addBoidsWeightParams(params_, p.weights, d.weights);  // a fraction of max speed each
    params_.insert(params_.end(), {
        scenes::Param::f("perception", "perception radius", &p.perceptionRadius, 8, 80, d.perceptionRadius, "Neighbours within this count for the rules and the density").withUnit("world units"),
        scenes::Param::f("separation", "separation radius", &p.separationRadius, 2, 80, d.separationRadius, "Closer than this pushes away; kept at most the perception radius"),
        scenes::Param::f("cellSize", "cell size", &p.cellSize, 4, 200, d.cellSize, "Uniform grid cell size (world units); every cell a query's radius touches is scanned", true).withUnit("world units"),
        scenes::Param::b("hash", "spatial hash", &p.spatialHash, d.spatialHash, "Off: every agent checks every other (brute force, O(N^2)); large N then takes seconds a step"),
        scenes::Param::b("orca", "ORCA", &p.orca, d.orca, "Clip each agent's velocity to a collision-free one (and obey obstacles); off: boids and steering only"),
        scenes::Param::f("tau", "ORCA horizon", &p.tau, 0.2f, 5, d.tau, "Seconds ahead ORCA guarantees no collision with other agents").withUnit("s"),
        scenes::Param::b("showStepCost", "show the step's cost", &s_.showStepCost, false,
                         "The neighbour search's distance checks and the step's time in large type on the world").ofScene(),
        scenes::Param::b("showOverlaps", "magnify the crush", &s_.showOverlaps, false,
                         "Beside the crowd, the bodies around the target drawn many times larger, each overlapping one ringed: "
                         "with ORCA off they lie inside each other").ofScene(),
        scenes::Param::b("wander", "target wanders by itself", &s_.wander, false, "The target drifts around the world on its own (the cursor no longer steers it): the crowd keeps moving while you talk").ofScene(),
        scenes::Param::b("lod", "level of detail", &p.lod, d.lod, "ORCA only within the LOD radius of the cursor, boids alone farther out"),
        scenes::Param::f("lodRadius", "LOD radius", &p.lodRadius, 20, 4000, d.lodRadius, "Agents closer than this to the target get ORCA (with level of detail on)", true),
        scenes::Param::e("weights", "rule weights", &p.weightMode, "constant|curves|learned", d.weightMode, "Constant: the three weights above for everyone; curves: the hand-drawn curves below against the local neighbour count; learned: the three weights times a small network's multipliers for each agent's situation (trained by crowdlab tune)"),
        scenes::Param::f("densityStep", "neighbours per sample", &p.density.neighborsPerSample, 1, 10, d.density.neighborsPerSample, "Spacing of the curves' samples in neighbours: sample b sits at b times this"),
        scenes::Param::f("maxSpeed", "max speed", &p.maxSpeed, 20, 300, d.maxSpeed, "Speed limit, world units per second").withUnit("world units/s"),
        scenes::Param::i("obstacles", "obstacles at reset", &s_.obstaclesAtStart, 0, 60, 0, "Circles dropped (clear of the agents) whenever the scene resets").ofScene(),
        scenes::Param::e("colorBy", "colour by", &s_.colorBy, "density|tier|heading", 0, "Density: blue in the open, red in a crush; tier: ORCA cyan, boids orange").ofScene(),
        // The default and the range depend on the machine; any count gives the same result.
        // The range is not this machine's core count, so a preset saved on a bigger machine still
        // loads here; a count above the cores runs on all of them.
        scenes::Param::i("threads", "threads", &s_.threads, 1, kMaxThreads, sim::hardwareThreads(), "Worker threads for every phase; more than this machine's cores runs on all of them. The result is the same for any count").ofScene(),
    });
    declareCurve(kSepNames, p.density.separation, d.density.separation, "Density-aware separation weight at sample k (k x neighbours per sample); drawn in the curves editor");
    declareCurve(kAliNames, p.density.alignment, d.density.alignment, "Density-aware alignment weight at sample k (k x neighbours per sample); drawn in the curves editor");
    declareCurve(kCohNames, p.density.cohesion, d.density.cohesion, "Density-aware cohesion weight at sample k (k x neighbours per sample); drawn in the curves editor");
    const sim::LearnedWeights& shipped = shippedLearnedWeights();
    for (int i = 0; i < kLearnedCount; ++i)
      params_.push_back(scenes::Param::f(learnedName(i), learnedName(i), &p.learned.w[size_t(i)], -kLearnedRange,
                                         kLearnedRange, shipped.w[size_t(i)],
                                         "Learned weight function: weight k of its network (layout in sim/models/finale_learned.hpp); trained by crowdlab tune")
                            .withoutSlider());
    declareParams();
    about = kAbout;
    aboutMore = kAboutMore;
    keys = kKeys;
  }


  ~Finale() override;  // finale.cpp: the class's vtable is built there once

  void reset() override {
    keepSeparationInsidePerception();
    sim_.world = sim::FinaleSim::worldFor(size_t(s_.count));
    sim_.target = sim_.world.center();
    sim_.spawn(0, seed);
    placed_ = s_.obstaclesAtStart > 0 ? sim_.dropObstacles(s_.obstaclesAtStart, seed) : 0;
    sim_.spawn(size_t(s_.count), seed);
    metrics_.take(sim_);
    selectedId_.reset();
    drops_ = 0;
    wanderSeconds_ = 0;
    stepMsSinceDraw_ = 0;
    lastDrawEnd_ = {};
    if (ctx && worldChanged()) homeCamera(*ctx);
  }

  void step(float dt) override {
    const sim::ScopedThreadCount threads(s_.threads);  // this step only: other scenes keep the user's count
    if (s_.wander) {
      // A slow Lissajous loop over the world's middle: same seed, same path.
      wanderSeconds_ += dt;
      const Vec2 c = sim_.world.center(), half = sim_.world.size * 0.35f;
      sim_.target = c + Vec2{half.x * std::sin(0.21f * wanderSeconds_), half.y * std::sin(0.33f * wanderSeconds_ + 1.0f)};
    }
    sim_.step(dt);
    metrics_.take(sim_);
    const auto& t = sim_.timings();
    stepMsSinceDraw_ += t.stepMs;
    phases_.blend(0, t.gridMs);
    phases_.blend(1, t.rulesMs);
    phases_.blend(2, t.orcaMs);
    phases_.blend(3, t.integrateMs);
    overlapHistory_.push(float(metrics_["overlaps_total"]));
    neighborHistory_.push(float(metrics_["mean_neighbors"]));
  }

  void draw(render::AgentBatch& agents, render::DebugDraw& debug) override {
    using namespace render;
    const auto start = Clock::now();
    // What happened since the last draw besides the steps: the GL draw, the UI and the swap.
    if (lastDrawEnd_ != Clock::time_point{}) phases_.blend(5, std::max(0.0, msSince(lastDrawEnd_) - stepMsSinceDraw_));
    stepMsSinceDraw_ = 0;
    // The target follows the cursor while it is over the view (never during a step: the app does
    // not draw while one runs).
    if (ctx && ctx->mouseInView && !s_.wander) sim_.target = ctx->mouseWorld;

    const auto pos = sim_.positions();
    const auto vel = sim_.velocities();
    const auto tier = sim_.orcaTier();
    const auto neighbors = sim_.neighborCounts();
    const sim::FinaleParams& p = sim_.params;
    const float full = std::max(1.0f, p.density.neighborsPerSample * float(sim::DensityWeights::kSamples - 1));
    const float length = 2.6f * p.agentRadius;  // arrow tail to nose: about the agent's diameter
    agents.shape = AgentShape::Arrow2D;
    agents.instances.resize(pos.size());
    sim::parallelFor(pos.size(), [&](size_t k) {
      uint32_t color;
      if (s_.colorBy == 0) color = densityColor(std::min(1.0f, float(neighbors[k]) / full));
      else if (s_.colorBy == 1) color = tier[k] ? kOrcaTierColor : kBoidsTierColor;
      else color = headingColor(std::atan2(vel[k].y, vel[k].x) / 6.2831853f);
      const Vec2 heading = glm::dot(vel[k], vel[k]) > 1e-6f ? vel[k] : Vec2{1.0f, 0.0f};
      agents.instances[k] = {glm::vec3(pos[k], 0.0f), glm::vec3(heading, 0.0f), length, 0.0f, color};
    }, 4096);
    phases_.blend(4, msSince(start));

    debug.rect(sim_.world.min, sim_.world.max(), rgba(70, 76, 90));
    for (const auto& o : sim_.obstacles()) debug.disk(o.center, o.radius, rgba(95, 100, 115));
    const Vec2 t = sim_.target;
    const float mark = 16.0f / std::max(ctx ? ctx->camera2D.zoom : 1.0f, 1e-3f);  // about 16 pixels: seen from the back row
    debug.disk(t, 0.45f * mark, rgba(255, 235, 60, 200));
    debug.circle(t, 0.8f * mark, kTargetColor);
    debug.line(t - Vec2{mark, 0}, t + Vec2{mark, 0}, kTargetColor);
    debug.line(t - Vec2{0, mark}, t + Vec2{0, mark}, kTargetColor);
    if (p.orca && p.lod) debug.circle(t, p.lodRadius, rgba(60, 220, 230, 160));
    if (const auto i = selectedIndex()) markSelected(agents, debug, *i);
    if (s_.showStepCost) drawStepCost(debug);
    if (s_.showOverlaps) drawCrushMagnifier(debug, agents);
    lastDrawEnd_ = Clock::now();
  }

  // The magnifier on the crush at the target, beside the crowd on the side of the view with more
  // room, and about a fifth of the view's height in radius.
  void drawCrushMagnifier(render::DebugDraw& debug, const render::AgentBatch& agents) const {
    if (!ctx || sim_.size() == 0) return;
    const auto pos = sim_.positions();
    const float r = sim_.params.agentRadius;
    const render::Camera2D& cam = ctx->camera2D;
    const glm::vec2 half = cam.viewport / (2.0f * std::max(cam.zoom, 1e-6f));
    scenes::Magnifier m;
    m.source = sim_.target;
    m.sourceRadius = 4.0f * r;  // a handful of bodies: each one large enough to see which lie inside which
    const float insetRadius = 0.4f * std::min(half.x, half.y);
    m.zoom = std::max(2.0f, insetRadius / m.sourceRadius);
    // The crowd's reach around the target: the distance 95 % of the agents are within.
    std::vector<float> reach(pos.size());
    for (size_t i = 0; i < pos.size(); ++i) reach[i] = glm::length(pos[i] - sim_.target);
    const size_t at = pos.size() * 95 / 100;
    std::nth_element(reach.begin(), reach.begin() + std::ptrdiff_t(at), reach.end());
    const float crowd = reach[at], size = m.sourceRadius * m.zoom;
    // Left of a crowd in the middle: the HUD on the left is narrower than the scene panel on the right.
    const float side = sim_.target.x < cam.center.x ? 1.0f : -1.0f;
    m.inset = sim_.target + Vec2{side * (crowd + 1.15f * size), 0.0f};
    const glm::vec2 lo = cam.center - half + size * 1.05f, hi = cam.center + half - size * 1.05f;
    if (lo.x < hi.x) m.inset.x = std::clamp(m.inset.x, lo.x, hi.x);
    if (lo.y < hi.y) m.inset.y = std::clamp(m.inset.y, lo.y, hi.y);
    std::vector<uint32_t> colors(agents.instances.size());
    for (size_t i = 0; i < colors.size(); ++i) colors[i] = agents.instances[i].color;
    const auto pairs = scenes::overlappingPairs(pos, r);
    scenes::drawMagnifier(debug, m, pos, r, colors, pairs, render::rgba(255, 240, 80));
    char label[96];
    std::snprintf(label, sizeof label, "x%.0f: %zu overlapping pairs now", double(m.zoom), pairs.size());
    debug.textAbove(m.inset + Vec2{-size, -size * 1.04f}, label, render::rgba(235, 235, 240));
  }

  // In the visible part of the world's top-left corner, about 12 pixels in: what the search cost the
  // last step ("brute force", "143,988,000 checks a step", "(11999 per agent)", "310.0 ms a step").
  void drawStepCost(render::DebugDraw& debug) const {
    const sim::FinaleParams& p = sim_.params;
    const double checks = double(sim_.metrics().checks);
    const double perAgent = sim_.size() ? checks / double(sim_.size()) : 0.0;
    char count[32], line[160];
    // Short lines: the gap between the panels at 1280 x 720 is narrow, and each line reads on its own.
    std::snprintf(line, sizeof line, "%s\n%s checks a step\n(%.0f per agent)\n%.1f ms a step", p.spatialHash ? "spatial hash" : "brute force",
                  scenes::withCommas(uint64_t(checks), count), perAgent, sim_.timings().stepMs);
    Vec2 corner = sim_.world.min;
    float zoom = 1.0f;
    if (ctx) {
      const render::Camera2D& c = ctx->camera2D;
      zoom = std::max(c.zoom, 1e-6f);
      corner = glm::max(c.center - c.viewport * 0.5f / zoom, sim_.world.min);
    }
    debug.bigText(corner + Vec2(12.0f, 12.0f) / zoom, line, render::colors::white, 2.2f);
  }

  bool selectNextAgent() override {
    selectedId_ = sim_.size() == 0 ? std::nullopt : std::optional<uint32_t>(selectedId_ ? (*selectedId_ + 1) % uint32_t(sim_.size()) : 0);
    return true;
  }
  std::optional<glm::vec3> selectedAgent() const override {
    const auto i = selectedIndex();
    if (!i) return std::nullopt;
    return glm::vec3(sim_.positions()[*i], 0.0f);
  }

  // The lede the panel shows; the rest behind its "More" and in the F1 help.
  static constexpr const char* kAbout = "Everything at once: agents arrive at the cursor, boids rules bend their paths, ORCA keeps bodies apart. Turn ORCA off to see the crush.";
  static constexpr const char* kAboutMore =
           "Everything at once. Each agent wants to reach the cursor (arrive), the boids rules bend that "
           "wish (separation, alignment, cohesion), and ORCA clips the result to a velocity that cannot "
           "collide within its horizon, with obstacles as hard limits. Turn ORCA off and watch the crush "
           "at the cursor: overlapping pairs climb. Level of detail keeps ORCA near the cursor only; "
           "rule weights from the hand-drawn curves push harder where the crowd is dense, and 'learned' "
           "weights come from a small network trained by crowdlab tune (compare them in the Tune section). "
           "Try 100,000 agents, and the hash "
           "off to feel what the grid saves: at N = 1000 brute force is only about 2x slower, at 12,000 it is "
           "more than 10x. The article says ORCA off makes dense groups 'stick'; what crowdlab shows is "
           "bodies overlapping (thousands of overlapping pairs against 0 with ORCA), not a jam.";

  void paramsChanged() override {
    keepSeparationInsidePerception();
    if (size_t(s_.count) != sim_.size() && sim_.size() > 0) reset();
  }

  void metrics(std::vector<sim::Metric>& out) const override { sim_.appendMetrics(out); }
  size_t agentCount() const override { return sim_.size(); }

  static constexpr scenes::KeyAction kKeys[] = {{"Cursor over the world", "the crowd's target (not over the panels)"}};

  void homeCamera(scenes::SceneContext& c) override {
    c.camera2D.fit(sim_.world.min, sim_.world.max());
    framedWorld_ = sim_.world.size;
  }

 protected:
  std::optional<size_t> selectedIndex() const {
    if (!selectedId_) return std::nullopt;
    const auto ids = sim_.ids();
    const auto at = std::find(ids.begin(), ids.end(), *selectedId_);
    if (at == ids.end()) return std::nullopt;
    return size_t(at - ids.begin());
  }

  void keepSeparationInsidePerception() { sim_.params = sim_.params.normalized(); }

  void declareCurve(const char* const (&names)[kSamples], Curve& values, const Curve& defaults, const char* tooltip) {
    for (int b = 0; b < kSamples; ++b)
      params_.push_back(scenes::Param::f(names[b], names[b], &values[size_t(b)], 0, kCurveMax, defaults[size_t(b)], tooltip)
                            .withoutSlider());
  }

  bool worldChanged() const { return framedWorld_ != sim_.world.size; }

  SceneSettings s_{};
  sim::FinaleSim sim_;  // the declared parameters point into sim_.params
  scenes::MetricReading metrics_;  // after the last step
  int drops_ = 0;
  std::optional<uint32_t> selectedId_;  // the N key's agent (follow camera: F), by id: the grid reorders agents
  float wanderSeconds_ = 0;  // simulated time the target has wandered
  int placed_ = 0;
  PhaseTimes phases_;
  double stepMsSinceDraw_ = 0;
  Clock::time_point lastDrawEnd_{};
  Vec2 framedWorld_{0.0f};
  scenes::PlotHistory overlapHistory_, neighborHistory_;
};

}  // namespace scenes::finale
