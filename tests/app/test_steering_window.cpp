// The steering playground in a real window (Xvfb + Mesa): it renders, and all agents take one draw call.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include "app_util.hpp"

TEST(Window, SteeringRendersItsAgentsWithOneDrawCall) {
  std::string png = apptest::outDir() + "/steering.png";
  std::remove(png.c_str());
  apptest::RunResult r = apptest::runCrowdlab("--scene steering --frames 60 --screenshot '" + png + "'");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.value("agent_draw_calls"), "1");
  EXPECT_EQ(r.value("agents"), "30");
  apptest::ImageStats s = apptest::pngStats(png);
  ASSERT_TRUE(s.loaded) << png;
  EXPECT_EQ(s.width, 1280);
  EXPECT_EQ(s.height, 720);
  EXPECT_GT(s.distinctColors, 30u);    // obstacles, target, agents, UI
  EXPECT_LT(s.dominantFraction, 0.95); // not a blank background
}

TEST(Window, SteeringApitraceSeesOneInstancedDrawOfAllAgents) {
  bool available = false;
  std::vector<long long> draws =
      apptest::instancedDrawsInLastFrame("--scene steering --set N=77 --set formation=on --frames 3", "steering_trace",
                                         available);
  if (!available) GTEST_SKIP() << "apitrace is not installed";
  EXPECT_EQ(std::count(draws.begin(), draws.end(), 77LL), 1) << "instanced draws in the last frame: " << draws.size();
}
