// Experiments in the real program: --claim opens one, R and the experiment's button restart it (step
// counter and clock at 0, the same agents as a fresh start of the claim), and the banner on the
// canvas states the claim, then shows the verdict, in letters a hall can read.
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include "app_util.hpp"

namespace {

// A window run with a private settings folder at UI scale 1 (the first-run scale follows the display).
apptest::RunResult run(const std::string& name, const std::string& args) {
  const std::string dir = apptest::freshDir("claims-window-" + name);
  std::ofstream(dir + "/settings.json") << "{\"uiScale\": 1.0}";
  return apptest::runCrowdlab(args, "CROWDLAB_CONFIG_DIR='" + dir + "'");
}

nlohmann::json readState(const std::string& path) {
  const std::string text = apptest::slurp(path);
  return text.empty() ? nlohmann::json() : nlohmann::json::parse(text, nullptr, false);
}

// The metrics of a state without the wall-clock timings (names ending in "_ms"), which differ between runs.
nlohmann::json simMetrics(const nlohmann::json& state) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [name, value] : state["metrics"].items())
    if (name.size() < 3 || name.compare(name.size() - 3, 3, "_ms") != 0) out[name] = value;
  return out;
}

// Everything that says where an experiment stands: parameters, step counter, clock, agents, metrics.
void expectSameStart(const nlohmann::json& got, const nlohmann::json& fresh, const std::string& what) {
  EXPECT_EQ(got["steps"], 0) << what;
  EXPECT_EQ(got["sim_time"], 0.0) << what;
  EXPECT_EQ(got["params"], fresh["params"]) << what;
  EXPECT_EQ(got["agents_digest"], fresh["agents_digest"]) << what << ": the agents are not the claim's start";
  EXPECT_EQ(simMetrics(got), simMetrics(fresh)) << what;
  EXPECT_EQ(got["experiment"]["claim"], fresh["experiment"]["claim"]) << what;
}

std::string statePath(const std::string& name) { return apptest::outDir() + "/claims-window-" + name + ".json"; }

}  // namespace

TEST(ClaimsWindow, BadClaimFlagsExit2WithOneLine) {
  for (const auto& [args, mention] :
       {std::pair<std::string, std::string>{"--claim nope.nothing", "unknown claim 'nope.nothing'"},
        {"--claim boids.separation-scatters --scene murmuration", "runs in scene boids"},
        {"--claim boids.separation-scatters --set N=10", "drop --set and --preset"},
        {"--headless --claim boids.separation-scatters --steps 5", "crowdlab claims"}}) {
    apptest::RunResult r = apptest::runCrowdlab(args);
    EXPECT_EQ(r.exitCode, 2) << args << "\n" << r.err;
    EXPECT_NE(r.err.find(mention), std::string::npos) << args << ":\n" << r.err;
  }
}

// R during an experiment restarts it: after steps have run, the state is again exactly a fresh
// start of the claim (which differs from where the steps had taken it).
TEST(ClaimsWindow, RestartKeyStartsTheExperimentAgain) {
  for (const std::string claim : {"boids.separation-scatters", "steering.smoothing-arrives"}) {
    SCOPED_TRACE(claim);
    const std::string common = "--claim " + claim + " --width 1280 --height 720 ";
    // Paused in the first frame, before its step: the claim's start, step 0.
    apptest::RunResult fresh = run("fresh", common + "--keys space --frames 3 --state-out '" + statePath("fresh") + "'");
    ASSERT_EQ(fresh.exitCode, 0) << fresh.err;
    const nlohmann::json start = readState(statePath("fresh"));
    ASSERT_TRUE(start.is_object()) << apptest::slurp(statePath("fresh"));
    EXPECT_EQ(start["steps"], 0);
    EXPECT_EQ(start["experiment"]["claim"], claim);
    EXPECT_NE(start["experiment"]["banner"].get<std::string>().find("Claim: "), std::string::npos);

    const std::string steps = "space,Right,Right,Right,Right,Right,Right,Right,Right";
    apptest::RunResult moved = run("moved", common + "--keys " + steps + " --frames 11 --state-out '" + statePath("moved") + "'");
    ASSERT_EQ(moved.exitCode, 0) << moved.err;
    const nlohmann::json later = readState(statePath("moved"));
    EXPECT_EQ(later["steps"], 8);
    EXPECT_NE(later["agents_digest"], start["agents_digest"]) << "eight steps must move the agents";

    apptest::RunResult again = run("again", common + "--keys " + steps + ",r --frames 12 --state-out '" + statePath("again") + "'");
    ASSERT_EQ(again.exitCode, 0) << again.err;
    expectSameStart(readState(statePath("again")), start, "after R");
  }
  // The claim's start is its own, not a plain reset: "separation only" begins as one formed flock.
  apptest::RunResult formed = run("formed", "--claim boids.separation-scatters --keys space --frames 2 --state-out '" +
                                                statePath("formed") + "'");
  const nlohmann::json flock = readState(statePath("formed"));
  EXPECT_GT(flock["metrics"]["largest_group_share"].get<double>(), 0.95);
  EXPECT_GT(flock["metrics"]["polarization"].get<double>(), 0.95);
}

// The experiment's real button, clicked with X input (xdotool): it restarts the experiment the same way.
TEST(ClaimsWindow, ExperimentButtonClickedWithXdotoolRestartsTheScene) {
  if (std::system("command -v xdotool >/dev/null 2>&1") != 0) GTEST_SKIP() << "xdotool is not installed";
  const std::string claim = "boids.separation-scatters";
  const std::string common = "--claim " + claim + " --width 1280 --height 720";
  // Where the button is: the first experiment button, under the about text of the scene panel, has
  // the theme's button colour; the layout is the same in every run of this size and scale.
  const std::string png = apptest::outDir() + "/claims-window-layout.png";
  apptest::RunResult layout = run("layout", common + " --keys space --frames 2 --screenshot '" + png +
                                                "' --state-out '" + statePath("click-fresh") + "'");
  ASSERT_EQ(layout.exitCode, 0) << layout.err;
  const nlohmann::json start = readState(statePath("click-fresh"));
  const int panelLeft = std::atoi(layout.value("panel_left").c_str());  // the scene panel's left edge (it lies over the world)
  apptest::Pixels p = apptest::loadPixels(png);
  // The first button of the panel is the first blue run that starts at the panel's left margin and
  // is narrower than half the panel (the title bar and the headers span all of it).
  int bx = -1, by = -1;
  auto blue = [&](int x, int y) {
    const unsigned char* c = p.at(x, y);
    return c[2] > c[0] + 40 && c[2] > 90 && c[2] < 200;
  };
  const int panelWidth = p.width - panelLeft;
  for (int y = 0; y < p.height && bx < 0; ++y)
    for (int x = panelLeft + 2; x < panelLeft + 20 && bx < 0; ++x) {
      if (!blue(x, y) || blue(x - 1, y)) continue;
      int end = x;
      while (end < p.width && blue(end, y)) ++end;
      if (end - x >= 40 && end - x < panelWidth / 2) bx = x + 20, by = y + 8;
    }
  ASSERT_GE(bx, 0) << "no experiment button found in " << png;

  const std::string dir = apptest::freshDir("claims-window-xdotool");
  std::ofstream(dir + "/settings.json") << "{\"uiScale\": 1.0}";
  const std::string out = dir + "/run.out", state = statePath("click");
  // Paused, eight single steps, then the click; SIGTERM ends the run (SDL turns it into a quit).
  // A display of its own, so no other test's window lies over this one.
  std::ofstream(dir + "/click.sh")
      << "CROWDLAB_CONFIG_DIR='" << dir << "' '" CROWDLAB_EXE "' " << common
      << " --keys space,Right,Right,Right,Right,Right,Right,Right,Right --state-out '" << state << "' >'" << out
      << "' 2>&1 &\n"
      << "pid=$!\n"
      << "id=$(timeout 20 xdotool search --sync --onlyvisible --pid $pid | head -1) || exit 3\n"
      << "sleep 1.5\n"
      << "xdotool mousemove --window $id " << bx << " " << by << " && sleep 0.3 || exit 4\n"
      << "xdotool click 1 && sleep 1 || exit 5\n"
      << "kill -TERM $pid; wait $pid\n";
  const std::string click = apptest::onOwnDisplay(dir + "/click.sh");
  ASSERT_EQ(std::system(click.c_str()), 0) << apptest::slurp(out);
  const nlohmann::json after = readState(state);
  ASSERT_TRUE(after.is_object()) << apptest::slurp(out);
  expectSameStart(after, start, "after the click");
  EXPECT_NE(after["experiment"]["banner"].get<std::string>().find("Claim: "), std::string::npos);
}

// The banner in a screenshot: nothing in its place without an experiment; the claim and the
// countdown while it measures; the verdict in green with its number once the window has passed.
// Letters a hall can read: a capital at least 2 % of a 1080-pixel window's height (22 px).
TEST(ClaimsWindow, BannerShowsTheClaimThenTheVerdictLargeEnoughForAHall) {
  // spatial-hash.grid measures from 0.5 s for 1 s: done after 90 steps (one a frame with --frames).
  const std::string size = " --width 1920 --height 1080";
  int hudRight = 360, strip = 135;  // as the measuring run reports them
  auto shot = [&](const std::string& name, const std::string& args) {
    const std::string png = apptest::outDir() + "/claims-banner-" + name + ".png";
    apptest::RunResult r = run("banner-" + name, args + size + " --screenshot '" + png + "' --state-out '" + statePath(name) + "'");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    if (name == "measuring") {
      hudRight = std::atoi(r.value("hud_right").c_str());
      strip = std::atoi(r.value("reserved_bottom").c_str());
    }
    return std::pair{apptest::loadPixels(png), readState(statePath(name))};
  };
  const auto [none, noneState] = shot("none", "--scene spatial-hash --frames 20");
  const auto [measuring, measuringState] = shot("measuring", "--claim spatial-hash.grid --frames 3");
  const auto [verdict, verdictState] = shot("verdict", "--claim spatial-hash.grid --frames 100");
  ASSERT_EQ(verdict.width, 1920);
  ASSERT_EQ(verdict.height, 1080);

  EXPECT_EQ(noneState["experiment"]["banner"], "");
  // 3 frames of 8 steps (the settling goes fast-forward): 0.4 s, still before the window opens at 0.5 s.
  EXPECT_NE(measuringState["experiment"]["banner"].get<std::string>().find(
                "settling: 0.4 of 0.5 s, then measuring for 1 s  (fast-forward x8)  —  measuring checks_per_agent"),
            std::string::npos)
      << measuringState["experiment"]["banner"];
  EXPECT_FALSE(measuringState["experiment"]["verdict_shown"].get<bool>());
  const std::string line = verdictState["experiment"]["banner"];
  EXPECT_TRUE(verdictState["experiment"]["verdict_shown"].get<bool>()) << line;
  EXPECT_NE(line.find("each agent checks 5"), std::string::npos) << line;  // the number (about 52), in words
  EXPECT_NE(line.find("->  holds"), std::string::npos) << line;
  EXPECT_NE(line.find("checks_per_agent (mean) <= 200, by counted work: measured 5"), std::string::npos) << line;  // the program's line

  // The banner's place: its own strip across the bottom of the world's view, which the world is
  // fitted above (reserved_bottom), the same height from the countdown to the verdict.
  ASSERT_GT(strip, 40);
  EXPECT_NEAR(strip, verdictState["experiment"]["banner_strip"].get<double>(), 1.0);
  EXPECT_LT(strip, 1080 * 0.2) << "the banner takes at most a fifth of the window's height";
  const int x0 = hudRight, x1 = 1920 - 460, y0 = 1080 - strip, y1 = 1080;
  // Its letters: light text (all channels over 200) for the claim, green (the verdict holds) for the verdict.
  auto count = [](const apptest::Pixels& p, int xa, int ya, int xb, int yb, bool green) {
    size_t n = 0;
    for (int y = ya; y < yb; ++y)
      for (int x = xa; x < xb; ++x) {
        const unsigned char* c = p.at(x, y);
        n += green ? (c[1] > 190 && c[0] < 170 && c[2] < 190 && c[1] > c[0] + 60) : (c[0] > 200 && c[1] > 200 && c[2] > 200);
      }
    return n;
  };
  std::printf("banner pixels: none %zu, measuring %zu light %zu green, verdict %zu green\n", count(none, x0, y0, x1, y1, false),
              count(measuring, x0, y0, x1, y1, false), count(measuring, x0, y0, x1, y1, true), count(verdict, x0, y0, x1, y1, true));
  EXPECT_LT(count(none, x0, y0, x1, y1, false), 50u) << "no banner without an experiment";
  EXPECT_GT(count(measuring, x0, y0, x1, y1, false), 800u) << "the claim's text";
  EXPECT_LT(count(measuring, x0, y0, x1, y1, true), 50u) << "no verdict while it measures";
  EXPECT_GT(count(verdict, x0, y0, x1, y1, true), 300u) << "the verdict, green";

  // A capital's height: the "C" of "Claim:", the banner's first letter. Its columns are the first
  // light ones from the left; its height is the first unbroken run of rows with light pixels in them
  // (the line below starts under a gap).
  int left = -1;
  for (int x = x0; x < x1 && left < 0; ++x)
    for (int y = y0; y < y1 && left < 0; ++y)
      if (count(measuring, x, y, x + 1, y + 1, false)) left = x;
  ASSERT_GE(left, 0);
  auto lightRow = [&](int y) {  // any pixel of the letter, its soft edges included, on the dark banner
    for (int x = left; x < left + 12; ++x)
      if (const unsigned char* c = measuring.at(x, y); c[0] > 110 && c[1] > 110 && c[2] > 110) return true;
    return false;
  };
  int top = y0;
  while (top < y1 && !lightRow(top)) ++top;
  int bottom = top;
  while (bottom + 1 < y1 && lightRow(bottom + 1)) ++bottom;
  const int capHeight = bottom - top + 1;
  std::printf("banner capital: %d px of 1080\n", capHeight);
  EXPECT_GE(capHeight, 22) << "capital letters of the banner are " << capHeight << " px tall";
  EXPECT_LE(capHeight, 80);
}

// A claim's window run: the settling goes fast-forward (several steps a frame, and the banner says
// so); a ratio claim's baseline comes from a headless run beside the window, not from a second window
// run first; and the verdict carries the numbers `crowdlab claims` prints.
TEST(ClaimsWindow, SettlingFastForwardAndBaselineFromAHeadlessRun) {
  apptest::RunResult settling = run("ff", "--claim steering.seek-orbits --width 1280 --height 720 --frames 5 --state-out '" +
                                              statePath("ff") + "'");
  ASSERT_EQ(settling.exitCode, 0) << settling.err;
  const nlohmann::json ff = readState(statePath("ff"));
  ASSERT_TRUE(ff.is_object());
  EXPECT_EQ(ff["steps"], 5 * 8) << "eight steps a frame while it settles";
  EXPECT_NE(ff["experiment"]["banner"].get<std::string>().find("settling"), std::string::npos) << ff["experiment"]["banner"];
  EXPECT_NE(ff["experiment"]["banner"].get<std::string>().find("(fast-forward x8)"), std::string::npos) << ff["experiment"]["banner"];

  const std::string id = "spatial-hash.brute-vs-grid";
  apptest::RunResult ratio = run("ratio", "--claim " + id + " --seed 2 --width 1280 --height 720 --hidden --state-out '" +
                                              statePath("ratio") + "'");
  ASSERT_EQ(ratio.exitCode, 0) << ratio.err;
  const nlohmann::json state = readState(statePath("ratio"));
  ASSERT_TRUE(state.is_object());
  EXPECT_EQ(state["experiment"]["claim"], id) << "the claim itself ran in the window, not its baseline";
  // Its own frames only: 4 of settling (30 steps, 8 a frame), 60 of window, the verdict's 2; a
  // baseline run in the window first would add as many again.
  EXPECT_GE(state["steps"].get<int>(), 90);
  EXPECT_LT(std::atoi(ratio.value("frames").c_str()), 90) << "a baseline ran in the window first";
  const std::string banner = state["experiment"]["banner"];
  EXPECT_NE(banner.find("->  holds"), std::string::npos) << banner;

  // The same seed through `crowdlab claims`: the window's measured ratio is the table's.
  const std::string csv = apptest::outDir() + "/claims-window-ratio.csv";
  apptest::RunResult table = apptest::runCrowdlab("claims --scene spatial-hash --seeds 1 --first-seed 2 --csv '" + csv + "'");
  ASSERT_EQ(table.exitCode, 0) << table.out << table.err;
  std::istringstream rows(apptest::slurp(csv));
  std::string line;
  double mean = -1;
  while (std::getline(rows, line))
    if (line.rfind(id + ",spatial-hash,1,checks_per_agent,", 0) == 0) mean = std::stod(line.substr(line.find("checks_per_agent,") + 17));
  ASSERT_GT(mean, 0) << apptest::slurp(csv);
  char measured[64];
  std::snprintf(measured, sizeof measured, "measured %.3g x", mean);
  EXPECT_NE(banner.find(measured), std::string::npos) << measured << " in\n" << banner;
}
