// Scene 2 — Boids playground: Reynolds' separation, alignment and cohesion with live weights. The
// simulation side; its panel and clicks: boids_playground_window.cpp.
#pragma once
#include <algorithm>
#include <cmath>
#include "render/color.hpp"
#include "scenes/boids_params.hpp"
#include "scenes/group_colors.hpp"
#include "scenes/plot_history.hpp"
#include "scenes/scene.hpp"
#include "sim/core/knn.hpp"
#include "sim/models/flock.hpp"

namespace scenes::boids_playground {

using sim::Vec2;

// The scene's own settings; everything the flock reads is in sim::BoidsParams and Flock::method.
struct SceneSettings {
  int count;
  bool showRadii;
  bool frozen;
  // Display options the experiments switch on (the claim shows in the picture, not only in the numbers).
  bool colorGroups;     // each fixed-link group in its own colour (the dust, the balls)
  bool showLinks;       // lines to each boid's nearest within the group link: clumps, pairs and dust as drawn
  bool centreOnFlock;   // the view follows the flock's centre across the wrap, so one flock never shows as two
};

class BoidsPlayground : public scenes::Scene {
 public:
  BoidsPlayground(scenes::SceneContext& context, uint64_t seedValue) : Scene(context, seedValue) {
    const sim::BoidsParams d{};
    sim::BoidsParams& p = flock_.params;
    params_ = {scenes::Param::i("N", "agents (N)", &s_.count, 10, 5000, 300, "Number of boids", true).withUnit("agents").ofScene()};
    for (const scenes::Param& rule :
         scenes::boidsRuleParams(p, {200, 190, "Who counts as a neighbour (world units = pixels at 100%)"}))
      params_.push_back(rule);
    params_.insert(params_.end(), {
        scenes::Param::b("classicCohesion", "classic cohesion", &p.classicCohesion, d.classicCohesion,
                         "Reynolds' unit vector to the centre, full strength at any distance (piles into balls); off: crowdlab's spring, which fades near the centre"),
        scenes::Param::b("fov", "field of view", &p.useFieldOfView, d.useFieldOfView, "Reynolds' refinement: a blind spot behind each boid"),
        scenes::Param::f("fovAngle", "view angle", &p.fieldOfViewDegrees, 30, 360, d.fieldOfViewDegrees, "Total angle a boid sees, in degrees"),
        scenes::Param::b("separateRadii", "separate radii", &p.separateRadii, d.separateRadii, "Reynolds' refinement: own radii for alignment and cohesion"),
        scenes::Param::f("alignRadius", "alignment radius", &p.alignmentRadius, 5, 200, d.alignmentRadius, "Neighbours within this align (with separate radii)"),
        scenes::Param::f("cohRadius", "cohesion radius", &p.cohesionRadius, 5, 200, d.cohesionRadius, "Neighbours within this attract (with separate radii)"),
        scenes::Param::e("neighbors", "neighbour search", &flock_.method, "brute|grid", sim::NeighborMethod::Grid, "Brute force O(N^2) or the uniform grid"),
        scenes::Param::b("showRadii", "show radii", &s_.showRadii, false, "Highlight one agent: its radii, neighbours and rule vectors").ofScene(),
        scenes::Param::b("freeze", "freeze", &s_.frozen, false, "Stop the flock (single-step with the Step button)").ofScene(),
        scenes::Param::b("colorGroups", "colour by group", &s_.colorGroups, false,
                         "Each group (boids linked by 3 body lengths, as the metrics count) in its own colour, kept from frame to frame").ofScene(),
        scenes::Param::b("showLinks", "links to the 3 nearest", &s_.showLinks, false,
                         "A line from each boid to its 3 nearest within 3 body lengths (the link the groups are counted by)").ofScene(),
        scenes::Param::b("centreOnFlock", "keep the flock centred", &s_.centreOnFlock, false,
                         "The world (it wraps at its edges) is drawn around the flock's centre, so a flock crossing an edge is not cut in two").ofScene(),
    });
    declareParams();
    about = kAbout;
    aboutMore = kAboutMore;
    keys = kKeys;
    flock_.world.size = Vec2{1280.0f, 720.0f};
  }

  ~BoidsPlayground() override;  // boids_playground.cpp: the class's vtable is built there once

  void reset() override {
    keepRadiiAndSpeedsConsistent();
    flock_.spawn(size_t(s_.count), seed);
    highlighted_ = 0;
    groupColors_.clear();
    stepsSinceMetrics_ = 1000;
    updateMetrics();
  }

  void step(float dt) override {
    if (s_.frozen && !stepOnce_) return;
    stepOnce_ = false;
    flock_.step(dt);
  }

  // "formed-flock": a tight disc in the middle, everyone flying the same way, closer than the
  // separation radius: what separation alone then does is visible (the flock bursts apart).
  bool startState(const std::string& name) override {
    if (name.empty()) return true;
    if (name != "formed-flock") return false;
    const sim::BoidsParams& p = flock_.params;
    sim::Rng rng(seed ^ 0xF10CCull);
    const Vec2 center = flock_.world.center(), heading = rng.unitVec2();
    const float spacing = 0.8f * p.separationRadius;
    for (size_t i = 0; i < flock_.size(); ++i) {
      // Sunflower spiral (golden angle): points about `spacing` apart, evenly over a disc.
      const float r = 0.525f * spacing * std::sqrt(float(i)), a = float(i) * 2.39996323f;
      flock_.setAgent(i, center + r * Vec2(std::cos(a), std::sin(a)),
                      (heading + 0.1f * rng.unitVec2()) * (0.5f * (p.minSpeed + p.maxSpeed)));
    }
    updateMetrics();
    return true;
  }

  void sampleMetrics() override {
    if (++stepsSinceMetrics_ >= 10) updateMetrics();
  }

  void draw(render::AgentBatch& agents, render::DebugDraw& debug) override {
    using namespace render;
    agents.shape = AgentShape::Arrow2D;
    agents.instances.resize(flock_.size());
    const size_t hi = indexOf(highlighted_);
    if (s_.showRadii) flock_.probe(hi, probe_);
    if (s_.colorGroups) groupColors_.update<2>(flock_.positions(), flock_.ids(), flock_.world, flock_.groupLink);
    const Vec2 centre = flockCentre();
    for (size_t i = 0; i < flock_.size(); ++i) {
      Vec2 v = flock_.velocities()[i];
      float hue = std::atan2(v.y, v.x) / 6.2831853f;  // colour by heading: aligned groups share a colour
      const uint32_t color = s_.colorGroups ? groupColors_.colorOf(i) : hueColor(hue, 0.35f, 0.95f);
      agents.instances[i] = {glm::vec3(shown(flock_.positions()[i], centre), 0), glm::vec3(v, 0), 10.0f, 0.0f, color};
    }
    debug.rect({0, 0}, flock_.world.size, rgba(70, 76, 90));
    if (s_.showLinks) drawLinks(agents, debug, centre);
    if (!s_.showRadii || flock_.size() == 0) return;
    const Vec2 p = shown(flock_.positions()[hi], centre);
    for (uint32_t j : probe_.neighbors) {
      agents.instances[j].color = colors::yellow;
      debug.line(p, p + flock_.world.delta(p, flock_.positions()[j]), rgba(250, 210, 60, 110));
    }
    agents.instances[hi].color = colors::red;
    agents.instances[hi].scale = 14.0f;
    const sim::BoidsParams& bp = flock_.params;
    debug.circle(p, bp.perceptionRadius, rgba(255, 255, 255, 140));
    debug.circle(p, bp.separationRadius, rgba(255, 90, 80, 200));
    if (bp.separateRadii) {
      debug.circle(p, bp.alignmentRadius, rgba(80, 220, 100, 120));
      debug.circle(p, bp.cohesionRadius, rgba(70, 140, 255, 120));
    }
    const float len = 40.0f;
    debug.arrow(p, p + probe_.separation * bp.weights.separation * len, rgba(255, 90, 80));
    debug.arrow(p, p + probe_.alignment * bp.weights.alignment * len, colors::green);
    debug.arrow(p, p + probe_.cohesion * bp.weights.cohesion * len, colors::blue);
  }


  // The lede the panel shows; the rest behind its "More" and in the F1 help.
  static constexpr const char* kAbout = "Reynolds (1987): no leader, no plan. Each boid adds three rules over its neighbours: separation, alignment, cohesion. The weights decide what the crowd becomes.";
  static constexpr const char* kAboutMore =
           "Reynolds (1987): no leader and no plan. Each boid looks only at neighbours inside its perception "
           "radius and adds three unit vectors: separation (too close: move away), alignment (match their mean "
           "velocity) and cohesion (move towards their centre). The weights decide what the crowd becomes. "
           "Try each rule alone, then all three; turn on 'show radii' and click a boid to see what it sees. "
           "crowdlab's cohesion is a spring that fades near the centre, so flocks keep their spacing; "
           "'classic cohesion' is Reynolds' unit vector to the centre, full strength at any distance, and "
           "with it alone the crowd piles into tight balls (several: each boid sees only 50 units, so the "
           "article's one big ball needs one neighbourhood). Separation alone starts from a formed flock, so "
           "you see it burst. Groups: boids linked by 3 body lengths (30 units).";

  static constexpr scenes::KeyAction kKeys[] = {{"Click", "highlight the agent under the cursor, with its radii"}};

  // The selected agent is the highlighted one, shown with its radii.
  bool selectNextAgent() override {
    highlighted_ = s_.showRadii && flock_.size() ? (highlighted_ + 1) % uint32_t(flock_.size()) : 0;
    s_.showRadii = true;
    return true;
  }
  std::optional<glm::vec3> selectedAgent() const override {
    if (!s_.showRadii || flock_.size() == 0) return std::nullopt;
    return glm::vec3(shown(flock_.positions()[indexOf(highlighted_)], flockCentre()), 0.0f);
  }


  void paramsChanged() override {
    keepRadiiAndSpeedsConsistent();
    if (size_t(s_.count) != flock_.size()) flock_.resizeKeeping(size_t(s_.count), seed);
    if (highlighted_ >= flock_.size()) highlighted_ = 0;
  }

  // Sampled every 10 steps: the nearest-neighbour distance needs a search of its own.
  void metrics(std::vector<sim::Metric>& out) const override { metrics_.appendTo(out); }
  size_t agentCount() const override { return flock_.size(); }

 protected:
  // Each boid's line to its nearest (up to kLinks) within the group link, in its own colour, a little
  // see-through: the groups the metrics count, drawn as what holds them together.
  static constexpr int kLinks = 3;
  void drawLinks(const render::AgentBatch& agents, render::DebugDraw& debug, Vec2 centre) {
    const float reach = flock_.groupLink;
    linkGrid_.build(flock_.positions(), flock_.world, reach);
    const std::span<const Vec2> sorted = linkGrid_.sortedPositions();
    const std::span<const uint32_t> order = linkGrid_.order();
    for (uint32_t s = 0; s < linkGrid_.size(); ++s) {
      sim::nearestNeighbors(linkGrid_, s, sorted[s], kLinks, nearest_);
      const uint32_t i = order[s];
      const Vec2 p = shown(flock_.positions()[i], centre);
      const uint32_t color = render::withAlpha(agents.instances[i].color, 150);
      for (int n = 0; n < nearest_.count && nearest_.distSq[size_t(n)] <= reach * reach; ++n)
        debug.line(p, p + flock_.world.delta(flock_.positions()[i], flock_.positions()[order[nearest_.index[size_t(n)]]]), color);
    }
  }

  void keepRadiiAndSpeedsConsistent() {
    sim::BoidsParams& p = flock_.params;
    const sim::BoidsParams consistent = p.normalized();
    clampedSeparation_ = consistent.separationRadius != p.separationRadius;
    p = consistent;
  }

  // Where the flock's centre is on the torus (the circular mean along each axis), or the world's centre
  // when the view does not follow the flock.
  Vec2 flockCentre() const {
    const sim::World<2>& w = flock_.world;
    if (!s_.centreOnFlock || flock_.size() == 0) return w.center();
    Vec2 c(0.0f), s(0.0f);
    for (const Vec2& p : flock_.positions()) {
      const Vec2 a = (p - w.min) / w.size * 6.2831853f;
      c += Vec2(std::cos(a.x), std::cos(a.y));
      s += Vec2(std::sin(a.x), std::sin(a.y));
    }
    Vec2 a(std::atan2(s.x, c.x), std::atan2(s.y, c.y));
    return w.min + (a / 6.2831853f) * w.size;
  }
  // A position as drawn: moved across the wrap so the flock's centre sits in the middle of the world.
  Vec2 shown(const Vec2& p, const Vec2& centre) const {
    if (!s_.centreOnFlock) return p;
    return flock_.world.center() + flock_.world.delta(centre, p);
  }

  // Agents may be reordered (grid); the highlighted one is followed by its stable id.
  size_t indexOf(uint32_t id) const {
    if (id < flock_.size() && flock_.ids()[id] == id) return id;
    for (size_t i = 0; i < flock_.size(); ++i)
      if (flock_.ids()[i] == id) return i;
    return 0;
  }

  void updateMetrics() {
    stepsSinceMetrics_ = 0;
    metrics_.take(flock_);
    neighborsHistory_.push(float(metrics_["mean_neighbors"]));
    polarizationHistory_.push(float(metrics_["polarization"]));
    nearestHistory_.push(float(metrics_["mean_nn_distance"]));
  }

  SceneSettings s_{};
  sim::Flock<2> flock_;
  sim::Flock<2>::Probe probe_;
  uint32_t highlighted_ = 0;
  bool stepOnce_ = false, clampedSeparation_ = false;
  int stepsSinceMetrics_ = 0;
  scenes::MetricReading metrics_;  // sampled every 10 steps
  scenes::GroupColors groupColors_;
  sim::UniformGrid<2> linkGrid_;  // for the links only (the flock's own grid is the step's)
  sim::Nearest nearest_;
  scenes::PlotHistory neighborsHistory_, polarizationHistory_, nearestHistory_;
};

}  // namespace scenes::boids_playground
