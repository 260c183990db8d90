// Settings persist across runs; a corrupt settings file gives defaults and a warning, never a crash.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include "app/settings.hpp"
#include "app_util.hpp"

TEST(Settings, LastSceneAndUiScalePersistAcrossRuns) {
  std::string dir = apptest::freshDir("settings-persist");
  std::string env = "CROWDLAB_CONFIG_DIR='" + dir + "'";
  // A session a person ends (Ctrl+Q) is remembered; scripted --frames runs are not (test_keys.cpp).
  apptest::RunResult first = apptest::runCrowdlab("--scene steering --keys ctrl+q", env + " timeout 60");
  ASSERT_EQ(first.exitCode, 0) << first.err;
  std::string saved = apptest::slurp(dir + "/settings.json");
  EXPECT_NE(saved.find("\"lastScene\": \"steering\""), std::string::npos) << saved;
  apptest::RunResult second = apptest::runCrowdlab("--frames 2", env);
  ASSERT_EQ(second.exitCode, 0) << second.err;
  EXPECT_EQ(second.value("scene"), "steering");
}

TEST(Settings, CorruptFileGivesDefaultsAndAWarning) {
  std::string dir = apptest::freshDir("settings-corrupt");
  std::ofstream(dir + "/settings.json") << "{\"lastScene\": \"steering\", \"uiScale\": ";
  apptest::RunResult r = apptest::runCrowdlab("--frames 2", "CROWDLAB_CONFIG_DIR='" + dir + "'");
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find("settings.json: not valid JSON"), std::string::npos) << r.err;
  EXPECT_EQ(r.value("scene"), "murmuration");  // the default (the teaching order's first), not the half-written lastScene
}

TEST(Settings, BadFieldsAreIgnoredOneByOne) {
  std::string dir = apptest::freshDir("settings-badfield");
  std::ofstream(dir + "/settings.json") << "{\"lastScene\": \"steering\", \"uiScale\": 99, \"vsync\": \"yes\"}";
  apptest::RunResult r = apptest::runCrowdlab("--frames 2", "CROWDLAB_CONFIG_DIR='" + dir + "'");
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find("uiScale"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("vsync"), std::string::npos) << r.err;
  EXPECT_EQ(r.value("scene"), "steering");  // the good field still counts
}

TEST(Recording, WritesTheRequestedNumberOfPngFrames) {
  std::string dir = apptest::outDir() + "/recording";
  std::filesystem::remove_all(dir);
  apptest::RunResult r = apptest::runCrowdlab("--scene boids --frames 8 --record 5 --record-dir '" + dir + "'");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.value("recorded"), "5");
  int pngs = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) pngs += e.path().extension() == ".png";
  EXPECT_EQ(pngs, 5);
  EXPECT_TRUE(apptest::pngStats(dir + "/frame_00005.png").loaded);
}

// ---- hostile settings files and scene resolution ----

// Item 1: {"uiScale":1e400} aborted the app at every start until the file was deleted.
TEST(Settings, OverflowingNumberGivesAWarningNotAnAbort) {
  std::string dir = apptest::freshDir("settings-overflow");
  std::ofstream(dir + "/settings.json") << R"({"lastScene": "steering", "uiScale": 1e400})";
  apptest::RunResult r = apptest::runCrowdlab("--frames 2", "CROWDLAB_CONFIG_DIR='" + dir + "'");
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find("settings.json: not valid JSON (a number is too large"), std::string::npos) << r.err;
}

// Item 6: --set without --scene was checked against boids, while the window opened the last scene.
TEST(Settings, SetWithoutSceneIsCheckedAgainstTheSceneThatOpens) {
  std::string dir = apptest::freshDir("settings-resolve");
  std::ofstream(dir + "/settings.json") << R"({"lastScene": "finale"})";
  apptest::RunResult r = apptest::runCrowdlab("--set threads=1 --frames 2", "CROWDLAB_CONFIG_DIR='" + dir + "'");
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.value("scene"), "finale");
  std::ofstream(dir + "/settings.json") << R"({"lastScene": "murmuration"})";
  // Rejected before any window: a display driver that cannot exist would make that exit 1.
  r = apptest::runCrowdlab("--set N=20 --frames 2", "SDL_VIDEODRIVER=no-such-driver CROWDLAB_CONFIG_DIR='" + dir + "'");
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_NE(r.err.find("parameter 'N': '20' is outside 100..50000"), std::string::npos) << r.err;
}

// Item 9: an unknown lastScene, or a settings "file" that cannot be read, was silent.
TEST(Settings, UnknownLastSceneAndUnreadableFileAreWarnedAbout) {
  std::string dir = apptest::freshDir("settings-unknown-scene");
  std::ofstream(dir + "/settings.json") << R"({"lastScene": "no-such-scene"})";
  apptest::RunResult r = apptest::runCrowdlab("--frames 2", "CROWDLAB_CONFIG_DIR='" + dir + "'");
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find("unknown lastScene 'no-such-scene'; opening murmuration"), std::string::npos) << r.err;
  EXPECT_EQ(r.value("scene"), "murmuration");
  dir = apptest::freshDir("settings-folder");
  std::filesystem::create_directories(dir + "/settings.json");  // unreadable as a file (root reads any mode)
  r = apptest::runCrowdlab("--scene boids --frames 2", "CROWDLAB_CONFIG_DIR='" + dir + "'");
  EXPECT_NE(r.err.find("settings.json: is a folder, not a file; using default settings"), std::string::npos) << r.err;
}

// A saved geometry the display cannot hold is brought inside its work area on start: the window that
// came back from full screen 1920x1080 at y = 20 on a 1920x1080 display (taller than the work area
// below a 30 px panel) loses its bottom no more; one left on a display since unplugged comes back.
TEST(Settings, ASavedGeometryIsClampedToTheWorkArea) {
  using app::DisplayArea;
  const DisplayArea work{0, 30, 1920, 1050};
  const DisplayArea tall = app::clampWindowToArea({0, 20, 1920, 1080}, work);
  EXPECT_EQ(tall.y, 30);
  EXPECT_EQ(tall.h, 1050);
  EXPECT_LE(tall.y + tall.h, work.y + work.h);
  const DisplayArea right = app::clampWindowToArea({1800, 500, 800, 600}, work);
  EXPECT_EQ(right.x + right.w, 1920);
  EXPECT_EQ(right.w, 800);
  const DisplayArea inside{100, 100, 1280, 720};
  const DisplayArea same = app::clampWindowToArea(inside, work);
  EXPECT_EQ(same.x, inside.x);
  EXPECT_EQ(same.y, inside.y);
  EXPECT_EQ(same.w, inside.w);
  EXPECT_EQ(same.h, inside.h);
  // Off every display: not shown there (the app then centres it).
  EXPECT_FALSE(app::windowPositionVisible(5000, 5000, 800, {work}));
  EXPECT_TRUE(app::windowPositionVisible(100, 100, 800, {work}));
}
