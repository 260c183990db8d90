// The real program in a real window (Xvfb + Mesa): screenshots and draw calls.
#include <gtest/gtest.h>

#include <algorithm>
#include "app_util.hpp"

TEST(Window, BoidsAt5000RendersAgentsWithOneDrawCall) {
  std::string png = apptest::outDir() + "/boids_5000.png";
  std::remove(png.c_str());
  apptest::RunResult r = apptest::runCrowdlab("--scene boids --set N=5000 --frames 120 --screenshot '" + png + "'");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.value("agent_draw_calls"), "1");
  EXPECT_EQ(r.value("agents"), "5000");
  apptest::ImageStats s = apptest::pngStats(png);
  ASSERT_TRUE(s.loaded) << png;
  EXPECT_EQ(s.width, 1280);
  EXPECT_EQ(s.height, 720);
  EXPECT_GT(s.distinctColors, 50u);        // agents coloured by heading, UI text: far from one colour
  EXPECT_LT(s.dominantFraction, 0.9);      // not a blank background
}

TEST(Window, ApitraceSeesExactlyOneInstancedDrawOfAllAgents) {
  bool available = false;
  std::vector<long long> draws =
      apptest::instancedDrawsInLastFrame("--scene boids --set N=2000 --frames 3", "boids_trace", available);
  if (!available) GTEST_SKIP() << "apitrace is not installed";
  long long agentDraws = std::count(draws.begin(), draws.end(), 2000LL);
  EXPECT_EQ(agentDraws, 1) << "instanced draws in the last frame: " << draws.size();
}

TEST(Window, ScreenshotToAnUnwritablePathFailsCleanly) {
  apptest::RunResult r = apptest::runCrowdlab("--scene boids --frames 2 --screenshot /nonexistent-dir/x.png");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("cannot write"), std::string::npos) << r.err;
}
