// One experiment's set-up, shared by the claims, the experiment runner's jobs (sweeps, tuning) and
// the app's experiment buttons: a full restart from the scene's defaults, so nothing the user or a
// previous run changed leaks in.
#pragma once
#include <string>
#include <vector>
#include "scenes/scene.hpp"

namespace scenes {

struct ExperimentSetup {
  std::string scene;              // command-line scene name (for the preset's folder and messages)
  std::string preset;             // a built-in preset file of the scene ("" none), applied over the defaults
  std::vector<std::string> sets;  // then these "name=value" assignments, in order
  std::string start;              // then this starting state after reset() ("" the plain reset)
  std::string presetFile;         // a user's preset file (a path, read capped and checked) after the built-in one
};

// Defaults, preset, assignments, paramsChanged(), reset(), starting state. The scene keeps its seed.
// False with a one-line message when something does not apply.
bool startSetup(Scene& scene, const ExperimentSetup& setup, std::string& error);

}  // namespace scenes
