#include "scenes/boids_playground.hpp"

namespace scenes::boids_playground {

BoidsPlayground::~BoidsPlayground() = default;

namespace {
std::unique_ptr<scenes::Scene> create(scenes::SceneContext& context, uint64_t seed) {
  return std::make_unique<BoidsPlayground>(context, seed);
}
[[maybe_unused]] bool registered = scenes::registerScene({"boids", "Boids playground", 2, &create});
}  // namespace

}  // namespace scenes::boids_playground
