// The measurement kit of sim/core: one overlap test and count, one world size for a density.
#include <gtest/gtest.h>

#include <vector>
#include "sim/core/grid.hpp"
#include "sim/core/metrics.hpp"
#include "sim/core/rng.hpp"
#include "sim/core/world.hpp"

using namespace sim;

TEST(MeasurementKit, WorldForDensityKeepsTheDensityAndTheShape) {
  for (double area : {150.0, 460.8, 785.4}) {
    for (double n : {100.0, 2000.0, 50000.0}) {
      const Vec2 size = worldForDensity(n, area);
      EXPECT_NEAR(double(size.x) * double(size.y) / n, area, 1e-4 * area) << "n " << n;
      EXPECT_NEAR(size.x / size.y, 16.0f / 9.0f, 1e-5f);
    }
    const Vec2 square = worldForDensity(1000.0, area, 1.0, 1.0);
    EXPECT_FLOAT_EQ(square.x, square.y);
    EXPECT_NEAR(double(square.x) * double(square.y), 1000.0 * area, 1e-3 * area);
  }
  // The scenes' reference: 2,000 agents on 1280 x 720, exactly.
  const Vec2 base = worldForDensity(2000.0, 1280.0 * 720.0 / 2000.0);
  EXPECT_EQ(base, Vec2(1280.0f, 720.0f));
}

TEST(MeasurementKit, CountOverlapsCountsEachPairCloserThanTheOverlapDistanceOnce) {
  const float r = 2.0f;
  const float d = overlapDistance(r);  // 3.96
  // 0-1 overlap, 1-2 just touch (2r: not counted), 3-4 overlap, 5 alone.
  const std::vector<Vec2> positions = {{10, 10}, {10 + 0.5f * d, 10}, {10 + 0.5f * d + 2 * r, 10},
                                       {50, 50}, {50, 50 + 0.99f * d}, {90, 20}};
  World<2> world;
  world.size = Vec2(100.0f);
  world.boundary = Boundary::Open;
  UniformGrid<2> grid;
  grid.build(positions, world, 8.0f);
  EXPECT_EQ(countOverlaps(grid, r), 2u);
  // The same with any cell size, and by brute force with the pair test.
  grid.build(positions, world, 1.0f);
  EXPECT_EQ(countOverlaps(grid, r), 2u);
  const OverlapPair overlapping(r);
  uint64_t brute = 0;
  for (uint32_t i = 0; i < positions.size(); ++i)
    for (uint32_t j = 0; j < positions.size(); ++j)
      if (i != j && overlapping(i, j, lengthSq(positions[j] - positions[i]))) ++brute;
  EXPECT_EQ(brute, 2u);
}

TEST(MeasurementKit, CountOverlapsAgreesWithBruteForceOnACrowd) {
  Rng rng(7);
  std::vector<Vec2> positions(800);
  for (Vec2& p : positions) p = Vec2(rng.uniform(0.0f, 200.0f), rng.uniform(0.0f, 200.0f));
  World<2> world;
  world.size = Vec2(200.0f);
  world.boundary = Boundary::Open;
  const float r = 2.5f;
  uint64_t brute = 0;
  for (size_t i = 0; i < positions.size(); ++i)
    for (size_t j = i + 1; j < positions.size(); ++j)
      if (lengthSq(positions[j] - positions[i]) < overlapDistance(r) * overlapDistance(r)) ++brute;
  ASSERT_GT(brute, 10u);
  UniformGrid<2> grid;
  grid.build(positions, world, 10.0f);
  EXPECT_EQ(countOverlaps(grid, r), brute);
}
