// The steering playground's window side: its panel (obstacle buttons, legend, metrics), its clicks and
// drags (the target, the obstacles) and key O.
#include <imgui.h>
#include "scenes/steering_playground.hpp"
#include "scenes/param_ui.hpp"
#include "scenes/scene_window.hpp"

namespace scenes::steering_playground {
namespace {

constexpr float kKeyObstacleRadius = 40.0f;  // key O

class SteeringWindow final : public SteeringPlayground, public scenes::SceneUi {
 public:
  using SteeringPlayground::SteeringPlayground;

  void panel() override {
    scenes::sectionTitle("Obstacles");
    if (ImGui::Button("Add obstacle")) addRandomObstacle();
    scenes::sameLineIfFits("Clear obstacles");
    if (ImGui::Button("Clear obstacles")) { drag_ = Drag::None; world_.clearObstacles(); }
    const std::string count = std::to_string(world_.obstacles().size());
    scenes::sameLineIfFits(scenes::textWidth(count.c_str()));
    ImGui::TextUnformatted(count.c_str());

    scenes::sectionTitle("Legend");
    scenes::legend({{"target", kTargetColor}, {"quarry", kQuarryColor}, {"obstacle", kObstacleColor}, {"avoiding", kAvoidingColor}});
    scenes::legend({{"leader", render::colors::yellow}, {"velocity", kActualColor}, {"desired", kDesiredColor}, {"slot", kSlotColor}});
    scenes::legend({{"selected (N, F follows)", kSelectedAgentColor}});
    if (world_.params.seek && world_.params.arrive && !world_.params.formation && !world_.params.separate)
      ImGui::TextDisabled("(separation off: arrivers stack on the target)");

    scenes::sectionTitle("Metrics");
    metrics_.take(world_);
    ImGui::Text("mean distance to target %.1f", metrics_["mean_distance_to_target"]);
    scenes::plotHistory(distanceHistory_, "##dist", 0, 800, ImVec2(0, 40));
    ImGui::Text("mean speed %.1f / %.0f", metrics_["mean_speed"], world_.params.maxSpeed);
    scenes::plotHistory(speedHistory_, "##speed", 0, world_.params.maxSpeed, ImVec2(0, 40));
    ImGui::Text("obstacle penetrations %.0f (agent-steps)", metrics_["obstacle_penetrations"]);
  }

  bool onMouse(const scenes::MouseEvent& e) override {
    using K = scenes::MouseEvent;
    if (e.kind == K::Down && e.button == 1) {
      const int hit = world_.obstacleAt(e.world);
      if (hit >= 0) {
        drag_ = Drag::Obstacle;
        dragged_ = size_t(hit);
        grabOffset_ = world_.obstacles()[dragged_].center - e.world;
      } else {
        drag_ = Drag::Target;  // click sets the target; holding drags it along
        world_.setTarget(e.world);
      }
      return true;
    }
    if (e.kind == K::Move && drag_ != Drag::None) {
      if (drag_ == Drag::Obstacle) world_.moveObstacle(dragged_, e.world + grabOffset_);
      else world_.setTarget(e.world);
      return true;
    }
    if (e.kind == K::Up && e.button == 1 && drag_ != Drag::None) {
      drag_ = Drag::None;
      return true;
    }
    if (e.kind == K::Down && e.button == 3) {
      // Only a click on an obstacle is ours; elsewhere the right button pans the camera.
      const int hit = world_.obstacleAt(e.world);
      if (hit < 0) return false;
      world_.removeObstacle(size_t(hit));
      drag_ = Drag::None;  // indices shifted
      return true;
    }
    return false;
  }

  bool onKey(int key, bool /*shift*/) override {
    // SDL keycodes of letters are their lower-case ASCII codes (SDLK_o == 'o'); scenes do not include SDL.
    if (key != 'o' || !ctx) return false;
    world_.addObstacle(ctx->mouseWorld, kKeyObstacleRadius);
    return true;
  }

 private:
  void addRandomObstacle() {
    // Deterministic for a seed: the n-th added obstacle always lands at the same place.
    sim::Rng rng(seed, 500 + world_.obstacles().size());
    const float radius = rng.uniform(25.0f, 60.0f);
    const Vec2 margin(radius + 20.0f);
    world_.addObstacle(rng.inBox<2>(world_.world.min + margin, world_.world.max() - margin), radius);
  }
};

[[maybe_unused]] bool registered = scenes::registerSceneWindow("steering", &scenes::makeWindow<SteeringWindow>);

}  // namespace
}  // namespace scenes::steering_playground
