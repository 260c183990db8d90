// Keys in a real window (SDL key events fed by --keys, one a frame): Esc closes and never quits,
// keys 1-9 follow the registry, the help stays in front, and scripted runs leave the user's settings alone.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include "app_util.hpp"

namespace {
// Runs that must end by themselves get a time limit: a missed quit fails instead of hanging.
const std::string kLimit = " timeout 60";
}  // namespace

TEST(Keys, EscClosesTheHelpAndTheAppKeepsRunning) {
  apptest::RunResult open = apptest::runCrowdlab("--scene boids --keys F1 --frames 5");
  ASSERT_EQ(open.exitCode, 0) << open.err;
  EXPECT_EQ(open.value("help_open"), "1");
  apptest::RunResult closed = apptest::runCrowdlab("--scene boids --keys F1,Escape --frames 5");
  ASSERT_EQ(closed.exitCode, 0) << closed.err;
  EXPECT_EQ(closed.value("help_open"), "0");
  EXPECT_EQ(closed.value("frames"), "5") << "Esc with the help open does not quit";
}

// The help (F1) stays in front: of the corridor's velocity-space inset when it opens again after the
// help (Tab twice: it covered the help's last rows), and of the HUD (opened with F2) clicked with real
// X input after that (it covered the first column). And a panel clicked stays below a floating window
// like the inset (opened by its parameter: it opens on request only).
TEST(Keys, TheHelpStaysInFrontAndAClickedPanelStaysBelowTheInset) {
  if (!apptest::haveXdotool()) GTEST_SKIP() << "xdotool is not installed";
  const std::string clickHud = "sleep 1\nclick 40 150\nsleep 0.5\n";
  const apptest::RunResult help = apptest::runDriven("help-front", "--scene orca-corridor --keys F2,F1,Tab,Tab", clickHud);
  ASSERT_EQ(help.exitCode, 0) << help.out;
  EXPECT_EQ(help.value("help_open"), "1") << help.out;
  EXPECT_EQ(help.value("ui_visible"), "1") << help.out;
  EXPECT_LT(40, std::stoi(help.value("hud_right"))) << "the click lands in the HUD";
  EXPECT_EQ(help.value("front_window"), "Keys") << help.out;
  const apptest::RunResult inset = apptest::runDriven("inset-front", "--scene orca-corridor --set inset=true --keys F2", clickHud);
  ASSERT_EQ(inset.exitCode, 0) << inset.out;
  EXPECT_NE(inset.value("selected"), "") << "the corridor selects an agent, whose inset opens";
  EXPECT_EQ(inset.value("front_window"), "Velocity space of the selected agent###orca-corridor-inset") << inset.out;
}

TEST(Keys, OneEscDoesNotQuit) {
  apptest::RunResult r = apptest::runCrowdlab("--scene boids --keys Escape --frames 90");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.value("frames"), "90");
}

TEST(Keys, CtrlQQuits) {
  apptest::RunResult r = apptest::runCrowdlab("--scene steering --keys ctrl+q", kLimit);
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.value("scene"), "steering");
}

TEST(Keys, NumberKeysFollowTheRegistryOrder) {
  // The usage lists the scenes in the registry's order; key N picks the N-th.
  apptest::RunResult help = apptest::runCrowdlab("--help");
  const size_t at = help.out.find("scenes: ");
  ASSERT_NE(at, std::string::npos);
  std::string list = help.out.substr(at + 8);
  const std::string first = list.substr(0, list.find(','));
  const std::string secondAndOn = list.substr(list.find(',') + 2);
  const std::string second = secondAndOn.substr(0, secondAndOn.find(','));
  apptest::RunResult r1 = apptest::runCrowdlab("--scene " + second + " --keys 1 --frames 3");
  EXPECT_EQ(r1.value("scene"), first) << r1.err;
  apptest::RunResult r2 = apptest::runCrowdlab("--scene " + first + " --keys 2 --frames 3");
  EXPECT_EQ(r2.value("scene"), second) << r2.err;
}

TEST(Keys, UnknownKeyNameIsAUsageError) {
  apptest::RunResult r = apptest::runCrowdlab("--scene boids --keys NoSuchKey --frames 2");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("unknown key 'NoSuchKey'"), std::string::npos) << r.err;
}

TEST(Settings, ScriptedRunsLeaveTheSettingsFileByteIdentical) {
  std::string dir = apptest::freshDir("settings-scripted");
  const std::string file = dir + "/settings.json";
  const std::string before = "{\n  \"lastScene\": \"murmuration\",\n  \"uiScale\": 1.25\n}\n";
  std::ofstream(file) << before;
  const std::string env = "CROWDLAB_CONFIG_DIR='" + dir + "'";
  for (const std::string& args : {std::string("--scene boids --frames 3"), "--scene steering --frames 2 --screenshot '" + dir + "/s.png'",
                                  std::string("--headless --scene boids --steps 3")}) {
    apptest::RunResult r = apptest::runCrowdlab(args, env);
    ASSERT_EQ(r.exitCode, 0) << args << "\n" << r.err;
    EXPECT_EQ(apptest::slurp(file), before) << args;
  }
}
