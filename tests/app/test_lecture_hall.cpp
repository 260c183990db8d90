// The lecture hall in a real window: scale and theme changes that end where a fresh
// start would, and honest timing.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include "app_util.hpp"

namespace {
// Each run gets its own settings folder with a fixed scale, so the display's first-run scale does
// not differ between the runs compared.
apptest::RunResult run(const std::string& args, const std::string& scale = "1.0") {
  static int n = 0;
  // The pid too: ctest runs each test in a process of its own, in parallel, each counting from 0.
  const std::string dir = apptest::outDir() + "/lecture-" + std::to_string(::getpid()) + "-" + std::to_string(n++);
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


// Real X input (xdotool): the pointer comes from SDL's motion events, so a drag reaches ImGui even
// though a window under Xvfb (no window manager) never gets keyboard focus, as over VNC.
TEST(LectureHall, ASliderDraggedWithXdotoolChangesItsValue) {
  if (std::system("command -v xdotool >/dev/null 2>&1") != 0) GTEST_SKIP() << "xdotool is not installed";
  // The full HUD (F2; closed, it is one line in the menu bar). Where its first slider (speed) is: its grab has ImGui's dark slider-grab colour.
  const std::string png = apptest::outDir() + "/lecture_layout.png";
  apptest::RunResult layout = run("--scene steering --width 1280 --height 720 --keys F2 --frames 3 --screenshot '" + png + "'");
  ASSERT_EQ(layout.exitCode, 0) << layout.err;
  apptest::Pixels p = apptest::loadPixels(png);
  int gx = -1, gy = -1;
  for (int y = 0; y < p.height && gx < 0; ++y)
    for (int x = 0; x < 300 && gx < 0; ++x) {
      const unsigned char* c = p.at(x, y);
      if (std::abs(c[0] - 61) < 12 && std::abs(c[1] - 133) < 12 && std::abs(c[2] - 224) < 12) gx = x + 3, gy = y + 3;
    }
  ASSERT_GE(gx, 0) << "no slider grab found in the HUD of " << png;
  EXPECT_EQ(layout.value("speed"), "1.00");
  // The same run, long enough to be dragged: press on the grab, move right, release.
  const std::string dir = apptest::outDir() + "/lecture-xdotool";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/settings.json") << "{\"uiScale\": 1.0}";
  const std::string out = dir + "/run.out";
  // A display of its own: other window tests run in parallel on the shared one, and their windows
  // would stack over this one at the same place (no window manager) and take the clicks.
  const std::string x = std::to_string(gx), y = std::to_string(gy);
  std::ofstream(dir + "/drag.sh")
      << "CROWDLAB_CONFIG_DIR='" << dir << "' '" CROWDLAB_EXE "' --scene steering --width 1280 --height 720 --keys F2 --frames 900 --state-out '"
      << dir << "/state.json' >'" << out << "' 2>&1 &\n"
      << "pid=$!\n"
      << "id=$(timeout 20 xdotool search --sync --onlyvisible --pid $pid | head -1) || exit 3\n"
      << "sleep 1\n"
      << "xdotool mousemove --window $id " << x << " " << y << " && sleep 0.3 && xdotool mousedown 1 && sleep 0.3 || exit 4\n"
      << "for dx in 20 40 60 80 100; do xdotool mousemove --window $id $((" << x << " + dx)) " << y << "; sleep 0.1; done\n"
      << "sleep 0.3; xdotool mouseup 1\n"
      << "wait $pid\n";
  const std::string drag = apptest::onOwnDisplay(dir + "/drag.sh");
  EXPECT_EQ(std::system(drag.c_str()), 0);
  apptest::RunResult r;
  r.out = apptest::slurp(out);
  apptest::readState(r, dir + "/state.json");
  EXPECT_NE(r.value("speed"), "") << r.out;
  EXPECT_NE(r.value("speed"), "1.00") << "the drag moved the slider";
}

// Presenter sizes: agentScale, a declared parameter of every scene, draws the agents larger. With
// the UI hidden (Tab) the whole window is world; the same seed and frames at 2x cover clearly more
// foreground than at 1x (a scene that draws nothing, or ignores the parameter, fails).
TEST(LectureHall, AgentScaleTwoCoversClearlyMoreOfTheWorldThanOne) {
  for (const char* scene : {"boids", "murmuration", "gpu"}) {
    SCOPED_TRACE(scene);
    size_t covered[2] = {0, 0};
    for (int k = 0; k < 2; ++k) {
      const std::string png = apptest::outDir() + "/agent_scale_" + scene + std::to_string(k + 1) + ".png";
      // The gpu scene at 2,000 agents (its world shrinks with N): 20,000 drawn at least 8 points long
      // cover half the world at 1x, and the foreground is no longer told from the background at 2x.
      const std::string size = std::string(scene) == "gpu" ? " --set N=2000 --set size=12" : "";
      apptest::RunResult r = run(std::string("--scene ") + scene + size + " --set agentScale=" + std::to_string(k + 1) +
                                 " --width 1280 --height 720 --keys Tab --frames 6 --screenshot '" + png + "'");
      ASSERT_EQ(r.exitCode, 0) << r.err;
      ASSERT_EQ(r.value("world_area"), "0,0,1280,720");
      const apptest::Pixels p = apptest::loadPixels(png);
      ASSERT_EQ(p.width, 1280);
      covered[k] = apptest::foreground(p, 0, 0, p.width, p.height).pixels;
    }
    EXPECT_GT(covered[0], 200u) << "the scene draws its agents at 1x";
    EXPECT_GT(double(covered[1]), 1.8 * double(covered[0])) << covered[0] << " px at 1x, " << covered[1] << " px at 2x";
  }
}

// Lines follow the UI scale: core-profile GL lines are 1 px, so the renderer draws debug lines as
// screen-space quads. The boids world's outline (its rect, in its own colour) is measured down
// several columns of the world area, UI hidden: at UI scale 2 it is at least 2 px thick.
TEST(LectureHall, DebugLinesAreThickerAtUiScaleTwo) {
  auto outlineThickness = [](const std::string& scale) {
    const std::string png = apptest::outDir() + "/line_width_" + scale + ".png";
    apptest::RunResult r = run("--scene boids --width 1280 --height 720 --keys Tab --frames 4 --screenshot '" + png + "'", scale);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.value("world_area"), "0,0,1280,720");
    const apptest::Pixels p = apptest::loadPixels(png);
    std::vector<int> runs;
    for (int x = 200; x < p.width - 200 && p.height > 0; x += 50) {
      auto isOutline = [&](int y) {  // rgba(70, 76, 90), the boids world's outline
        const unsigned char* c = p.at(x, y);
        return std::abs(c[0] - 70) + std::abs(c[1] - 76) + std::abs(c[2] - 90) < 40;
      };
      int y = 0;
      while (y < p.height / 3 && !isOutline(y)) ++y;
      int n = 0;
      while (y + n < p.height && isOutline(y + n)) ++n;
      runs.push_back(n);
    }
    if (runs.empty()) return 0;
    std::sort(runs.begin(), runs.end());
    return runs[runs.size() / 2];
  };
  const int atOne = outlineThickness("1.0"), atTwo = outlineThickness("2.0");
  EXPECT_GE(atOne, 1) << "the outline is drawn";
  EXPECT_GE(atTwo, 2) << "at UI scale 2 a line is at least 2 px wide";
  EXPECT_GT(atTwo, atOne) << "lines follow the UI scale: " << atOne << " px at 1, " << atTwo << " px at 2";
}

// Startled birds stand out: after the alarm (key A) the startled ones, told by their warm colour
// (red clearly above blue: the sky rows' own colour is the background), have a WCAG contrast of at
// least 3 against the sky behind them, on the dusk sky and on the light (projector) theme's.
TEST(LectureHall, StartledBirdsHaveContrastOnTheDuskSkyAndTheLightOne) {
  for (const char* keys : {"Tab,a", "Tab,ctrl+t,a"}) {
    SCOPED_TRACE(keys);
    const std::string png = apptest::outDir() + "/startled_" + std::to_string(std::string(keys).size()) + ".png";
    apptest::RunResult r = run(std::string("--scene murmuration --width 1280 --height 720 --keys ") + keys +
                               " --frames 75 --screenshot '" + png + "'");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const apptest::Pixels p = apptest::loadPixels(png);
    ASSERT_EQ(p.width, 1280);
    std::vector<double> contrasts;
    for (int y = 0; y < p.height; ++y) {
      const std::array<int, 3> sky = apptest::rowBackground(p, y, 0, p.width);
      for (int x = 0; x < p.width; ++x) {
        const unsigned char* c = p.at(x, y);
        if (apptest::isForeground(c, sky) && c[0] - c[2] > 60) contrasts.push_back(apptest::contrastRatio(c, sky));
      }
    }
    ASSERT_GT(contrasts.size(), 150u) << "startled birds drawn in " << png;
    std::sort(contrasts.begin(), contrasts.end());
    const double median = contrasts[contrasts.size() / 2];
    std::printf("startled birds (%s): %zu pixels, median WCAG contrast %.2f against their sky\n", keys, contrasts.size(), median);
    EXPECT_GE(median, 3.0) << contrasts.size() << " startled pixels in " << png;
  }
}

// The follow camera (as in OpenSteerDemo): N selects the next agent, F follows it. The boids'
// selected agent (red, drawn 3x) is looked for in the screenshot at the free viewport's centre:
// there with F, elsewhere without. That it stays there on every frame while it moves is read from
// every scene's state in Window/EveryScene.OneWindowFromStartThroughHomeFollowTheLightThemeAndTab.
TEST(LectureHall, FollowCameraKeepsTheSelectedAgentAtTheCentreOfTheFreeViewport) {
  auto redAtCentre = [](const std::string& keys, const std::string& png) {
    apptest::RunResult r = run("--scene boids --set agentScale=3 --width 1280 --height 720 --keys " + keys +
                               " --frames 40 --screenshot '" + png + "'", "1.5");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    int x = 0, y = 0, w = 0, h = 0;
    std::sscanf(r.value("world_area").c_str(), "%d,%d,%d,%d", &x, &y, &w, &h);
    EXPECT_EQ(x, 0) << "the world starts at the window's left edge (the scene panel is on the right)";
    const apptest::Pixels p = apptest::loadPixels(png);
    int red = 0;
    for (int py = y + h / 2 - 8; py <= y + h / 2 + 8; ++py)
      for (int px = x + w / 2 - 8; px <= x + w / 2 + 8; ++px) {
        const unsigned char* c = p.at(px, py);
        red += c[0] > 120 && c[0] > 2 * c[1] && c[0] > 2 * c[2];  // red, also drawn translucent at agentScale 3
      }
    return red;
  };
  EXPECT_GE(redAtCentre("n,f", apptest::outDir() + "/follow_boids.png"), 20) << "the selected agent at the centre";
  EXPECT_EQ(redAtCentre("n", apptest::outDir() + "/follow_boids_off.png"), 0) << "without F it is elsewhere";
}

namespace {
using apptest::runDriven;

const std::string kOverPanel = "xdotool mousemove --window $id 1180 400; sleep 0.2\n";
const std::string kScrollDown = kOverPanel + "xdotool click --repeat 40 --delay 15 5; sleep 0.3\n";

// xdotool actions that scroll the scene panel down, open its Presets section and click into the
// preset name field, each place read from the run's own state just before (snapshots `layout` and
// `opened`: checked by presetFieldFound).
const std::string kClickIntoPresetName = kScrollDown + "snap layout; click $(point layout presets_header_at); sleep 0.3\n" + kScrollDown +
                                         "snap opened; click $(point opened preset_name_at); sleep 0.2\n";
void expectPresetFieldFound(const apptest::RunResult& r) {
  EXPECT_NE(r.at("layout").value("presets_header_at"), "") << "the app reported where its Presets header is";
  const std::string field = r.at("opened").value("preset_name_at");
  int x = -1, y = -1;
  EXPECT_EQ(std::sscanf(field.c_str(), "%d,%d", &x, &y), 2) << "and its name field, once opened: " << field;
  EXPECT_GT(y, 0) << field;
}
}  // namespace

// Clean switches: a scene's panel scrolled down, with a preset name typed and a status line, is
// left behind by a scene switch: the new scene's panel opens at the top, with the default name and
// no status line. Driven with xdotool; the points to click come from the app's own state lines of
// the same run so far (layout is deterministic for a given size and scale).
TEST(LectureHall, SwitchingSceneResetsThePanelScrollPresetNameAndStatusLine) {
  if (std::system("command -v xdotool >/dev/null 2>&1") != 0) GTEST_SKIP() << "xdotool is not installed";
  const std::string args = "--scene steering --claim steering.seek-orbits --width 1280 --height 720";
  const std::string typeName = kClickIntoPresetName + "xdotool keydown ctrl; press a; xdotool keyup ctrl;"
                               " xdotool type --delay 60 lecture; sleep 0.2; press Return\n" + kOverPanel;
  // Before the switch, the panel keeps all three (the driving works); key 1 then switches to the
  // murmuration, whose panel starts afresh.
  const apptest::RunResult r = runDriven("switch", args, typeName + "snap kept; press 1; sleep 0.3; snap switched\n");
  expectPresetFieldFound(r);
  const auto kept = r.at("kept"), switched = r.at("switched");
  EXPECT_EQ(kept.value("scene"), "steering");
  EXPECT_NE(kept.value("preset_name").find("lecture"), std::string::npos) << kept.value("preset_name");
  EXPECT_GT(std::atof(kept.value("panel_scroll").c_str()), 50.0);
  EXPECT_EQ(kept.value("panel_message").rfind("experiment: ", 0), 0u) << kept.value("panel_message");
  EXPECT_EQ(switched.value("scene"), "murmuration");
  EXPECT_EQ(switched.value("panel_scroll"), "0");
  EXPECT_EQ(switched.value("preset_name"), "my-preset");
  EXPECT_EQ(switched.value("panel_message"), "");
}

// The presenter's global keys act while a text field has the keyboard: with the cursor still in
// the preset name field, a quick Ctrl+Q (pressed and released at once, as a clicker or a hurried
// hand does) quits; before, the field swallowed it.
TEST(LectureHall, CtrlQQuitsWhileATextFieldHasTheKeyboard) {
  if (std::system("command -v xdotool >/dev/null 2>&1") != 0) GTEST_SKIP() << "xdotool is not installed";
  const std::string args = "--scene steering --width 1280 --height 720";
  const std::string marker = apptest::freshDir("quit-marker") + "/still-running";
  const std::string typeAndQuit = kClickIntoPresetName + "xdotool type --delay 60 talk; sleep 0.3; xdotool key ctrl+q; sleep 1.5\n" +
                                  "if kill -0 $pid 2>/dev/null; then touch '" + marker + "'; fi\n";
  apptest::RunResult r = runDriven("quit", args, typeAndQuit);
  expectPresetFieldFound(r);
  EXPECT_EQ(r.exitCode, 0) << r.out;
  EXPECT_FALSE(std::ifstream(marker).good()) << "Ctrl+Q in a text field did not quit";
}
