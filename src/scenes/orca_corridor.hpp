// Scene 4 — ORCA corridor: two rooms joined by a corridor, a group starting in each, walking through
// to the other room for ever. Compares separation only, ORCA-like and ORCA, with and without lanes,
// and shows one agent's ORCA program in velocity space (the inset).
// The simulation is sim::CorridorSim (y up, corridor centred on the origin); the 2D camera is y down,
// so everything is drawn at (x, -y) and clicks are flipped back.
// The simulation side; its panel, runs table, velocity-space inset and clicks: orca_corridor_window.cpp.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>
#include "render/color.hpp"
#include "scenes/overlap_marks.hpp"
#include "scenes/plot_history.hpp"
#include "scenes/scene.hpp"
#include "sim/models/corridor.hpp"

namespace scenes::orca_corridor {

using sim::Vec2;

// What to draw besides the agents; everything the simulation reads is in sim::CorridorParams.
struct DebugViews {
  bool showGuides, showTargets, trails, showVelocity, inset;
  bool showOverlaps;  // a ring around each body that overlaps another, a line joining each such pair
};

// One line of the runs table: the latest run of one configuration, so methods and widths compare
// as numbers side by side.
struct RunRow {
  int method;
  float width;
  bool lanes;
  int groupSize;
  double seconds;
  double rounds, crossed, throughput, overlaps, jammed, minDistanceRatio;  // the metrics of those names
};

constexpr int kTrailSamples = 60;      // positions kept per agent for the trails
constexpr int kTrailEverySteps = 5;    // one sample every 5 steps: 5 s of trail at 60 Hz
constexpr size_t kMaxRunRows = 16;
constexpr float kArrowSeconds = 0.5f;
constexpr float kActivePlaneTolerance = 0.01f;  // of max speed: the chosen velocity lies on the plane  // a velocity arrow shows where the agent is in 0.5 s

constexpr uint32_t kEastColor = render::rgba(80, 155, 255);   // group 0, starts left, walks east
constexpr uint32_t kWestColor = render::rgba(255, 145, 45);   // group 1, starts right, walks west
constexpr uint32_t kWallColor = render::rgba(215, 220, 230);
constexpr uint32_t kFloorColor = render::rgba(32, 36, 46);
constexpr uint32_t kGuideColor = render::rgba(250, 210, 60, 150);
constexpr uint32_t kYieldColor = render::rgba(255, 255, 255, 220);
constexpr uint32_t kSelectedColor = render::rgba(120, 255, 140);
// Velocity space (inset) colours; the world view uses the same for the selected agent.
constexpr uint32_t kAgentPlaneColor = render::rgba(255, 110, 90);
constexpr uint32_t kWallPlaneColor = render::rgba(90, 200, 255);
constexpr uint32_t kStepPlaneColor = render::rgba(220, 110, 255);
constexpr uint32_t kPreferredColor = render::colors::yellow;
constexpr uint32_t kChosenColor = render::rgba(110, 255, 130);
constexpr uint32_t kFeasibleColor = render::rgba(110, 255, 130, 70);

constexpr uint32_t kOverlapColor = render::rgba(255, 60, 60);  // bodies inside each other

inline uint32_t dimmed(uint32_t c, float f) {
  const glm::vec4 v = render::unpackRgba(c);
  return render::rgbaf(v.x * f, v.y * f, v.z * f, v.w);
}

class OrcaCorridor : public scenes::Scene {
 public:
  OrcaCorridor(scenes::SceneContext& context, uint64_t seedValue) : Scene(context, seedValue) {
    // Defaults are the core's (see CorridorParams), so the scene and the core's tests agree.
    const sim::CorridorParams d{};
    sim::CorridorParams& p = sim_.params();
    using scenes::Param;
    params_ = {
        Param::i("groupSize", "agents per side", &p.groupSize, 5, 200, d.groupSize, "Agents in each group (two groups)", true),
        Param::f("width", "corridor width", &p.widthDiameters, 1.5f, 10, d.widthDiameters, "In agent diameters; below 2 only one file fits").withUnit("agent diameters"),
        Param::f("length", "corridor length", &p.corridorLength, 50, 1500, d.corridorLength, "World units (an agent is 2 x radius wide)"),
        Param::e("method", "method", &p.method, "separation|orca-like|orca", d.method,
                 "separation: boids push apart when close; orca-like: sideways push before a predicted contact; orca: reciprocal velocity obstacles"),
        Param::b("lanes", "lanes (keep right)", &p.lanes, d.lanes, "Each direction keeps to its right-hand half; single file when narrow, yielding to the agent ahead"),
        Param::f("tau", "tau (agents)", &p.tau, 0.1f, 10, d.tau, "Time horizon against other agents, seconds: how early ORCA reacts").withUnit("s"),
        Param::f("tauObst", "tau (walls)", &p.tauObst, 0.05f, 5, d.tauObst, "Time horizon against walls, seconds"),
        Param::f("neighborDist", "neighbour distance", &p.neighborDist, 20, 500, d.neighborDist, "Agents farther than this are ignored"),
        Param::i("maxNeighbors", "max neighbours", &p.maxNeighbors, 1, sim::orca::kMaxNeighbors, d.maxNeighbors, "Only the closest ones become half-planes"),
        Param::f("radius", "agent radius", &p.radius, 3, 30, d.radius, "World units; the corridor width scales with it").withUnit("world units"),
        Param::f("maxSpeed", "max speed", &p.maxSpeed, 10, 300, d.maxSpeed, "Speed limit, units per second (the circle in the inset)").withUnit("world units/s"),
        Param::f("prefSpeed", "preferred speed", &p.preferredSpeed, 5, 300, d.preferredSpeed, "Walking speed when nothing is in the way (kept <= max speed)"),
        Param::b("showGuides", "show lane guides", &views_.showGuides, true, "The lane line along the centre and the funnel arms in the start rooms").ofScene(),
        Param::b("showTargets", "show lane targets", &views_.showTargets, false, "The point each agent steers for").ofScene(),
        Param::b("trails", "trails", &views_.trails, true, "The last 5 s of each agent's path: watch the lanes form").ofScene(),
        Param::b("showVelocity", "velocity arrows", &views_.showVelocity, false, "Where each agent will be in 0.5 s").ofScene(),
        Param::b("showOverlaps", "mark overlapping bodies", &views_.showOverlaps, false,
                 "A ring around each agent whose body overlaps another's and a line joining the pair: bodies passing through each other").ofScene(),
        Param::b("inset", "velocity-space inset", &views_.inset, false, "The selected agent's ORCA half-planes, feasible region and choice (click an agent)").ofScene(),
    };
    declareParams();
    about = kAbout;
    aboutMore = kAboutMore;
    keys = kKeys;
  }

  ~OrcaCorridor() override;  // orca_corridor.cpp: the class's vtable is built there once

  void reset() override {
    paramsChanged();
    restartSim();
  }

  void step(float dt) override {
    sim_.step(dt);
    metrics_.take(sim_);
    if (metrics_["rounds"] != trailRound_) clearTrails();  // everyone respawned: a trail would jump
    if (++stepsSinceTrail_ >= kTrailEverySteps) recordTrails();
    if (++stepsSinceHistory_ >= 10) recordHistory();
    recordRun();
  }

  void draw(render::AgentBatch& agents, render::DebugDraw& debug) override {
    using namespace render;
    const auto pos = sim_.positions();
    const auto vel = sim_.velocities();
    const auto groups = sim_.groups();
    const auto crossed = sim_.crossedFlags();
    const auto yielding = sim_.yielding();
    const float r = sim_.params().radius;

    drawFloorAndWalls(debug);
    if (views_.showGuides) drawGuides(debug);
    if (views_.trails) drawTrails(debug);

    agents.shape = AgentShape::Disk2D;
    agents.instances.resize(sim_.size());
    for (size_t i = 0; i < sim_.size(); ++i) {
      uint32_t color = groups[i] == 0 ? kEastColor : kWestColor;
      if (crossed[i]) color = dimmed(color, 0.55f);  // done for this round: out of the way, visually too
      agents.instances[i] = {glm::vec3(toView(pos[i]), 0), glm::vec3(toView(vel[i]), 0), 2.0f * r, 0.0f, color};
      // Yielding (waiting for the agent ahead to go first): a pause sign on the body. Lines, not
      // circles, so the agents stay the only instanced draw of their count.
      if (yielding[i]) {
        const Vec2 c = toView(pos[i]);
        for (float dx : {-0.22f * r, 0.22f * r}) debug.line(c + Vec2(dx, -0.45f * r), c + Vec2(dx, 0.45f * r), kYieldColor);
      }
      if (views_.showVelocity) debug.arrow(toView(pos[i]), toView(pos[i] + vel[i] * kArrowSeconds), withAlpha(color, 200));
      if (views_.showTargets) {
        const Vec2 t = sim_.laneTargets()[i];
        debug.line(toView(pos[i]), toView(t), withAlpha(color, 50));
        debug.line(toView(t) - Vec2(3, 0), toView(t) + Vec2(3, 0), withAlpha(color, 200));
        debug.line(toView(t) - Vec2(0, 3), toView(t) + Vec2(0, 3), withAlpha(color, 200));
      }
    }
    if (views_.showOverlaps) drawOverlaps(debug);
    drawSelected(agents, debug);
    drawStatusLine(debug);
  }

  void drawOverlaps(render::DebugDraw& debug) const {
    const auto pos = sim_.positions();
    const float r = sim_.params().radius;
    std::vector<Vec2> shown(pos.size());
    for (size_t i = 0; i < pos.size(); ++i) shown[i] = toView(pos[i]);
    const auto pairs = scenes::overlappingPairs(shown, r);
    // Just outside the body, so the disk drawn over it never hides the ring.
    scenes::ringOverlapping(debug, shown, 1.15f * r, pairs, kOverlapColor);
    for (const auto& [i, j] : pairs) debug.line(shown[i], shown[j], kOverlapColor);
  }

  // The lede the panel shows; the rest behind its "More" and in the F1 help.
  static constexpr const char* kAbout = "ORCA turns each neighbour into a half-plane of safe velocities; in a narrow corridor, groups meeting head-on lock up unless they keep to lanes.";
  static constexpr const char* kAboutMore =
           "ORCA (van den Berg, Guy, Lin, Manocha 2011) turns each neighbour into a half-plane of velocities that "
           "avoid contact for tau seconds. It is reciprocal: each of the pair takes half of the change and trusts "
           "the other with the rest. A small linear program picks the allowed velocity closest to the preferred one. "
           "But ORCA has no passing side: in a corridor a few bodies wide, groups meeting head-on wait for each "
           "other and lock up. crowdlab's lanes give each direction the right-hand half (the dashed centre line is a "
           "wall for agents on their side), sort the groups while still in the room, and make agents merging into "
           "one file yield to the one ahead (pause sign). Click an agent for its velocity space; compare runs in the table. "
           "The article's gradient (width 4 passes, 2.5 slows, 2 jams) appears only with lanes: plain ORCA "
           "jams already at width 4 (0 agents through), and the article's ORCA-like method passes at every "
           "width by walking through the others (tens of thousands of overlapping agent-steps). The experiment "
           "buttons run every method at widths 4, 2.5 and 2.";

  static constexpr scenes::KeyAction kKeys[] = {{"Click", "select the agent under the cursor (its velocity space in the inset)"}};

  bool selectNextAgent() override {
    selected_ = sim_.size() ? (selected_ + 1) % sim_.size() : 0;
    return true;
  }
  std::optional<glm::vec3> selectedAgent() const override {
    if (selected_ >= sim_.size()) return std::nullopt;
    return glm::vec3(toView(sim_.positions()[selected_]), 0.0f);
  }

  void paramsChanged() override {
    sim::CorridorParams& p = sim_.params();
    p.preferredSpeed = std::min(p.preferredSpeed, p.maxSpeed);  // above the limit it could never be reached
    p.seed = seed;
    if (p == runParams_) return;
    // Geometry, group size, method or ORCA parameters: the run so far means another experiment.
    const Vec2 oldExtent = worldExtent();
    restartSim();
    if (ctx && worldExtent() != oldExtent) homeCamera(*ctx);
  }

  void metrics(std::vector<sim::Metric>& out) const override { sim_.appendMetrics(out); }
  size_t agentCount() const override { return sim_.size(); }

  void homeCamera(scenes::SceneContext& c) override {
    // Both rooms across the view, below a line for the status (see drawStatusLine) and above the
    // inset's place at the bottom (see drawInset).
    render::Camera2D& cam = c.camera2D;
    const float statusStrip = 1.6f * emPoints();
    const float reserved = views_.inset ? insetSize(cam.viewport).y + 10.0f : 0.0f;
    const glm::vec2 free{cam.viewport.x, std::max(cam.viewport.y - reserved - statusStrip, 0.4f * cam.viewport.y)};
    const Vec2 extent = worldExtent() * 2.0f * 1.03f;
    cam.zoom = std::min(free.x / extent.x, free.y / extent.y);
    // The world's centre (the origin) at the centre of the part between the status line and the inset.
    const glm::vec2 freeCentre{0.5f * free.x, std::min(statusStrip, cam.viewport.y - free.y) + 0.5f * free.y};
    cam.center = -(freeCentre - cam.viewport * 0.5f) / cam.zoom;
  }

 protected:
  // The inset's size for a view of `viewport` window points: about 34 x 17 lines of text, at most
  // 60 % of the width and 42 % of the height.
  glm::vec2 insetSize(glm::vec2 viewport) const {
    const float em = emPoints();
    return {std::min(34.0f * em, 0.6f * viewport.x), std::min(17.0f * em, 0.42f * viewport.y)};
  }
  // The UI font's size in window points: 15 without a window (the window class reads its font).
  virtual float emPoints() const { return 15.0f; }

  // Half the size of everything there is to see (both rooms), around the origin.
  Vec2 worldExtent() const { return {sim_.halfLength() + sim_.roomDepth(), sim_.roomHalfHeight()}; }

  void restartSim() {
    sim_.reset();
    runParams_ = sim_.params();
    metrics_.take(sim_);
    // Select the first in line of the east-walking group: the one that meets the other group first.
    const auto pos = sim_.positions();
    const auto groups = sim_.groups();
    selected_ = 0;
    for (size_t i = 0; i < pos.size(); ++i)
      if (groups[i] == 0 && pos[i].x > pos[selected_].x) selected_ = i;
    clearTrails();
    stepsSinceTrail_ = 0;
    recordTrails();
    arrivedHistory_.clear();
    throughputHistory_.clear();
    maxThroughput_ = 0;
    stepsSinceHistory_ = 0;
    recordHistory();
  }

  // ---- trails ----
  void clearTrails() {
    trail_.assign(sim_.size() * kTrailSamples, Vec2{0.0f});
    trailHead_ = 0;
    trailCount_ = 0;
    trailRound_ = metrics_["rounds"];
  }

  void recordTrails() {
    stepsSinceTrail_ = 0;
    const auto pos = sim_.positions();
    for (size_t i = 0; i < pos.size(); ++i) trail_[i * kTrailSamples + size_t(trailHead_)] = pos[i];
    trailHead_ = (trailHead_ + 1) % kTrailSamples;
    trailCount_ = std::min(trailCount_ + 1, kTrailSamples);
  }

  void drawTrails(render::DebugDraw& debug) const {
    const auto groups = sim_.groups();
    for (size_t i = 0; i < sim_.size(); ++i) {
      const uint32_t base = groups[i] == 0 ? kEastColor : kWestColor;
      // Oldest to newest, fading in: the direction of travel reads from the trail alone.
      for (int k = 1; k < trailCount_; ++k) {
        const int a = (trailHead_ - trailCount_ + k - 1 + 2 * kTrailSamples) % kTrailSamples;
        const int b = (a + 1) % kTrailSamples;
        const uint8_t alpha = uint8_t(15 + 75 * k / kTrailSamples);
        debug.line(toView(trail_[i * kTrailSamples + size_t(a)]), toView(trail_[i * kTrailSamples + size_t(b)]),
                   render::withAlpha(base, alpha));
      }
    }
  }

  // ---- history and runs ----
  void recordHistory() {
    stepsSinceHistory_ = 0;
    arrivedHistory_.push(float(metrics_["arrived"]));
    throughputHistory_.push(float(metrics_["throughput_per_min"]));
    maxThroughput_ = std::max(maxThroughput_, float(metrics_["throughput_per_min"]));
  }

  void recordRun() {
    const sim::CorridorParams& p = sim_.params();
    const RunRow row{int(p.method), p.widthDiameters, p.lanes, p.groupSize, sim_.time(),
                     metrics_["rounds"], metrics_["crossed_total"], metrics_["throughput_per_min"], metrics_["overlaps_total"],
                     metrics_["jammed"], metrics_["min_distance_ratio"]};
    for (RunRow& r : runs_) {
      if (r.method == row.method && r.width == row.width && r.lanes == row.lanes && r.groupSize == row.groupSize) {
        r = row;  // the latest run of this configuration
        return;
      }
    }
    if (runs_.size() == kMaxRunRows) runs_.erase(runs_.begin());
    runs_.push_back(row);
  }

  // ---- world drawing ----
  void drawFloorAndWalls(render::DebugDraw& debug) const {
    const float hl = sim_.halfLength(), hw = sim_.halfWidth(), hh = sim_.roomHalfHeight();
    const float back = hl + sim_.roomDepth();
    if (!lightTheme()) {  // on the light theme the floor is the pale background itself, the walls outline it
      debug.filledRect({-back, -hh}, {-hl, hh}, kFloorColor);
      debug.filledRect({hl, -hh}, {back, hh}, kFloorColor);
      debug.filledRect({-hl, -hw}, {hl, hw}, kFloorColor);
    }
    for (const sim::orca::Segment& w : sim_.walls()) debug.line(toView(w.a), toView(w.b), kWallColor);
  }

  void drawGuides(render::DebugDraw& debug) const {
    // Dashed, so a guide never reads as a wall: it is one only for agents on its inner side.
    const float dash = 2.0f * sim_.params().radius;
    for (const sim::orca::Segment& g : sim_.laneGuides()) {
      const float len = glm::length(g.b - g.a);
      const Vec2 dir = sim::safeNormalize(g.b - g.a);
      for (float t = 0.0f; t < len; t += 2.0f * dash)
        debug.line(toView(g.a + dir * t), toView(g.a + dir * std::min(t + dash, len)), kGuideColor);
    }
  }

  void drawSelected(render::AgentBatch& agents, render::DebugDraw& debug) {
    if (selected_ >= sim_.size()) return;
    const float r = sim_.params().radius;
    const Vec2 p = sim_.positions()[selected_];
    agents.instances[selected_].color = kSelectedColor;
    debug.circle(toView(p), 1.7f * r, kSelectedColor);
    probeValid_ = sim_.params().method == sim::AvoidanceMethod::Orca;
    if (!probeValid_) return;
    sim_.probe(selected_, probe_);
    if (!views_.inset) return;
    // Who the half-planes come from, and the program's input and output, as in the inset.
    const auto pos = sim_.positions();
    for (uint32_t j : probe_.neighbors)
      if (j < pos.size()) debug.line(toView(p), toView(pos[j]), render::withAlpha(kAgentPlaneColor, 120));
    debug.arrow(toView(p), toView(p + probe_.preferred * kArrowSeconds), kPreferredColor);
    debug.arrow(toView(p), toView(p + probe_.chosen * kArrowSeconds), kChosenColor);
  }

  void drawStatusLine(render::DebugDraw& debug) const {
    const sim::CorridorParams& p = sim_.params();
    char text[160];
    std::snprintf(text, sizeof(text), "%s%s   width %.1f   round %.0f   crossed %.0f / %zu   jammed %.0f   overlaps %.0f",
                  sim::methodName(p.method), p.lanes ? " + lanes" : "", p.widthDiameters, metrics_["rounds"] + 1,
                  metrics_["arrived"], sim_.size(), metrics_["jammed"], metrics_["overlaps_total"]);
    const float top = sim_.roomHalfHeight() + 0.5f * sim_.params().radius;
    debug.statusLine(toView(Vec2{-sim_.halfLength() - sim_.roomDepth(), top}), text, render::rgba(220, 225, 235));
  }

  bool lightTheme() const { return ctx && ctx->lightTheme; }

  DebugViews views_{};
  sim::CorridorSim sim_;  // the declared parameters point into sim_.params()
  sim::CorridorParams runParams_;  // what the current run started with: a change starts another run
  scenes::MetricReading metrics_;  // after the last step
  size_t selected_ = 0;
  sim::orca::Probe probe_;
  bool probeValid_ = false;
  std::vector<Vec2> trail_;  // kTrailSamples per agent, a ring with a shared head
  int trailHead_ = 0, trailCount_ = 0, stepsSinceTrail_ = 0;
  double trailRound_ = 0;  // the "rounds" metric the trails were recorded in
  int stepsSinceHistory_ = 0;
  scenes::PlotHistory arrivedHistory_, throughputHistory_;
  float maxThroughput_ = 0;
  std::vector<RunRow> runs_;
};

}  // namespace scenes::orca_corridor
