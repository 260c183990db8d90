// Scene 1 — Murmuration: starlings that each watch their k nearest neighbours (Ballerini et al. 2008),
// in 3D over a dusk sky, or in the plane as in the article; a falcon alarm shows fear spreading
// along the neighbour graph. The simulation side; its panel and input: murmuration_window.cpp.
#pragma once
#include <algorithm>
#include <cmath>
#include <string>
#include "render/color.hpp"
#include "scenes/boids_params.hpp"
#include "scenes/group_colors.hpp"
#include "scenes/plot_history.hpp"
#include "scenes/scene.hpp"
#include "sim/models/murmuration.hpp"

namespace scenes::murmuration {

using sim::Vec2;
using sim::Vec3;

// The scene's own settings; everything the flock reads is in sim::MurmurationParams.
struct SceneSettings {
  int count;
  float alarmEvery;  // seconds between automatic alarms, 0: only by hand
  bool planar;       // "2D (as in the article)"
  bool autoRotate;
  bool followFlock;
  bool showNeighbors;
  float birdSize;
  // Display options the experiments switch on (the claim shows in the picture, not only in the numbers).
  bool colorGroups;   // each fixed-link group in its own colour (chains, pairs, the falcon's split)
  bool showLinks;     // a line from every bird to each of its k nearest
  bool colorTurning;  // colour by how fast a bird turns: a wave is a band of turning birds travelling through the flock
  bool fitFlock;      // 2D: the view zooms to the flock's extent, so chains and parts are seen, not dots in the roost
  float flockZoom;    // with fitFlock: this many times closer than the whole flock (k = 1's pairs need it)
};

// Wing-beat phase from the bird's id: spread over the whole cycle so neighbours never flap in sync.
inline float wingPhase(uint32_t id) {
  float golden = float(id) * 0.61803398875f;
  return (golden - std::floor(golden)) * 6.2831853f;
}

constexpr uint32_t kBirdColor = render::rgba(34, 30, 40);         // dark against the dusk sky
constexpr uint32_t kBirdColor2D = render::rgba(205, 212, 228);    // light on the 2D background
// Startled birds stand out from the sky behind the flock (WCAG contrast >= 3, a window test checks):
// pale yellow on the dusk sky; red under the light theme, whose ink darkens it on a pale sky.
constexpr glm::vec3 kStartledTint{1.0f, 1.0f, 0.45f};
constexpr glm::vec3 kStartledTintLight{0.95f, 0.12f, 0.08f};
constexpr glm::vec3 kStartledTint2D{1.0f, 0.55f, 0.35f};
constexpr uint32_t kFalconColor = render::rgba(235, 45, 40);

inline uint32_t tinted(const glm::vec3& base, const glm::vec3& tint, float amount) {
  const glm::vec3 c = glm::mix(base, tint, amount);
  return render::rgbaf(c.x, c.y, c.z);
}

class MurmurationScene : public scenes::Scene {
 public:
  MurmurationScene(scenes::SceneContext& context, uint64_t seedValue) : Scene(context, seedValue) {
    const sim::MurmurationParams d{};
    sim::MurmurationParams& p = flock3_.params;  // the 2D flock takes a copy (shareParams)
    params_ = {
        scenes::Param::i("N", "birds (N)", &s_.count, 100, 50000, 2000, "Number of starlings", true).withUnit("birds").ofScene(),
        scenes::Param::i("k", "neighbours (k)", &p.k, 1, 30, d.k, "Each bird reacts to its k nearest neighbours, however far (topological)").withUnit("birds"),
        scenes::Param::e("neighbors", "neighbours by", &p.metric, "topological|metric", d.metric,
                         "topological: the k nearest; metric: every bird within the radius (for comparison)"),
        scenes::Param::f("radius", "metric radius (m)", &p.radius, 0.5f, 20, d.radius, "Metric mode: birds closer than this are neighbours").withUnit("m"),
    };
    scenes::addBoidsWeightParams(params_, p.weights, d.weights);
    params_.insert(params_.end(), {
        scenes::Param::f("sepDistance", "separation distance (m)", &p.separationDistance, 0.2f, 6, d.separationDistance, "Neighbours closer than this push away: about the flock's spacing"),
        scenes::Param::f("noise", "noise", &p.noise, 0, 3, d.noise, "Random steering per bird: what keeps the flock lively"),
        scenes::Param::f("speed", "speed (m/s)", &p.speed, 4, 25, d.speed, "Cruise speed; birds fly between 0.7x and 1.3x of it"),
        scenes::Param::f("roostRadius", "roost radius (m)", &p.roostRadius, 20, 500, d.roostRadius, "Past this distance from the roost a steering term turns birds back", true),
        scenes::Param::f("roostPull", "roost pull", &p.roostPull, 0, 2, d.roostPull, "Steady pull towards the roost centre: a hidden global cohesion (0: only the turn-back at the roost radius)"),
        scenes::Param::f("falconSeconds", "falcon seconds", &p.falconSeconds, 0.5f, 8, d.falconSeconds, "How long the falcon of an alarm stays"),
        scenes::Param::f("sight", "falcon sight (m)", &p.sightRadius, 1, 40, d.sightRadius, "Birds closer to the falcon than this see it and flee"),
        scenes::Param::f("reaction", "reaction delay (s)", &p.reactionDelay, 0, 0.5f, d.reactionDelay, "A startled bird alarms its neighbours after this: the wave's time per hop"),
        scenes::Param::f("fearSeconds", "fear seconds", &p.fearSeconds, 0.3f, 8, d.fearSeconds, "How long a startle lasts"),
        scenes::Param::f("quorum", "fear quorum", &p.fearQuorum, 0, 1, d.fearQuorum, "Share of its neighbours that must be alarmed before a bird startles (at least one)"),
        scenes::Param::f("groupLink", "group link (body lengths)", &p.groupLink, 1, 60, d.groupLink, "Metrics: birds closer than this many body lengths (0.5 m) are one group, whatever k is"),
        scenes::Param::f("alarmEvery", "alarm every (s)", &s_.alarmEvery, 0, 60, 0, "A falcon attacks by itself every this many seconds (0: only when asked)").ofScene(),
        scenes::Param::b("mode2D", "2D (as in the article)", &s_.planar, false, "The same rules in the plane, seen from above").ofScene(),
        scenes::Param::b("autoRotate", "auto-rotate", &s_.autoRotate, true, "3D: the camera circles slowly").ofScene(),
        scenes::Param::b("follow", "follow the flock", &s_.followFlock, true, "The camera keeps the flock's centre in view").ofScene(),
        scenes::Param::b("showNeighbors", "show one bird's neighbours", &s_.showNeighbors, false,
                         "Lines from one bird (magenta) to the neighbours it reacts to; in 2D click a bird to pick it").ofScene(),
        scenes::Param::f("birdSize", "bird size (drawn, m)", &s_.birdSize, 0.1f, 3, 0.8f,
                         "Drawn wingspan; real starlings span about 0.4 m, drawn larger to be seen from the back of a hall").ofScene(),
        scenes::Param::b("colorGroups", "colour by group", &s_.colorGroups, false,
                         "Each group (birds linked by the group link) in its own colour, kept from frame to frame").ofScene(),
        scenes::Param::b("showLinks", "links to the k nearest", &s_.showLinks, false,
                         "A line from every bird to each neighbour it reacts to: with k = 1 the chains and pairs").ofScene(),
        scenes::Param::b("colorTurning", "colour by turning", &s_.colorTurning, false,
                         "Birds turning fast glow: a wave is a band of turning birds that travels through the flock").ofScene(),
        scenes::Param::b("fitFlock", "zoom to the flock", &s_.fitFlock, false,
                         "2D: the view zooms to the flock's extent as it follows it (the whole roost otherwise)").ofScene(),
        scenes::Param::f("flockZoom", "closer than the flock", &s_.flockZoom, 1, 4, 1,
                         "With 'zoom to the flock': this many times closer, into the middle of the flock (pairs and chains "
                         "become visible as shapes)").ofScene(),
    });
    declareParams();
    about = kAbout;
    aboutMore = kAboutMore;
    keys = kKeys;
    view = scenes::View::ThreeD;  // reset() follows mode2D
  }

  ~MurmurationScene() override;  // murmuration.cpp: the class's vtable is built there once

  void reset() override {
    shareParams();
    planarNow_ = s_.planar;
    view = planarNow_ ? scenes::View::TwoD : scenes::View::ThreeD;
    sinceAlarm_ = 0.0f;
    simTime_ = 0.0f;
    falconDue_ = -1.0f;
    watched_ = 0;
    if (planarNow_) flock2_.spawn(size_t(s_.count), seed);
    else flock3_.spawn(size_t(s_.count), seed);
    groupColors_.clear();
    turnHeading_.clear();
    for (scenes::PlotHistory* h : {&polarizationHistory_, &groupsHistory_, &extentHistory_, &nearestHistory_, &startledHistory_}) h->clear();
    updateMetrics();
  }

  // "falcon": the flock flies undisturbed for kFalconDue seconds, then a falcon stoops through it.
  bool startState(const std::string& name) override {
    if (name.empty()) return true;
    if (name != "falcon") return false;
    falconDue_ = kFalconDue;
    return true;
  }

  void step(float dt) override {
    sinceAlarm_ += dt;
    simTime_ += dt;
    if (s_.alarmEvery > 0.0f && sinceAlarm_ >= s_.alarmEvery) alarm();
    if (falconDue_ >= 0.0f && simTime_ >= falconDue_) {
      falconDue_ = -1.0f;
      alarm();
    }
    if (planarNow_) flock2_.step(dt);
    else flock3_.step(dt);
    if (++stepsSinceMetrics_ >= 10) updateMetrics();
  }

  void draw(render::AgentBatch& agents, render::DebugDraw& debug) override {
    if (planarNow_) drawBirds(flock2_, agents, debug);
    else drawBirds(flock3_, agents, debug);
    moveCamera();
  }

  // The lede the panel shows; the rest behind its "More" and in the F1 help.
  static constexpr const char* kAbout = "Starlings react to their 6-7 nearest neighbours however far (topological, Ballerini 2008), so the flock holds together dense or sparse. Press A for a falcon.";
  static constexpr const char* kAboutMore =
           "Ballerini et al. (PNAS 2008) tracked starling flocks in 3D over Rome: each bird reacts to its 6-7 "
           "nearest neighbours, however far away they are (topological), not to every bird within some distance "
           "(metric), so the flock holds together whether it is dense or sparse. Alarm (key A) or Shift+click "
           "sends a falcon: the birds that see it dodge away from its line of flight, and the fear travels bird "
           "to bird along the neighbour links, one reaction delay per hop (startled birds turn pale yellow, red "
           "on the light theme). "
           "Measures: groups are birds linked by 10 body lengths (5 m), whatever k is. Liveliness is the "
           "velocity fluctuation of Cavagna et al. (PNAS 2010): each bird's velocity minus the flock's mean, "
           "RMS over the mean speed, i.e. how much the birds move inside the flock (a rigid body has none). "
           "What crowdlab finds (crowdlab claims): the article overstates the monolith: k = 30 keeps 20-100 % "
           "of k = 7's inner motion (about 60 % on average, depending on the seed), and the difference shows "
           "in the turns over the roost; in steady flight both settle into the same rigid flock. k = 1 falls into chains "
           "and pairs only once the roost's steady pull (a hidden global cohesion, 'roost pull') is off and "
           "the birds have room (2D, roost 500 m): with the pull on, 97 % stay in one body. The falcon (2D, "
           "as in the article) keeps the largest part below 70 % for about 9 s; 20-30 s later it holds "
           "80-95 % again. In 3D a stoop splits the flock in only some seeds: a thin sheet is holed more "
           "often than cut.";

  static constexpr scenes::KeyAction kKeys[] = {{"A", "alarm: a falcon dives into the flock"},
                                                {"Shift+click", "a falcon where you click"},
                                                {"Click (2D, neighbours shown)", "watch the bird under the cursor"}};

  // The selected bird is the watched one, with its neighbours shown.
  bool selectNextAgent() override {
    const size_t n = agentCount();
    watched_ = s_.showNeighbors && n ? (watched_ + 1) % uint32_t(n) : 0;
    s_.showNeighbors = true;
    return true;
  }
  std::optional<glm::vec3> selectedAgent() const override {
    if (!s_.showNeighbors) return std::nullopt;
    if (planarNow_) return positionOf(flock2_, watched_);
    return positionOf(flock3_, watched_);
  }

  void paramsChanged() override {
    shareParams();
    if (s_.planar != planarNow_) {
      reset();
      if (ctx) homeCamera(*ctx);
      return;
    }
    if (planarNow_ && size_t(s_.count) != flock2_.size()) flock2_.resizeKeeping(size_t(s_.count));
    if (!planarNow_ && size_t(s_.count) != flock3_.size()) flock3_.resizeKeeping(size_t(s_.count));
  }

  // Sampled every 10 steps: measuring builds its own neighbour graph.
  void metrics(std::vector<sim::Metric>& out) const override { metrics_.appendTo(out); }
  size_t agentCount() const override { return planarNow_ ? flock2_.size() : flock3_.size(); }

  void homeCamera(scenes::SceneContext& c) override {
    if (planarNow_) {
      const float r = flock3_.params.roostRadius * 1.15f;
      c.camera2D.fit(Vec2(-r), Vec2(r));
      return;
    }
    render::OrbitCamera& cam = c.camera3D;
    cam.target = flock3_.size() ? flock3_.centroid() : Vec3(0.0f);
    cam.yaw = 0.6f;
    cam.pitch = 0.3f;  // a little from above: the flock is a wide, thin sheet
    // Far enough that the flock (a ball about its extent wide, with room to swirl) fills the view's
    // narrower angle, so a wider or taller viewport frames it the same way the 2D scenes are fitted.
    const float radius = 0.4f * float(metrics_["extent"]) + 6.0f;
    const float aspect = cam.viewport.y > 0.0f ? cam.viewport.x / cam.viewport.y : 1.0f;
    const float halfAngle = std::min(0.5f * cam.fovY, std::atan(std::tan(0.5f * cam.fovY) * aspect));
    cam.distance = std::clamp(radius / std::sin(halfAngle), 30.0f, 600.0f);
  }

 protected:
  template <int D>
  static std::optional<glm::vec3> positionOf(const sim::Murmuration<D>& flock, uint32_t id) {
    const size_t i = size_t(std::find(flock.ids().begin(), flock.ids().end(), id) - flock.ids().begin());
    if (i >= flock.size()) return std::nullopt;
    glm::vec3 p(0.0f);
    for (int k = 0; k < D; ++k) p[k] = flock.positions()[i][k];
    return p;
  }

  // The declarations point into the 3D flock's parameters; the 2D flock flies by the same.
  void shareParams() { flock2_.params = flock3_.params; }

  void alarm() {
    sinceAlarm_ = 0.0f;
    if (planarNow_) flock2_.alarm();
    else flock3_.alarm();
  }

  void updateMetrics() {
    stepsSinceMetrics_ = 0;
    if (planarNow_) metrics_.take(flock2_);
    else metrics_.take(flock3_);
    polarizationHistory_.push(float(metrics_["polarization"]));
    groupsHistory_.push(float(metrics_["groups"]));
    extentHistory_.push(float(metrics_["extent"]));
    nearestHistory_.push(float(metrics_["mean_nn_distance"]));
    startledHistory_.push(float(metrics_["startled"]));
  }

  template <int D>
  void drawBirds(const sim::Murmuration<D>& flock, render::AgentBatch& agents, render::DebugDraw& debug) {
    const bool threeD = D == 3;
    agents.shape = threeD ? render::AgentShape::Bird3D : render::AgentShape::Arrow2D;
    agents.instances.resize(flock.size());
    const uint32_t base = threeD ? kBirdColor : kBirdColor2D;
    const glm::vec3 baseRgb = glm::vec3(render::unpackRgba(base));
    const glm::vec3 tint = !threeD ? kStartledTint2D : ctx && ctx->lightTheme ? kStartledTintLight : kStartledTint;
    // Arrows read smaller than birds; 2D ones at least 8 px long in a 720 p window at the default view.
    const float size = threeD ? s_.birdSize : s_.birdSize * 3.0f;
    const float fearSeconds = flock.params.fearSeconds;
    if (s_.colorGroups) {
      sim::World<D> open;
      open.boundary = sim::Boundary::Open;  // linkedGroups takes the birds' bounding box
      groupColors_.update<D>(flock.positions(), flock.ids(), open, flock.params.groupLink * sim::Murmuration<D>::kBodyLength);
    }
    if (s_.colorTurning) updateTurning(flock);
    for (size_t i = 0; i < flock.size(); ++i) {
      render::AgentInstance& a = agents.instances[i];
      a.position = glm::vec3(0.0f);
      a.heading = glm::vec3(0.0f);
      for (int k = 0; k < D; ++k) {
        a.position[k] = flock.positions()[i][k];
        a.heading[k] = flock.velocities()[i][k];
      }
      a.scale = size;
      // Startled birds beat their wings faster for a while.
      a.phase = wingPhase(flock.ids()[i]) + 9.0f * std::min(flock.fearAges()[i], fearSeconds);
      const float fear = flock.fear(i);
      // Full colour for most of the fright, a short fade at its end: a half-mixed colour can match the sky's brightness.
      a.color = fear > 0.0f ? tinted(baseRgb, tint, std::min(1.0f, 4.0f * fear)) : base;
      if (s_.colorGroups && fear <= 0.0f) a.color = groupColors_.colorOf(i);
      if (s_.colorTurning) a.color = turningColor(turnRate_[i]);
    }
    if (s_.showLinks && !flock.params.metric) drawLinks(flock, agents, debug);
    if constexpr (D == 2) debug.circle(Vec2(flock.roostCenter), flock.params.roostRadius, render::rgba(70, 76, 90));
    if (s_.showNeighbors) drawNeighbors(flock, agents, debug);
    const auto& f = flock.falcon();
    if (!f.active) return;
    glm::vec3 p(0.0f), v(0.0f);
    for (int k = 0; k < D; ++k) { p[k] = f.position[k]; v[k] = f.velocity[k]; }
    drawFalcon(debug, p, v, threeD);
  }

  // The watched bird in the selection's magenta (yellow is the startle colour) and lines to the birds
  // it reacts to: its k nearest, or all within the radius.
  template <int D>
  void drawNeighbors(const sim::Murmuration<D>& flock, render::AgentBatch& agents, render::DebugDraw& debug) const {
    const size_t me = size_t(std::find(flock.ids().begin(), flock.ids().end(), watched_) - flock.ids().begin());
    if (me >= flock.size()) return;
    auto point = [&](size_t i) {
      glm::vec3 p(0.0f);
      for (int k = 0; k < D; ++k) p[k] = flock.positions()[i][k];
      return p;
    };
    const glm::vec3 p = point(me);
    const uint32_t lineColor = render::rgba(255, 70, 200, 200);  // the selection's magenta, a little see-through
    if (flock.params.metric) {
      const float r2 = flock.params.radius * flock.params.radius;
      for (size_t j = 0; j < flock.size(); ++j) {
        const glm::vec3 d = point(j) - p;
        if (j != me && glm::dot(d, d) <= r2) debug.line(p, point(j), lineColor);
      }
      if constexpr (D == 2) debug.circle(Vec2(p), flock.params.radius, lineColor);
    } else {
      for (uint32_t j : flock.neighborsOf(me)) debug.line(p, point(j), lineColor);
    }
    agents.instances[me].color = kSelectedAgentColor;
    agents.instances[me].scale *= 1.8f;
  }

  // Every bird's links to the k birds it reacts to, in its own colour, a little see-through: with
  // k = 1 the chains and pairs are drawn as chains and pairs.
  template <int D>
  void drawLinks(const sim::Murmuration<D>& flock, const render::AgentBatch& agents, render::DebugDraw& debug) const {
    auto point = [&](size_t i) {
      glm::vec3 p(0.0f);
      for (int k = 0; k < D; ++k) p[k] = flock.positions()[i][k];
      return p;
    };
    for (size_t i = 0; i < flock.size(); ++i) {
      const uint32_t color = render::withAlpha(agents.instances[i].color, 150);
      for (uint32_t j : flock.neighborsOf(i)) debug.line(point(i), point(j), color);
    }
  }

  // How fast each bird turns: the angle between its heading now and a slow average of its recent
  // headings (about a third of a second), per simulated time, kept by id.
  template <int D>
  void updateTurning(const sim::Murmuration<D>& flock) {
    const double now = ctx ? ctx->simTime : 0.0;
    const float dt = float(std::clamp(now - turnTime_, 0.0, 0.2));
    turnTime_ = now;
    const float follow = 1.0f - std::exp(-dt / 0.3f);
    turnRate_.resize(flock.size());
    for (size_t i = 0; i < flock.size(); ++i) {
      const uint32_t id = flock.ids()[i];
      if (turnHeading_.size() <= id) turnHeading_.resize(size_t(id) + 1, glm::vec3(0.0f));
      glm::vec3 v(0.0f);
      for (int k = 0; k < D; ++k) v[k] = flock.velocities()[i][k];
      const float len = glm::length(v);
      const glm::vec3 h = len > 1e-5f ? v / len : glm::vec3(1, 0, 0);
      glm::vec3& slow = turnHeading_[id];
      if (glm::dot(slow, slow) < 0.5f) slow = h;  // a new bird
      turnRate_[i] = std::acos(std::clamp(glm::dot(slow, h), -1.0f, 1.0f));  // radians behind its recent heading
      slow = glm::normalize(glm::mix(slow, h, follow) + glm::vec3(1e-6f));
    }
  }
  // Calm birds stay dark (as the birds are against the dusk sky); a turn of 20 degrees or more glows pale yellow.
  static uint32_t turningColor(float radians) {
    const float t = std::clamp(radians / 0.35f, 0.0f, 1.0f);
    const glm::vec3 calm(0.1f, 0.09f, 0.14f), hot(1.0f, 0.97f, 0.6f);
    const glm::vec3 c = glm::mix(calm, hot, std::sqrt(t));
    return render::rgbaf(c.x, c.y, c.z);
  }

  // A red bird of lines, three metres across, with a short trail and its sight ring.
  void drawFalcon(render::DebugDraw& debug, const glm::vec3& p, const glm::vec3& v, bool threeD) const {
    const float len = threeD ? 3.0f : 4.0f;
    const glm::vec3 f = glm::length(v) > 1e-4f ? glm::normalize(v) : glm::vec3(1, 0, 0);
    const glm::vec3 up0 = threeD && std::abs(f.z) < 0.98f ? glm::vec3(0, 0, 1) : (threeD ? glm::vec3(0, 1, 0) : glm::vec3(0, 0, 1));
    const glm::vec3 left = glm::normalize(glm::cross(up0, f));
    const glm::vec3 nose = p + f * (0.5f * len), tail = p - f * (0.5f * len), root = p - f * (0.05f * len);
    const glm::vec3 wingL = p - f * (0.35f * len) + left * (0.75f * len), wingR = p - f * (0.35f * len) - left * (0.75f * len);
    for (const auto& [a, b] : {std::pair{tail, nose}, {nose, wingL}, {wingL, root}, {nose, wingR}, {wingR, root},
                               {tail, tail - f * (0.15f * len) + left * (0.15f * len)},
                               {tail, tail - f * (0.15f * len) - left * (0.15f * len)}})
      debug.line(a, b, kFalconColor);
    debug.line(p - v * 0.3f, tail, render::withAlpha(kFalconColor, 110));
    debug.circle(p, flock3_.params.sightRadius, render::withAlpha(kFalconColor, 90));
  }

  // Presentation only: the orbit camera circles slowly and keeps the flock in view.
  void moveCamera() {
    if (!ctx) return;
    const double now = ctx->realTime;
    const float dt = float(std::clamp(now - lastDrawTime_, 0.0, 0.1));
    lastDrawTime_ = now;
    if (planarNow_) {
      if (s_.followFlock && flock2_.size()) {
        const Vec2 c = flock2_.centroid();
        ctx->camera2D.center += (c - ctx->camera2D.center) * std::min(1.0f, dt * 1.5f);
      }
      if (s_.fitFlock && metrics_["extent"] > 0.0) {  // the extent is twice the RMS distance from the centre
        const glm::vec2 view = ctx->camera2D.viewport;
        const float want = s_.flockZoom * std::min(view.x, view.y) / std::max(float(metrics_["extent"]) * 2.6f, 20.0f);
        ctx->camera2D.zoom += (want - ctx->camera2D.zoom) * std::min(1.0f, dt * 1.5f);
      }
      return;
    }
    render::OrbitCamera& cam = ctx->camera3D;
    if (s_.autoRotate) cam.yaw += dt * 0.08f;
    if (s_.followFlock && flock3_.size()) cam.target += (flock3_.centroid() - cam.target) * std::min(1.0f, dt * 1.5f);
  }

  SceneSettings s_{};
  sim::Murmuration<3> flock3_;
  sim::Murmuration<2> flock2_;
  bool planarNow_ = false;
  int stepsSinceMetrics_ = 0;
  float sinceAlarm_ = 0.0f;
  float simTime_ = 0.0f;     // since reset
  float falconDue_ = -1.0f;  // the "falcon" start state's alarm time; < 0: none
  static constexpr float kFalconDue = 2.0f;
  uint32_t watched_ = 0;  // id of the bird whose neighbours are shown
  double lastDrawTime_ = 0.0;
  scenes::MetricReading metrics_;  // sampled every 10 steps
  scenes::GroupColors groupColors_;
  std::vector<glm::vec3> turnHeading_;  // colour by turning: each bird's slow heading, by id
  std::vector<float> turnRate_;         // this frame's turn, radians, by index
  double turnTime_ = 0.0;
  scenes::PlotHistory polarizationHistory_, groupsHistory_, extentHistory_, nearestHistory_, startledHistory_;
};

}  // namespace scenes::murmuration
