// The thread count: a scoped count holds inside its scope only, so a scene's own setting never leaks.
#include <gtest/gtest.h>

#include <atomic>
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
