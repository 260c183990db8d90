// The presenter's view, read from --state-out's "layout" (SIGUSR1 asks for it mid-run), with real X
// input: every scene's agents lie in the free rectangle (the window less the menu bar, the panels and
// the banner strip) at first start, after a scene switch, after Ctrl+= twice, at 3x and with Tab; the
// free rectangle keeps half the window's width at every UI scale; Esc never quits; Ctrl+Q asks while
// a recording runs; F11 then Esc gives the window back its exact geometry.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>
#include "app_util.hpp"

namespace {

struct Rect {
  double x = 0, y = 0, w = 0, h = 0;
};
Rect rect(const nlohmann::json& a) { return a.is_array() && a.size() == 4 ? Rect{a[0], a[1], a[2], a[3]} : Rect{}; }
double overlap(const Rect& a, const Rect& b) {
  const double w = std::min(a.x + a.w, b.x + b.w) - std::max(a.x, b.x), h = std::min(a.y + a.h, b.y + b.h) - std::max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0.0;
}

nlohmann::json readJson(const std::string& path) {
  const std::string text = apptest::slurp(path);
  return text.empty() ? nlohmann::json() : nlohmann::json::parse(text, nullptr, false);
}

// The checks of one snapshot of the layout: the agents' box at least 95 % inside the free rectangle
// and at most 5 % under any panel; the free rectangle at least half the window's width, under no panel;
// the world's labels that start in it end in it.
void expectAgentsInFree(const nlohmann::json& state, const std::string& what) {
  SCOPED_TRACE(what);
  ASSERT_TRUE(state.is_object() && state.contains("layout")) << "no state: " << state.dump();
  const nlohmann::json& l = state["layout"];
  const Rect free = rect(l["free"]), agents = rect(l["agents_box"]);
  const double windowWidth = l["window"][0];
  EXPECT_GE(free.w, 0.5 * windowWidth) << l.dump();
  if (agents.w * agents.h > 0) {
    EXPECT_GE(overlap(agents, free), 0.95 * agents.w * agents.h) << l.dump();
  } else {
    EXPECT_GT(state.value("agents", 0), 0) << "agents drawn but no box: " << l.dump();
  }
  // A label the world draws that starts in the free rectangle ends in it (none runs on under a panel).
  if (state.contains("probe")) {
    for (const nlohmann::json& a : state["probe"].value("world_labels", nlohmann::json::array())) {
      const Rect label = rect(a);
      if (label.x >= free.x && label.x < free.x + free.w) {
        EXPECT_LE(label.x + label.w, free.x + free.w + 1.0) << "a world label runs on under a panel: " << a.dump() << " " << l.dump();
      }
    }
  }
  for (const nlohmann::json& p : l["panels"]) {  // a point's rounding aside
    const Rect panel = rect(p);
    EXPECT_LE(overlap(panel, free), std::max(panel.w, panel.h)) << "a panel over the world: " << l.dump();
    EXPECT_LE(overlap(panel, agents), 0.05 * agents.w * agents.h) << "agents under a panel: " << l.dump();
  }
}

}  // namespace

// Every scene `--list-scenes` names, at 1920 x 1080 (the 1.5x a 1080 p display starts at) and
// 1280 x 720 (1x): one window per size, the scenes switched with their number keys. At the size's
// own scale every experiment button shows without scrolling.
class PresenterLayoutAt : public testing::TestWithParam<std::pair<std::string, std::string>> {};

TEST_P(PresenterLayoutAt, EveryScenesAgentsLieInTheFreeRectangleAtEveryScale) {
  if (!apptest::haveXdotool()) GTEST_SKIP() << "xdotool is not installed";
  const std::vector<std::string> scenes = apptest::sceneNames();
  ASSERT_GE(scenes.size(), 2u);
  const std::string size = GetParam().first, scale = GetParam().second;
  SCOPED_TRACE(size);
  const std::string name = "layout-" + size, dir = apptest::outDir() + "/driven-" + name;
  const std::string w = size.substr(0, size.find('x')), h = size.substr(size.find('x') + 1);
  std::string actions;
  for (size_t i = 0; i < scenes.size() && i < 9; ++i) {
    const std::string k = std::to_string(i + 1);
    actions += "press " + k + "\nsleep 1.2\nsnap " + k + "-start\n";
    actions += "press ctrl+equal\npress ctrl+equal\nsleep 1.2\nsnap " + k + "-larger\n";
    actions += "press ctrl+minus\npress ctrl+minus\nsleep 0.5\n";
  }
  actions += "for i in 1 2 3 4 5 6 7 8; do press ctrl+equal; done\nsleep 1.5\nsnap largest\n";
  actions += "press Tab\nsleep 1\nsnap hidden\n";
  const apptest::RunResult r =
      apptest::runDriven(name, "--scene " + scenes[0] + " --width " + w + " --height " + h + " --state-out '" + dir + "/state.json'",
                         actions, size, scale);
  ASSERT_EQ(r.exitCode, 0) << r.out;
  for (size_t i = 0; i < scenes.size() && i < 9; ++i) {
    const std::string k = std::to_string(i + 1);
    const nlohmann::json start = readJson(dir + "/" + k + "-start.json"), larger = readJson(dir + "/" + k + "-larger.json");
    expectAgentsInFree(start, scenes[i] + (i == 0 ? " at first start" : " after switching to it"));
    expectAgentsInFree(larger, scenes[i] + " after Ctrl+= twice");
    // The experiment buttons come first and all show without scrolling at the size's own scale.
    if (start.contains("layout")) {
      const Rect experiments = rect(start["layout"]["experiments"]);
      EXPECT_GT(experiments.h, 0.0) << scenes[i] << ": no experiment buttons " << start["layout"].dump();
      EXPECT_LE(experiments.y + experiments.h, start["layout"].value("panel_bottom", 0.0))
          << scenes[i] << ": experiment buttons below the panel's visible bottom " << start["layout"].dump();
    }
    if (larger.contains("layout") && start.contains("layout")) {
      EXPECT_GT(larger["layout"]["ui_scale"].get<float>(), start["layout"]["ui_scale"].get<float>());  // (a held key may repeat)
    }
  }
  const nlohmann::json largest = readJson(dir + "/largest.json"), hidden = readJson(dir + "/hidden.json");
  expectAgentsInFree(largest, "at the largest UI scale");
  if (largest.contains("layout")) {
    EXPECT_FLOAT_EQ(largest["layout"]["ui_scale"].get<float>(), 3.0f);
  }
  expectAgentsInFree(hidden, "with the UI hidden (Tab)");
  if (hidden.contains("layout")) {
    EXPECT_TRUE(hidden["layout"]["panels"].empty()) << hidden.dump();
    EXPECT_EQ(rect(hidden["layout"]["free"]).w, std::stod(w)) << "Tab gives the world the whole window";
  }
}

INSTANTIATE_TEST_SUITE_P(PresenterLayout, PresenterLayoutAt,
                         testing::Values(std::pair<std::string, std::string>{"1920x1080", "1.5"},
                                         std::pair<std::string, std::string>{"1280x720", "1.0"}),
                         [](const testing::TestParamInfo<std::pair<std::string, std::string>>& info) { return "at" + info.param.first; });

// During a claim the banner strip takes the window's bottom, and the panel ends above it: every
// scene's experiment buttons still show without scrolling in a 1280 x 720 window at 1x (the
// pedestrians' 28 claims among them).
TEST(PresenterLayout, EveryScenesExperimentButtonsShowAboveTheClaimBannerAt720p) {
  std::istringstream ids(apptest::runCrowdlab("claims --list").out);
  std::vector<std::string> firstClaims;
  std::string lastScene;
  for (std::string id; std::getline(ids, id);) {
    const std::string scene = id.substr(0, id.find('.'));
    if (!id.empty() && scene != lastScene) firstClaims.push_back(id);
    lastScene = scene;
  }
  ASSERT_GE(firstClaims.size(), 7u);
  const std::string config = apptest::outDir() + "/config-experiments-720";
  std::filesystem::create_directories(config);
  std::ofstream(config + "/settings.json") << "{\"uiScale\": 1.0}";
  for (const std::string& claim : firstClaims) {
    SCOPED_TRACE(claim);
    const std::string state = apptest::outDir() + "/experiments-" + claim + ".json";
    const apptest::RunResult r =
        apptest::runCrowdlab("--claim " + claim + " --width 1280 --height 720 --frames 20 --state-out '" + state + "'",
                             "CROWDLAB_CONFIG_DIR='" + config + "'");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const nlohmann::json doc = readJson(state);
    ASSERT_TRUE(doc.contains("layout")) << apptest::slurp(state);
    const Rect experiments = rect(doc["layout"]["experiments"]);
    EXPECT_GT(experiments.h, 0.0) << doc["layout"].dump();
    EXPECT_LE(experiments.y + experiments.h, doc["layout"].value("panel_bottom", 0.0)) << doc["layout"].dump();
    EXPECT_LT(doc["layout"].value("panel_bottom", 0.0), 720.0) << "the banner strip should shorten the panel";
  }
}

// Esc never quits: twice, as a presenter presses it by accident, and the run draws all its frames.
// Ctrl+Q quits at once when nothing would be lost, and asks while a recording runs.
TEST(PresenterLayout, EscNeverQuitsAndCtrlQAsksWhileARecordingRuns) {
  const std::string dir = apptest::freshDir("presenter-quit");
  apptest::RunResult r = apptest::runCrowdlab("--scene boids --keys Escape,Escape --frames 60 --state-out '" + dir + "/esc.json'",
                                              "timeout 60");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(readJson(dir + "/esc.json").value("steps", 0), 60) << "Esc, Esc must not end the run";
  r = apptest::runCrowdlab("--scene boids --keys ctrl+q --frames 60 --state-out '" + dir + "/quit.json'", "timeout 60");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_LT(readJson(dir + "/quit.json").value("steps", 99), 10) << "Ctrl+Q with nothing running quits at once";
  r = apptest::runCrowdlab("--scene boids --width 320 --height 240 --record 500 --record-dir '" + dir +
                               "/frames' --keys ctrl+q --frames 30 --state-out '" + dir + "/recording.json'",
                           "timeout 60");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const nlohmann::json asked = readJson(dir + "/recording.json");
  EXPECT_EQ(asked.value("steps", 0), 30) << "Ctrl+Q during a recording asks first";
  EXPECT_TRUE(asked.value("quit_asked", false)) << asked.dump();
}

// F11 then Esc: the window comes back exactly where and as large as it was (under a window manager,
// which answers F11); in full screen too the agents lie in the free rectangle.
TEST(PresenterLayout, F11ThenEscRestoresTheWindowsGeometry) {
  if (!apptest::haveXdotool() || !apptest::haveOpenbox()) GTEST_SKIP() << "xdotool or openbox is not installed";
  const std::string dir = apptest::outDir() + "/driven-f11-geometry";
  const std::string geometry = "geom() { xdotool getwindowgeometry --shell $id | grep -E '^(X|Y|WIDTH|HEIGHT)=' | tr '\\n' ' '; }\n";
  const apptest::RunResult r = apptest::runDriven(
      "f11-geometry", "--scene orca-corridor --width 900 --height 560 --state-out '" + dir + "/state.json'",
      geometry + "sleep 0.5\nnote \"before=$(geom)\"\npress F11\nsleep 1.5\nnote \"full=$(xsize)\"\nsnap full\n"
                                   "press Escape\nsleep 1.5\nnote \"after=$(geom)\"\n",
      "1280x720", "1.0", true);
  ASSERT_EQ(r.exitCode, 0) << r.out;
  EXPECT_EQ(r.value("full"), "1280x720") << r.out;
  expectAgentsInFree(readJson(dir + "/full.json"), "in full screen");
  ASSERT_NE(r.value("before"), "");
  EXPECT_EQ(r.value("after"), r.value("before")) << r.out;
}
