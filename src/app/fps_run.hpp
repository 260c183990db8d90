// The standard frame-rate run inside the window loop: which case to open, warm-up, the measured
// frames, and each case's figures. The App opens the scenes and hands over each frame's timings;
// this keeps the count and the clock, so the loop stays a loop.
#pragma once
#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "app/fps_machine.hpp"
#include "app/fps_result.hpp"
#include "io/output_file.hpp"

namespace app {

class FpsDriver {
 public:
  FpsDriver(FpsPlan plan, std::vector<const FpsCase*> cases);

  // The case to open before this frame (once per case), or nullptr while one runs or when done.
  const FpsCase* caseToOpen();
  // The app opened it: `agents` now on screen.
  void opened(size_t agents);
  // The app could not open it (no compute shaders, a scene refused a setting): the case is skipped.
  void skip(const std::string& why);
  // After each frame's swap: the frame's own work (start to swap), the step and the drawing.
  // `frameWorkMs` counts where frames are paced by the page (useWorkTime); elsewhere the time from
  // one frame's end to the next.
  void frameDone(double frameWorkMs, double simMs, double renderMs, int drawCalls, size_t agents);
  bool finished() const { return slot_ >= cases_.size() * size_t(plan_.passes); }

  // Set once by the App before the first frame: the machine with its GL strings, and how frames are timed.
  FpsResult& result() { return result_; }
  void useWorkTime(bool on) { useWorkTime_ = on; }
  // The whole run's end: the busy check, the total time.
  void finish();
  // --json: opened by `crowdlab fps` before the window (a FIFO nobody reads fails then, not after the
  // run), written at the end; not open without the flag.
  io::OutputFile& json() { return json_; }
  BusyWatch& busyWatch() { return busy_; }

 private:
  using Clock = std::chrono::steady_clock;
  void endCase();
  void nextSlot();
  size_t caseIndex() const { return slot_ % cases_.size(); }

  static constexpr int kLaterRoundWarmupFrames = 3;
  FpsPlan plan_;
  std::vector<const FpsCase*> cases_;
  io::OutputFile json_;
  FpsResult result_;
  BusyWatch busy_;
  size_t slot_ = 0;        // round * cases + case: the cases run round after round
  std::vector<std::vector<FpsCaseResult>> rounds_;  // per case, each round's figures
  std::vector<std::string> skipped_;                // per case, why it did not run ("" ran)
  bool open_ = false;      // the current case's scene is on screen
  int warmup_ = 0;         // warm-up frames done
  Clock::time_point caseStart_, lastFrame_, runStart_;
  bool haveLastFrame_ = false, useWorkTime_ = false, started_ = false;
  std::vector<double> frameMs_, simMs_, renderMs_;
  FpsCaseResult current_;
};

}  // namespace app
