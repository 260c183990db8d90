#include "scenes/steering_playground.hpp"

namespace scenes::steering_playground {

SteeringPlayground::~SteeringPlayground() = default;

namespace {
std::unique_ptr<scenes::Scene> create(scenes::SceneContext& context, uint64_t seed) {
  return std::make_unique<SteeringPlayground>(context, seed);
}
[[maybe_unused]] bool registered = scenes::registerScene({"steering", "Steering playground", 5, &create});
}  // namespace

}  // namespace scenes::steering_playground
