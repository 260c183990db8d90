// "Benchmark this scene (10 s)" as a user runs it, clicked with X input: a run prints one line of
// figures; a pause or a restart during a run stops it with one line and no figures. A run paused
// half-way once reported "median_step_ms=0.000 ... steps=0" and copied it to the clipboard.
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <vector>
#include "app_util.hpp"

namespace {

std::string clickOn(const std::string& point) {
  int x = -1, y = -1;
  if (std::sscanf(point.c_str(), "%d,%d", &x, &y) != 2 || x < 0 || y < 0) return "exit 4\n";  // no button: the run fails
  return "click " + std::to_string(x) + " " + std::to_string(y) + "\n";
}

std::vector<std::string> benchmarkLines(const std::string& out) {
  std::vector<std::string> lines;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("crowdlab benchmark:", 0) == 0) lines.push_back(line);
  return lines;
}

}  // namespace

TEST(BenchmarkWindow, APauseOrARestartStopsARunWithoutFiguresAndAWholeRunReportsThem) {
  if (!apptest::haveXdotool()) GTEST_SKIP() << "xdotool is not installed";
  const apptest::RunResult layout = apptest::runDriven("benchmark-layout", "--scene boids --keys F2", "sleep 1");  // F2: the full HUD
  const std::string click = clickOn(layout.value("benchmark_button_at"));
  // Space pauses and R restarts, as a lecturer would mid-run; the button is back after each stop.
  const apptest::RunResult r = apptest::runDriven(
      "benchmark-runs", "--scene boids --keys F2",
      click + "sleep 1\npress space\nsleep 0.5\npress space\n" + click + "sleep 1\npress r\nsleep 0.5\n" + click + "sleep 11.5\n");
  ASSERT_EQ(r.exitCode, 0) << r.out;
  const std::vector<std::string> lines = benchmarkLines(r.out);
  ASSERT_EQ(lines.size(), 3u) << r.out;
  EXPECT_NE(lines[0].find("scene=boids stopped, the simulation was paused: no figures"), std::string::npos) << lines[0];
  EXPECT_NE(lines[1].find("scene=boids stopped, the scene restarted: no figures"), std::string::npos) << lines[1];
  for (int i = 0; i < 2; ++i) EXPECT_EQ(lines[i].find("median_step_ms"), std::string::npos) << lines[i];
  double medianMs = 0;
  size_t agents = 0, steps = 0;
  const size_t at = lines[2].find("scene=boids N=");
  ASSERT_NE(at, std::string::npos) << lines[2];
  ASSERT_EQ(std::sscanf(lines[2].c_str() + at, "scene=boids N=%zu median_step_ms=%lf fps=%*f steps=%zu", &agents, &medianMs, &steps), 3)
      << lines[2];
  EXPECT_GT(agents, 0u);
  EXPECT_GT(medianMs, 0.0) << lines[2];
  EXPECT_GT(steps, 60u) << "10 s at 60 steps a second; a busy machine drops some: " << lines[2];
}
