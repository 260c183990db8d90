// The real program in a real window (Xvfb + Mesa). One table-driven test over every registered
// scene, one run each: with the UI hidden (Tab), the world shows drawn agents on a background that
// is not uniform, and apitrace sees the agents in exactly one instanced draw. A scene that draws
// nothing fails it. Below it, tests of what particular scenes show.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include "app_util.hpp"

namespace {


std::string testName(const testing::TestParamInfo<std::string>& info) {
  std::string s = info.param;
  std::replace(s.begin(), s.end(), '-', '_');
  return s;
}

// How many agents the scene itself has (its simulation, headless): what the draw must show.
std::string sceneAgents(const std::string& scene) {
  return apptest::runCrowdlab("--headless --scene " + scene + " --steps 1").value("agents");
}

// The world, with Tab pressed first so no panel covers any of it.
constexpr int kWidth = 1280, kHeight = 720;

class EveryScene : public testing::TestWithParam<std::string> {};

// One run per scene, under apitrace where it is installed: the renderer's own count, the picture and
// the trace's last frame checked on the same frames.
TEST_P(EveryScene, DrawsAllItsAgentsInOneInstancedDrawIntoTheWorld) {
  const std::string scene = GetParam(), png = apptest::outDir() + "/scene_" + scene + ".png";
  const std::string agents = sceneAgents(scene);
  ASSERT_GT(std::atoll(agents.c_str()), 0);
  std::remove(png.c_str());
  const std::string args = "--scene " + scene + " --width 1280 --height 720 --keys Tab --frames 30 --screenshot '" + png + "'";
  bool traced = false;
  apptest::RunResult r;
  const std::vector<long long> draws = apptest::instancedDrawsInLastFrame(args, "trace_" + scene, traced, &r);
  if (!traced) r = apptest::runCrowdlab(args);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.value("ui_visible"), "0") << "Tab hides the UI";
  EXPECT_EQ(r.value("agent_draw_calls"), "1");
  EXPECT_EQ(r.value("agents"), agents) << "the renderer drew every agent the scene has";
  // apitrace's view of the last frame, independent of the renderer's counter.
  if (traced) {
    EXPECT_EQ(std::count(draws.begin(), draws.end(), std::atoll(agents.c_str())), 1)
        << scene << ": instanced draws in the last frame: " << draws.size();
  }
  apptest::Pixels p = apptest::loadPixels(png);
  ASSERT_EQ(p.width, kWidth) << png;
  ASSERT_EQ(p.height, kHeight);
  const apptest::Foreground f = apptest::foreground(p, 0, 0, kWidth, kHeight);
  // Agents (and what the scene draws around them) stand out from the background...
  EXPECT_GT(f.pixels, 400u) << scene << ": the world is one background colour per row";
  // ...in more than one colour: not a single stray line.
  EXPECT_GE(f.colors, 2u) << scene;
}

// The mean luminance, 0..1, of a screenshot's part (x, y, w, h as "x,y,w,h", window points = pixels).
double meanLuminance(const std::string& png, const std::string& area) {
  const apptest::Pixels p = apptest::loadPixels(png);
  int x = 0, y = 0, w = 0, h = 0;
  if (p.width == 0 || std::sscanf(area.c_str(), "%d,%d,%d,%d", &x, &y, &w, &h) != 4 || w <= 0 || h <= 0) return -1;
  double sum = 0;
  for (int py = y; py < y + h && py < p.height; ++py)
    for (int px = x; px < x + w && px < p.width; ++px) {
      const unsigned char* c = p.at(px, py);
      sum += (0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]) / 255.0;
    }
  return sum / (double(w) * double(h));
}

// One window per scene, 1280 x 720 at UI 1.5 on a 1080 p display, driven with real keys as a lecturer
// would in one go, the state (and its frame's picture) read after each step:
//   at start  the world lies beside the scene panel (not under it), below the menu bar, at least half
//             the window wide; 2D agents are drawn at least 8 px long; the dark theme's world is dark
//             and the panel text has WCAG AA contrast (4.5:1);
//   Home      every agent is in view;
//   N         an agent is selected (where the scene has agents to select) and not followed;
//   F         the camera follows it: on every frame since, it stays within a point of the free
//             viewport's centre, and it moves (its readout changes);
//   Ctrl+T    the light theme lights the world too (mean luminance above 0.6 and 0.1 above the dark
//             one), its panel text still 4.5:1;
//   Tab       the world takes the whole window.
TEST_P(EveryScene, OneWindowFromStartThroughHomeFollowTheLightThemeAndTab) {
  if (!apptest::haveXdotool()) GTEST_SKIP() << "xdotool is not installed";
  const std::string scene = GetParam(), dir = apptest::outDir() + "/driven-lecture-" + scene;
  const std::string actions =
      "xdotool mousemove --window $id 300 400; sleep 0.3\n"
      "snap start\n"
      "press Home; sleep 0.3; snap home\n"
      "press n; sleep 0.3; snap selected\n"
      "press f; sleep 1.5; snap followed\n"
      "sleep 0.5; snap followed-later\n"
      "press ctrl+t; sleep 0.5; snap light\n"
      "press Tab; sleep 0.3; snap hidden\n";
  const apptest::RunResult r = apptest::runDriven("lecture-" + scene, "--scene " + scene + " --width 1280 --height 720 --screenshot '" +
                                                  dir + "/shot.png'", actions, "1920x1080", "1.5");
  ASSERT_EQ(r.exitCode, 0) << r.out;

  const auto start = r.at("start");
  ASSERT_EQ(start.exitCode, 0) << "no state at start: " << r.out;
  int x = 0, y = 0, w = 0, h = 0;
  ASSERT_EQ(std::sscanf(start.value("world_area").c_str(), "%d,%d,%d,%d", &x, &y, &w, &h), 4) << start.value("world_area");
  EXPECT_EQ(x, 0) << "the HUD is one line in the menu bar until opened";
  EXPECT_GT(y, 0) << "below the menu bar";
  EXPECT_LT(w, kWidth) << "the world lies beside the scene panel, not under it";
  EXPECT_GE(w, kWidth / 2) << "and keeps at least half the window's width";
  if (scene != "murmuration") {  // its default is 3D, birds drawn in perspective (WorldView.AgentGlyphs... draws it in 2D)
    EXPECT_GE(std::atof(start.value("glyph_px").c_str()), 8.0) << start.value("glyph_px");
  }
  EXPECT_GE(std::atof(start.value("text_contrast").c_str()), 4.5) << "dark panels";
  const double dark = meanLuminance(start.picture, start.value("world_area"));
  EXPECT_GE(dark, 0.0) << "the snapshot's picture: " << start.picture;
  EXPECT_LT(dark, 0.5);

  EXPECT_EQ(r.at("home").value("agents_outside_view"), "0");

  // N and F where the scene has agents to select (the spatial hash pins one by hovering, the
  // pedestrians and the GPU flock have none): N selects none elsewhere, and F follows nothing.
  const auto selected = r.at("selected"), followed = r.at("followed"), later = r.at("followed-later");
  EXPECT_EQ(selected.value("followed_frames"), "0") << "not followed before F";
  if (selected.value("selected") != "") {
    EXPECT_EQ(followed.value("following"), "1");
    EXPECT_GE(std::atoi(followed.value("followed_frames").c_str()), 15) << "1.5 s at 20 frames a second";
    EXPECT_LT(std::atof(later.value("follow_max_offset").c_str()), 1.0) << "points off the free viewport's centre";
    EXPECT_NE(later.value("selected"), followed.value("selected")) << "the followed agent moves";
  } else {
    EXPECT_EQ(followed.value("followed_frames"), "0") << "nothing selected, nothing followed";
  }

  const auto light = r.at("light");
  EXPECT_EQ(light.value("theme"), "light");
  const double lit = meanLuminance(light.picture, light.value("world_area"));
  EXPECT_GT(lit, 0.6);
  EXPECT_GT(lit, dark + 0.1);
  EXPECT_GE(std::atof(light.value("text_contrast").c_str()), 4.5) << "light panels";

  EXPECT_EQ(r.at("hidden").value("world_area"), "0,0,1280,720") << "Tab gives the world the whole window";
}

INSTANTIATE_TEST_SUITE_P(Window, EveryScene, testing::ValuesIn(apptest::sceneNames()), testName);

// ---- what particular scenes show ----

// The murmuration's birds, dark against the dusk sky (the per-row background).
TEST(Window, MurmurationAt50000DrawsEveryBirdInOneCall) {
  std::string png = apptest::outDir() + "/murmuration_50000.png";
  std::remove(png.c_str());
  apptest::RunResult r = apptest::runCrowdlab("--scene murmuration --width 1280 --height 720 --keys Tab --set N=50000 --frames 12 --screenshot '" + png + "'");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.value("agent_draw_calls"), "1");
  EXPECT_EQ(r.value("agents"), "50000");
  apptest::Pixels p = apptest::loadPixels(png);
  ASSERT_FALSE(p.rgba.empty()) << png;
  EXPECT_GT(apptest::foreground(p, 0, 0, p.width, p.height).pixels, 5000u) << "the flock shows against the sky";
}

TEST(Window, MurmurationAlarmShowsTheFalcon) {
  std::string png = apptest::outDir() + "/murmuration_falcon.png";
  std::remove(png.c_str());
  // The automatic alarm fires after 2 s (frame 120); 40 frames later the falcon is diving through.
  apptest::RunResult r =
      apptest::runCrowdlab("--scene murmuration --width 1280 --height 720 --keys Tab --set alarmEvery=2 --frames 160 --screenshot '" + png + "'");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  apptest::Pixels p = apptest::loadPixels(png);
  ASSERT_FALSE(p.rgba.empty()) << png;
  int red = 0;
  for (int y = 0; y < p.height; ++y)
    for (int x = 0; x < p.width; ++x) {
      const unsigned char* c = p.at(x, y);
      red += c[0] > 170 && c[1] < 90 && c[2] < 90;
    }
  EXPECT_GT(red, 30) << "the falcon (red lines) is on screen";
}

TEST(Window, MurmurationPlanarModeRenders) {
  std::string png = apptest::outDir() + "/murmuration_2d.png";
  std::remove(png.c_str());
  apptest::RunResult r = apptest::runCrowdlab("--scene murmuration --width 1280 --height 720 --keys Tab --set mode2D=on --frames 30 --screenshot '" + png + "'");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.value("agents"), "2000");
  apptest::Pixels p = apptest::loadPixels(png);
  EXPECT_GT(apptest::foreground(p, 0, 0, p.width, p.height).pixels, 400u);
}

// --max-fps holds a window that runs on its own clock to that rate: each frame starts at least 1/N s
// after the one before (the window tests run at 20 so, and their app used a sixth of the CPU it used
// unheld). A run of a set number of frames (--frames) is never held back.
TEST(Window, MaxFpsHoldsAFreeRunningWindowButNotACountedRun) {
  const apptest::RunResult held = apptest::runCrowdlab("--scene boids --max-fps 4", "timeout -s TERM 3");
  ASSERT_FALSE(held.value("frame_ms_median").empty()) << held.out << held.err;
  EXPECT_GE(std::atof(held.value("frame_ms_median").c_str()), 249.0) << "4 frames a second at most\n" << held.out;
  const apptest::RunResult counted = apptest::runCrowdlab("--scene boids --max-fps 2 --frames 20");
  ASSERT_EQ(counted.exitCode, 0) << counted.err;
  EXPECT_LT(std::atof(counted.value("frame_ms_median").c_str()), 400.0) << "held back to 2 frames a second";
  // A bad rate is one line, from the flag or from the environment, and no window.
  apptest::expectRefused("--max-fps 2000", "--max-fps must be between 0 and 1000");
  const apptest::RunResult badEnv = apptest::runCrowdlab("--list-scenes", "CROWDLAB_MAX_FPS=fast");
  EXPECT_EQ(badEnv.exitCode, 2);
  EXPECT_NE(badEnv.err.find("CROWDLAB_MAX_FPS expects a whole number, got"), std::string::npos) << badEnv.err;
}

TEST(Window, SpatialHashHeatMapAndGridOverlayOnAClusteredFlock) {
  std::string plain = apptest::outDir() + "/spatial_hash_plain.png", heat = apptest::outDir() + "/spatial_hash_heat.png";
  const std::string base = "--scene spatial-hash --width 1280 --height 720 --keys Tab --set distribution=clustered --frames 30 ";
  apptest::RunResult r0 = apptest::runCrowdlab(base + "--set heat=off --set grid=off --screenshot '" + plain + "'");
  apptest::RunResult r1 = apptest::runCrowdlab(base + "--set heat=on --set grid=on --screenshot '" + heat + "'");
  ASSERT_EQ(r0.exitCode, 0) << r0.err;
  ASSERT_EQ(r1.exitCode, 0) << r1.err;
  // The overlays colour cells and draw lines over the world: far more of it differs from black.
  apptest::Pixels p0 = apptest::loadPixels(plain), p1 = apptest::loadPixels(heat);
  size_t lit0 = 0, lit1 = 0;
  for (int y = 0; y < p0.height; ++y)
    for (int x = 0; x < p0.width; ++x) {
      lit0 += p0.at(x, y)[0] + p0.at(x, y)[1] + p0.at(x, y)[2] > 90;
      lit1 += p1.at(x, y)[0] + p1.at(x, y)[1] + p1.at(x, y)[2] > 90;
    }
  EXPECT_GT(lit1, lit0 * 3 / 2) << "heat map and grid add to the picture";
}

TEST(Window, OrcaCorridorRendersWithTheInsetOpen) {
  std::string png = apptest::outDir() + "/orca_corridor_inset.png";
  std::remove(png.c_str());
  apptest::RunResult r = apptest::runCrowdlab("--scene orca-corridor --set inset=true --set showVelocity=true "
                                              "--set showTargets=true --frames 120 --screenshot '" + png + "'");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.value("agent_draw_calls"), "1");
  EXPECT_EQ(r.value("agents"), "40");
}

TEST(Window, FinaleHundredThousandAgentsInOneInstancedDraw) {
  bool available = false;
  std::vector<long long> draws =
      apptest::instancedDrawsInLastFrame("--scene finale --set N=100000 --set obstacles=30 --frames 3", "finale_trace", available);
  if (!available) GTEST_SKIP() << "apitrace is not installed";
  EXPECT_EQ(std::count(draws.begin(), draws.end(), 100000LL), 1) << "instanced draws in the last frame: " << draws.size();
}

TEST(Window, ScreenshotToAnUnwritablePathFailsCleanly) {
  apptest::RunResult r = apptest::runCrowdlab("--scene boids --frames 2 --screenshot /nonexistent-dir/x.png");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("cannot write"), std::string::npos) << r.err;
}

}  // namespace
