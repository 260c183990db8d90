// The big finale in a real window (Xvfb + Mesa) at N = 100,000: every agent in one instanced draw,
// and a picture that is not blank.
#include <gtest/gtest.h>

#include <algorithm>
#include "app_util.hpp"

TEST(WindowFinale, HundredThousandAgentsInOneDrawCall) {
  std::string png = apptest::outDir() + "/finale_100000.png";
  std::remove(png.c_str());
  apptest::RunResult r =
      apptest::runCrowdlab("--scene finale --set N=100000 --set obstacles=30 --frames 8 --screenshot '" + png + "'");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.value("agents"), "100000");
  EXPECT_EQ(r.value("agent_draw_calls"), "1");
  apptest::ImageStats s = apptest::pngStats(png);
  ASSERT_TRUE(s.loaded) << png;
  EXPECT_EQ(s.width, 1280);
  EXPECT_EQ(s.height, 720);
  EXPECT_GT(s.distinctColors, 50u);    // agents coloured by density, obstacles, UI text
  EXPECT_LT(s.dominantFraction, 0.9);  // not a blank background
}

TEST(WindowFinale, ApitraceSeesOneInstancedDrawOfAllHundredThousand) {
  bool available = false;
  std::vector<long long> draws =
      apptest::instancedDrawsInLastFrame("--scene finale --set N=100000 --frames 3", "finale_trace", available);
  if (!available) GTEST_SKIP() << "apitrace is not installed";
  EXPECT_EQ(std::count(draws.begin(), draws.end(), 100000LL), 1) << "instanced draws in the last frame: " << draws.size();
}
