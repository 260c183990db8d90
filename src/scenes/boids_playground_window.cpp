// The boids playground's window side: its panel (freeze, step, the flock's plots) and its click.
#include <imgui.h>
#include "scenes/boids_playground.hpp"
#include "scenes/param_ui.hpp"
#include "scenes/scene_window.hpp"

namespace scenes::boids_playground {
namespace {

class BoidsWindow final : public BoidsPlayground, public scenes::SceneUi {
 public:
  using BoidsPlayground::BoidsPlayground;

  void panel() override {
    if (ImGui::Button(s_.frozen ? "Resume" : "Freeze")) s_.frozen = !s_.frozen;
    scenes::sameLineIfFits("Step");
    if (ImGui::Button("Step")) { s_.frozen = true; stepOnce_ = true; }
    scenes::sameLineIfFits(scenes::checkboxWidth("show radii"));
    ImGui::Checkbox("show radii", &s_.showRadii);
    if (s_.showRadii) {
      ImGui::TextColored(ImVec4(1.0f, 0.35f, 0.3f, 1), "separation");
      scenes::sameLineIfFits(scenes::textWidth("alignment"));
      ImGui::TextColored(ImVec4(0.3f, 0.86f, 0.4f, 1), "alignment");
      scenes::sameLineIfFits(scenes::textWidth("cohesion"));
      ImGui::TextColored(ImVec4(0.3f, 0.55f, 1.0f, 1), "cohesion");
      scenes::sameLineIfFits(scenes::textWidth("(click an agent to follow it)"));
      ImGui::TextDisabled("(click an agent to follow it)");
    }
    // Its line is kept when empty: the controls below never jump when it comes and goes.
    const uint32_t warn = render::rgba(255, 204, 77);
    if (clampedSeparation_)
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(ctx && ctx->lightTheme ? render::inkOnLight(warn, 0.12f) : warn),
                         "separation radius kept below perception");
    else ImGui::NewLine();
    scenes::sectionTitle("Flock");
    ImGui::Text("mean neighbours %.2f", metrics_["mean_neighbors"]);
    scenes::plotHistory(neighborsHistory_, "##nb", 0, 30, ImVec2(0, 40));
    ImGui::Text("polarisation %.3f  (0 disorder, 1 parade)", metrics_["polarization"]);
    scenes::plotHistory(polarizationHistory_, "##pol", 0, 1, ImVec2(0, 40));
    ImGui::TextWrapped("groups %.0f  (largest holds %.0f%%; links <= 3 body lengths)", metrics_["groups"],
                metrics_["largest_group_share"] * 100.0);
    ImGui::Text("mean nearest-neighbour distance %.1f", metrics_["mean_nn_distance"]);
    scenes::plotHistory(nearestHistory_, "##nn", 0, 60, ImVec2(0, 40));
  }

  bool onMouse(const scenes::MouseEvent& e) override {
    if (e.kind != scenes::MouseEvent::Down || e.button != 1) return false;
    // Select the agent nearest the click (within a few pixels' reach).
    float best = 20.0f * 20.0f;
    int found = -1;
    const Vec2 centre = flockCentre();
    for (size_t i = 0; i < flock_.size(); ++i) {
      Vec2 d = flock_.world.delta(e.world, shown(flock_.positions()[i], centre));
      float d2 = glm::dot(d, d);
      if (d2 < best) { best = d2; found = int(i); }
    }
    if (found < 0) return false;
    highlighted_ = flock_.ids()[size_t(found)];
    s_.showRadii = true;
    return true;
  }
};

[[maybe_unused]] bool registered = scenes::registerSceneWindow("boids", &scenes::makeWindow<BoidsWindow>);

}  // namespace
}  // namespace scenes::boids_playground
