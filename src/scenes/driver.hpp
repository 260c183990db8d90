// The one headless driver: a scene made by name with its seed and a context of its own, set up as an
// experiment (experiment.hpp), then stepped at the experiments' fixed 60 Hz with its measurements
// sampled after each step. The experiment runner (claims, sweeps, tuning), the digests, `--headless`
// and the tests step scenes through it; the window steps its live scene through app/stepper.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>
#include "scenes/experiment.hpp"
#include "scenes/scene.hpp"

namespace scenes {

// One step taken: its number (from 1), the simulated time after it, its wall time (the step alone,
// sampling apart).
struct StepTaken {
  int step = 0;
  double simTime = 0.0;
  double stepMs = 0.0;
};

class SceneDriver {
 public:
  // The named scene, created with `seed`, set up (startSetup); false with one line.
  bool prepare(const ExperimentSetup& setup, uint64_t seed, std::string& error);
  // Up to `steps` steps of kExperimentStep, each followed by the scene's sampleMetrics() and then
  // `onStep` (none: just step); `onStep` returns false to stop there. Returns the steps taken.
  int advance(int steps, const std::function<bool(const StepTaken&)>& onStep = {});
  // The scene's metrics now (collected when asked: most steps need none).
  std::span<const sim::Metric> metrics();

  Scene& scene() { return *scene_; }
  double simTime() const { return ctx_.simTime; }
  int steps() const { return steps_; }

 private:
  SceneContext ctx_;  // the scene's for its life: declared before it
  std::unique_ptr<Scene> scene_;
  std::vector<sim::Metric> metrics_;
  int steps_ = 0;
};

}  // namespace scenes
