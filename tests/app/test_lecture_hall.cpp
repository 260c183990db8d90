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

namespace {
// The world rectangle the app reports: "x,y,WxH" in window points (= pixels here).
struct Area { int x = 0, y = 0, w = 0, h = 0; };
Area worldArea(const apptest::RunResult& r) {
  Area a;
  std::sscanf(r.value("world_area").c_str(), "%d,%d,%d,%d", &a.x, &a.y, &a.w, &a.h);
  return a;
}
double meanLuminance(const apptest::Pixels& p, const Area& a) {
  double sum = 0;
  for (int y = a.y; y < a.y + a.h; ++y)
    for (int x = a.x; x < a.x + a.w; ++x) {
      const unsigned char* c = p.at(x, y);
      sum += (0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]) / 255.0;
    }
  return sum / (double(a.w) * double(a.h));
}
}  // namespace

TEST(LectureHall, LightThemeLightsTheWorldTooAndPanelTextMeetsWcagAA) {
  for (const char* scene : {"boids", "murmuration", "finale"}) {
    const std::string dark = apptest::outDir() + "/lecture_dark_" + scene + ".png", light = apptest::outDir() + "/lecture_light_" + scene + ".png";
    apptest::RunResult d = run(std::string("--scene ") + scene + " --width 1600 --height 900 --frames 10 --screenshot '" + dark + "'", "1.5");
    apptest::RunResult l = run(std::string("--scene ") + scene + " --width 1600 --height 900 --keys ctrl+t --frames 10 --screenshot '" + light + "'", "1.5");
    ASSERT_EQ(l.exitCode, 0) << l.err;
    const Area area = worldArea(l);
    ASSERT_GT(area.w, 200) << l.value("world_area");
    // Outside the panels: the world itself.
    // The world beside the panels: the murmuration's dusk sky stays mid-bright in the dark theme.
    const double lit = meanLuminance(apptest::loadPixels(light), area), unlit = meanLuminance(apptest::loadPixels(dark), worldArea(d));
    EXPECT_GT(lit, 0.6) << scene;
    EXPECT_LT(unlit, 0.5) << scene;
    EXPECT_GT(lit, unlit + 0.1) << scene;
    EXPECT_GE(std::atof(l.value("text_contrast").c_str()), 4.5) << "light panels";
    EXPECT_GE(std::atof(d.value("text_contrast").c_str()), 4.5) << "dark panels";
  }
}

TEST(LectureHall, PanelsLieBesideTheWorldAndHomeKeepsEveryAgentInIt) {
  for (const char* scene : {"boids", "spatial-hash", "orca-corridor", "steering", "finale", "pedestrians"}) {
    apptest::RunResult r = run(std::string("--scene ") + scene + " --width 1600 --height 900 --keys Home --frames 4", "1.5");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const Area area = worldArea(r);
    EXPECT_EQ(area.x, 0) << scene << ": the HUD is one line in the menu bar until opened";
    EXPECT_LT(area.w, 1600) << scene << ": the world lies beside the scene panel, not under it";
    EXPECT_GE(area.w, 800) << scene << ": and keeps at least half the window's width";
    EXPECT_GT(area.y, 0) << scene << ": below the menu bar";
    EXPECT_EQ(r.value("agents_outside_view"), "0") << scene;
    // Tab hides the panels: the world takes the whole window.
    apptest::RunResult hidden = run(std::string("--scene ") + scene + " --width 1600 --height 900 --keys Tab --frames 3", "1.5");
    EXPECT_EQ(hidden.value("world_area"), "0,0,1600,900") << scene;
  }
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

// The follow camera (as in OpenSteerDemo): N selects the next agent, F follows it. With the
// panels shown, the selected agent stays at the centre of the free viewport on every frame while
// it moves; without F it does not. The boids' selected agent (red, drawn 3x) is also looked for in
// the screenshot at the free viewport's centre.
TEST(LectureHall, FollowCameraKeepsTheSelectedAgentAtTheCentreOfTheFreeViewport) {
  for (const char* scene : {"boids", "steering", "finale", "orca-corridor", "murmuration"}) {
    SCOPED_TRACE(scene);
    const std::string args = std::string("--scene ") + scene + " --width 1280 --height 720";
    apptest::RunResult r = run(args + " --keys n,f --frames 40", "1.5");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.value("following"), "1");
    EXPECT_GE(std::atoi(r.value("followed_frames").c_str()), 35);
    EXPECT_LT(std::atof(r.value("follow_max_offset").c_str()), 1.0) << "points off the free viewport's centre";
    apptest::RunResult earlier = run(args + " --keys n,f --frames 20", "1.5");
    EXPECT_NE(earlier.value("selected"), r.value("selected")) << "the followed agent moves";
    apptest::RunResult unfollowed = run(args + " --keys n --frames 40", "1.5");
    EXPECT_EQ(unfollowed.value("followed_frames"), "0");
    EXPECT_NE(unfollowed.value("selected"), "") << "N selects an agent";
  }
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
// preset name field. The points come from the app's own state lines of two earlier runs (the
// layout is the same for a given size and scale). Empty when a run did not report them.
std::string clickIntoPresetName(const std::string& name, const std::string& args) {
  apptest::RunResult layout = runDriven(name + "-layout", args, kScrollDown);
  int hx = -1, hy = -1, nx = -1, ny = -1;
  if (std::sscanf(layout.value("presets_header_at").c_str(), "%d,%d", &hx, &hy) != 2) return "";
  const std::string open = kScrollDown + "xdotool mousemove --window $id " + std::to_string(hx) + " " +
                           std::to_string(hy) + "; sleep 0.2; xdotool click 1; sleep 0.3\n" + kScrollDown;
  apptest::RunResult opened = runDriven(name + "-opened", args, open);
  if (std::sscanf(opened.value("preset_name_at").c_str(), "%d,%d", &nx, &ny) != 2 || ny <= 0) return "";
  return open + "xdotool mousemove --window $id " + std::to_string(nx) + " " + std::to_string(ny) +
         "; sleep 0.2; xdotool click 1; sleep 0.2\n";
}
}  // namespace

// Clean switches: a scene's panel scrolled down, with a preset name typed and a status line, is
// left behind by a scene switch: the new scene's panel opens at the top, with the default name and
// no status line. Driven with xdotool; the points to click come from the app's own state lines of
// the same run so far (layout is deterministic for a given size and scale).
TEST(LectureHall, SwitchingSceneResetsThePanelScrollPresetNameAndStatusLine) {
  if (std::system("command -v xdotool >/dev/null 2>&1") != 0) GTEST_SKIP() << "xdotool is not installed";
  const std::string args = "--scene steering --claim steering.seek-orbits --width 1280 --height 720";
  const std::string inNameField = clickIntoPresetName("switch", args);
  ASSERT_FALSE(inNameField.empty()) << "the app reported where its Presets header and name field are";
  const std::string typeName = inNameField + "xdotool keydown ctrl; press a; xdotool keyup ctrl;"
                               " xdotool type --delay 60 lecture; sleep 0.2; press Return\n" + kOverPanel;
  // Without a switch, the panel keeps all three: the driving works.
  apptest::RunResult kept = runDriven("kept", args, typeName);
  EXPECT_EQ(kept.value("scene"), "steering");
  EXPECT_NE(kept.value("preset_name").find("lecture"), std::string::npos) << kept.value("preset_name");
  EXPECT_GT(std::atof(kept.value("panel_scroll").c_str()), 50.0);
  EXPECT_EQ(kept.value("panel_message").rfind("experiment: ", 0), 0u) << kept.value("panel_message");
  // Key 1 switches to the murmuration: its panel starts afresh.
  apptest::RunResult switched = runDriven("switched", args, typeName + "press 1; sleep 0.3\n");
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
  const std::string inNameField = clickIntoPresetName("quit", args);
  ASSERT_FALSE(inNameField.empty()) << "the app reported where its Presets header and name field are";
  const std::string marker = apptest::freshDir("quit-marker") + "/still-running";
  const std::string typeAndQuit = inNameField + "xdotool type --delay 60 talk; sleep 0.3; xdotool key ctrl+q; sleep 1.5\n" +
                                  "if kill -0 $pid 2>/dev/null; then touch '" + marker + "'; fi\n";
  apptest::RunResult r = runDriven("quit", args, typeAndQuit);
  EXPECT_EQ(r.exitCode, 0) << r.out;
  EXPECT_FALSE(std::ifstream(marker).good()) << "Ctrl+Q in a text field did not quit";
}
