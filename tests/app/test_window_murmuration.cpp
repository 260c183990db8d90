// The murmuration in a real window (Xvfb + Mesa): 50,000 birds in one instanced draw, birds that
// show against the dusk sky, and the falcon of an alarm.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "app_util.hpp"

namespace {

struct Pixels {
  int width = 0, height = 0;
  std::vector<unsigned char> rgba;
  const unsigned char* at(int x, int y) const { return rgba.data() + (size_t(y) * size_t(width) + size_t(x)) * 4; }
};

Pixels load(const std::string& path) {
  Pixels p;
  int n = 0;
  unsigned char* data = stbi_load(path.c_str(), &p.width, &p.height, &n, 4);
  if (data) {
    p.rgba.assign(data, data + size_t(p.width) * size_t(p.height) * 4);
    stbi_image_free(data);
  }
  return p;
}

// The open sky between the HUD (left) and the scene panel (right) at 1280 x 720.
constexpr int kX0 = 340, kX1 = 830, kY0 = 30, kY1 = 710;

// Pixels that stand out from their row of sky: the sky is a vertical gradient, so each row's
// brightest colour is the sky there, and a bird is much darker than that.
int birdPixels(const Pixels& p) {
  int count = 0;
  for (int y = kY0; y < kY1; ++y) {
    int sky = 0;
    for (int x = kX0; x < kX1; ++x) sky = std::max(sky, p.at(x, y)[0] + p.at(x, y)[1] + p.at(x, y)[2]);
    for (int x = kX0; x < kX1; ++x) {
      const unsigned char* c = p.at(x, y);
      count += c[0] + c[1] + c[2] < sky - 60;
    }
  }
  return count;
}

int redPixels(const Pixels& p) {
  int count = 0;
  for (int y = kY0; y < kY1; ++y)
    for (int x = kX0; x < kX1; ++x) {
      const unsigned char* c = p.at(x, y);
      count += c[0] > 170 && c[1] < 90 && c[2] < 90;
    }
  return count;
}

}  // namespace

TEST(Window, MurmurationAt50000DrawsEveryBirdInOneCall) {
  std::string png = apptest::outDir() + "/murmuration_50000.png";
  std::remove(png.c_str());
  apptest::RunResult r = apptest::runCrowdlab("--scene murmuration --width 1280 --height 720 --set N=50000 --frames 12 --screenshot '" + png + "'");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.value("agent_draw_calls"), "1");
  EXPECT_EQ(r.value("agents"), "50000");
  apptest::ImageStats s = apptest::pngStats(png);
  ASSERT_TRUE(s.loaded) << png;
  EXPECT_EQ(s.width, 1280);
  EXPECT_EQ(s.height, 720);
  EXPECT_LT(s.dominantFraction, 0.5);  // a sky gradient and birds, not a blank background
  Pixels p = load(png);
  EXPECT_GT(birdPixels(p), 5000) << "the flock shows as dark birds against the sky";
}

TEST(Window, MurmurationApitraceSeesOneInstancedDrawOf50000Birds) {
  bool available = false;
  std::vector<long long> draws =
      apptest::instancedDrawsInLastFrame("--scene murmuration --set N=50000 --frames 3", "murmuration_trace", available);
  if (!available) GTEST_SKIP() << "apitrace is not installed";
  // The falcon is drawn with debug lines, so the birds are exactly N instances.
  EXPECT_EQ(std::count(draws.begin(), draws.end(), 50000LL), 1) << "instanced draws in the last frame: " << draws.size();
}

TEST(Window, MurmurationAlarmShowsTheFalcon) {
  std::string png = apptest::outDir() + "/murmuration_falcon.png";
  std::remove(png.c_str());
  // The automatic alarm fires after 2 s (frame 120); 40 frames later the falcon is diving through.
  apptest::RunResult r =
      apptest::runCrowdlab("--scene murmuration --width 1280 --height 720 --set alarmEvery=2 --frames 160 --screenshot '" + png + "'");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.value("agent_draw_calls"), "1");
  Pixels p = load(png);
  ASSERT_FALSE(p.rgba.empty()) << png;
  EXPECT_GT(redPixels(p), 30) << "the falcon (red lines) is on screen";
  EXPECT_GT(birdPixels(p), 500);
}

TEST(Window, MurmurationPlanarModeRenders) {
  std::string png = apptest::outDir() + "/murmuration_2d.png";
  std::remove(png.c_str());
  apptest::RunResult r = apptest::runCrowdlab("--scene murmuration --width 1280 --height 720 --set mode2D=on --frames 30 --screenshot '" + png + "'");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.value("agent_draw_calls"), "1");
  EXPECT_EQ(r.value("agents"), "2000");
  apptest::ImageStats s = apptest::pngStats(png);
  ASSERT_TRUE(s.loaded) << png;
  EXPECT_LT(s.dominantFraction, 0.9);
}
