#include "scenes/pedestrians.hpp"

namespace scenes::pedestrians {

Pedestrians::~Pedestrians() = default;

namespace {
std::unique_ptr<scenes::Scene> create(scenes::SceneContext& context, uint64_t seed) {
  return std::make_unique<Pedestrians>(context, seed);
}
[[maybe_unused]] bool registered = scenes::registerScene({"pedestrians", "Pedestrians (SI units)", 8, &create});
}  // namespace

}  // namespace scenes::pedestrians
