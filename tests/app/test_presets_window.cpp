// Presets renamed and deleted in the app, and a slider moved during an experiment,
// driven with real input (xdotool) on an X display of the test's own. The points to click come from
// the app's state lines of earlier runs: the layout is the same for a given size and scale.
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

std::string clickAt(const std::string& point) {
  int x = -1, y = -1;
  if (std::sscanf(point.c_str(), "%d,%d", &x, &y) != 2 || x < 0 || y < 0) return "exit 4\n";  // no such point: the run fails
  return "xdotool mousemove --window $id " + std::to_string(x) + " " + std::to_string(y) + "; sleep 0.2; xdotool click 1; sleep 0.3\n";
}

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
// name. Delete: its "delete" button, then "Delete" to confirm: the file is gone. "Keep it" would keep it.
TEST(PresetsWindow, AUserPresetIsRenamedAndDeletedWithTheMouse) {
  if (!apptest::haveXdotool()) GTEST_SKIP() << "xdotool is not installed";
  const apptest::RunResult layout = withPreset("layout", kScrollDown);
  const std::string openPresets = kScrollDown + clickAt(layout.value("presets_header_at")) + kScrollDown;
  const apptest::RunResult opened = withPreset("opened", openPresets);
  ASSERT_NE(opened.value("preset_rename_at"), "-1,-1") << "the preset's row is shown:\n" << opened.out;

  const std::string rename = openPresets + clickAt(opened.value("preset_rename_at")) + clickAt(opened.value("preset_rename_at")) +
                             "xdotool keydown ctrl; press a; xdotool keyup ctrl; xdotool type --delay 60 renamed; sleep 0.2; press Return; sleep 0.3\n";
  const apptest::RunResult renamed = withPreset("renamed", rename);
  EXPECT_TRUE(std::filesystem::exists(presetFolder("renamed") + "/renamed.json")) << renamed.out;
  EXPECT_FALSE(std::filesystem::exists(presetFolder("renamed") + "/lecture-a.json"));
  EXPECT_NE(renamed.value("panel_message").find("renamed to"), std::string::npos) << renamed.value("panel_message");

  const std::string askDelete = openPresets + clickAt(opened.value("preset_delete_at"));
  const apptest::RunResult asked = withPreset("asked", askDelete);
  EXPECT_TRUE(std::filesystem::exists(presetFolder("asked") + "/lecture-a.json")) << "asked first, not deleted yet";
  const apptest::RunResult deleted = withPreset("deleted", askDelete + clickAt(asked.value("preset_confirm_at")));
  EXPECT_FALSE(std::filesystem::exists(presetFolder("deleted") + "/lecture-a.json")) << deleted.out;
  EXPECT_NE(deleted.value("panel_message").find("deleted"), std::string::npos) << deleted.value("panel_message");
}

// A slider dragged while an experiment runs ends the experiment, and a line says so, in the panel's
// view and for a few seconds by the cursor (the banner goes).
TEST(PresetsWindow, MovingASliderDuringAnExperimentEndsItWithALineInView) {
  if (!apptest::haveXdotool()) GTEST_SKIP() << "xdotool is not installed";
  const std::string args = "--claim boids.separation-scatters --width 1280 --height 720";
  // The panel scrolled to its end, where the last parameter's slider (agent size) is.
  const apptest::RunResult running = apptest::runDriven("experiment-running", args, kScrollDown);
  EXPECT_EQ(running.value("panel_message").rfind("experiment: ", 0), 0u) << running.value("panel_message");
  EXPECT_NE(running.value("reserved_bottom"), "0") << "the banner shows while it runs";
  int x = -1, y = -1;
  ASSERT_EQ(std::sscanf(running.value("last_param_at").c_str(), "%d,%d", &x, &y), 2) << running.out;
  const apptest::RunResult moved = apptest::runDriven(
      "experiment-moved", args,
      kScrollDown + "xdotool mousemove --window $id " + std::to_string(x) + " " + std::to_string(y) + "; sleep 0.2; xdotool mousedown 1; sleep 0.2;"
      " xdotool mousemove_relative -- 40 0; sleep 0.2; xdotool mouseup 1; sleep 0.5");
  EXPECT_NE(moved.value("panel_message").find("ended: a parameter was changed by hand"), std::string::npos)
      << moved.value("panel_message");
  EXPECT_EQ(moved.value("panel_message_in_view"), "1") << "the line is in the panel's view, not below the fold";
  EXPECT_EQ(moved.value("panel_notice_at_cursor"), "1") << "and by the cursor for a few seconds";
  EXPECT_EQ(moved.value("reserved_bottom"), "0") << "the banner is gone";
}
