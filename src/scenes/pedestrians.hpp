// Scene 8 — Pedestrians: the corridor in metres and seconds, measured against pedestrian
// experiments. A periodic corridor at a set density (speed against Weidmann's fundamental diagram),
// a room emptying through a door (flow against the experiments' 1.6-2.2 persons per metre per
// second), and counter-flow (lanes, measured). Methods: separation, ORCA, ORCA + lanes and the
// social force model. The simulation is sim::PedestrianSim (y up); the 2D camera is y down, so
// everything is drawn at (x, -y).
// The simulation side; its panel (with the fundamental diagram): pedestrians_window.cpp.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdio>
#include "render/color.hpp"
#include "scenes/plot_history.hpp"
#include "scenes/scene.hpp"
#include "sim/models/pedestrians.hpp"

namespace scenes::pedestrians {

using sim::Vec2;

constexpr uint32_t kEastColor = render::rgba(80, 155, 255);
constexpr uint32_t kWestColor = render::rgba(255, 145, 45);
constexpr uint32_t kWallColor = render::rgba(215, 220, 230);
constexpr uint32_t kFloorColor = render::rgba(32, 36, 46);
constexpr uint32_t kAreaColor = render::rgba(250, 210, 60, 60);
constexpr uint32_t kAreaEdgeColor = render::rgba(250, 210, 60, 200);
constexpr uint32_t kCurveColor = render::rgba(230, 230, 235);
constexpr uint32_t kNowColor = render::rgba(120, 200, 255, 160);
constexpr uint32_t kMeanColor = render::rgba(255, 110, 90);
constexpr int kTraceSamples = 120;  // the live point's recent path on the diagram

class Pedestrians : public scenes::Scene {
 public:
  Pedestrians(scenes::SceneContext& context, uint64_t seedValue) : Scene(context, seedValue) {
    const sim::PedestrianParams d{};
    sim::PedestrianParams& p = sim_.params();
    using scenes::Param;
    params_ = {
        Param::e("setup", "set-up", &p.setup, "corridor|bottleneck|counter-flow", d.setup,
                 "corridor: periodic, one direction, at a set density; bottleneck: a room empties through a door; counter-flow: half walk each way"),
        Param::e("method", "method", &p.method, "separation|orca|orca-lanes|social-force", d.method,
                 "separation: boids push apart; orca: reciprocal velocity obstacles; orca-lanes: plus keep right; social-force: Helbing's forces"),
        Param::f("density", "density (persons/m^2)", &p.density, 0.1f, 5.0f, d.density, "Corridor set-ups: people per square metre"),
        Param::f("length", "corridor length (m)", &p.corridorLength, 8, 60, d.corridorLength, "Periodic: who walks out east comes in west"),
        Param::f("width", "corridor width (m)", &p.corridorWidth, 1.5f, 10, d.corridorWidth, "Wall to wall").withUnit("m"),
        Param::i("people", "people (bottleneck)", &p.people, 10, 500, d.people, "People in the room at the start"),
        Param::f("doorWidth", "door width (m)", &p.doorWidth, 0.5f, 3.0f, d.doorWidth, "The bottleneck's opening").withUnit("m"),
        Param::f("radius", "body radius (m)", &p.radius, 0.15f, 0.3f, d.radius, "Every body's radius").withUnit("m"),
        Param::f("meanSpeed", "preferred speed (m/s)", &p.meanSpeed, 0.5f, 2.0f, d.meanSpeed, "Mean of the preferred speeds (Weidmann: 1.34)"),
        Param::f("speedSpread", "speed spread (m/s)", &p.speedSpread, 0.0f, 0.5f, d.speedSpread, "Standard deviation of the preferred speeds"),
        Param::f("warmup", "transient (s)", &p.warmup, 0.0f, 30.0f, d.warmup, "The measurement opens after this"),
        Param::f("tau", "ORCA tau (s)", &p.orcaTau, 0.2f, 5.0f, d.orcaTau, "ORCA's time horizon against other agents").withUnit("s"),
        Param::i("substeps", "SFM substeps", &p.substeps, 1, 8, d.substeps, "Social force: integration steps per step (contact forces are stiff)"),
        Param::f("sfmA", "SFM A (N)", &p.social.A, 100, 5000, d.social.A, "Strength of the repulsion between bodies"),
        Param::f("sfmB", "SFM B (m)", &p.social.B, 0.02f, 0.5f, d.social.B, "Range of the repulsion"),
        Param::f("sfmTau", "SFM tau (s)", &p.social.tau, 0.1f, 2.0f, d.social.tau, "Relaxation time of the driving term"),
        Param::f("sfmLambda", "SFM lambda", &p.social.lambda, 0.0f, 1.0f, d.social.lambda, "Weight of the repulsion from behind (1: isotropic, Helbing 2000)"),
    };
    declareParams();
    about = kAbout;
    aboutMore = kAboutMore;
  }

  ~Pedestrians() override;  // pedestrians.cpp: the class's vtable is built there once

  static constexpr const char* kAbout =
      "Do these rules move like people? Walking speed against density (Weidmann) and the flow through a door, "
      "measured as the experiments did.";
  static constexpr const char* kAboutMore =
      "Pedestrian dynamics answers with two measurements: the fundamental diagram (walking speed against density, "
      "Weidmann 1993: 1.06 m/s at 1 person/m^2, 0.61 at 2, 0.33 at 3) and the flow through a bottleneck (it grows "
      "linearly with the door's width, about 1.6-2.2 persons per metre per second). Here the corridor runs in metres "
      "and seconds, measured as the experiments did: speed and density in the yellow measurement area after a "
      "transient. The panel draws Weidmann's curve and the live crowd's point on it. Compare the social force model "
      "(Helbing), ORCA and plain separation; in counter-flow, watch whether lanes form without a lanes rule.";

  void reset() override {
    paramsChanged();
    restartSim();
  }

  void step(float dt) override {
    sim_.step(dt);
    metrics_.take(sim_);
    trace_[traceHead_] = Vec2(float(metrics_["density_now"]), float(metrics_["speed_now"]));
    traceHead_ = (traceHead_ + 1) % kTraceSamples;
    traceCount_ = std::min(traceCount_ + 1, kTraceSamples);
    if (++stepsSinceHistory_ >= 10) {
      stepsSinceHistory_ = 0;
      flowHistory_.push(float(metrics_["flow_now"]));
    }
  }

  void draw(render::AgentBatch& agents, render::DebugDraw& debug) override {
    using namespace render;
    const auto pos = sim_.positions();
    const auto vel = sim_.velocities();
    const auto dir = sim_.directions();
    const float r = sim_.params().radius;
    drawFloorAndWalls(debug);
    agents.shape = AgentShape::Disk2D;
    agents.instances.resize(pos.size());
    for (size_t i = 0; i < pos.size(); ++i) {
      const uint32_t color = dir[i] < 0 ? kWestColor : kEastColor;
      agents.instances[i] = {glm::vec3(toView(pos[i]), 0), glm::vec3(toView(vel[i]), 0), 2.0f * r, 0.0f, color};
    }
    char text[200];
    const sim::PedestrianParams& p = sim_.params();
    if (p.setup == sim::PedSetup::Bottleneck)
      std::snprintf(text, sizeof text, "%s   door %.2f m   out %.0f / %d   flow %.2f /s   specific %.2f /(m s)",
                    sim::pedMethodName(p.method), p.doorWidth, metrics_["exited"], p.people, metrics_["flow"],
                    metrics_["specific_flow"]);
    else
      std::snprintf(text, sizeof text, "%s   density %.2f /m^2   speed %.2f m/s (Weidmann %.2f)%s", sim::pedMethodName(p.method),
                    metrics_["density"], metrics_["walking_speed"], metrics_["weidmann_speed"],
                    p.setup == sim::PedSetup::CounterFlow ? "   lanes measured in the panel" : "");
    if (p.setup == sim::PedSetup::Bottleneck) drawFlowChart(debug);
    const Vec2 corner = p.setup == sim::PedSetup::Bottleneck ? Vec2{-sim_.roomDepth(), sim_.roomHalfHeight() + 0.3f}
                                                             : Vec2{-sim_.halfLength(), sim_.halfWidth() + 0.3f};
    debug.statusLine(toView(corner), text, render::rgba(220, 225, 235));
  }


  void metrics(std::vector<sim::Metric>& out) const override { sim_.appendMetrics(out); }
  size_t agentCount() const override { return sim_.size(); }

  void paramsChanged() override {
    sim_.params().seed = seed;
    if (sim_.params() == runParams_) return;
    restartSim();
    if (ctx) homeCamera(*ctx);
  }

  void homeCamera(scenes::SceneContext& c) override {
    if (sim_.periodic())
      c.camera2D.fit({-sim_.halfLength() - 0.5f, -sim_.halfWidth() - 1.0f}, {sim_.halfLength() + 0.5f, sim_.halfWidth() + 0.6f});
    else
      c.camera2D.fit({-sim_.roomDepth() - 0.5f, -sim_.roomHalfHeight() - 1.0f},
                     {kChartLeft + kChartWidth + 0.8f, sim_.roomHalfHeight() + 0.6f});
  }

 protected:
  // The bottleneck's chart, right of the door: the specific flow through it in 5 s bins against the
  // experiments' band. The walkers leave the room as they pass, so at a claim's verdict the room is
  // empty; the chart is what shows the claim then.
  static constexpr float kChartLeft = 1.8f, kChartWidth = 8.0f;  // m, east of the door
  static constexpr double kChartTop = 4.0;                         // persons/(m s) at the room's top
  static constexpr double kChartBin = 5.0;                         // s
  void drawFlowChart(render::DebugDraw& debug) const {
    const float hh = sim_.roomHalfHeight();
    const double door = std::max(0.1, double(sim_.params().doorWidth));
    // Time runs on after the last walker is out (a claim's window is fixed): the axis ends with the evacuation.
    const double evacuated = metrics_["evacuation_time"];
    const double span = std::max(30.0, std::ceil((evacuated > 0 ? evacuated + 1.0 : sim_.time()) / 10.0) * 10.0);
    const int bins = int(span / kChartBin);
    const auto y = [&](double flow) { return float(-hh + 2.0 * hh * std::min(flow, kChartTop) / kChartTop); };
    const float x0 = kChartLeft, x1 = kChartLeft + kChartWidth, barWidth = kChartWidth / float(bins);
    debug.filledRect(toView({x0, y(sim::kBottleneckFlowHigh)}), toView({x1, y(sim::kBottleneckFlowLow)}), kAreaColor);
    // The exit times come in order: each bin's count is a run of them.
    const auto exits = sim_.exitTimes();
    size_t next = 0;
    for (int b = 0; b < bins; ++b) {
      int count = 0;
      for (; next < exits.size() && (exits[next] < (b + 1) * kChartBin || b == bins - 1); ++next) ++count;
      if (count > 0)
        debug.filledRect(toView({x0 + float(b) * barWidth + 0.05f * barWidth, y(count / kChartBin / door)}),
                         toView({x0 + float(b + 1) * barWidth - 0.05f * barWidth, y(0)}), kEastColor);
    }
    debug.line(toView({x0, y(0)}), toView({x1, y(0)}), kWallColor);
    debug.line(toView({x0, y(0)}), toView({x0, y(kChartTop)}), kWallColor);
    char label[96];
    for (double f : {0.0, 2.0, 4.0}) {
      std::snprintf(label, sizeof label, "%.0f", f);
      debug.text(toView({x0 - 0.45f, y(f) + 0.2f}), label, kWallColor);
    }
    std::snprintf(label, sizeof label, "%.0f s", span);
    debug.text(toView({x1 - 0.6f, y(0) - 0.15f}), label, kWallColor);
    debug.text(toView({x0, y(0) - 0.15f}), "through the door, persons/(m s) every 5 s", kWallColor);  // below: the status line runs above
    debug.textAbove(toView({x0 + 0.1f, y(sim::kBottleneckFlowHigh) + 0.05f}), "experiments 1.6-2.2", kAreaEdgeColor);
  }

  void restartSim() {
    sim_.reset();
    runParams_ = sim_.params();
    metrics_.take(sim_);
    traceHead_ = traceCount_ = 0;
    flowHistory_.clear();
    stepsSinceHistory_ = 0;
  }

  bool lightTheme() const { return ctx && ctx->lightTheme; }

  void drawFloorAndWalls(render::DebugDraw& debug) const {
    if (sim_.periodic()) {
      const float hl = sim_.halfLength(), hw = sim_.halfWidth();
      if (!lightTheme()) debug.filledRect(toView({-hl, hw}), toView({hl, -hw}), kFloorColor);
      const float a = sim::PedestrianSim::kAreaHalfLength;
      debug.filledRect(toView({-a, hw}), toView({a, -hw}), kAreaColor);
      for (float x : {-a, a}) debug.line(toView({x, hw}), toView({x, -hw}), kAreaEdgeColor);
      for (float y : {hw, -hw}) debug.line(toView({-hl, y}), toView({hl, y}), kWallColor);
      return;
    }
    const float d = sim_.roomDepth(), hh = sim_.roomHalfHeight();
    if (!lightTheme()) debug.filledRect(toView({-d, hh}), toView({0, -hh}), kFloorColor);
    for (const sim::orca::Segment& w : sim_.walls()) debug.line(toView(w.a), toView(w.b), kWallColor);
  }

  sim::PedestrianSim sim_;
  sim::PedestrianParams runParams_;
  scenes::MetricReading metrics_;
  Vec2 trace_[kTraceSamples] = {};
  int traceHead_ = 0, traceCount_ = 0, stepsSinceHistory_ = 0;
  scenes::PlotHistory flowHistory_;
};

}  // namespace scenes::pedestrians
