// Presets renamed and deleted in the app, and a slider moved during an experiment,
// driven with real input (xdotool) on an X display of the test's own. The points to click come from
// the run's own state, read just before each click (runDriven's `snap` and `point`).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include "app_util.hpp"

namespace {

const std::string kArgs = "--scene boids --width 1280 --height 720";
const std::string kOverPanel = "xdotool mousemove --window $id 1180 400; sleep 0.2\n";
const std::string kScrollDown = kOverPanel + "xdotool click --repeat 40 --delay 15 5; sleep 0.3\n";

// Actions that first put a user preset "lecture-a" in the run's settings folder (the panel lists the
// folder each frame), then `actions`.
apptest::RunResult withPreset(const std::string& name, const std::string& actions) {
  const std::string dir = apptest::outDir() + "/driven-presets-" + name + "/presets/boids";
  return apptest::runDriven("presets-" + name, kArgs,
                            "mkdir -p '" + dir + "'; printf '{\"scene\": \"boids\", \"params\": {\"N\": 123}}\\n' > '" + dir +
                                "/lecture-a.json'; sleep 0.3\n" + actions);
}

std::string presetFolder(const std::string& name) { return apptest::outDir() + "/driven-presets-" + name + "/presets/boids"; }

}  // namespace

// Rename: the preset's "rename" button, a new name typed into its field, Enter: the file has the new
// name. Delete: its "delete" button asks first ("Keep it" would keep it), then "Delete" to confirm: the
// file is gone. One window; each place clicked read from its state just before.
TEST(PresetsWindow, AUserPresetIsRenamedAndDeletedWithTheMouse) {
  if (!apptest::haveXdotool()) GTEST_SKIP() << "xdotool is not installed";
  const std::string folder = presetFolder("rename-delete");
  const std::string actions =
      kScrollDown + "snap layout; click $(point layout presets_header_at); sleep 0.3\n" + kScrollDown + "snap opened\n" +
      "click $(point opened preset_rename_at); sleep 0.3; click $(point opened preset_rename_at); sleep 0.3\n"
      "xdotool keydown ctrl; press a; xdotool keyup ctrl; xdotool type --delay 60 renamed; sleep 0.2; press Return; sleep 0.3\n"
      "snap renamed; note renamed_file=$(ls '" + folder + "' | tr '\\n' ' ')\n"
      "click $(point renamed preset_delete_at); sleep 0.3; snap asked; note asked_file=$(ls '" + folder + "' | tr '\\n' ' ')\n"
      "click $(point asked preset_confirm_at); sleep 0.3; snap deleted\n";
  const apptest::RunResult r = withPreset("rename-delete", actions);
  ASSERT_NE(r.at("opened").value("preset_rename_at"), "-1,-1") << "the preset's row is shown:\n" << r.out;
  ASSERT_NE(r.at("opened").value("preset_rename_at"), "") << r.out;
  EXPECT_EQ(r.value("renamed_file"), "renamed.json") << r.out;
  EXPECT_NE(r.at("renamed").value("panel_message").find("renamed to"), std::string::npos) << r.at("renamed").value("panel_message");
  EXPECT_EQ(r.value("asked_file"), "renamed.json") << "asked first, not deleted yet";
  EXPECT_FALSE(std::filesystem::exists(folder + "/renamed.json")) << r.out;
  EXPECT_TRUE(std::filesystem::is_empty(folder)) << r.out;
  EXPECT_NE(r.at("deleted").value("panel_message").find("deleted"), std::string::npos) << r.at("deleted").value("panel_message");
}

// A slider dragged while an experiment runs ends the experiment, and a line says so, in the panel's
// view and for a few seconds by the cursor (the banner goes).
TEST(PresetsWindow, MovingASliderDuringAnExperimentEndsItWithALineInView) {
  if (!apptest::haveXdotool()) GTEST_SKIP() << "xdotool is not installed";
  const std::string args = "--claim boids.separation-scatters --width 1280 --height 720";
  // The panel scrolled to its end, where the last parameter's slider (agent size) is.
  const apptest::RunResult r = apptest::runDriven(
      "experiment-moved", args,
      kScrollDown + "snap running; xdotool mousemove --window $id $(point running last_param_at); sleep 0.2; xdotool mousedown 1; sleep 0.2;"
      " xdotool mousemove_relative -- 40 0; sleep 0.2; xdotool mouseup 1; sleep 0.5");
  const auto running = r.at("running");
  EXPECT_EQ(running.value("panel_message").rfind("experiment: ", 0), 0u) << running.value("panel_message");
  EXPECT_NE(running.value("reserved_bottom"), "0") << "the banner shows while it runs";
  ASSERT_NE(running.value("last_param_at"), "") << r.out;
  EXPECT_NE(r.value("panel_message").find("ended: a parameter was changed by hand"), std::string::npos)
      << r.value("panel_message");
  EXPECT_EQ(r.value("panel_message_in_view"), "1") << "the line is in the panel's view, not below the fold";
  EXPECT_EQ(r.value("panel_notice_at_cursor"), "1") << "and by the cursor for a few seconds";
  EXPECT_EQ(r.value("reserved_bottom"), "0") << "the banner is gone";
}
