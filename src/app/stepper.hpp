// Stepping: the fixed-step accumulator, pause and single step, and slow steps on a worker thread.
// No SDL, GL or ImGui here, so the async rule is tested on its own (tests/stepper, under TSan).
//
// The rule it owns: while a step runs on the worker, the simulation belongs to the worker. The UI
// thread touches simulation state only after `idle()` said true or `waitIdle()` returned; every
// step is booked (counters, onStepped) on the UI thread.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <vector>

namespace app {

// Values with the time they were taken, kept for `keepSeconds`: "the last 2 s" of anything.
class RecentSamples {
 public:
  using Clock = std::chrono::steady_clock;
  explicit RecentSamples(double keepSeconds = 12.0) : keep_(keepSeconds) {}
  void push(double value, Clock::time_point at = Clock::now());
  // The values taken in the last `seconds`, oldest first.
  std::vector<double> last(double seconds) const;
  void clear() { samples_.clear(); }

 private:
  double keep_;
  std::vector<std::pair<Clock::time_point, double>> samples_;
};

class Stepper {
 public:
  static constexpr float kStepSeconds = 1.0f / 60.0f;

  // `step` advances the simulation by dt; a step slower than `asyncAfterMs` sends the next ones to
  // a worker thread, so the window keeps answering.
  static constexpr double kAsyncAfterMs = 40.0;
  explicit Stepper(std::function<void(float)> step, double asyncAfterMs = kAsyncAfterMs)
      : step_(std::move(step)), asyncAfterMs_(asyncAfterMs) {}
  ~Stepper() {
    waitIdle();
    for (Abandoned& a : abandoned_) a.step.wait();
  }
  Stepper(const Stepper&) = delete;
  Stepper& operator=(const Stepper&) = delete;

  // What a step runs from now on (a new scene). Only while no step is in flight: a step on the worker
  // runs the function it started with, never one swapped in under it.
  void setStep(std::function<void(float)> step) { step_ = std::move(step); }

  // Called on the UI thread after each step is booked (metrics, logs).
  std::function<void()> onStepped;

  // Runs the steps that `frameSeconds` of real time owe. `lockstep` (scripted runs, recordings):
  // exactly one step per frame, never on the worker, so frames are reproducible.
  void advance(double frameSeconds, bool lockstep);

  // True when no step is in flight (a finished one is booked first): the UI thread may touch
  // simulation state until its next advance().
  bool idle();
  // Blocks until no step is in flight and books it. Before any UI-thread read that cannot wait a frame
  // (Home, restart, a scene switch, the end of the run).
  void waitIdle();
  bool busy() const { return pending_.valid(); }

  // Starts counting again (a new scene or a restart); waits for a step in flight first. The next
  // step's cost is unknown then, so it starts on the worker (expectSlowStep).
  void restart();
  // The next step may be slow (a new scene, a restart, changed parameters such as N): it starts on
  // the worker, so the window never freezes on it; once one is measured fast, steps run inline again.
  void expectSlowStep() { costUnknown_ = true; }
  // Quitting or a scene switch: a step in flight is left to finish on its own, unbooked (nothing is
  // kept from a half step, nor from one that ended but is not booked yet), so the window never waits
  // for it. True when one was left: the caller must
  // then never touch that simulation again, and hands it over in `keepAlive`, which the stepper frees
  // on the UI thread once the step has ended (or the caller ends the process first).
  bool abandon(std::shared_ptr<void> keepAlive = {});
  // A step abandoned earlier still runs on the worker (what it was handed is freed once one has not).
  bool abandonedRunning();

  bool paused = false;
  float speed = 1.0f;
  // Steps for one (a claim's fast-forward): lockstep frames take this many steps, real-time frames run
  // this many times the speed. The steps are the same ones, only more of them a frame. Lowered from
  // onStepped, it ends the frame's steps there.
  int fastForward = 1;
  void requestSingleStep() { singleStep_ = true; paused = true; }

  uint64_t steps() const { return steps_; }
  double simTime() const { return simTime_; }
  double lastStepMs() const { return lastStepMs_; }
  int stepsDropped() const { return stepsDropped_; }
  // Seconds the step in flight has been running (0 when none).
  double inFlightSeconds() const;
  // Wall-clock ms of each step booked in the last `seconds` of real time, oldest first.
  std::vector<double> recentStepMs(double seconds) const { return recent_.last(seconds); }
  // Simulated seconds per wall second over the last `seconds`, relative to the speed asked for:
  // 1 keeps up, below 1 is slower than real time. Meaningful while running (not paused).
  double realTimeShare(double seconds) const;

  // One step of kStepSeconds, and its wall-clock ms: the one step timer (the window's steps, headless
  // runs).
  static double timedStep(const std::function<void(float)>& step);

 private:
  using Clock = std::chrono::steady_clock;
  void book(double ms);

  struct Abandoned {
    std::future<double> step;
    std::shared_ptr<void> keepAlive;  // what the step runs on
  };

  std::function<void(float)> step_;
  double asyncAfterMs_;
  std::future<double> pending_;
  std::vector<Abandoned> abandoned_;
  Clock::time_point asyncStart_;
  double accumulator_ = 0, lastStepMs_ = 0, simTime_ = 0;
  uint64_t steps_ = 0;
  int stepsDropped_ = 0;
  bool singleStep_ = false, costUnknown_ = false;
  RecentSamples recent_;  // step ms
  Clock::time_point restartedAt_ = Clock::now();
};

}  // namespace app
