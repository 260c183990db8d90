// The Tune section in a real window, driven with X input (xdotool): Start runs generations on
// worker threads while the live scene keeps stepping, the curve fills, and "Apply best" puts the
// tuned values into the live scene (read back through --state-out).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include "app_util.hpp"

namespace {

nlohmann::json readState(const std::string& path) {
  const std::string text = apptest::slurp(path);
  return text.empty() ? nlohmann::json() : nlohmann::json::parse(text, nullptr, false);
}

}  // namespace

TEST(TuneWindow, StartRunsGenerationsAndApplyBestChangesTheLiveScene) {
  if (std::system("command -v xdotool >/dev/null 2>&1") != 0) GTEST_SKIP() << "xdotool is not installed";
  const std::string dir = apptest::freshDir("tune-window");
  std::ofstream(dir + "/settings.json") << "{\"uiScale\": 1.0}";
  const std::string common = "--scene steering --tune clean-arrival --width 1600 --height 1000";
  // Where the section's buttons are: the same layout in every run of this size and scale.
  const std::string layoutState = dir + "/layout.json";
  apptest::RunResult layout = apptest::runCrowdlab(common + " --frames 3 --state-out '" + layoutState + "'",
                                                   "CROWDLAB_CONFIG_DIR='" + dir + "'");
  ASSERT_EQ(layout.exitCode, 0) << layout.err;
  const nlohmann::json before = readState(layoutState);
  ASSERT_TRUE(before.is_object());
  const auto start = before["probe"]["tune_start_at"], apply = before["probe"]["tune_apply_at"];
  ASSERT_TRUE(start.is_array() && apply.is_array()) << before["probe"];
  ASSERT_GT(start[1].get<double>(), 0.0) << start;
  ASSERT_LT(apply[1].get<double>(), 1000.0) << "the Apply button must be on screen: " << apply;
  EXPECT_EQ(before["tune"]["generations"], 0);

  // Start, wait until the window's title counts two generations, Apply best; then SIGTERM (a clean quit).
  const std::string state = dir + "/after.json";
  auto point = [](const nlohmann::json& at) {
    return std::to_string(int(at[0].get<double>())) + " " + std::to_string(int(at[1].get<double>()));
  };
  const apptest::RunResult run = apptest::runDriven(
      "tune-window", common + " --state-out '" + state + "'",
      "sleep 0.5\nclick " + point(start) + "\nwaitTitle 'tun(ing|ed): ([2-9]|[1-9][0-9]+) generations' 30\nclick " +
          point(apply) + "\nsleep 0.7\n",
      "1600x1000");
  ASSERT_EQ(run.exitCode, 0) << run.out;
  const nlohmann::json after = readState(state);
  ASSERT_TRUE(after.is_object()) << run.out;
  const nlohmann::json& tune = after["tune"];
  EXPECT_GE(tune["generations"].get<int>(), 2) << tune;
  const std::string title = run.value("title");
  EXPECT_TRUE(title.starts_with("crowdlab - Steering playground - tuning: ") || title.starts_with("crowdlab - Steering playground - tuned: "))
      << title;
  EXPECT_EQ(tune["history"].size(), tune["generations"].get<size_t>()) << "one point of the curve per generation";
  EXPECT_EQ(tune["applied"], 1) << tune;
  // The live scene now has the tuned values: at least one of the objective's parameters moved.
  int moved = 0;
  for (const char* p : {"maxForce", "slowingRadius", "wArrive", "wSeparate", "separationRadius"})
    moved += after["params"][p] != before["params"][p];
  EXPECT_GT(moved, 0) << after["params"];
  EXPECT_GT(after["steps"].get<long long>(), 60) << "the live scene kept stepping";
}
