// The running experiment (a claim started by its button, --claim or a lesson's step): its tracker fed
// every step, its verdict, the baseline it waits for, and the banner's strip across the bottom of the
// world's view that says all this to the room (the world is fitted above the strip, never under it).
#pragma once
#include <map>
#include <span>
#include <string>
#include "scenes/claims.hpp"
#include "scenes/scene.hpp"
#include "sim/core/metric.hpp"

namespace app {

struct PanelMemory;

struct ExperimentState {
  scenes::ClaimTracker tracker;             // the running claim's window, reduced step by step
  std::string scene;                        // the scene it runs in
  const scenes::Claim* requested = nullptr; // an experiment button was pressed: the app starts it
  const scenes::Claim* after = nullptr;     // a baseline runs now; this claim (measured against it) follows
  std::map<std::string, double> measured;   // claim id -> last window value here (baselines of ratio claims)
  // Window points kept free below the world (world_view.hpp): the strip sets its height here each
  // frame it is drawn, 0 otherwise.
  float reservedBottom = 0.0f;
  std::string banner;                       // the banner's line as last drawn ("" none)
  bool bannerVerdict = false;               // the banner shows the verdict (the window has passed)
  float worldLeft = -1.0f, worldRight = -1.0f;  // the world's view across the window, points (set by the app)
  // A running lesson's step (set by the app; "" none): its sentence takes the banner's first line,
  // and "step 4 of 18" stands small in the strip's corner.
  std::string lessonSay, lessonProgress;
};

// The banner's strip for this frame: the claim, the countdown or the verdict, the program's rule; a
// lesson's sentence alone when no claim runs. Samples the scene's metrics: not while a step is in flight.
void drawExperimentBanner(scenes::Scene& scene, const std::string& sceneName, ExperimentState& e);
// The scene restarted into the claim's experiment (scenes::startExperiment), with its banner from the
// start; the caller then books the restart (step counter and clock back to 0). False with the panel's
// error line when the registry is wrong.
bool startExperimentRun(scenes::Scene& scene, const std::string& sceneName, const scenes::Claim& claim, ExperimentState& e,
                        PanelMemory& panel);
// The running experiment's share of each step (after the step, with its metrics): the claim's window
// is reduced over every step, as `crowdlab claims` reduces it, however many steps a frame takes.
// Returns the steps a frame from now on (experimentFastForward).
int sampleExperimentStep(ExperimentState& e, const std::string& sceneName, double simTime, std::span<const sim::Metric> metrics);
// Steps a frame for the running experiment (scenes::fastForward); 1 without one.
int experimentFastForward(const ExperimentState& e, const std::string& sceneName, double simTime);

}  // namespace app
