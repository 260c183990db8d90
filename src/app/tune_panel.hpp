// The scene panel's "Tune" section: pick an objective of the scene, Start, and watch CMA-ES look for
// better parameters on the experiment runner (worker threads, one core left to the live scene);
// the best and median score per generation are plotted, "Apply best" puts the best so far into the
// live scene, "Save as preset" writes it with its objective, scores and seeds.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <nlohmann/json_fwd.hpp>
#include "scenes/scene.hpp"

namespace app {

class TunePanel {
 public:
  TunePanel();
  ~TunePanel();  // stops the running searches and waits for them (a step of one job at most)
  TunePanel(const TunePanel&) = delete;
  TunePanel& operator=(const TunePanel&) = delete;

  // Draws the section (nothing for a scene without objectives); true when "Apply best" changed the
  // scene's parameters.
  bool draw(scenes::Scene& scene, const std::string& sceneName);
  // --tune NAME: the section opens with this objective chosen.
  void open(const std::string& objective);
  void stop();  // every scene's search, waiting for each (a step of one job at most)
  // Asks every scene's search to stop without waiting (quitting): each ends within its jobs' step.
  void cancel();
  // For --state-out: the search's state, and where the section's header and buttons were drawn
  // (screen points, their centres) so tests can click them.
  void writeState(nlohmann::json& out) const;
  // For the window's title: "tuning: 3 generations" while the search runs, "tuned: 9 generations"
  // after it, "" before the first Start.
  std::string progress() const;
  bool running() const;  // a search runs now

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;  // the shown scene's search
  // The other scenes' searches, by scene: a scene switch keeps each one (a running search goes on
  // behind, its results are there on coming back) and never waits for it.
  std::map<std::string, std::unique_ptr<Impl>> shelved_;
};

}  // namespace app
