// The ORCA corridor's window side: its panel (legend, this round, the runs table, the metrics), its
// velocity-space inset and its click.
#include <imgui.h>
#include "scenes/orca_corridor.hpp"
#include "scenes/param_ui.hpp"
#include "scenes/scene_window.hpp"

namespace scenes::orca_corridor {
namespace {

class OrcaCorridorWindow final : public OrcaCorridor, public scenes::SceneUi {
 public:
  using OrcaCorridor::OrcaCorridor;

  void panel() override {
    // The inset opened or closed (its parameter, its close button): Home makes or gives back its room
    // below the rooms, so it never lies over an agent; a view the user chose is left alone.
    if (views_.inset != insetFramed_ && ctx && !ctx->userView) homeCamera(*ctx);
    insetFramed_ = views_.inset;
    scenes::legend({{"walks east", kEastColor}, {"walks west", kWestColor}, {"crossed", dimmed(kEastColor, 0.55f)},
            {"yielding (pause sign)", kYieldColor}});
    scenes::legend({{"selected", kSelectedColor}, {"lane guides", kGuideColor}});
    ImGui::TextDisabled("Left-click an agent to select it.");

    scenes::sectionTitle("This round");
    const int total = int(sim_.size());
    char overlay[64];
    const double arrived = metrics_["arrived"];
    std::snprintf(overlay, sizeof(overlay), "round %.0f: %.0f / %d crossed", metrics_["rounds"] + 1, arrived, total);
    ImGui::ProgressBar(total ? float(arrived) / float(total) : 0.0f, ImVec2(-1, 0), overlay);
    ImGui::Text("rounds %.0f   jammed %.0f   time %.0f s", metrics_["rounds"], metrics_["jammed"], sim_.time());

    runsTable();

    scenes::sectionTitle("Metrics");
    ImGui::Text("arrived %.0f (this round)", arrived);
    scenes::plotHistory(arrivedHistory_, "##arrived", 0, float(std::max(total, 1)), ImVec2(-1, 36));
    ImGui::Text("throughput_per_min %.1f   crossed_total %.0f", metrics_["throughput_per_min"], metrics_["crossed_total"]);
    scenes::plotHistory(throughputHistory_, "##throughput", 0, std::max(10.0f, maxThroughput_ * 1.1f), ImVec2(-1, 36));
    ImGui::Text("mean_cross_time %.1f s", metrics_["mean_cross_time"]);
    const ImVec4 bad(1, 0.45f, 0.35f, 1), normal = ImGui::GetStyleColorVec4(ImGuiCol_Text);
    const double overlaps = metrics_["overlaps_total"], wallPenetrations = metrics_["wall_penetrations"];
    ImGui::TextColored(overlaps > 0 ? bad : normal, "overlaps_total %.0f   min_distance_ratio %.3f", overlaps,
                       std::min(metrics_["min_distance_ratio"], 1.0));
    ImGui::TextColored(wallPenetrations > 0 ? bad : normal, "wall_penetrations %.0f", wallPenetrations);

    if (views_.inset) drawInset();
  }

  bool onMouse(const scenes::MouseEvent& e) override {
    if (e.kind != scenes::MouseEvent::Down || e.button != 1) return false;
    // The agent under the click; small agents stay clickable within ~8 pixels.
    const Vec2 click = toView(e.world);
    const float zoom = ctx ? ctx->camera2D.zoom : 1.0f;
    const float reach = std::max(1.2f * sim_.params().radius, 8.0f / std::max(zoom, 1e-3f));
    float best = reach * reach;
    int found = -1;
    const auto pos = sim_.positions();
    for (size_t i = 0; i < pos.size(); ++i) {
      const float d2 = sim::lengthSq(pos[i] - click);
      if (d2 < best) { best = d2; found = int(i); }
    }
    if (found < 0) return false;
    selected_ = size_t(found);
    return true;
  }

 private:
  // The UI font's size in window points.
  float emPoints() const override {
    // Before the first frame GetFontSize() is still 0; the font's configured size is known already.
    float em = 15.0f;
    if (ImGui::GetCurrentContext()) {
      const ImGuiIO& io = ImGui::GetIO();
      if (ImGui::GetFontSize() > 0.0f) em = ImGui::GetFontSize();
      else if (io.Fonts->ConfigData.Size > 0) em = io.Fonts->ConfigData[0].SizePixels * io.FontGlobalScale;
    }
    return em;
  }

  void runsTable() {
    scenes::sectionTitle("Runs: the latest of each method x width x lanes x group size");
    if (runs_.empty()) return;
    const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
    if (ImGui::BeginTable("runs", 7, flags)) {
      for (const char* h : {"method", "width", "lanes", "rounds", "/min", "overlaps", "jammed"}) ImGui::TableSetupColumn(h);
      ImGui::TableHeadersRow();
      for (const RunRow& r : runs_) {
        const bool live = r.method == int(sim_.params().method) && r.width == sim_.params().widthDiameters &&
                          r.lanes == sim_.params().lanes && r.groupSize == sim_.params().groupSize;
        ImGui::TableNextRow();
        if (live) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, IM_COL32(60, 90, 60, 160));
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(sim::methodName(sim::AvoidanceMethod(r.method)));
        scenes::panelTooltip("%d per side, %.0f s simulated, %.0f crossings, closest pair %.3f of contact", r.groupSize,
                            r.seconds, r.crossed, std::min(r.minDistanceRatio, 1.0));
        ImGui::TableNextColumn();
        ImGui::Text("%.1f", r.width);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(r.lanes ? "on" : "off");
        ImGui::TableNextColumn();
        ImGui::Text("%.0f", r.rounds);
        ImGui::TableNextColumn();
        ImGui::Text("%.0f", r.throughput);
        ImGui::TableNextColumn();
        if (r.overlaps > 0) ImGui::TextColored(ImVec4(1, 0.45f, 0.35f, 1), "%.0f", r.overlaps);
        else ImGui::TextUnformatted("0");
        ImGui::TableNextColumn();
        if (r.jammed > 0) ImGui::TextColored(ImVec4(1, 0.45f, 0.35f, 1), "%.0f", r.jammed);
        else ImGui::TextUnformatted("0");
      }
      ImGui::EndTable();
    }
    if (ImGui::SmallButton("Clear table")) runs_.clear();
    scenes::sameLineIfFits(scenes::textWidth("(green: running now; hover for details)"));
    ImGui::TextDisabled("(green: running now; hover for details)");
  }

  // ---- the velocity-space inset ----
  void drawInset() {
    // At the bottom centre of the world's view, below the rooms (see homeCamera), so it covers no
    // agent and no panel's button; placed again when the view changes, otherwise where the user dragged it.
    const glm::vec2 origin = ctx ? ctx->viewOrigin : glm::vec2(0.0f);
    const glm::vec2 view = ctx ? ctx->camera2D.viewport : glm::vec2(ImGui::GetIO().DisplaySize.x, ImGui::GetIO().DisplaySize.y);
    const glm::vec2 size = insetSize(view);
    const glm::vec4 placedFor(origin, view);
    const ImGuiCond place = placedFor != insetPlacedFor_ ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
    insetPlacedFor_ = placedFor;
    ImGui::SetNextWindowPos(ImVec2(origin.x + 0.5f * (view.x - size.x), origin.y + view.y - size.y - 10.0f), place);
    ImGui::SetNextWindowSize(ImVec2(size.x, size.y), place);
    ImGui::SetNextWindowBgAlpha(0.92f);
    if (ImGui::Begin("Velocity space of the selected agent###orca-corridor-inset", &views_.inset, ImGuiWindowFlags_NoScrollbar)) {
      if (!probeValid_ || selected_ >= sim_.size()) {
        ImGui::TextWrapped("The inset shows ORCA's linear program; the method now is %s. Switch the method to orca "
                           "to see the half-planes.", sim::methodName(sim_.params().method));
      } else {
        const ImVec2 avail = ImGui::GetContentRegionAvail();
        const float side = std::max(60.0f, std::min(avail.y, avail.x * 0.5f));
        velocityCanvas(side);
        ImGui::SameLine();
        ImGui::BeginGroup();
        insetLegend();
        ImGui::EndGroup();
      }
    }
    ImGui::End();
  }

  // The inset's colours: as designed on its dark canvas, or for the light one (lines 3.5:1, text 4.5:1).
  ImU32 insetInk(uint32_t c) const { return lightTheme() ? render::inkOnLight(c, 0.18f) : c; }
  ImVec4 insetText(uint32_t c) const { return ImGui::ColorConvertU32ToFloat4(lightTheme() ? render::inkOnLight(c, 0.12f) : c); }

  void velocityCanvas(float side) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 lo = ImGui::GetCursorScreenPos();
    const ImVec2 hi(lo.x + side, lo.y + side);
    ImGui::InvisibleButton("##velocity", ImVec2(side, side));
    dl->AddRectFilled(lo, hi, lightTheme() ? IM_COL32(250, 250, 252, 255) : IM_COL32(14, 16, 22, 255));
    dl->PushClipRect(lo, hi, true);
    const ImVec2 o(0.5f * (lo.x + hi.x), 0.5f * (lo.y + hi.y));
    const float vmax = sim_.params().maxSpeed;
    const float scale = 0.5f * side * 0.85f / std::max(vmax, 1e-3f);  // the max-speed circle fills most of it
    auto at = [&](Vec2 v) { return ImVec2(o.x + v.x * scale, o.y - v.y * scale); };  // velocity y up
    const ImU32 axis = lightTheme() ? IM_COL32(0, 0, 0, 40) : IM_COL32(255, 255, 255, 30);
    dl->AddLine(ImVec2(lo.x, o.y), ImVec2(hi.x, o.y), axis);
    dl->AddLine(ImVec2(o.x, lo.y), ImVec2(o.x, hi.y), axis);

    // Each half-plane: its boundary line and a band on the permitted side. The planes the chosen
    // velocity lies on (those that decided it) bright, the others faint.
    const float far = 4.0f * side / scale;
    for (const sim::orca::HalfPlane& h : probe_.planes) {
      const uint32_t color = h.kind == sim::orca::PlaneKind::Agent  ? kAgentPlaneColor
                             : h.kind == sim::orca::PlaneKind::Wall ? kWallPlaneColor
                                                                    : kStepPlaneColor;
      const bool active = std::fabs(h.signedDistance(probe_.chosen)) < kActivePlaneTolerance * vmax;
      const float band = (active ? 9.0f : 5.0f) / scale;
      const Vec2 d = h.direction(), a = h.point - d * far, b = h.point + d * far;
      const ImVec2 quad[4] = {at(a), at(b), at(b + h.normal * band), at(a + h.normal * band)};
      dl->AddConvexPolyFilled(quad, 4, render::withAlpha(insetInk(color), active ? 90 : 35));
      dl->AddLine(at(a), at(b), render::withAlpha(insetInk(color), active ? 255 : 120), active ? 2.0f : 1.0f);
    }

    // The feasible region (what every half-plane and the speed limit allow).
    if (probe_.region.size() >= 3) {
      std::vector<ImVec2> poly;
      for (const Vec2& v : probe_.region) poly.push_back(at(v));
      dl->AddConvexPolyFilled(poly.data(), int(poly.size()), insetInk(kFeasibleColor));
      dl->AddPolyline(poly.data(), int(poly.size()), render::withAlpha(insetInk(kChosenColor), 200), ImDrawFlags_Closed, 1.5f);
    }
    dl->AddCircle(o, vmax * scale, insetInk(IM_COL32(235, 235, 240, 200)), 64, 1.5f);

    // Preferred last and thinner: when nothing is in the way the two coincide and both stay visible.
    arrow(dl, o, at(probe_.chosen), insetInk(kChosenColor), 3.0f);
    arrow(dl, o, at(probe_.preferred), insetInk(kPreferredColor), 1.5f);
    const Vec2 current = sim_.velocities()[selected_];
    dl->AddCircleFilled(at(current), 3.0f, insetInk(IM_COL32(255, 255, 255, 220)));
    dl->PopClipRect();
    dl->AddRect(lo, hi, IM_COL32(120, 125, 140, 255));
  }

  static void arrow(ImDrawList* dl, ImVec2 from, ImVec2 to, uint32_t color, float thickness) {
    const float dx = to.x - from.x, dy = to.y - from.y, len = std::sqrt(dx * dx + dy * dy);
    if (len < 1.0f) {
      dl->AddCircleFilled(to, 3.0f, color);
      return;
    }
    const float ux = dx / len, uy = dy / len, head = std::min(6.0f + 2.0f * thickness, 0.4f * len);
    const ImVec2 base(to.x - ux * head, to.y - uy * head);
    dl->AddLine(from, base, color, thickness);
    dl->AddTriangleFilled(to, ImVec2(base.x - uy * head * 0.5f, base.y + ux * head * 0.5f),
                          ImVec2(base.x + uy * head * 0.5f, base.y - ux * head * 0.5f), color);
  }

  void insetLegend() const {
    int agentPlanes = 0, wallPlanes = 0, stepPlanes = 0;
    for (const sim::orca::HalfPlane& h : probe_.planes) {
      agentPlanes += h.kind == sim::orca::PlaneKind::Agent;
      wallPlanes += h.kind == sim::orca::PlaneKind::Wall;
      stepPlanes += h.kind == sim::orca::PlaneKind::Step;
    }
    ImGui::Text("agent #%zu, walks %s", selected_, sim_.groups()[selected_] == 0 ? "east" : "west");
    auto colored = [this](uint32_t c, const char* fmt, int n) { ImGui::TextColored(insetText(c), fmt, n); };
    int active = 0;
    for (const sim::orca::HalfPlane& h : probe_.planes)
      active += std::fabs(h.signedDistance(probe_.chosen)) < kActivePlaneTolerance * sim_.params().maxSpeed;
    colored(kAgentPlaneColor, "neighbours (tau): %d planes", agentPlanes);
    colored(kWallPlaneColor, "walls, lane line: %d planes", wallPlanes);
    if (stepPlanes) colored(kStepPlaneColor, "one-step, hard: %d planes", stepPlanes);
    ImGui::TextDisabled("band: the permitted side");
    ImGui::Text("%d bright: they bind the choice", active);
    ImGui::TextColored(insetText(kChosenColor), "feasible region, chosen");
    ImGui::TextColored(insetText(kPreferredColor), "preferred velocity");
    ImGui::TextDisabled("circle: max speed; dot: current");
    const float pref = glm::length(probe_.preferred), chosen = glm::length(probe_.chosen);
    ImGui::Text("|pref| %.0f  |chosen| %.0f", pref, chosen);
    if (probe_.feasible) {
      ImGui::TextWrapped("Feasible: the closest safe velocity to the preferred one.");
    } else {
      ImGui::TextColored(insetText(render::rgba(255, 153, 77)), "Infeasible: fallback");
      ImGui::TextWrapped("walls kept, largest violation of a neighbour plane %.1f minimised.", probe_.maxViolation);
    }
  }

  bool insetFramed_ = false;  // whether Home last made room for the inset
  glm::vec4 insetPlacedFor_{-1.0f};  // the world view (origin, size) the inset was last placed for
};

[[maybe_unused]] bool registered = scenes::registerSceneWindow("orca-corridor", &scenes::makeWindow<OrcaCorridorWindow>);

}  // namespace
}  // namespace scenes::orca_corridor
