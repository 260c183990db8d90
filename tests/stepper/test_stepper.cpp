// The stepper on its own: the fixed step, and the rule for slow steps on the worker thread. Built a
// second time with ThreadSanitizer (scripts/test.sh): the UI-thread reads below would be reported as
// races if the stepper let them overlap a step in flight.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>
#include "app/agent_selection.hpp"
#include "app/stepper.hpp"

namespace {

// A stand-in for a scene: each step writes the next state into a second buffer and swaps, as the
// murmuration does, so a read during a step would see a half-written state (and TSan a race).
// A step that lasts until the test opens the gate: what the UI thread must not wait for, without a
// clock (a busy machine once took 117 ms to return from a call asserted to take under 100). The wait
// gives up after 5 s, so that a stepper that wrongly waits fails its test instead of hanging it.
struct Gate {
  std::mutex mutex;
  std::condition_variable opened;
  bool open = false;
  void wait() {
    std::unique_lock<std::mutex> lock(mutex);
    opened.wait_for(lock, std::chrono::seconds(5), [&] { return open; });
  }
  void release() {
    {
      const std::lock_guard<std::mutex> lock(mutex);
      open = true;
    }
    opened.notify_all();
  }
};

struct DoubleBufferedSim {
  std::vector<int> current = std::vector<int>(4096, 0), next = std::vector<int>(4096, 0);
  int steps = 0;
  std::chrono::milliseconds cost{0};
  std::shared_ptr<Gate> gate;           // when set, each step waits for it instead of `cost`
  std::atomic<int> stepsEnded{0};       // readable while a step runs
  std::thread::id steppedOn;            // read after waitIdle()
  void step() {
    steppedOn = std::this_thread::get_id();
    if (gate) gate->wait();
    else std::this_thread::sleep_for(cost);
    for (int& v : next) v = steps + 1;
    current.swap(next);
    ++steps;
    stepsEnded.fetch_add(1, std::memory_order_release);
  }
  // What Home does: reads every position. Each reads the same step number unless a step overlapped.
  bool consistent() const {
    for (int v : current)
      if (v != steps) return false;
    return true;
  }
};

}  // namespace

TEST(Stepper, SlowStepsRunOnTheWorkerAndTheUiThreadReadsOnlyWhenIdle) {
  DoubleBufferedSim sim;
  sim.cost = std::chrono::milliseconds(12);
  app::Stepper stepper([&](float) { sim.step(); }, /*asyncAfterMs=*/5.0);
  int booked = 0;
  stepper.onStepped = [&] { ++booked; };
  bool sawWorker = false;
  int reads = 0;
  for (int frame = 0; frame < 200 && stepper.steps() < 25; ++frame) {
    stepper.advance(1.0 / 60.0, /*lockstep=*/false);
    sawWorker |= stepper.busy();
    // Every frame, as the window draws: only when idle.
    if (stepper.idle()) {
      EXPECT_TRUE(sim.consistent());
      ++reads;
    }
    // Every few frames, as Home does: wait, then read.
    if (frame % 3 == 0) {
      stepper.waitIdle();
      EXPECT_FALSE(stepper.busy());
      EXPECT_TRUE(sim.consistent());
      EXPECT_EQ(uint64_t(sim.steps), stepper.steps());  // every finished step is booked
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  stepper.waitIdle();
  EXPECT_TRUE(sawWorker) << "steps slower than the threshold go to the worker";
  EXPECT_EQ(uint64_t(sim.steps), stepper.steps());
  EXPECT_EQ(booked, sim.steps);  // onStepped once per step, on this thread
  EXPECT_GT(reads, 0);
}

TEST(Stepper, LockstepTakesExactlyOneStepPerFrameAndNeverUsesTheWorker) {
  DoubleBufferedSim sim;
  sim.cost = std::chrono::milliseconds(8);
  app::Stepper stepper([&](float) { sim.step(); }, 1.0);
  for (int frame = 0; frame < 5; ++frame) {
    stepper.advance(0.0, /*lockstep=*/true);
    EXPECT_FALSE(stepper.busy());
    EXPECT_EQ(stepper.steps(), uint64_t(frame + 1));
  }
}

// A claim's fast-forward: a lockstep frame takes that many steps (all of them, inline, each booked);
// a real-time frame runs that many times the speed; a single step stays one step.
TEST(Stepper, FastForwardTakesSeveralStepsAFrame) {
  int steps = 0, booked = 0;
  app::Stepper stepper([&](float) { ++steps; });
  stepper.onStepped = [&] { ++booked; };
  stepper.fastForward = 8;
  for (int frame = 0; frame < 3; ++frame) stepper.advance(0.0, /*lockstep=*/true);
  EXPECT_EQ(steps, 24);
  EXPECT_EQ(booked, 24);
  EXPECT_FALSE(stepper.busy());
  stepper.advance(0.034, false);  // 34 ms at 8x owe 16 steps
  EXPECT_EQ(steps, 40);
  stepper.paused = true;
  stepper.requestSingleStep();
  stepper.advance(0.0, true);
  EXPECT_EQ(steps, 41);
  stepper.fastForward = 1;
  stepper.paused = false;
  stepper.advance(0.0, true);
  EXPECT_EQ(steps, 42);
  // Lowered from onStepped (the verdict came in after the third step): the frame stops there.
  stepper.fastForward = 8;
  stepper.onStepped = [&] {
    if (steps == 45) stepper.fastForward = 1;
  };
  stepper.advance(0.0, true);
  EXPECT_EQ(steps, 45);
}

// The step's figure is the step alone (honest timing): what runs after a step is booked,
// the scenes' metric sampling, is never in it. Sleeps with wide margins, so a busy machine cannot
// make it fail: 60 ms after each step against figures under 30 ms, and a step of 60 ms read as such.
TEST(Stepper, TheStepFigureIsTheStepAloneNotWhatRunsAfterIt) {
  auto stepCost = std::chrono::milliseconds(0);
  app::Stepper stepper([&](float) { std::this_thread::sleep_for(stepCost); });
  stepper.onStepped = [] { std::this_thread::sleep_for(std::chrono::milliseconds(60)); };
  for (int frame = 0; frame < 4; ++frame) stepper.advance(0.0, /*lockstep=*/true);
  std::vector<double> ms = stepper.recentStepMs(10.0);
  ASSERT_EQ(ms.size(), 4u);
  for (double m : ms) EXPECT_LT(m, 30.0) << "the sampling after a step was counted in it";
  stepper.restart();
  stepCost = std::chrono::milliseconds(60);
  for (int frame = 0; frame < 2; ++frame) stepper.advance(0.0, /*lockstep=*/true);
  ms = stepper.recentStepMs(10.0);
  ASSERT_EQ(ms.size(), 2u);
  for (double m : ms) EXPECT_GE(m, 55.0) << "the step itself is timed";
}

TEST(Stepper, PauseHoldsAndSingleStepTakesOne) {
  int steps = 0;
  app::Stepper stepper([&](float dt) {
    EXPECT_FLOAT_EQ(dt, app::Stepper::kStepSeconds);
    ++steps;
  });
  stepper.advance(0.051, false);  // 51 ms owe 3 steps at 60 Hz
  EXPECT_EQ(steps, 3);
  stepper.advance(0.2, false);  // at most 4 a frame: a slow frame does not spiral
  EXPECT_EQ(steps, 7);
  EXPECT_GT(stepper.stepsDropped(), 0);
  stepper.paused = true;
  stepper.advance(0.1, false);
  EXPECT_EQ(steps, 7);
  stepper.requestSingleStep();
  stepper.advance(0.1, false);
  EXPECT_EQ(steps, 8);
  EXPECT_TRUE(stepper.paused);
  EXPECT_EQ(stepper.recentStepMs(2.0).size(), 8u);
  stepper.restart();
  EXPECT_EQ(stepper.steps(), 0u);
  EXPECT_TRUE(stepper.recentStepMs(2.0).empty());
}

// Issue 29, item 8: `--set hash=false --set N=100000` froze the window for half a minute: the first
// step ran on the UI thread (steps moved to the worker only after one was measured slow), and again
// after each restart or change of N. A step whose cost is unknown now starts on the worker.
TEST(Stepper, AStepOfUnknownCostStartsOnTheWorker) {
  DoubleBufferedSim sim;
  sim.gate = std::make_shared<Gate>();
  app::Stepper stepper([&](float) { sim.step(); });
  stepper.restart();  // a new scene: its first step may be slow
  stepper.advance(1.0 / 60.0, /*lockstep=*/false);
  EXPECT_TRUE(stepper.busy()) << "the UI thread ran the step";
  EXPECT_EQ(sim.stepsEnded.load(std::memory_order_acquire), 0);
  sim.gate->release();
  stepper.waitIdle();
  EXPECT_NE(sim.steppedOn, std::this_thread::get_id());
  sim.gate.reset();
  EXPECT_TRUE(sim.consistent());
  EXPECT_EQ(stepper.steps(), 1u);
  // Measured fast, steps run inline again; a changed parameter sends the next one to the worker.
  sim.cost = std::chrono::milliseconds(0);
  for (int i = 0; i < 3 && stepper.steps() < 3; ++i) {
    stepper.advance(1.0 / 60.0, false);
    stepper.waitIdle();
  }
  stepper.advance(1.0 / 60.0, false);
  EXPECT_FALSE(stepper.busy()) << "a fast step runs inline";
  stepper.expectSlowStep();
  stepper.advance(1.0 / 60.0, false);
  EXPECT_TRUE(stepper.busy()) << "after a parameter change the next step starts on the worker";
  stepper.waitIdle();
  EXPECT_TRUE(sim.consistent());
}

// Issue 29, item 8: quitting waited for another full step (86.7 s). abandon() returns at once and
// books nothing from the step it leaves.
TEST(Stepper, AbandonLeavesAStepInFlightAtOnce) {
  DoubleBufferedSim sim;
  sim.gate = std::make_shared<Gate>();
  std::atomic<int> finished{0};  // release/acquire: the test touches sim only after the worker is done with it
  {
    app::Stepper stepper([&](float) {
      sim.step();
      finished.store(1, std::memory_order_release);
    });
    stepper.restart();
    stepper.advance(1.0 / 60.0, false);
    ASSERT_TRUE(stepper.busy());
    EXPECT_TRUE(stepper.abandon());
    EXPECT_EQ(finished.load(std::memory_order_acquire), 0) << "abandon waited for the step";
    sim.gate->release();
    EXPECT_EQ(stepper.steps(), 0u) << "nothing is booked from a half step";
    EXPECT_FALSE(stepper.abandon()) << "nothing left in flight";
    // The app ends the process now; here the stepper's destructor waits for the worker.
  }
  EXPECT_EQ(finished.load(std::memory_order_acquire), 1);
  EXPECT_EQ(sim.steps, 1);
}

// Where there is no thread to step on (the browser: an infinite threshold), a step of unknown cost
// runs on the UI thread like every other: it never starts a worker that cannot exist.
TEST(Stepper, WithoutBackgroundStepsAStepOfUnknownCostRunsInline) {
  DoubleBufferedSim sim;
  app::Stepper stepper([&](float) { sim.step(); }, std::numeric_limits<double>::infinity());
  stepper.restart();
  stepper.expectSlowStep();
  stepper.advance(1.0 / 60.0, /*lockstep=*/false);
  EXPECT_FALSE(stepper.busy()) << "a worker was started";
  EXPECT_EQ(stepper.steps(), 1u);
  EXPECT_TRUE(sim.consistent());
}

// Issue 29, item 8: choosing another scene waited for the step in flight (half a minute at
// `--scene finale --set hash=false --set N=100000`). A switch abandons it as quitting does: the old
// simulation is handed over and freed once its step ends, a second switch during the first step
// never waits either, and the new step function never reaches the step already running.
TEST(Stepper, ASwitchAbandonsTheStepInFlightAndFreesTheOldSimulationAfterIt) {
  auto first = std::make_shared<DoubleBufferedSim>(), second = std::make_shared<DoubleBufferedSim>();
  const auto gate = std::make_shared<Gate>();  // holds both abandoned steps until the switches are done
  first->gate = second->gate = gate;
  DoubleBufferedSim* const firstStepping = first.get();  // alive while its step waits at the gate
  DoubleBufferedSim* const secondStepping = second.get();
  DoubleBufferedSim third;
  std::weak_ptr<DoubleBufferedSim> firstAlive = first, secondAlive = second;
  {
    app::Stepper stepper([s = first.get()](float) { s->step(); });
    stepper.restart();
    stepper.advance(1.0 / 60.0, false);
    ASSERT_TRUE(stepper.busy());
    EXPECT_TRUE(stepper.abandon(std::move(first)));
    stepper.setStep([s = second.get()](float) { s->step(); });
    stepper.restart();
    stepper.advance(1.0 / 60.0, false);  // the second simulation's first step, on the worker
    ASSERT_TRUE(stepper.busy());
    EXPECT_TRUE(stepper.abandon(std::move(second)));
    stepper.setStep([&](float) { third.step(); });
    EXPECT_EQ(firstStepping->stepsEnded.load(std::memory_order_acquire) +
                  secondStepping->stepsEnded.load(std::memory_order_acquire), 0)
        << "a switch waited for a step";
    EXPECT_TRUE(stepper.abandonedRunning());
    EXPECT_FALSE(firstAlive.expired()) << "freed under its own step";
    EXPECT_EQ(stepper.steps(), 0u) << "nothing is booked from an abandoned step";
    gate->release();
    // The third simulation steps meanwhile; the abandoned ones end on their own and are freed.
    for (int frame = 0; frame < 400 && stepper.abandonedRunning(); ++frame) {
      stepper.advance(1.0 / 60.0, false);
      if (stepper.idle()) {
        EXPECT_TRUE(third.consistent());
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    EXPECT_FALSE(stepper.abandonedRunning());
    EXPECT_TRUE(firstAlive.expired() && secondAlive.expired()) << "kept after their steps ended";
    stepper.waitIdle();
    EXPECT_EQ(uint64_t(third.steps), stepper.steps()) << "only the third simulation's steps are booked";
  }
}

// Issue 29, item 9: F read agent positions during a step (as Home once did). The app's keys that
// read the scene (N, F, the follow camera) are the handlers in agent_selection.hpp, which reach the scene
// only through the app's guard; here they run against steps on the worker with the same guard
// (waitIdle, then the scene). Under ThreadSanitizer a handler that bypassed it is a reported race.
TEST(Stepper, TheKeysThatReadTheSceneWaitForAStepInFlight) {
  struct Agents : DoubleBufferedSim {
    size_t selected = 0;
    bool any = false;
    bool selectNextAgent() {  // reads every agent, as a scene's search for the next one does
      for (size_t k = 1; k <= current.size(); ++k)
        if (current[(selected + k) % current.size()] >= 0) {
          selected = (selected + k) % current.size();
          any = true;
          return true;
        }
      return false;
    }
    std::optional<int> selectedAgent() const { return any ? std::optional<int>(current[selected]) : std::nullopt; }
  } agents;
  agents.cost = std::chrono::milliseconds(4);
  app::Stepper stepper([&](float) { agents.step(); }, /*asyncAfterMs=*/0.5);
  auto guarded = [&]() -> Agents& {
    stepper.waitIdle();  // App::scene()
    return agents;
  };
  bool following = false;
  int inFlight = 0, noAgent = 0;
  for (int frame = 0; frame < 40; ++frame) {
    stepper.advance(1.0 / 60.0, /*lockstep=*/false);
    inFlight += stepper.busy();
    switch (frame % 3) {
      case 0: following = app::toggleFollow(guarded, following, [&] { ++noAgent; }); break;
      case 1: EXPECT_TRUE(app::selectNextAgent(guarded)); break;
      default: break;
    }
    if (const std::optional<int> at = app::followedPosition(guarded)) {
      EXPECT_EQ(*at, agents.steps) << "a half-written state";
    }
    EXPECT_TRUE(agents.consistent());
  }
  EXPECT_GT(inFlight, 10) << "the keys ran while steps were on the worker";
  EXPECT_EQ(noAgent, 0);
  stepper.waitIdle();
}
