#include "scenes/driver.hpp"

#include <chrono>
#include "io/user_files.hpp"
#include "scenes/reduction.hpp"

namespace scenes {

bool SceneDriver::prepare(const ExperimentSetup& setup, uint64_t seed, std::string& error) {
  const SceneEntry* entry = findScene(setup.scene);
  if (!entry) {
    error = "unknown scene " + io::quoteText(setup.scene) + " (scenes: " + sceneNames() + ")";
    return false;
  }
  ctx_ = SceneContext();
  scene_ = entry->create(ctx_, seed);
  steps_ = 0;
  return startSetup(*scene_, setup, error);
}

int SceneDriver::advance(int steps, const std::function<bool(const StepTaken&)>& onStep) {
  using Clock = std::chrono::steady_clock;
  for (int s = 0; s < steps; ++s) {
    const Clock::time_point t0 = Clock::now();
    scene_->step(float(kExperimentStep));
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    scene_->sampleMetrics();
    ++steps_;
    // From the step count, not summed: the window and every run agree on the time of step k.
    ctx_.simTime = double(steps_) * kExperimentStep;
    if (onStep && !onStep({steps_, ctx_.simTime, ms})) return s + 1;
  }
  return steps;
}

std::span<const sim::Metric> SceneDriver::metrics() {
  metrics_.clear();
  scene_->metrics(metrics_);
  return metrics_;
}

}  // namespace scenes
