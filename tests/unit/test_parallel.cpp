// The thread count: a scoped count holds inside its scope only, so a scene's own setting never leaks.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <vector>
#include <thread>
#include "sim/core/parallel.hpp"

TEST(ScopedThreadCount, HoldsInsideItsScopeAndPutsBackTheCountBefore) {
  sim::setThreadCount(0);
  const int all = sim::hardwareThreads();
  {
    const sim::ScopedThreadCount one(1);
    EXPECT_EQ(sim::threadCount(), 1);
    std::atomic<size_t> visited{0};
    sim::parallelFor(10000, [&](size_t) { visited++; });  // runs, on the scoped count
    EXPECT_EQ(visited.load(), 10000u);
    {
      const sim::ScopedThreadCount many(64);  // more than the machine has: all its cores
      EXPECT_EQ(sim::threadCount(), all);
    }
    EXPECT_EQ(sim::threadCount(), 1);
  }
  EXPECT_EQ(sim::threadCount(), all);
}

// Issue 29, item 8: a scene switch abandons a slow step, which goes on in its arena. Loops started
// after leaveArenasToAbandonedWork() get new arenas (on this thread at once, on a new thread at its
// first loop), with the same thread count, so they never queue behind the old step's chunks; the
// old arena stays usable for the loop still running in it.
TEST(ThreadArenas, WorkAfterAnAbandonedStepGetsNewArenas) {
  sim::setThreadCount(0);
  tbb::task_arena* old = &sim::arena();
  const int count = sim::threadCount();
  std::atomic<size_t> oldVisited{0};
  std::thread abandoned([&] {  // a step started before the switch, in the old arena
    sim::parallelFor(20000, [&](size_t) { oldVisited++; });
  });
  sim::leaveArenasToAbandonedWork();
  EXPECT_NE(&sim::arena(), old);
  EXPECT_EQ(sim::threadCount(), count);
  tbb::task_arena* onNewThread = nullptr;
  std::thread fresh([&] { onNewThread = &sim::arena(); });
  fresh.join();
  EXPECT_NE(onNewThread, old);
  std::atomic<size_t> visited{0};
  sim::parallelFor(10000, [&](size_t) { visited++; });
  EXPECT_EQ(visited.load(), 10000u);
  abandoned.join();
  EXPECT_EQ(oldVisited.load(), 20000u);
}

// A small step whose threads cost more than they give runs on one thread, found by timing it: the
// first kProbe runs on one thread, the next kProbe on all, then the faster until the next probe.
// The runs here take their time from sleeping, not from work, so which is faster is fixed.
TEST(ThreadChoice, ProbesOneThreadThenAllThenKeepsTheFaster) {
  sim::setThreadCount(0);
  if (sim::hardwareThreads() < 2) GTEST_SKIP() << "one core: nothing to choose";
  using Choice = sim::ThreadChoice;
  auto runs = [](Choice& choice, int count, bool slowOnOne, std::vector<int>& threads) {
    for (int r = 0; r < count; ++r) {
      const Choice::Scope scope(choice);
      threads.push_back(sim::threadCount());
      const bool one = sim::threadCount() == 1;
      std::this_thread::sleep_for(std::chrono::milliseconds(one == slowOnOne ? 3 : 0));
    }
  };
  for (const bool slowOnOne : {true, false}) {
    Choice choice;
    std::vector<int> threads;
    runs(choice, 2 * Choice::kProbe + 20, slowOnOne, threads);
    for (int r = 0; r < Choice::kProbe; ++r) EXPECT_EQ(threads[size_t(r)], 1) << "run " << r;
    for (int r = Choice::kProbe; r < 2 * Choice::kProbe; ++r)
      EXPECT_EQ(threads[size_t(r)], sim::hardwareThreads()) << "run " << r;
    const int kept = slowOnOne ? sim::hardwareThreads() : 1;
    for (size_t r = 2 * Choice::kProbe; r < threads.size(); ++r) EXPECT_EQ(threads[r], kept) << "run " << r;
    EXPECT_EQ(sim::threadCount(), sim::hardwareThreads()) << "the count in force is put back after each run";
  }
  // One thread in force: nothing to probe, every run on one.
  const sim::ScopedThreadCount one(1);
  Choice choice;
  std::vector<int> threads;
  runs(choice, 2 * Choice::kProbe, true, threads);
  for (int t : threads) EXPECT_EQ(t, 1);
}
