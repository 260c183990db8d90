// The threaded page's pool (sim/core/parallel.cpp with CROWDLAB_THREAD_POOL), built natively on its
// own, without oneTBB, so that scripts/test.sh also runs it under ThreadSanitizer: every index once,
// on the threads asked for, and a loop or short region nested in a chunk runs to its end.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <vector>
#include "sim/core/parallel.hpp"

static_assert(CROWDLAB_THREAD_POOL >= 2 && CROWDLAB_SERIAL, "built as the threaded page's loops");

namespace {

struct Visits {
  std::vector<std::atomic<int>> count;
  explicit Visits(size_t n) : count(n) {}
  bool eachOnce() const {
    return std::all_of(count.begin(), count.end(), [](const std::atomic<int>& c) { return c.load() == 1; });
  }
};

}  // namespace

TEST(Pool, LoopsVisitEveryIndexOnceOnTheThreadsAsked) {
  sim::setThreadCount(2);
  int sawTwo = 0;
  // 2,000 loops, and more until the helper has taken part (a busy machine may not schedule it soon).
  const bool twoCores = sim::hardwareThreads() >= 2;
  for (int loop = 0; loop < 2000 || (twoCores && sawTwo == 0 && loop < 200000); ++loop) {
    Visits visits(8);
    sim::resetThreadsAtWork();
    sim::parallelForRange(visits.count.size(), [&](size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i) visits.count[i]++;
      volatile float x = 0.0f;  // a little work per chunk, so that a helper finds one left
      for (int k = 0; k < 2000; ++k) x = x + 1.0f;
    }, 2);
    ASSERT_TRUE(visits.eachOnce()) << "loop " << loop;
    ASSERT_LE(sim::threadsAtWork(), sim::threadCount());
    sawTwo += sim::threadsAtWork() == 2;
  }
  if (sim::hardwareThreads() >= 2) {
    EXPECT_GT(sawTwo, 0);  // the helper took part
  }
  sim::setThreadCount(0);
}

TEST(Pool, OneThreadAskedKeepsTheLoopOnTheCaller) {
  sim::setThreadCount(1);
  for (int loop = 0; loop < 200; ++loop) {
    Visits visits(8);
    sim::resetThreadsAtWork();
    sim::parallelFor(visits.count.size(), [&](size_t i) { visits.count[i]++; }, 1);
    ASSERT_TRUE(visits.eachOnce());
    ASSERT_EQ(sim::threadsAtWork(), 1);
  }
  sim::setThreadCount(0);
}

// A loop inside a chunk finds the pool busy and runs on the chunk's thread: every index of both loops
// once, whichever thread took each outer chunk.
TEST(Pool, ALoopNestedInAChunkRunsToTheEnd) {
  sim::setThreadCount(2);
  for (int loop = 0; loop < 200; ++loop) {
    Visits outer(4), inner(4 * 64);
    sim::parallelForRange(outer.count.size(), [&](size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i) {
        outer.count[i]++;
        sim::parallelFor(64, [&](size_t j) { inner.count[i * 64 + j]++; }, 16);
      }
    }, 1);
    ASSERT_TRUE(outer.eachOnce()) << "loop " << loop;
    ASSERT_TRUE(inner.eachOnce()) << "loop " << loop;
  }
  sim::setThreadCount(0);
}

// Short regions (parallelParts) run on the same pool: every part once, a region nested in a part too.
TEST(Pool, ShortRegionsRunEveryPartOnceNestedOrNot) {
  sim::setThreadCount(2);
  for (int region = 0; region < 200; ++region) {
    Visits outer(2), inner(2 * 3);
    sim::parallelParts(outer.count.size(), [&](size_t begin, size_t end) {
      for (size_t p = begin; p < end; ++p) {
        outer.count[p]++;
        sim::parallelParts(3, [&](size_t b, size_t e) {
          for (size_t q = b; q < e; ++q) inner.count[p * 3 + q]++;
        });
      }
    });
    ASSERT_TRUE(outer.eachOnce()) << "region " << region;
    ASSERT_TRUE(inner.eachOnce()) << "region " << region;
  }
  sim::setThreadCount(0);
}

// parallelPartsThen: after(context, p, onHelper) once for every part of every region, after that
// part's body; a part run on the caller has had its call when the region returns, a helper's may
// come later (the helper makes it once out of the region), and every call of a region comes before
// the helper takes a part of the next one.
TEST(Pool, ShortRegionsThenCallAfterOncePerPartAfterItsBody) {
  struct Calls {
    std::atomic<int> bodies[2], afters[2], onHelper{0}, outOfOrder{0};
  };
  static Calls calls;  // static: a helper's call may come after the region's frame is gone
  sim::setThreadCount(2);
  for (int region = 0; region < 300; ++region) {
    for (int p = 0; p < 2; ++p) calls.bodies[p] = calls.afters[p] = 0;
    sim::parallelPartsThen(
        2,
        [&](size_t begin, size_t end) {
          for (size_t p = begin; p < end; ++p) calls.bodies[p]++;
        },
        [](void* c, size_t p, bool onHelper) {
          Calls& k = *static_cast<Calls*>(c);
          if (k.bodies[p].load() != 1) k.outOfOrder++;
          k.afters[p]++;
          if (onHelper) k.onHelper++;
        },
        &calls);
    // The helper's call, if any, follows within microseconds; the caller's have come already.
    for (int spin = 0; spin < 100000000 && (calls.afters[0] + calls.afters[1]) < 2; ++spin) {
    }
    ASSERT_EQ(calls.afters[0].load(), 1) << "region " << region;
    ASSERT_EQ(calls.afters[1].load(), 1) << "region " << region;
  }
  EXPECT_EQ(calls.outOfOrder.load(), 0);
  sim::setThreadCount(0);
}
