// The scene panel on the right: the experiment buttons first, the scene's lede and More, its own
// controls, Tune, its declared parameters, presets and Sweep; and what it remembers between frames.
#pragma once
#include <memory>
#include <string>
#include "app/experiment_banner.hpp"
#include "app/layout.hpp"
#include "app/sweep_panel.hpp"
#include "app/tune_panel.hpp"
#include "scenes/scene.hpp"

namespace app {

// What the scene panel remembers: text fields and the last message.
struct PanelMemory {
  char saveName[64] = "my-preset";
  std::string replacePending;  // Save found this preset file there: it asks before replacing it
  char loadPath[512] = "";
  std::string renaming, deleting;  // the user preset being renamed / asked about deleting ("" none)
  char newName[64] = "";
  std::string message;
  bool messageIsError = false;
  bool collapsed = false;  // folded to its title bar
  bool aboutMore = false;  // the scene's text beyond its lede is shown
  bool resetScroll = true; // a new scene's panel opens at the top
  SweepSection sweep;                       // the Sweep section's sweep (sweep_panel.hpp)
  float contentHeight = 0.0f;  // the panel's content last frame (kept while a step runs on the worker)
  // The experiment buttons' block as last drawn (window points; empty: none), and the panel's visible
  // bottom: the block must end above it without scrolling.
  Box experiments;
  float panelVisibleBottom = 0.0f;
  double noticeUntil = 0.0;  // ImGui time until which the message also stands by the cursor (an experiment ended by hand)
  // The Tune section (tune_panel.hpp); shared so that a panel reset for a new scene stops its search.
  std::shared_ptr<TunePanel> tune = std::make_shared<TunePanel>();
};
// About + experiments, the scene's own panel, its declared parameters and presets; true when a parameter changed.
// An experiment button sets experiment.requested (the app starts it: startExperimentRun); the claim's banner is drawn.
bool drawScenePanel(scenes::Scene& scene, const std::string& sceneName, const std::string& title, bool stepRunning,
                    PanelMemory& memory, ExperimentState& experiment);
// The panel's status line (an error also on stderr).
void reportOnPanel(PanelMemory& memory, const std::string& text, bool error);

}  // namespace app
