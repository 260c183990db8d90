// Settings persist across runs; a corrupt settings file gives defaults and a warning, never a crash.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include "app_util.hpp"

namespace {
std::string freshConfigDir(const std::string& name) {
  std::string dir = apptest::outDir() + "/" + name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}
}  // namespace

TEST(Settings, LastSceneAndUiScalePersistAcrossRuns) {
  std::string dir = freshConfigDir("settings-persist");
  std::string env = "CROWDLAB_CONFIG_DIR='" + dir + "'";
  apptest::RunResult first = apptest::runCrowdlab("--scene steering --frames 2", env);
  ASSERT_EQ(first.exitCode, 0) << first.err;
  std::string saved = apptest::slurp(dir + "/settings.json");
  EXPECT_NE(saved.find("\"lastScene\": \"steering\""), std::string::npos) << saved;
  apptest::RunResult second = apptest::runCrowdlab("--frames 2", env);
  ASSERT_EQ(second.exitCode, 0) << second.err;
  EXPECT_EQ(second.value("scene"), "steering");
}

TEST(Settings, CorruptFileGivesDefaultsAndAWarning) {
  std::string dir = freshConfigDir("settings-corrupt");
  std::ofstream(dir + "/settings.json") << "{\"lastScene\": \"steering\", \"uiScale\": ";
  apptest::RunResult r = apptest::runCrowdlab("--frames 2", "CROWDLAB_CONFIG_DIR='" + dir + "'");
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find("settings.json: not valid JSON"), std::string::npos) << r.err;
  EXPECT_EQ(r.value("scene"), "boids");  // the default, not the half-written lastScene
}

TEST(Settings, BadFieldsAreIgnoredOneByOne) {
  std::string dir = freshConfigDir("settings-badfield");
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
