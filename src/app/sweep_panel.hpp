// The scene panel's "Sweep" section: one declared parameter over a range against one metric, over
// seeds, run on worker threads (all cores but one, so the live scene keeps one) while the scene runs;
// the curve grows point by point, a hover shows a point's numbers, a click sets that value in the
// live scene, Stop cancels, Export writes the CSV and the SVG `crowdlab sweep` writes.
#pragma once
#include <map>
#include <memory>
#include <string>
#include "scenes/scene.hpp"

namespace app {

class SweepPanel;

// Owns the panel's sweeps, one per scene: a scene switch keeps each scene's sweep, finished or running
// (it goes on behind, and its curve is there on coming back), and never waits for a job's step.
// Running ones are stopped and joined when this goes: quitting asks them first (cancelSweeps) and
// does not destroy this while a worker is still inside a step (sweepsEnded).
struct SweepSection {
  SweepSection();
  ~SweepSection();
  SweepSection(SweepSection&&) noexcept;
  SweepSection& operator=(SweepSection&&) noexcept;
  std::unique_ptr<SweepPanel> panel;  // the shown scene's
  std::map<std::string, std::unique_ptr<SweepPanel>> others;  // the other scenes', by name
};

// Draws the section; true when a click on a point changed the live scene's parameters.
bool drawSweepSection(SweepSection& section, scenes::Scene& scene, const std::string& sceneName);

// The section's state into the probe (probe.hpp): how many points are in, whether it runs, what the
// hover shows and the last click set (Start's, Stop's and the points' places are marked as drawn).
void writeSweepProbe(const SweepSection& section);

// For the window's title: "sweep 7/12" while it runs, "sweep done 12/12" or "sweep stopped 5/12"
// after it, "" before the first Start. Takes in the finished points (UI thread).
std::string sweepProgress(SweepSection& section);
// Whether the section's sweep is running now (UI thread; takes in the finished points).
bool sweepRunning(SweepSection& section);
// Asks every scene's sweep to stop without waiting for it: each worker ends within its job's step.
void cancelSweeps(SweepSection& section);
// Whether no sweep's worker is running any more (joining them then waits for nothing).
bool sweepsEnded(const SweepSection& section);

}  // namespace app
