// The ORCA corridor in a real window (Xvfb + Mesa): the velocity-space inset open, agents in one draw call.
#include <gtest/gtest.h>

#include <algorithm>
#include "app_util.hpp"

TEST(WindowOrcaCorridor, RendersWithTheInsetOpenAndOneAgentDrawCall) {
  std::string png = apptest::outDir() + "/orca_corridor_inset.png";
  std::remove(png.c_str());
  apptest::RunResult r = apptest::runCrowdlab("--scene orca-corridor --set inset=true --set showVelocity=true "
                                              "--set showTargets=true --frames 120 --screenshot '" + png + "'");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.value("agent_draw_calls"), "1");
  EXPECT_EQ(r.value("agents"), "40");
  apptest::ImageStats s = apptest::pngStats(png);
  ASSERT_TRUE(s.loaded) << png;
  EXPECT_GT(s.distinctColors, 50u);
  EXPECT_LT(s.dominantFraction, 0.9);
}

TEST(WindowOrcaCorridor, ApitraceSeesExactlyOneInstancedDrawOfTheFortyAgents) {
  bool available = false;
  std::vector<long long> draws = apptest::instancedDrawsInLastFrame("--scene orca-corridor --set inset=true --frames 3",
                                                                    "orca_corridor_trace", available);
  if (!available) GTEST_SKIP() << "apitrace is not installed";
  EXPECT_EQ(std::count(draws.begin(), draws.end(), 40LL), 1) << "instanced draws in the last frame: " << draws.size();
}
