// The lecture hall (issue 13) in a real window: scale and theme changes that end where a fresh
// start would, and honest timing.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include "app_util.hpp"

namespace {
// Each run gets its own settings folder with a fixed scale, so the display's first-run scale does
// not differ between the runs compared.
apptest::RunResult run(const std::string& args, const std::string& scale = "1.0") {
  static int n = 0;
  const std::string dir = apptest::outDir() + "/lecture-" + std::to_string(n++);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/settings.json") << "{\"uiScale\": " << scale << "}";
  return apptest::runCrowdlab(args, "CROWDLAB_CONFIG_DIR='" + dir + "'");
}
}  // namespace

TEST(LectureHall, LargerFourTimesThenSmallerFourTimesEndsWhereAFreshStartDoes) {
  apptest::RunResult fresh = run("--scene boids --frames 3");
  apptest::RunResult bigger = run("--scene boids --keys ctrl+=,ctrl+=,ctrl+=,ctrl+= --frames 8");
  apptest::RunResult back = run("--scene boids --keys ctrl+=,ctrl+=,ctrl+=,ctrl+=,ctrl+-,ctrl+-,ctrl+-,ctrl+- --frames 12");
  ASSERT_EQ(back.exitCode, 0) << back.err;
  EXPECT_EQ(bigger.value("ui_scale"), "2.00");
  EXPECT_NE(bigger.value("style"), fresh.value("style")) << "the keys did scale the UI";
  EXPECT_EQ(back.value("ui_scale"), "1.00");
  EXPECT_EQ(back.value("style"), fresh.value("style"));
}

TEST(LectureHall, ThemeToggledTwiceEndsWhereAFreshStartDoes) {
  apptest::RunResult fresh = run("--scene boids --frames 3", "1.5");
  apptest::RunResult light = run("--scene boids --keys ctrl+t --frames 4", "1.5");
  apptest::RunResult twice = run("--scene boids --keys ctrl+t,ctrl+t,ctrl+t,ctrl+t --frames 8", "1.5");
  ASSERT_EQ(twice.exitCode, 0) << twice.err;
  EXPECT_EQ(light.value("theme"), "light");
  EXPECT_EQ(twice.value("theme"), "dark");
  EXPECT_EQ(twice.value("style"), fresh.value("style"));
  EXPECT_EQ(light.value("style"), fresh.value("style")) << "a theme changes colours, never sizes";
}

TEST(LectureHall, FirstRunOnA1080pDisplayPicksALargerScaleAndASavedOneWins) {
  const std::string dir = apptest::outDir() + "/lecture-firstrun";
  std::filesystem::remove_all(dir);
  apptest::RunResult first = apptest::runCrowdlab("--scene boids --frames 2", "CROWDLAB_CONFIG_DIR='" + dir + "'");
  ASSERT_EQ(first.exitCode, 0) << first.err;
  EXPECT_GE(std::atof(first.value("ui_scale").c_str()), 1.5) << "the test display is 1920 x 1080";
  EXPECT_EQ(run("--scene boids --frames 2", "1.25").value("ui_scale"), "1.25");
}

TEST(LectureHall, WindowStepTimeAtFiveThousandBoidsIsWithinTwiceTheHeadlessMedian) {
  apptest::RunResult headless = apptest::runCrowdlab("--headless --scene boids --set N=5000 --steps 240");
  apptest::RunResult window = run("--scene boids --set N=5000 --frames 240");
  ASSERT_EQ(window.exitCode, 0) << window.err;
  const double h = std::atof(headless.value("step_ms_median").c_str()), w = std::atof(window.value("step_ms_median").c_str());
  ASSERT_GT(h, 0.0);
  EXPECT_LT(w, 2.0 * h) << "window " << w << " ms, headless " << h << " ms";
}
