#include "scenes/orca_corridor.hpp"

namespace scenes::orca_corridor {

OrcaCorridor::~OrcaCorridor() = default;

namespace {
std::unique_ptr<scenes::Scene> create(scenes::SceneContext& context, uint64_t seed) {
  return std::make_unique<OrcaCorridor>(context, seed);
}
[[maybe_unused]] bool registered = scenes::registerScene({"orca-corridor", "ORCA corridor", 4, &create});
}  // namespace

}  // namespace scenes::orca_corridor
