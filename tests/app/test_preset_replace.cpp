// Issue 29, item 2: saving a preset under the name of one that exists replaced it without asking.
// Driven with real X input (xdotool): Save on an existing name asks "Replace it?" and leaves the
// file as it was; Replace then writes it. The points to click come from the app's own state lines
// of earlier runs of the same layout.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include "app_util.hpp"

namespace {
const std::string kArgs = "--scene steering --width 1280 --height 720";
const std::string kOverPanel = "xdotool mousemove --window $id 1180 400; sleep 0.2\n";
const std::string kScrollDown = kOverPanel + "xdotool click --repeat 40 --delay 15 5; sleep 0.3\n";

std::string click(const std::string& at) {
  int x = -1, y = -1;
  if (std::sscanf(at.c_str(), "%d,%d", &x, &y) != 2 || x < 0 || y < 0) return "";
  return "xdotool mousemove --window $id " + std::to_string(x) + " " + std::to_string(y) +
         "; sleep 0.2; xdotool click 1; sleep 0.3\n";
}
}  // namespace

TEST(PresetReplace, SavingOverAnExistingPresetAsksFirst) {
  if (!apptest::haveXdotool()) GTEST_SKIP() << "xdotool is not installed";
  // Where the Presets header is, scrolled down; opened, where the name field and Save are.
  const std::string openHeader = click(apptest::runDriven("replace-layout", kArgs, kScrollDown).value("presets_header_at"));
  ASSERT_FALSE(openHeader.empty()) << "the app reported where its Presets header is";
  const std::string open = kScrollDown + openHeader + kScrollDown;
  const apptest::RunResult opened = apptest::runDriven("replace-opened", kArgs, open);
  const std::string intoName = click(opened.value("preset_name_at")), save = click(opened.value("save_preset_at"));
  ASSERT_FALSE(intoName.empty() || save.empty()) << opened.out;
  // A preset named "lecture" is there before Save is pressed (written while the app runs).
  auto existing = [](const std::string& run) {
    return apptest::outDir() + "/driven-" + run + "/presets/steering/lecture.json";
  };
  const std::string kOriginal = R"({"scene": "steering", "note": "the lecturers own"})";
  auto plant = [&](const std::string& run) {
    return "mkdir -p \"$(dirname '" + existing(run) + "')\"; printf '%s' '" + kOriginal + "' >'" + existing(run) + "'\n";
  };
  const std::string typeAndSave = intoName + "xdotool keydown ctrl; press a; xdotool keyup ctrl;"
                                  " xdotool type --delay 60 lecture; sleep 0.2; press Return\n" + save;

  const apptest::RunResult asked = apptest::runDriven("replace-asked", kArgs, plant("replace-asked") + open + typeAndSave);
  EXPECT_EQ(asked.value("replace_pending"), "1") << "Save on an existing name asks first\n" << asked.out;
  EXPECT_EQ(apptest::slurp(existing("replace-asked")), kOriginal) << "replaced without asking";
  const std::string replace = click(asked.value("replace_preset_at"));
  ASSERT_FALSE(replace.empty()) << asked.out;

  const apptest::RunResult replaced =
      apptest::runDriven("replace-done", kArgs, plant("replace-done") + open + typeAndSave + replace);
  EXPECT_EQ(replaced.value("replace_pending"), "0") << replaced.out;
  const std::string now = apptest::slurp(existing("replace-done"));
  EXPECT_NE(now, kOriginal) << "Replace wrote the preset";
  EXPECT_NE(now.find("\"steering\""), std::string::npos) << now;
  EXPECT_EQ(replaced.value("panel_message").rfind("saved ", 0), 0u) << replaced.value("panel_message");
}
