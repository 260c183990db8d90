// The scene panel's Sweep section in a real window, driven with xdotool as a person would: open it,
// Start a sweep, let the curve fill, click a point (the live scene takes that value, read back with
// --state-out), Start again and Stop (it stops within a second, with fewer points). The points to
// click come from the run's own state, read just before each click.
#include <gtest/gtest.h>

#include <string>
#include <vector>
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

// Scrolls the panel to its end and opens the Sweep section, each place read from the run's own
// state (runDriven's snapUntil, point; checked by expectOpened). The header is clicked only while the
// section is closed, and again at once if a click did not take (at 100,000 drawn agents a busy
// machine draws 3 frames a second, and one click in a few was lost), never twice over an open one.
const std::string kOpenSweep = kScrollDown + "snapUntil layout sweep_header_at\n"
                               "for try in 1 2 3 4 5 6; do snap opened; [ \"$(point opened sweep_start_at)\" != '-1 -1' ] && break\n"
                               "click $(point opened sweep_header_at); sleep 0.5\n" + kScrollDown + "done\n";
void expectOpened(const apptest::RunResult& r) {
  EXPECT_NE(r.at("layout").value("sweep_header_at"), "") << "the Sweep header's place\n" << r.out;
  EXPECT_NE(r.at("opened").value("sweep_start_at"), "") << "Start's place, the section opened\n" << r.out;
}
// The titles noted by waitTitle, in order.
std::vector<std::string> titles(const apptest::RunResult& r) {
  std::vector<std::string> found;
  for (size_t at = r.out.find("title="); at != std::string::npos; at = r.out.find("\ntitle=", at + 1)) {
    const size_t from = r.out.find("title=", at) + 6;
    found.push_back(r.out.substr(from, r.out.find('\n', from) - from));
  }
  return found;
}

}  // namespace

TEST(SweepPanel, StartFillsTheCurveAClickSetsTheValueAndStopCancels) {
  if (std::system("command -v xdotool >/dev/null 2>&1") != 0) GTEST_SKIP() << "xdotool is not installed";
  // One window: Start, the curve fills (snapshot swept); its last point hovered and clicked (clicked);
  // Start again and Stop at once, Stop taking Start's place (stopped).
  const std::string actions =
      kOpenSweep + "click $(point opened sweep_start_at)\nwaitTitle 'sweep done' 30\n" + kScrollDown + "snapUntil swept sweep_points_at\n"
      "xdotool mousemove --window $id $(point swept sweep_points_at); sleep 0.4\nclick $(point swept sweep_points_at)\nsnap clicked\n"
      "snapUntil again sweep_start_at\nclick $(point again sweep_start_at)\nsleep 0.3; xdotool mousedown 1; sleep 0.1; xdotool mouseup 1\nsleep 1.2\n"
      "waitTitle 'sweep stopped' 5\nsnap stopped\n";
  const apptest::RunResult r = driven("start-click-stop", kArgs, actions);
  expectOpened(r);
  const std::vector<std::string> seen = titles(r);
  ASSERT_EQ(seen.size(), 2u) << r.out;

  // Start: the jobs run on worker threads while the window keeps drawing; all points come in, and
  // the window's title says so.
  const auto swept = r.at("swept");
  const int jobs = std::atoi(swept.value("sweep_jobs").c_str());
  ASSERT_GT(jobs, 4) << r.out;
  ASSERT_EQ(swept.value("sweep_done"), std::to_string(jobs)) << "the sweep finished within 30 s";
  EXPECT_EQ(swept.value("sweep_rows"), std::to_string(jobs));
  EXPECT_EQ(seen[0], "crowdlab - Boids playground - sweep done " + std::to_string(jobs) + "/" + std::to_string(jobs));
  const std::string param = swept.value("sweep_param");
  ASSERT_FALSE(param.empty());
  // One marker per grid point; the last one, clicked, is the range's end, away from the default.
  ASSERT_NE(swept.value("sweep_points_at").find(';'), std::string::npos) << swept.value("sweep_points_at");
  const double defaultValue = swept.state["params"][param].get<double>();

  // Hover and click that point: the live scene takes its value.
  const auto clicked = r.at("clicked");
  const std::string hovered = clicked.value("sweep_clicked");
  EXPECT_FALSE(hovered.empty()) << "a point was clicked";
  const double value = clicked.state["params"][param].get<double>();
  EXPECT_NE(value, defaultValue) << "the click set " << param;
  EXPECT_NEAR(value, std::atof(hovered.c_str()), 1e-4) << "to the point's value";

  // Start, then Stop at once: not running, fewer points than jobs, the workers ended within a second
  // of Stop.
  const auto stopped = r.at("stopped");
  EXPECT_EQ(stopped.value("sweep_running"), "0") << r.out;
  EXPECT_LT(std::atoi(stopped.value("sweep_done").c_str()), jobs);
  const double stopMs = std::atof(stopped.value("sweep_stop_ms").c_str());
  EXPECT_GE(stopMs, 0.0) << "Stop was pressed and the workers ended";
  EXPECT_LT(stopMs, 1000.0);
  EXPECT_EQ(seen[1], "crowdlab - Boids playground - sweep stopped " + stopped.value("sweep_done") + "/" + std::to_string(jobs));
}

// A benchmark run with a sweep beside it (real clicks: Start, then the HUD's Benchmark button): the
// sweep takes the other core, so the line must not pass for a quiet machine's. Either the sweep ends
// within the run, which stops it without figures, or it runs throughout and the line says
// background=sweep; a plain figures line is the fault.
TEST(SweepPanel, ABenchmarkRunWithASweepBesideItSaysSo) {
  if (std::system("command -v xdotool >/dev/null 2>&1") != 0) GTEST_SKIP() << "xdotool is not installed";
  const std::string withHud = std::string(kArgs) + " --keys F2";  // the full HUD, with its Benchmark button
  const apptest::RunResult r =
      driven("bench-beside", withHud, kOpenSweep + "click $(point opened sweep_start_at)\nclick $(point layout benchmark_button_at)\nsleep 11.5\n");
  expectOpened(r);
  EXPECT_NE(r.at("layout").value("benchmark_button_at"), "") << r.out;
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
  const apptest::RunResult r =
      driven("keep-switched", kArgs,
             kOpenSweep + "click $(point opened sweep_start_at)\nwaitTitle 'sweep done' 30\nxdotool mousemove --window $id 640 360\n"
                          "press 3\nsleep 1\nwaitTitle 'Spatial hash' 5\npress 2\nsleep 1\nwaitTitle 'Boids' 5\n" + kScrollDown);
  expectOpened(r);
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
  // Start, as the header in kOpenSweep, is clicked again at once if its click did not take, and only
  // while the snapshot says no sweep runs (a second click would stop it).
  const std::string actions =
      kOpenSweep + "for try in 1 2 3 4 5 6; do click $(point opened sweep_start_at); sleep 0.5; snap started\n"
      "[ \"$(probed started sweep_running)\" = true ] && break\n" + kScrollDown + "snap opened; done\n"
      "waitTitle 'sweep 0/' 15\nsleep 1.5\n"
      "t0=$(date +%s%N); press 2; waitTitle 'Boids' 20; t1=$(date +%s%N); note \"switch_ms=$(( (t1 - t0) / 1000000 ))\"\n"
      "press ctrl+q; sleep 0.6\n"
      "t0=$(date +%s%N); press ctrl+q\n"
      "for i in $(seq 6000); do grep -qs '^State:[[:space:]]*[^Z]' /proc/$pid/status || break; sleep 0.01; done\n"
      "t1=$(date +%s%N); note \"quit_ms=$(( (t1 - t0) / 1000000 ))\"\n";
  const apptest::RunResult r = driven("slow-quit", slow, actions);
  expectOpened(r);
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
