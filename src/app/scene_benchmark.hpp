// The in-app benchmark, "Benchmark this scene (10 s)": when a run ends and what it reports. The App
// owns one, starts it from the HUD, asks each frame whether it is due, and hands it the figures
// (its loop books them: steps through the Stepper, frames in its own samples).
#pragma once
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "app/run_report.hpp"

namespace app {

// What a run's figures stand for, and so must stay as it was from its start to its end: the scene,
// its run (a restart or an experiment starts another), its parameters, stepping, and the work beside
// it. A run across a pause, a switch, a slider moved or a sweep started would put two set-ups, or
// none, under one line.
struct BenchmarkWatch {
  std::string scene;
  uint64_t sceneRun = 0;     // counts the scene's starts (a switch, a restart, an experiment)
  uint64_t paramWrites = 0;  // counts parameter writes (a slider, a preset)
  bool paused = false;
  std::string background;    // what runs beside the scene on the other cores: "sweep", "tuning", both, or ""
  bool operator==(const BenchmarkWatch&) const = default;
};

class AppBenchmark {
 public:
  // The run's length, and the window of the medians the state report gives.
  static constexpr double kSeconds = 10.0;

  bool running() const { return ends_.has_value(); }
  // Starts a run on what `now` describes: the HUD's message.
  std::string start(const BenchmarkWatch& now);
  // Seconds until the run ends; 0 when none runs (the HUD's countdown).
  double secondsLeft() const;
  // A run is on and `now` is not what it started on: the run ends without figures, and this is the
  // HUD's message (also printed, as the figures' line would be). Nothing when no run is on or
  // nothing changed.
  std::optional<std::string> stopIfChanged(const BenchmarkWatch& now);
  // A run is on and its time is up: the App gathers the figures and calls finish().
  bool due() const;
  // Ends the run: prints its line, copies it to the clipboard, and returns the HUD's message. A run
  // in which no step ended (each takes longer than the run) reports that, and no figures.
  std::string finish(const BenchmarkFigures& figures);

 private:
  using Clock = std::chrono::steady_clock;
  std::optional<Clock::time_point> ends_;
  BenchmarkWatch started_;
};

}  // namespace app
