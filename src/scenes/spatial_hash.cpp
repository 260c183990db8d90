#include "scenes/spatial_hash.hpp"

namespace scenes::spatial_hash {

SpatialHash::~SpatialHash() = default;

namespace {
// The search's cost is the flock's (checks_per_frame, ...); the misses are this scene's.
constexpr sim::MetricInfo kSpatialHashMetrics[] = {
    {"missed_neighbors", "missed neighbours (pairs per step)"},
};
[[maybe_unused]] const bool spatialHashDescribed = sim::describeMetrics(kSpatialHashMetrics);

std::unique_ptr<scenes::Scene> create(scenes::SceneContext& context, uint64_t seed) {
  return std::make_unique<SpatialHash>(context, seed);
}
[[maybe_unused]] bool registered = scenes::registerScene({"spatial-hash", "Spatial hash", 3, &create});
}  // namespace

}  // namespace scenes::spatial_hash
