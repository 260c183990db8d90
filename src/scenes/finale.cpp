#include "scenes/finale.hpp"

namespace scenes::finale {

Finale::~Finale() = default;

namespace {
std::unique_ptr<scenes::Scene> create(scenes::SceneContext& context, uint64_t seed) {
  return std::make_unique<Finale>(context, seed);
}
[[maybe_unused]] bool registered = scenes::registerScene({"finale", "Big finale", 6, &create});
}  // namespace

}  // namespace scenes::finale
