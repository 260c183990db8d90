// Saving a preset under the name of one that exists asks before it replaces it.
// Driven with real X input (xdotool): Save on an existing name asks "Replace it?" and leaves the
// file as it was; Replace then writes it.
#include <gtest/gtest.h>

#include <fstream>
#include "app_util.hpp"

namespace {
const std::string kArgs = "--scene steering --width 1280 --height 720";
const std::string kOverPanel = "xdotool mousemove --window $id 1180 400; sleep 0.2\n";
const std::string kScrollDown = kOverPanel + "xdotool click --repeat 40 --delay 15 5; sleep 0.3\n";
}  // namespace

// One window: a preset named "lecture" is planted while the app runs; the Presets section is opened,
// "lecture" typed and Save pressed (asked, the file as it was), then Replace (written). Each place
// clicked is read from the run's state just before.
TEST(PresetReplace, SavingOverAnExistingPresetAsksFirst) {
  if (!apptest::haveXdotool()) GTEST_SKIP() << "xdotool is not installed";
  const std::string existing = apptest::outDir() + "/driven-replace/presets/steering/lecture.json";
  const std::string kOriginal = R"({"scene": "steering", "note": "the lecturers own"})";
  const std::string actions =
      "mkdir -p \"$(dirname '" + existing + "')\"; printf '%s' '" + kOriginal + "' >'" + existing + "'\n" +
      kScrollDown + "snap layout; click $(point layout presets_header_at); sleep 0.3\n" + kScrollDown + "snap opened\n" +
      "click $(point opened preset_name_at); sleep 0.3\n"
      "xdotool keydown ctrl; press a; xdotool keyup ctrl; xdotool type --delay 60 lecture; sleep 0.2; press Return\n"
      "click $(point opened save_preset_at); sleep 0.3\n"
      "snap asked; cp '" + existing + "' '" + existing + ".asked'\n"
      "click $(point asked replace_preset_at); sleep 0.3; snap replaced\n";
  const apptest::RunResult r = apptest::runDriven("replace", kArgs, actions);
  ASSERT_NE(r.at("layout").value("presets_header_at"), "") << "the app reported where its Presets header is";
  ASSERT_NE(r.at("opened").value("preset_name_at"), "") << r.out;
  ASSERT_NE(r.at("opened").value("save_preset_at"), "") << r.out;
  const auto asked = r.at("asked"), replaced = r.at("replaced");
  EXPECT_EQ(asked.value("replace_pending"), "1") << "Save on an existing name asks first\n" << r.out;
  EXPECT_EQ(apptest::slurp(existing + ".asked"), kOriginal) << "replaced without asking";
  ASSERT_NE(asked.value("replace_preset_at"), "") << r.out;
  EXPECT_EQ(replaced.value("replace_pending"), "0") << r.out;
  const std::string now = apptest::slurp(existing);
  EXPECT_NE(now, kOriginal) << "Replace wrote the preset";
  EXPECT_NE(now.find("\"steering\""), std::string::npos) << now;
  EXPECT_EQ(replaced.value("panel_message").rfind("saved ", 0), 0u) << replaced.value("panel_message");
}
