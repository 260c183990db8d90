// Metrics scenes sample while they run: the grid's mean nearest-neighbour distance equals brute force.
#include <gtest/gtest.h>

#include <vector>
#include "sim/core/metrics.hpp"
#include "sim/core/rng.hpp"
#include "worlds.hpp"

namespace {
template <int D>
void expectGridMatchesBruteForce(sim::Boundary boundary, size_t n, bool clustered) {
  const sim::World<D> w = makeWorld<D>(boundary, sim::Vec<D>(-50.0f), sim::Vec<D>(800.0f));
  sim::Rng rng(11);
  std::vector<sim::Vec<D>> p(n);
  for (size_t i = 0; i < n; ++i)
    p[i] = clustered && i % 2 ? rng.inBox<D>(w.min, w.min + w.size * 0.05f) : rng.inBox<D>(w.min, w.max());
  sim::UniformGrid<D> scratch;
  const double brute = sim::meanNearestNeighborDistance<D>(p, w);
  const double grid = sim::meanNearestNeighborDistance<D>(p, w, scratch);
  EXPECT_GT(brute, 0.0);
  EXPECT_NEAR(grid, brute, brute * 1e-5) << "n=" << n << " clustered=" << clustered;
}
}  // namespace

TEST(MeanNearestNeighbor, GridEqualsBruteForce) {
  for (sim::Boundary b : {sim::Boundary::Wrap, sim::Boundary::Bounce}) {
    for (bool clustered : {false, true}) {
      expectGridMatchesBruteForce<2>(b, 3000, clustered);
      expectGridMatchesBruteForce<3>(b, 2000, clustered);
    }
    expectGridMatchesBruteForce<2>(b, 2, false);
  }
  sim::UniformGrid<2> scratch;
  const std::vector<sim::Vec2> one{sim::Vec2(1.0f)};
  EXPECT_EQ(sim::meanNearestNeighborDistance<2>(one, makeWorld<2>(sim::Boundary::Wrap, sim::Vec2(0.0f), sim::Vec2(10.0f)), scratch), 0.0);
}

// The program's one median: the middle value, the mean of the middle two for an even count, 0 for none.
TEST(Median, MiddleValueOrMeanOfTheMiddleTwo) {
  EXPECT_EQ(sim::median({}), 0.0);
  EXPECT_EQ(sim::median({7.0}), 7.0);
  EXPECT_EQ(sim::median({5.0, 1.0, 3.0}), 3.0);
  EXPECT_EQ(sim::median({4.0, 1.0, 3.0, 2.0}), 2.5);
  EXPECT_EQ(sim::median({9.0, 9.0, 1.0, 100.0}), 9.0);
}
