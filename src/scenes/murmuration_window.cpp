// The murmuration's window side: its panel (alarm, 2D switch, the flock's plots), its clicks (a falcon,
// the watched bird) and key A.
#include <imgui.h>
#include <cstdio>
#include "scenes/murmuration.hpp"
#include "scenes/param_ui.hpp"
#include "scenes/scene_window.hpp"

namespace scenes::murmuration {
namespace {

class MurmurationWindow final : public MurmurationScene, public scenes::SceneUi {
 public:
  using MurmurationScene::MurmurationScene;

  void panel() override {
    if (ImGui::Button("Alarm (falcon)")) alarm();
    char falcon[64] = "key A; Shift+click places it";
    const bool active = planarNow_ ? flock2_.falcon().active : flock3_.falcon().active;
    if (active) std::snprintf(falcon, sizeof falcon, "falcon: %.1f s", double(planarNow_ ? flock2_.falcon().timeLeft : flock3_.falcon().timeLeft));
    scenes::sameLineIfFits(scenes::textWidth(falcon));
    if (active) ImGui::TextColored(ImVec4(1, 0.4f, 0.35f, 1), "%s", falcon);
    else ImGui::TextDisabled("%s", falcon);
    if (ImGui::Checkbox("2D (as in the article)", &s_.planar)) paramsChanged();
    const sim::MurmurationParams& p = flock3_.params;
    ImGui::TextDisabled("neighbours: %s", p.metric ? "metric" : "topological");
    if (!p.metric) {
      const std::string k = "k = " + std::to_string(p.k);
      scenes::sameLineIfFits(scenes::textWidth(k.c_str()));
      ImGui::TextDisabled("%s", k.c_str());
    }

    scenes::sectionTitle("Flock");
    ImGui::Text("polarisation %.3f  (0 disorder, 1 parade)", metrics_["polarization"]);
    scenes::plotHistory(polarizationHistory_, "##pol", 0, 1, ImVec2(0, 36));
    ImGui::TextWrapped("groups %.0f  (largest holds %.0f%%; links <= %.0f body lengths)", metrics_["groups"],
                metrics_["largest_group_share"] * 100.0, double(p.groupLink));
    ImGui::Text("velocity fluctuation %.3f  (inner motion; Cavagna 2010)", metrics_["velocity_fluctuation"]);
    scenes::plotHistory(groupsHistory_, "##groups", 0, std::max(4.0f, groupsHistory_.max()), ImVec2(0, 36));
    ImGui::Text("extent %.1f m  (2 x RMS distance from the centre)", metrics_["extent"]);
    scenes::plotHistory(extentHistory_, "##extent", 0, std::max(10.0f, extentHistory_.max()), ImVec2(0, 36));
    ImGui::Text("mean nearest-neighbour distance %.2f m", metrics_["mean_nn_distance"]);
    scenes::plotHistory(nearestHistory_, "##nn", 0, std::max(2.0f, nearestHistory_.max()), ImVec2(0, 36));
    ImGui::Text("startled %.0f", metrics_["startled"]);
    scenes::plotHistory(startledHistory_, "##startled", 0, float(std::max<size_t>(agentCount(), 1)), ImVec2(0, 36));
  }

  bool onMouse(const scenes::MouseEvent& e) override {
    if (e.kind != scenes::MouseEvent::Down || e.button != 1) return false;
    if (!e.shift) return planarNow_ && s_.showNeighbors && pickBird(Vec2(e.world));
    if (planarNow_) {
      flock2_.placeFalcon(Vec2(e.world));
    } else if (ctx) {
      // The mouse ray meets the horizontal plane through the flock's centre.
      const render::OrbitCamera& cam = ctx->camera3D;
      const Vec3 eye = cam.eye(), ray = cam.rayDirection(e.screen), c = flock3_.centroid();
      float t = std::abs(ray.z) > 1e-4f ? (c.z - eye.z) / ray.z : -1.0f;
      if (!(t > 0.0f)) t = glm::length(c - eye);  // looking along or away from the plane: as far as the flock
      flock3_.placeFalcon(eye + ray * t);
    }
    return true;
  }

  // 2D: the bird nearest the click (within a few metres) becomes the watched one.
  bool pickBird(const Vec2& at) {
    float best = 5.0f * 5.0f;
    bool found = false;
    for (size_t i = 0; i < flock2_.size(); ++i) {
      const Vec2 d = flock2_.positions()[i] - at;
      if (glm::dot(d, d) < best) { best = glm::dot(d, d); watched_ = flock2_.ids()[i]; found = true; }
    }
    return found;
  }

  bool onKey(int key, bool /*shift*/) override {
    if (key != 'a') return false;
    alarm();
    return true;
  }
};

[[maybe_unused]] bool registered = scenes::registerSceneWindow("murmuration", &scenes::makeWindow<MurmurationWindow>);

}  // namespace
}  // namespace scenes::murmuration
