// The Spatial-hash scene in a real window (Xvfb + Mesa): 50,000 agents in one draw call, overlays on screen.
#include <gtest/gtest.h>

#include <algorithm>
#include "app_util.hpp"

TEST(WindowSpatialHash, FiftyThousandAgentsRenderWithOneDrawCall) {
  std::string png = apptest::outDir() + "/spatial_hash_50000.png";
  std::remove(png.c_str());
  apptest::RunResult r = apptest::runCrowdlab("--scene spatial-hash --set N=50000 --frames 30 --screenshot '" + png + "'");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.value("agent_draw_calls"), "1");
  EXPECT_EQ(r.value("agents"), "50000");
  apptest::ImageStats s = apptest::pngStats(png);
  ASSERT_TRUE(s.loaded) << png;
  EXPECT_GT(s.distinctColors, 50u);
  EXPECT_LT(s.dominantFraction, 0.9);
}

TEST(WindowSpatialHash, HeatMapAndGridOverlayOnAClusteredFlock) {
  std::string png = apptest::outDir() + "/spatial_hash_heat.png";
  std::remove(png.c_str());
  apptest::RunResult r = apptest::runCrowdlab("--scene spatial-hash --set distribution=clustered --set heat=on --set grid=on "
                                              "--frames 30 --screenshot '" + png + "'");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.value("agent_draw_calls"), "1");
  apptest::ImageStats s = apptest::pngStats(png);
  ASSERT_TRUE(s.loaded) << png;
  EXPECT_GT(s.distinctColors, 50u);
  EXPECT_LT(s.dominantFraction, 0.9);
}

TEST(WindowSpatialHash, ApitraceSeesExactlyOneInstancedDrawOfFiftyThousand) {
  bool available = false;
  std::vector<long long> draws =
      apptest::instancedDrawsInLastFrame("--scene spatial-hash --set N=50000 --frames 3", "spatial_hash_trace", available);
  if (!available) GTEST_SKIP() << "apitrace is not installed";
  EXPECT_EQ(std::count(draws.begin(), draws.end(), 50000LL), 1) << "instanced draws in the last frame: " << draws.size();
}
