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

