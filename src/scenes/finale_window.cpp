// The finale's window side: its panel (obstacles, legend, a frame's time by phase, the crowd, the curves' editor).
#include <imgui.h>
#include "scenes/finale.hpp"
#include "scenes/param_ui.hpp"
#include "scenes/scene_window.hpp"

namespace scenes::finale {
namespace {

class FinaleWindow final : public Finale, public scenes::SceneUi {
 public:
  using Finale::Finale;

  void panel() override {
    const sim::FinaleParams& p = sim_.params;
    if (ImGui::Button("Drop obstacles")) {
      ++drops_;
      placed_ = sim_.dropObstacles(kDropCount, seed + 7919u * uint64_t(drops_));
    }
    scenes::sameLineIfFits("Clear obstacles");
    if (ImGui::Button("Clear obstacles")) {
      sim_.clearObstacles();
      placed_ = 0;
    }
    const std::string count = std::to_string(sim_.obstacles().size()) + " obstacles";
    scenes::sameLineIfFits(scenes::textWidth(count.c_str()));
    ImGui::TextDisabled("%s", count.c_str());
    if (placed_ >= 0 && placed_ < kDropCount && drops_ > 0)
      ImGui::TextColored(ImVec4(1, 0.8f, 0.3f, 1), "only %d fitted clear of the agents", placed_);
    ImGui::Text("tiers: ORCA %.0f   boids %.0f%s", metrics_["orca_tier"], metrics_["boids_tier"],
                p.orca && p.lod ? "" : "   (level of detail off)");
    ImGui::TextDisabled("move the cursor over the view: the crowd chases it");
    // What the colours mean, for the colouring chosen below (and the marks every colouring shares).
    if (s_.colorBy == 0) scenes::legend({{"in the open", densityColor(0.0f)}, {"in a crush", densityColor(1.0f)}});
    else if (s_.colorBy == 1) scenes::legend({{"ORCA tier", kOrcaTierColor}, {"boids tier", kBoidsTierColor}});
    else  // y grows downwards on screen
      scenes::legend({{"moving right", headingColor(0.0f)}, {"down", headingColor(0.25f)}, {"left", headingColor(0.5f)},
                      {"up", headingColor(0.75f)}});
    scenes::legend({{"target", kTargetColor}, {"selected (N, F follows)", kSelectedAgentColor}});

    scenes::sectionTitle("Where a frame's time goes (ms)");
    phaseBars();

    scenes::sectionTitle("Crowd");
    auto flagged = [](bool bad) { return bad ? ImVec4(1, 0.45f, 0.4f, 1) : ImGui::GetStyleColorVec4(ImGuiCol_Text); };
    const double overlaps = metrics_["overlaps_total"], inObstacle = metrics_["in_obstacle"], nanCount = metrics_["nan_count"];
    ImGui::TextColored(flagged(overlaps > 0), "overlapping pairs %.0f", overlaps);
    char inObstacles[48];
    std::snprintf(inObstacles, sizeof inObstacles, "in obstacles %.0f", inObstacle);
    scenes::sameLineIfFits(scenes::textWidth(inObstacles));
    ImGui::TextColored(flagged(inObstacle > 0), "%s", inObstacles);
    ImGui::Text("mean speed %.1f   mean neighbours %.1f   most %.0f", metrics_["mean_speed"], metrics_["mean_neighbors"],
                metrics_["max_neighbors"]);
    if (nanCount > 0) ImGui::TextColored(flagged(true), "non-finite agents %.0f (held in place)", nanCount);
    else ImGui::NewLine();  // its line kept: the controls below never jump
    if (p.orca) ImGui::TextDisabled("ORCA programs that needed the fallback: %.0f", metrics_["infeasible"]);
    const ImVec2 plotSize(ImGui::GetContentRegionAvail().x, 36);
    scenes::plotHistory(overlapHistory_, "##overlaps", 0, std::max(1.0f, overlapHistory_.max()) * 1.1f, plotSize, "overlapping pairs");
    scenes::plotHistory(neighborHistory_, "##neighbours", 0, std::max(1.0f, neighborHistory_.max()) * 1.1f, plotSize, "mean neighbours");

    ImGui::Text("arrived %.0f %%   mean arrival %.1f s", 100.0 * metrics_["arrived_share"], metrics_["mean_arrival_s"]);
    if (ImGui::CollapsingHeader("Density-aware weights",
                                p.weightMode == sim::WeightMode::Curves ? ImGuiTreeNodeFlags_DefaultOpen : 0)) {
      if (p.weightMode != sim::WeightMode::Curves) ImGui::TextDisabled("(set 'rule weights' to curves below to use them)");
      densityEditor();
    }
  }

 private:
  // One stacked bar, each phase's share in its colour, then the legend with the figures.
  void phaseBars() {
    double total = 0;
    for (double v : phases_.ms) total += v;
    const float width = ImGui::GetContentRegionAvail().x, height = ImGui::GetFrameHeight();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(origin, ImVec2(origin.x + width, origin.y + height), IM_COL32(40, 44, 52, 255));
    float x = origin.x;
    for (int i = 0; i < PhaseTimes::kCount; ++i) {
      const float w = total > 0 ? float(phases_.ms[size_t(i)] / total) * width : 0.0f;
      dl->AddRectFilled(ImVec2(x, origin.y), ImVec2(x + w, origin.y + height), PhaseTimes::kColors[i]);
      x += w;
    }
    ImGui::Dummy(ImVec2(width, height));
    // Two columns where the widest entry fits in half the width, else one: a narrow panel never overlaps them.
    char entries[PhaseTimes::kCount][64];
    float widest = 0.0f;
    for (int i = 0; i < PhaseTimes::kCount; ++i) {
      std::snprintf(entries[i], sizeof entries[i], "%s  %.2f", PhaseTimes::kNames[i], phases_.ms[size_t(i)]);
      widest = std::max(widest, scenes::textWidth(entries[i]));
    }
    const bool twoColumns = widest + ImGui::GetStyle().ItemSpacing.x <= width * 0.5f;
    for (int i = 0; i < PhaseTimes::kCount; ++i) {
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(PhaseTimes::kColors[i]), "%s", entries[i]);
      if (twoColumns && i % 2 == 0 && i + 1 < PhaseTimes::kCount) ImGui::SameLine(width * 0.5f);
    }
    const int threads = std::min(s_.threads, sim::hardwareThreads());
    ImGui::TextDisabled("step %.2f ms on %d thread%s, %zu agents", sim_.timings().stepMs, threads, threads == 1 ? "" : "s",
                        sim_.size());
  }

  // Three curves of weights against neighbour count, one slider per sample. They edit the declared
  // parameters (sep0.., ali0.., coh0..), which point into the simulation's density weights.
  void densityEditor() {
    struct EditedCurve {
      const char* name;
      Curve* values;
      ImVec4 color;
    };
    sim::DensityWeights& weights = sim_.params.density;
    const EditedCurve curves[3] = {{"separation", &weights.separation, ImVec4(1.0f, 0.45f, 0.35f, 1)},
                                   {"alignment", &weights.alignment, ImVec4(0.35f, 0.86f, 0.45f, 1)},
                                   {"cohesion", &weights.cohesion, ImVec4(0.4f, 0.6f, 1.0f, 1)}};
    const float step = weights.neighborsPerSample;
    const float slider = std::max(14.0f, (ImGui::GetContentRegionAvail().x - 90.0f) / float(kSamples) -
                                             ImGui::GetStyle().ItemSpacing.x);
    for (const EditedCurve& c : curves) {
      ImGui::PushID(c.name);
      ImGui::TextColored(c.color, "%s", c.name);
      for (int b = 0; b < kSamples; ++b) {
        if (b > 0) ImGui::SameLine();
        ImGui::PushID(b);
        ImGui::PushStyleColor(ImGuiCol_SliderGrab, c.color);
        ImGui::VSliderFloat("##w", ImVec2(slider, 60), &(*c.values)[size_t(b)], 0.0f, kCurveMax, "",
                                      ImGuiSliderFlags_AlwaysClamp);
        ImGui::PopStyleColor();
        if (ImGui::IsItemActive() || ImGui::IsItemHovered())
          ImGui::SetTooltip("%s weight %.2f at %.0f neighbours", c.name, (*c.values)[size_t(b)], float(b) * step);
        ImGui::PopID();
      }
      ImGui::PopID();
    }
    ImGui::TextDisabled("samples at 0, %.0f, %.0f ... %.0f+ neighbours (within the perception radius)", step, 2 * step,
                        float(kSamples - 1) * step);
    if (ImGui::SmallButton("Reset curves")) {
      const sim::DensityWeights defaults;
      weights.separation = defaults.separation;
      weights.alignment = defaults.alignment;
      weights.cohesion = defaults.cohesion;
    }
  }

};

[[maybe_unused]] bool registered = scenes::registerSceneWindow("finale", &scenes::makeWindow<FinaleWindow>);

}  // namespace
}  // namespace scenes::finale
