// Scene 8 — Pedestrians: the corridor in metres and seconds, measured against pedestrian
// experiments. A periodic corridor at a set density (speed against Weidmann's fundamental diagram),
// a room emptying through a door (flow against the experiments' 1.6-2.2 persons per metre per
// second), and counter-flow (lanes, measured). Methods: separation, ORCA, ORCA + lanes and the
// social force model. The simulation is sim::PedestrianSim (y up); the 2D camera is y down, so
// everything is drawn at (x, -y).
#include <imgui.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include "render/color.hpp"
#include "scenes/param_ui.hpp"
#include "scenes/plot_history.hpp"
#include "scenes/scene.hpp"
#include "sim/models/pedestrians.hpp"

namespace {

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

Vec2 toView(Vec2 p) { return {p.x, -p.y}; }

class Pedestrians final : public scenes::Scene {
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
    trace_[traceHead_] = ImVec2(float(metrics_["density_now"]), float(metrics_["speed_now"]));
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

  void panel() override {
    const sim::PedestrianParams& p = sim_.params();
    scenes::legend({{"walks east", kEastColor}, {"walks west", kWestColor}, {"measurement area", kAreaEdgeColor}});
    if (p.setup == sim::PedSetup::Bottleneck) {
      scenes::sectionTitle("Bottleneck flow");
      ImGui::Text("out %.0f of %d   time %.1f s", metrics_["exited"], p.people, sim_.time());
      ImGui::Text("flow %.2f /s   specific flow %.2f /(m s)", metrics_["flow"], metrics_["specific_flow"]);
      ImGui::TextDisabled("experiments: %.1f-%.1f /(m s), so %.2f-%.2f /s at this door", sim::kBottleneckFlowLow,
                          sim::kBottleneckFlowHigh, sim::kBottleneckFlowLow * p.doorWidth, sim::kBottleneckFlowHigh * p.doorWidth);
      if (metrics_["evacuation_time"] > 0) ImGui::Text("everyone out after %.1f s", metrics_["evacuation_time"]);
      ImGui::Text("flow over the last 2 s (persons/s)");
      flowHistory_.plot("##flow", 0, std::max(2.0f, float(sim::kBottleneckFlowHigh * p.doorWidth) * 1.3f), ImVec2(-1, 50));
      return;
    }
    scenes::sectionTitle("Fundamental diagram (Weidmann 1993)");
    fundamentalDiagram();
    ImGui::Text("density %.2f /m^2   speed %.2f m/s", metrics_["density"], metrics_["walking_speed"]);
    ImGui::Text("Weidmann %.2f m/s: off by %.0f %%", metrics_["weidmann_speed"], 100.0 * metrics_["weidmann_error"]);
    ImGui::Text("specific flow %.2f /(m s)   touching %.0f %%", metrics_["specific_flow"], 100.0 * metrics_["overlap_share"]);
    if (sim_.time() < p.warmup) ImGui::TextDisabled("transient: the measurement opens at %.0f s", double(p.warmup));
    if (p.setup == sim::PedSetup::CounterFlow)
      ImGui::Text("lane order %.2f (0 mixed, 1 lanes)   lanes %.1f", metrics_["lane_order"], metrics_["lanes"]);
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

 private:
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

  // Weidmann's curve, the running mean (the claim's number) and the live point with its recent path.
  void fundamentalDiagram() {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float w = std::max(120.0f, ImGui::GetContentRegionAvail().x), h = 0.6f * w;
    const ImVec2 lo = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("##diagram", ImVec2(w, h));
    const float pad = 34.0f;
    const ImVec2 o(lo.x + pad, lo.y + h - 20.0f);
    const float pw = w - pad - 8.0f, ph = h - 28.0f;
    constexpr float kMaxDensity = 5.5f, kMaxSpeed = 1.6f;
    auto at = [&](float rho, float v) {
      return ImVec2(o.x + pw * std::clamp(rho / kMaxDensity, 0.0f, 1.0f), o.y - ph * std::clamp(v / kMaxSpeed, 0.0f, 1.0f));
    };
    dl->AddRectFilled(ImVec2(o.x, o.y - ph), ImVec2(o.x + pw, o.y), lightTheme() ? IM_COL32(250, 250, 252, 255) : IM_COL32(14, 16, 22, 255));
    const ImU32 grid = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    for (int k = 0; k <= 5; ++k) {
      dl->AddLine(at(float(k), 0), at(float(k), kMaxSpeed), (grid & 0x00FFFFFFu) | 0x40000000u);
      char t[16];
      std::snprintf(t, sizeof t, "%d", k);
      dl->AddText(ImVec2(at(float(k), 0).x - 3, o.y + 2), grid, t);
    }
    for (float v : {0.5f, 1.0f, 1.5f}) {
      dl->AddLine(at(0, v), at(kMaxDensity, v), (grid & 0x00FFFFFFu) | 0x40000000u);
      char t[16];
      std::snprintf(t, sizeof t, "%.1f", double(v));
      dl->AddText(ImVec2(lo.x + 2, at(0, v).y - 7), grid, t);
    }
    ImVec2 curve[64];
    for (int k = 0; k < 64; ++k) {
      const float rho = 0.15f + (5.4f - 0.15f) * float(k) / 63.0f;
      curve[k] = at(rho, float(sim::weidmannSpeed(rho)));
    }
    dl->AddPolyline(curve, 64, lightTheme() ? render::inkOnLight(kCurveColor, 0.2f) : kCurveColor, 0, 2.0f);
    for (int k = 1; k < traceCount_; ++k) {
      const ImVec2 a = trace_[(traceHead_ - traceCount_ + k - 1 + 2 * kTraceSamples) % kTraceSamples];
      const ImVec2 b = trace_[(traceHead_ - traceCount_ + k + 2 * kTraceSamples) % kTraceSamples];
      dl->AddLine(at(a.x, a.y), at(b.x, b.y), kNowColor, 1.0f);
    }
    if (traceCount_) {
      const ImVec2 now = trace_[(traceHead_ - 1 + kTraceSamples) % kTraceSamples];
      dl->AddCircleFilled(at(now.x, now.y), 4.0f, kNowColor);
    }
    if (metrics_["density"] > 0)
      dl->AddCircleFilled(at(float(metrics_["density"]), float(metrics_["walking_speed"])), 6.0f, kMeanColor);
    ImGui::TextDisabled("speed (m/s) against density (persons/m^2)");
    scenes::legend({{"Weidmann", kCurveColor}, {"area now", kNowColor}, {"mean since the transient", kMeanColor}});
  }

  sim::PedestrianSim sim_;
  sim::PedestrianParams runParams_;
  scenes::MetricReading metrics_;
  ImVec2 trace_[kTraceSamples] = {};
  int traceHead_ = 0, traceCount_ = 0, stepsSinceHistory_ = 0;
  scenes::PlotHistory flowHistory_;
};

std::unique_ptr<scenes::Scene> create(scenes::SceneContext& context, uint64_t seed) {
  return std::make_unique<Pedestrians>(context, seed);
}
[[maybe_unused]] bool registered = scenes::registerScene({"pedestrians", "Pedestrians (SI units)", 8, &create});

}  // namespace
