// Scene 5 — Steering playground: Reynolds' steering behaviours (seek, arrive, wander, flee, pursue,
// evade, obstacle avoidance, formations) on a small crowd, with draggable obstacles and a target.
// The simulation is sim::SteeringWorld; this file declares its parameters and draws it (the simulation
// side); its panel and input: steering_playground_window.cpp.
#pragma once
#include <algorithm>
#include <cmath>
#include <string>
#include "render/color.hpp"
#include "scenes/plot_history.hpp"
#include "scenes/scene.hpp"
#include "scenes/trails.hpp"
#include "sim/models/steering_world.hpp"

namespace scenes::steering_playground {

using sim::Vec2;

// What to draw on top of the agents; the behaviours themselves live in sim::SteeringParams.
struct DebugViews {
  bool velocities;  // desired vs actual velocity
  bool feelers;
  bool wanderCircles;
  bool slowingRadius;
  bool formationSlots;
  float trailSeconds;  // each agent's path over this many seconds (0: none): seek's orbits, arrive's stop
  bool frameTarget;    // Home frames the target and its surroundings, not the whole world: the orbits fill the view
};

constexpr float kVelocityArrowSeconds = 0.3f;  // a velocity arrow shows where the agent is in 0.3 s
constexpr uint32_t kTargetColor = render::colors::purple;
constexpr uint32_t kQuarryColor = render::rgba(255, 70, 150);  // apart from the orange of avoiding agents
constexpr uint32_t kObstacleColor = render::colors::red;
constexpr uint32_t kAvoidingColor = render::rgba(255, 120, 60);
constexpr uint32_t kActualColor = render::colors::green;
constexpr uint32_t kDesiredColor = render::colors::yellow;
constexpr uint32_t kSlotColor = render::colors::cyan;

class SteeringPlayground : public scenes::Scene {
 public:
  SteeringPlayground(scenes::SceneContext& context, uint64_t seedValue) : Scene(context, seedValue) {
    // Defaults and ranges are the core's (see SteeringParams), so the scene and the tests agree.
    const sim::SteeringParams d{};
    sim::SteeringParams& p = world_.params;
    using scenes::Param;
    params_ = {
        Param::i("N", "agents (N)", &p.agents, 1, sim::SteeringWorld::kMaxAgents, d.agents, "Number of agents", true).withUnit("agents"),
        Param::b("seek", "seek", &p.seek, d.seek, "Full speed towards the target (alone it overshoots and orbits)"),
        Param::b("arrive", "arrive", &p.arrive, d.arrive, "Slow down inside the slowing radius and stop on the target (replaces seek)"),
        Param::b("wander", "wander", &p.wander, d.wander, "Seek a point drifting on a circle ahead of the agent"),
        Param::b("avoid", "obstacle avoidance", &p.avoid, d.avoid, "A feeler ahead; steer sideways away from the first obstacle it crosses"),
        Param::b("flee", "flee", &p.flee, d.flee, "Full speed away from the target while closer than the flee radius"),
        Param::b("pursue", "pursue quarry", &p.pursue, d.pursue, "Seek the quarry's predicted position (the pink diamond)"),
        Param::b("evade", "evade quarry", &p.evade, d.evade, "Flee the quarry's predicted position while it is within the flee radius"),
        Param::b("formation", "formation", &p.formation, d.formation, "Agent 0 leads to the target; the others arrive at slots around it"),
        Param::e("shape", "formation shape", &p.shape, "line|wedge|column", d.shape, "Slots abreast, in a V behind, or single file"),
        Param::b("contain", "stay inside", &p.contain, d.contain, "Steer away from the world's edges before bouncing off them"),
        Param::b("separate", "separation", &p.separate, true, "Push away from other agents, so an arriving crowd does not stack on one point"),
        Param::f("maxSpeed", "max speed", &p.maxSpeed, 10, 500, d.maxSpeed, "Speed limit, units per second").withUnit("world units/s"),
        Param::f("maxForce", "max force", &p.maxForce, 10, 2000, d.maxForce, "Steering limit, units per second squared (low: wide turns)", true),
        Param::f("slowingRadius", "slowing radius", &p.slowingRadius, 1, 500, d.slowingRadius, "Arrive slows down linearly inside this distance"),
        Param::f("wanderRadius", "wander radius", &p.wanderRadius, 0, 200, d.wanderRadius, "Radius of the wander circle (how sharply it turns)"),
        Param::f("wanderDistance", "wander distance", &p.wanderDistance, 0, 300, d.wanderDistance, "How far ahead the wander circle sits"),
        Param::f("wanderJitter", "wander jitter", &p.wanderJitter, 0, 20, d.wanderJitter, "Spread of the wander angle after 1 s, radians"),
        Param::f("feelerLength", "feeler length", &p.feelerLength, 0, 400, d.feelerLength, "How far ahead avoidance looks at max speed"),
        Param::f("fleeRadius", "flee radius", &p.fleeRadius, 10, 1500, d.fleeRadius, "Panic distance of flee and evade"),
        Param::f("prediction", "max prediction", &p.maxPredictionTime, 0, 5, d.maxPredictionTime, "Pursue / evade look-ahead cap, seconds"),
        Param::f("spacing", "formation spacing", &p.formationSpacing, 10, 150, d.formationSpacing, "Distance between formation slots"),
        Param::f("agentRadius", "agent radius", &p.agentRadius, 1, 40, d.agentRadius, "Agents' size for avoidance and penetration counting"),
        Param::f("maxTurnRate", "max turn rate", &p.maxTurnRate, 0, 20, d.maxTurnRate, "Radians per second; 0 = unlimited (classic)"),
        Param::f("smoothing", "smoothing time", &p.smoothingTime, 0, 1, d.smoothingTime, "Steering closes each velocity gap over this time, a low-pass against jitter (seconds); 0 = in one step"),
        Param::f("quarrySpeed", "quarry speed", &p.quarrySpeed, 10, 500, d.quarrySpeed, "Top speed of the wandering quarry"),
        Param::f("containMargin", "edge margin", &p.containMargin, 0, 200, d.containMargin, "Stay-inside starts turning this far from an edge"),
        Param::f("wSeek", "seek weight", &p.wSeek, 0, 5, d.wSeek, "Weight of seek in the sum"),
        Param::f("wArrive", "arrive weight", &p.wArrive, 0, 5, d.wArrive, "Weight of arrive (also the formation leader's)"),
        Param::f("wWander", "wander weight", &p.wWander, 0, 5, d.wWander, "Weight of wander"),
        Param::f("wAvoid", "avoidance weight", &p.wAvoid, 0, 5, d.wAvoid, "Weight of obstacle avoidance (served first from max force)"),
        Param::f("wFlee", "flee weight", &p.wFlee, 0, 5, d.wFlee, "Weight of flee"),
        Param::f("wPursue", "pursue weight", &p.wPursue, 0, 5, d.wPursue, "Weight of pursue"),
        Param::f("wEvade", "evade weight", &p.wEvade, 0, 5, d.wEvade, "Weight of evade"),
        Param::f("wFormation", "formation weight", &p.wFormation, 0, 5, d.wFormation, "Weight of following a formation slot"),
        Param::f("wContain", "stay-inside weight", &p.wContain, 0, 5, d.wContain, "Weight of containment (served first from max force)"),
        Param::f("wSeparate", "separation weight", &p.wSeparate, 0, 5, d.wSeparate, "Weight of agent-agent separation"),
        Param::f("separationRadius", "separation radius", &p.separationRadius, 2, 200, d.separationRadius, "Agents closer than this push apart"),
        Param::b("showVelocity", "show desired vs actual", &views_.velocities, false, "Green: velocity; yellow: what the agent asked for").ofScene(),
        Param::b("showFeelers", "show feelers", &views_.feelers, true, "Avoidance feelers; orange while they touch an obstacle").ofScene(),
        Param::b("showWander", "show wander circles", &views_.wanderCircles, false, "Each wanderer's circle and the point it seeks").ofScene(),
        Param::b("showSlowing", "show slowing radius", &views_.slowingRadius, true, "The circle around the target where arrive slows down").ofScene(),
        Param::b("showSlots", "show formation slots", &views_.formationSlots, true, "Slots around the leader and who takes which").ofScene(),
        Param::f("trails", "trails (s)", &views_.trailSeconds, 0, 60, 0,
                 "Each agent's path over this many seconds, fading (0: none): seek's orbits, arrive's clean stop").ofScene(),
        Param::b("frameTarget", "frame the target", &views_.frameTarget, false,
                 "Home shows the target and a few slowing radii around it rather than the whole world: the orbits fill the view").ofScene(),
    };
    declareParams();
    about = kAbout;
    aboutMore = kAboutMore;
    keys = kKeys;
  }

  ~SteeringPlayground() override;  // steering_playground.cpp: the class's vtable is built there once

  void reset() override {
    paramsChanged();
    world_.reset(seed);
    drag_ = Drag::None;
    selected_.reset();
    trails_.clear();
    distanceHistory_.clear();
    speedHistory_.clear();
    stepsSinceHistory_ = 1000;
    recordHistory();
  }

  void step(float dt) override {
    world_.step(dt);
    if (++stepsSinceHistory_ >= 5) recordHistory();
  }

  void draw(render::AgentBatch& agents, render::DebugDraw& debug) override {
    using namespace render;
    const sim::SteeringParams& P = world_.params;
    debug.rect(world_.world.min, world_.world.max(), rgba(70, 76, 90));
    drawObstacles(debug);
    drawTarget(debug);
    if (P.pursue || P.evade) drawQuarry(debug);

    const auto pos = world_.positions();
    const auto vel = world_.velocities();
    const auto desired = world_.desiredVelocities();
    if (views_.trailSeconds > 0.0f) {
      trails_.record(pos, ctx ? ctx->simTime : 0.0, views_.trailSeconds);
      trails_.draw(debug, rgba(140, 215, 255, 235));  // bright: a path must read from the back of the room
    }
    const auto obstacles = world_.obstacles();
    agents.shape = AgentShape::Arrow2D;
    agents.instances.resize(world_.size());
    for (size_t i = 0; i < world_.size(); ++i) {
      const float maxSpeed = maxSpeedOf(i);
      const bool leader = P.formation && i == 0;
      // Whether the feeler touches an obstacle now: the same test avoidance makes.
      const bool threatened =
          sim::avoidObstacles(pos[i], vel[i], P.agentRadius, obstacles, P.feelerLength, maxSpeed).obstacle >= 0;
      const float speedFraction = std::clamp(std::sqrt(sim::lengthSq(vel[i])) / std::max(P.maxSpeed, 1e-3f), 0.0f, 1.0f);
      // Slow agents dim blue, fast ones near white: arrive's stop is visible as a colour change.
      uint32_t color = rgbaf(0.35f + 0.5f * speedFraction, 0.5f + 0.4f * speedFraction, 0.8f + 0.15f * speedFraction);
      if (P.avoid && threatened) color = kAvoidingColor;
      if (leader) color = colors::yellow;
      agents.instances[i] = {glm::vec3(pos[i], 0), glm::vec3(vel[i], 0), 2.4f * P.agentRadius * (leader ? 1.3f : 1.0f),
                             0.0f, color};

      if (views_.feelers) {
        const auto f = world_.feeler(i);
        debug.line(f.from, f.to, threatened ? withAlpha(kAvoidingColor, P.avoid ? 230 : 120) : rgba(150, 160, 180, 110));
      }
      if (views_.velocities) {
        debug.arrow(pos[i], pos[i] + vel[i] * kVelocityArrowSeconds, kActualColor);
        // The wish can be many times max speed (weighted sum before the force clamp): cap what is drawn.
        debug.arrow(pos[i], pos[i] + sim::clampLength(desired[i], 3.0f * maxSpeed) * kVelocityArrowSeconds,
                    kDesiredColor);
      }
      if (views_.wanderCircles && P.wander && !P.formation) {
        const sim::WanderGeometry g = world_.wanderOf(i);
        debug.line(pos[i], g.center, rgba(120, 200, 255, 70));
        debug.circle(g.center, g.radius, rgba(120, 200, 255, 120));
        debug.disk(g.point, 3.0f, rgba(120, 200, 255, 230));
      }
    }
    if (views_.formationSlots && P.formation) drawSlots(debug);
    if (selected_) markSelected(agents, debug, *selected_);
  }

  bool selectNextAgent() override {
    selected_ = world_.size() == 0 ? std::nullopt : std::optional<size_t>(selected_ ? (*selected_ + 1) % world_.size() : 0);
    return true;
  }
  std::optional<glm::vec3> selectedAgent() const override {
    if (!selected_ || *selected_ >= world_.size()) return std::nullopt;
    return glm::vec3(world_.positions()[*selected_], 0.0f);
  }

  // The lede the panel shows; the rest behind its "More" and in the F1 help.
  static constexpr const char* kAbout = "Reynolds (1999): each agent adds weighted steering forces, avoidance first. Left-click moves the target; drag obstacles; O drops one at the cursor.";
  static constexpr const char* kAboutMore =
           "Reynolds (1999): each agent adds weighted steering vectors (desired velocity minus its velocity) and "
           "spends a limited force on them, avoidance first. Left-click: move the target (purple cross); left-drag "
           "an obstacle to move it; right-click one to remove it; O drops one at the cursor. Try seek alone, then "
           "seek + arrive, then wander with and without avoidance while you drag the obstacles. Separation "
           "adds to the goal's desired velocity, so an arriving crowd packs around the target and stops "
           "(settled: inside the slowing radius, below 5 % of max speed). Smoothing makes each agent close its "
           "velocity gap over the smoothing time, which filters jitter without delaying the braking.";

  static constexpr scenes::KeyAction kKeys[] = {{"O", "an obstacle at the cursor"},
                                                {"Click / drag", "set and drag the target; drag an obstacle"},
                                                {"Right click", "remove the obstacle under the cursor"}};

  void paramsChanged() override {
    world_.syncAgentCount();  // the new N shows at once, even while paused
  }

  void metrics(std::vector<sim::Metric>& out) const override { world_.appendMetrics(out); }
  size_t agentCount() const override { return world_.size(); }

  void homeCamera(scenes::SceneContext& c) override {
    if (views_.frameTarget) {
      const Vec2 reach(std::max(1.2f * world_.params.slowingRadius, 100.0f));
      c.camera2D.fit(world_.target() - reach, world_.target() + reach);
      return;
    }
    c.camera2D.fit(world_.world.min, world_.world.max());
  }

 protected:
  enum class Drag { None, Obstacle, Target };

  float maxSpeedOf(size_t i) const {
    const sim::SteeringParams& P = world_.params;
    return P.formation && i == 0 ? P.maxSpeed * sim::SteeringWorld::kLeaderSpeedFactor : P.maxSpeed;
  }

  void drawObstacles(render::DebugDraw& debug) const {
    using namespace render;
    const int hovered = ctx && ctx->mouseInView ? world_.obstacleAt(ctx->mouseWorld) : -1;
    const auto obstacles = world_.obstacles();
    for (size_t k = 0; k < obstacles.size(); ++k) {
      const bool active = int(k) == hovered || (drag_ == Drag::Obstacle && k == dragged_);
      debug.disk(obstacles[k].center, obstacles[k].radius, withAlpha(kObstacleColor, active ? 150 : 100));
      debug.circle(obstacles[k].center, obstacles[k].radius, active ? rgba(255, 200, 190) : kObstacleColor);
    }
  }

  void drawTarget(render::DebugDraw& debug) const {
    const sim::SteeringParams& P = world_.params;
    const Vec2 t = world_.target();
    const float arm = 10.0f;
    debug.line(t - Vec2(arm, arm), t + Vec2(arm, arm), kTargetColor);
    debug.line(t - Vec2(arm, -arm), t + Vec2(arm, -arm), kTargetColor);
    if (views_.slowingRadius && (P.arrive || P.formation))
      debug.circle(t, P.slowingRadius, render::withAlpha(kTargetColor, 110));
  }

  // The quarry is not one of the agents: a diamond with its heading, drawn apart from the batch.
  void drawQuarry(render::DebugDraw& debug) const {
    const Vec2 q = world_.quarryPosition();
    const Vec2 h = sim::headingOf(world_.quarryVelocity(), Vec2{1.0f, 0.0f});
    const Vec2 side = sim::perpLeft(h);
    const float s = 1.6f * world_.params.agentRadius;
    debug.triangle(q + h * (1.6f * s), q + side * s, q - side * s, kQuarryColor);
    debug.triangle(q - h * s, q - side * s, q + side * s, kQuarryColor);
    // Pursuers sit on the quarry: two bright rings keep it visible under them.
    debug.circle(q, 2.2f * s, render::withAlpha(kQuarryColor, 230));
    debug.circle(q, 3.2f * s, render::withAlpha(kQuarryColor, 120));
    if (world_.params.evade) debug.circle(q, world_.params.fleeRadius, render::withAlpha(kQuarryColor, 60));
    if (views_.wanderCircles) {
      const sim::WanderGeometry g = world_.quarryWander();
      debug.circle(g.center, g.radius, render::withAlpha(kQuarryColor, 110));
      debug.disk(g.point, 3.0f, kQuarryColor);
    }
  }

  void drawSlots(render::DebugDraw& debug) const {
    const auto pos = world_.positions();
    for (size_t s = 0; s < world_.slotCount(); ++s) debug.circle(world_.slotPosition(s), 5.0f, kSlotColor);
    for (size_t a = 1; a < world_.size(); ++a) {
      const uint32_t s = world_.slotOf(a);
      if (s < world_.slotCount()) debug.line(pos[a], world_.slotPosition(s), render::withAlpha(kSlotColor, 90));
    }
    if (!pos.empty()) debug.circle(pos[0], 2.0f * world_.params.agentRadius, render::colors::yellow);
  }

  void recordHistory() {
    stepsSinceHistory_ = 0;
    metrics_.take(world_);
    distanceHistory_.push(float(metrics_["mean_distance_to_target"]));
    speedHistory_.push(float(metrics_["mean_speed"]));
  }

  sim::SteeringWorld world_;
  scenes::MetricReading metrics_;  // the panel's and the plots' latest reading
  DebugViews views_{};
  scenes::Trails trails_;
  Drag drag_ = Drag::None;
  std::optional<size_t> selected_;  // the N key's agent (follow camera: F); agents keep their index
  size_t dragged_ = 0;
  Vec2 grabOffset_{0.0f};
  int stepsSinceHistory_ = 0;
  scenes::PlotHistory distanceHistory_, speedHistory_;
};

}  // namespace scenes::steering_playground
