#include "scenes/murmuration.hpp"

namespace scenes::murmuration {

MurmurationScene::~MurmurationScene() = default;

namespace {
std::unique_ptr<scenes::Scene> create(scenes::SceneContext& context, uint64_t seed) {
  return std::make_unique<MurmurationScene>(context, seed);
}
[[maybe_unused]] bool registered = scenes::registerScene({"murmuration", "Murmuration", 1, &create});
}  // namespace

}  // namespace scenes::murmuration
