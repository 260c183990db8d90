// The scene panel's Sweep section in a real window, driven with xdotool as a person would: open it,
// Start a sweep, let the curve fill, click a point (the live scene takes that value, read back with
// --state-out), Start again and Stop (it stops within a second, with fewer points). The points to
// click come from the app's own state lines of earlier runs: the layout and the sweep's results are
// the same for the same size, scale and seeds.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include "app_util.hpp"

namespace {

// apptest::runDriven with --state-out: the state JSON comes back in the result's `err`.
apptest::RunResult driven(const std::string& name, const std::string& args, const std::string& actions) {
  const std::string state = apptest::freshDir("sweep-panel-state-" + name) + "/state.json";
  apptest::RunResult r = apptest::runDriven("sweep-panel-" + name, args + " --state-out '" + state + "'", actions);
  r.err = apptest::slurp(state);
  return r;
}

// 2,000 boids: a sweep of 12 jobs takes a few seconds on the one worker a 2-core machine leaves it,
// long enough to Stop one on the way, short enough to wait for one.
const std::string kArgs = "--scene boids --set N=2000 --width 1280 --height 720";
const std::string kScrollDown =
    "xdotool mousemove --window $id 1180 400; sleep 0.2; xdotool click --repeat 150 --delay 5 5; sleep 0.3\n";

std::string at(const std::string& xy) {
  int x = -1, y = -1;
  if (std::sscanf(xy.c_str(), "%d,%d", &x, &y) != 2 || x < 0 || y < 0) return "";
  return std::to_string(x) + " " + std::to_string(y);
}

}  // namespace

TEST(SweepPanel, StartFillsTheCurveAClickSetsTheValueAndStopCancels) {
  if (std::system("command -v xdotool >/dev/null 2>&1") != 0) GTEST_SKIP() << "xdotool is not installed";
  // Where the Sweep header is, with the panel scrolled to its end.
  const apptest::RunResult layout = driven("layout", kArgs, kScrollDown);
  const std::string header = at(layout.value("sweep_header_at"));
  ASSERT_FALSE(header.empty()) << layout.out;
  const std::string open = kScrollDown + "click " + header + "\n" + kScrollDown;
  const apptest::RunResult opened = driven("opened", kArgs, open);
  const std::string start = at(opened.value("sweep_start_at"));
  ASSERT_FALSE(start.empty()) << opened.out;

  // Start: the jobs run on worker threads while the window keeps drawing; all points come in, and
  // the window's title says so.
  const std::string run = open + "click " + start + "\nwaitTitle 'sweep done' 30\n" + kScrollDown;
  const apptest::RunResult swept = driven("swept", kArgs, run);
  const int jobs = std::atoi(swept.value("sweep_jobs").c_str());
  ASSERT_GT(jobs, 4) << swept.out;
  ASSERT_EQ(swept.value("sweep_done"), std::to_string(jobs)) << "the sweep finished within 30 s";
  EXPECT_EQ(swept.value("sweep_rows"), std::to_string(jobs));
  EXPECT_EQ(swept.value("title"), "crowdlab - Boids playground - sweep done " + std::to_string(jobs) + "/" + std::to_string(jobs));
  const std::string param = swept.value("sweep_param");
  ASSERT_FALSE(param.empty());
  // One marker per grid point; the last one is the range's end, away from the default.
  std::string points = swept.value("sweep_points_at");
  ASSERT_NE(points.find(';'), std::string::npos) << points;
  const std::string last = at(points.substr(points.rfind(';') + 1));
  ASSERT_FALSE(last.empty()) << points;
  const nlohmann::json before = nlohmann::json::parse(swept.err);
  const double defaultValue = before["params"][param].get<double>();

  // Hover and click that point: the live scene takes its value.
  const std::string pointClick = run + "xdotool mousemove --window $id " + last + "; sleep 0.4\nclick " + last + "\n";
  const apptest::RunResult clicked = driven("point-clicked", kArgs, pointClick);
  const nlohmann::json after = nlohmann::json::parse(clicked.err);
  const std::string hovered = clicked.value("sweep_clicked");
  EXPECT_FALSE(hovered.empty()) << "a point was clicked";
  const double value = after["params"][param].get<double>();
  EXPECT_NE(value, defaultValue) << "the click set " << param;
  EXPECT_NEAR(value, std::atof(hovered.c_str()), 1e-4) << "to the point's value";

  // Start, then Stop at once (it takes Start's place): not running, fewer points than jobs, the
  // workers ended within a second of Stop.
  const std::string startStop =
      open + "click " + start + "\nsleep 0.3; xdotool mousedown 1; sleep 0.1; xdotool mouseup 1\nsleep 1.2\n"
      "waitTitle 'sweep stopped' 5\n";
  const apptest::RunResult stopped = driven("stopped", kArgs, startStop);
  EXPECT_EQ(stopped.value("sweep_running"), "0") << stopped.out;
  EXPECT_LT(std::atoi(stopped.value("sweep_done").c_str()), jobs);
  const double stopMs = std::atof(stopped.value("sweep_stop_ms").c_str());
  EXPECT_GE(stopMs, 0.0) << "Stop was pressed and the workers ended";
  EXPECT_LT(stopMs, 1000.0);
  EXPECT_EQ(stopped.value("title"), "crowdlab - Boids playground - sweep stopped " + stopped.value("sweep_done") + "/" +
                                        std::to_string(jobs));
}

// A benchmark run with a sweep beside it (real clicks: Start, then the HUD's Benchmark button): the
// sweep takes the other core, so the line must not pass for a quiet machine's. Either the sweep ends
// within the run, which stops it without figures, or it runs throughout and the line says
// background=sweep; a plain figures line is the fault.
TEST(SweepPanel, ABenchmarkRunWithASweepBesideItSaysSo) {
  if (std::system("command -v xdotool >/dev/null 2>&1") != 0) GTEST_SKIP() << "xdotool is not installed";
  const std::string withHud = std::string(kArgs) + " --keys F2";  // the full HUD, with its Benchmark button
  const apptest::RunResult layout = driven("bench-layout", withHud, kScrollDown);
  const std::string header = at(layout.value("sweep_header_at")), benchmark = at(layout.value("benchmark_button_at"));
  ASSERT_FALSE(header.empty()) << layout.out;
  ASSERT_FALSE(benchmark.empty()) << layout.out;
  const std::string open = kScrollDown + "click " + header + "\n" + kScrollDown;
  const apptest::RunResult opened = driven("bench-opened", withHud, open);
  const std::string start = at(opened.value("sweep_start_at"));
  ASSERT_FALSE(start.empty()) << opened.out;
  const apptest::RunResult r = driven("bench-beside", withHud, open + "click " + start + "\nclick " + benchmark + "\nsleep 11.5\n");
  ASSERT_EQ(r.exitCode, 0) << r.out;
  const size_t at = r.out.find("crowdlab benchmark: scene=boids");
  ASSERT_NE(at, std::string::npos) << r.out;
  const std::string line = r.out.substr(at, r.out.find('\n', at) - at);
  const bool stopped = line.find("stopped, a sweep or search began or ended beside it") != std::string::npos;
  const bool named = line.find("median_step_ms") != std::string::npos && line.find(" background=sweep") != std::string::npos;
  EXPECT_TRUE(stopped || named) << line;
}

// A scene switch keeps each scene's sweep: one finished in boids is there, whole, after a visit to
// the spatial hash scene (key 3) and back (key 2); it used to be thrown away (and a running one
// stopped, with the window waiting for the job's step).
TEST(SweepPanel, EachSceneKeepsItsSweepAcrossASwitch) {
  if (std::system("command -v xdotool >/dev/null 2>&1") != 0) GTEST_SKIP() << "xdotool is not installed";
  const apptest::RunResult layout = driven("keep-layout", kArgs, kScrollDown);
  const std::string header = at(layout.value("sweep_header_at"));
  ASSERT_FALSE(header.empty()) << layout.out;
  const std::string open = kScrollDown + "click " + header + "\n" + kScrollDown;
  const apptest::RunResult opened = driven("keep-opened", kArgs, open);
  const std::string start = at(opened.value("sweep_start_at"));
  ASSERT_FALSE(start.empty()) << opened.out;
  const apptest::RunResult r =
      driven("keep-switched", kArgs,
             open + "click " + start + "\nwaitTitle 'sweep done' 30\nxdotool mousemove --window $id 640 360\n"
                    "press 3\nsleep 1\nwaitTitle 'Spatial hash' 5\npress 2\nsleep 1\nwaitTitle 'Boids' 5\n" + kScrollDown);
  const int jobs = std::atoi(r.value("sweep_jobs").c_str());
  ASSERT_GT(jobs, 4) << r.out;
  EXPECT_EQ(r.value("sweep_rows"), std::to_string(jobs)) << r.out;
  // The last title noted: back in boids, after the switch.
  const size_t last = r.out.rfind("\ntitle=");
  ASSERT_NE(last, std::string::npos) << r.out;
  const std::string title = r.out.substr(last + 7, r.out.find('\n', last + 1) - last - 7);
  EXPECT_EQ(title, "crowdlab - Boids playground - sweep done " + std::to_string(jobs) + "/" + std::to_string(jobs)) << r.out;
}

// A sweep whose every step takes many seconds: the finale with the spatial hash off at 100,000 agents
// (the live scene's settings go into the sweep's jobs; the live scene is paused, so only the sweep
// works). While its first job is inside a step, a scene key switches at once, and Ctrl+Q (asked,
// since a sweep runs, then confirmed) ends the program at once. Quitting used to join the sweep's
// worker, which waited for the step to end (seconds, a minute on a busy machine); the switch waited
// too, its loops queued behind the job's (the job took the finale's own thread count).
TEST(SweepPanel, ASceneKeyAndQuitNeverWaitForASweepsStep) {
  if (!apptest::haveXdotool()) GTEST_SKIP() << "xdotool is not installed";
  const std::string slow = "--scene finale --set hash=false --set N=100000 --keys space --width 1280 --height 720";
  // The header's and Start's places; 100,000 agents draw slowly on a busy machine, so a run whose
  // clicks came before the panel was drawn is tried once more.
  std::string header, open, start;
  apptest::RunResult layout, opened;
  for (int attempt = 0; attempt < 2 && start.empty(); ++attempt) {
    layout = driven("slow-layout", slow, kScrollDown);
    header = at(layout.value("sweep_header_at"));
    if (header.empty()) continue;
    open = kScrollDown + "click " + header + "\n" + kScrollDown;
    opened = driven("slow-opened", slow, open);
    start = at(opened.value("sweep_start_at"));
  }
  ASSERT_FALSE(header.empty()) << layout.out;
  ASSERT_FALSE(start.empty()) << opened.out;
  // Times from the key press to the new title, and from the confirming Ctrl+Q to the process's end
  // (each includes the press's own 0.25 s and the polling).
  // Start, tried until the title shows the sweep: at 100,000 drawn agents a busy machine draws a frame
  // a second, and a click can come before the scrolled panel was drawn. The third and fourth tries
  // click the header first, so one of them finds the section open whichever way a lost click left it.
  const std::string sweeping = "xdotool getwindowname $id | grep -q ' - sweep'";
  const std::string actions =
      open + "for try in 1 2 3 4; do\n" + sweeping + " && break\n"
      "[ $try -gt 2 ] && { click " + header + "\n" + kScrollDown + "}\n"
      "sleep 1; click " + start + "\nwaitTitle 'sweep 0/' 15\n" + sweeping + " || { " + kScrollDown + "}\ndone\nsleep 1.5\n"
      "t0=$(date +%s%N); press 2; waitTitle 'Boids' 20; t1=$(date +%s%N); note \"switch_ms=$(( (t1 - t0) / 1000000 ))\"\n"
      "press ctrl+q; sleep 0.6\n"
      "t0=$(date +%s%N); press ctrl+q\n"
      "for i in $(seq 6000); do grep -qs '^State:[[:space:]]*[^Z]' /proc/$pid/status || break; sleep 0.01; done\n"
      "t1=$(date +%s%N); note \"quit_ms=$(( (t1 - t0) / 1000000 ))\"\n";
  const apptest::RunResult r = driven("slow-quit", slow, actions);
  EXPECT_EQ(r.exitCode, 0) << r.out;
  ASSERT_NE(r.out.find(" - sweep 0/"), std::string::npos)
      << "the sweep ran, its first job still in its step, when the scene key came\n" << r.out;
  ASSERT_FALSE(r.err.empty()) << "the state file at exit\n" << r.out;
  const nlohmann::json state = nlohmann::json::parse(r.err);
  EXPECT_TRUE(state["quit_asked"].get<bool>()) << "the first Ctrl+Q asked: the sweep was still running";
  EXPECT_EQ(r.value("scene"), "boids") << r.out;
  EXPECT_LT(std::atoi(r.value("switch_ms").c_str()), 2500) << r.out;
  const int quitMs = std::atoi(r.value("quit_ms").c_str());
  EXPECT_GT(quitMs, 0) << r.out;
  EXPECT_LT(quitMs, 2500) << "the quit waited for the sweep's step\n" << r.out;
}
