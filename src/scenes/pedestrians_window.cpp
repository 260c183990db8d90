// The pedestrians scene's window side: its panel, with Weidmann's fundamental diagram and the bottleneck's flow.
#include <imgui.h>
#include "scenes/pedestrians.hpp"
#include "scenes/param_ui.hpp"
#include "scenes/scene_window.hpp"

namespace scenes::pedestrians {
namespace {

class PedestriansWindow final : public Pedestrians, public scenes::SceneUi {
 public:
  using Pedestrians::Pedestrians;

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
      scenes::plotHistory(flowHistory_, "##flow", 0, std::max(2.0f, float(sim::kBottleneckFlowHigh * p.doorWidth) * 1.3f), ImVec2(-1, 50));
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

 private:
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
      const Vec2 a = trace_[(traceHead_ - traceCount_ + k - 1 + 2 * kTraceSamples) % kTraceSamples];
      const Vec2 b = trace_[(traceHead_ - traceCount_ + k + 2 * kTraceSamples) % kTraceSamples];
      dl->AddLine(at(a.x, a.y), at(b.x, b.y), kNowColor, 1.0f);
    }
    if (traceCount_) {
      const Vec2 now = trace_[(traceHead_ - 1 + kTraceSamples) % kTraceSamples];
      dl->AddCircleFilled(at(now.x, now.y), 4.0f, kNowColor);
    }
    if (metrics_["density"] > 0)
      dl->AddCircleFilled(at(float(metrics_["density"]), float(metrics_["walking_speed"])), 6.0f, kMeanColor);
    ImGui::TextDisabled("speed (m/s) against density (persons/m^2)");
    scenes::legend({{"Weidmann", kCurveColor}, {"area now", kNowColor}, {"mean since the transient", kMeanColor}});
  }
};

[[maybe_unused]] bool registered = scenes::registerSceneWindow("pedestrians", &scenes::makeWindow<PedestriansWindow>);

}  // namespace
}  // namespace scenes::pedestrians
