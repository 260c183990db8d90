// The in-app benchmark, "Benchmark this scene (10 s)": when a run ends and what it reports. The App
// owns one, starts it from the HUD, asks each frame whether it is due, and hands it the figures
// (its loop books them: steps through the Stepper, frames in its own samples).
#pragma once
#include <chrono>
#include <optional>
#include <string>

#include "app/run_report.hpp"

namespace app {

class AppBenchmark {
 public:
  // The run's length, and the window of the medians the state report gives.
  static constexpr double kSeconds = 10.0;

  // Starts a run on `scene`: the HUD's message.
  std::string start(const std::string& scene);
  // Seconds until the run ends; 0 when none runs (the HUD's countdown).
  double secondsLeft() const;
  // A run is on and its time is up: the App gathers the figures and calls finish().
  bool due() const;
  // Ends the run: prints its line, copies it to the clipboard, and returns the HUD's message.
  std::string finish(const BenchmarkFigures& figures);

 private:
  using Clock = std::chrono::steady_clock;
  std::optional<Clock::time_point> ends_;
};

}  // namespace app
