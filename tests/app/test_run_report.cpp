// The in-app benchmark: its one line (app/run_report), every figure named with the machine's CPU, and
// when a run stops without one (app/scene_benchmark).
#include <gtest/gtest.h>

#include <string>
#include "app/scene_benchmark.hpp"
#include "app/run_report.hpp"

TEST(RunReport, TheBenchmarkLineNamesEveryFigureAndTheCpu) {
  const std::string line = app::benchmarkLine({"boids", 300, 0.25, 59.5, 600, "llvmpipe 4.5", "", 1920, 1080, false});
  EXPECT_EQ(line.rfind("crowdlab benchmark: scene=boids N=300 median_step_ms=0.250 fps=59.5 steps=600 gl=\"llvmpipe 4.5\" cpu=\"", 0), 0u)
      << line;
  EXPECT_NE(line.find("cpu=\"" + app::cpuName() + "\""), std::string::npos) << line;
  EXPECT_FALSE(app::cpuName().empty());
  EXPECT_NE(line.find(" window=1920x1080 vsync=off"), std::string::npos) << line;
  const std::string synced = app::benchmarkLine({"boids", 300, 0.25, 59.5, 600, "llvmpipe 4.5", "", 1280, 720, true});
  EXPECT_NE(synced.find(" window=1280x720 vsync=on"), std::string::npos) << synced;
}

// What stops a run (app/scene_benchmark): each change of what its figures stand for, named; and a run in
// which no step ended reports no figures rather than a median of none (0.000).
TEST(RunReport, ARunStopsOnEachChangeOfWhatItMeasuresAndNeverReportsAMedianOfNoSteps) {
  const app::BenchmarkWatch base{"finale", 3, 7, false, ""};
  struct Change {
    app::BenchmarkWatch now;
    const char* why;
  };
  const Change changes[] = {{{"boids", 4, 7, false, ""}, "another scene was opened"},
                            {{"finale", 4, 7, false, ""}, "the scene restarted"},
                            {{"finale", 3, 8, false, ""}, "a parameter changed"},
                            {{"finale", 3, 7, true, ""}, "the simulation was paused"},
                            {{"finale", 3, 7, false, "sweep"}, "a sweep or search began or ended beside it"}};
  for (const Change& c : changes) {
    app::AppBenchmark run;
    EXPECT_FALSE(run.stopIfChanged(base)) << "no run yet";
    run.start(base);
    EXPECT_FALSE(run.stopIfChanged(base)) << "nothing changed";
    const std::optional<std::string> stopped = run.stopIfChanged(c.now);
    ASSERT_TRUE(stopped) << c.why;
    EXPECT_NE(stopped->find(std::string("scene=finale stopped, ") + c.why + ": no figures"), std::string::npos) << *stopped;
    EXPECT_EQ(run.secondsLeft(), 0.0) << "the run is over";
    EXPECT_FALSE(run.stopIfChanged(c.now)) << "stopped once";
  }
  app::AppBenchmark run;
  run.start(base);
  const std::string none = run.finish({"finale", 100000, 0.0, 30.0, 0, "llvmpipe", ""});
  EXPECT_NE(none.find("no step ended"), std::string::npos) << none;
  EXPECT_EQ(none.find("median_step_ms"), std::string::npos) << none;
}

// Work beside the scene (a sweep, a search) on the other cores the whole run: the line says so at its
// end, so figures from a busy machine are not read as a quiet one's.
TEST(RunReport, TheLineNamesWorkThatRanBesideTheScene) {
  const std::string quiet = app::benchmarkLine({"boids", 300, 0.25, 59.5, 600, "llvmpipe 4.5", "", 1280, 720, false});
  EXPECT_EQ(quiet.find("background="), std::string::npos) << quiet;
  const std::string busy = app::benchmarkLine({"boids", 300, 0.25, 59.5, 600, "llvmpipe 4.5", "sweep+tuning", 1280, 720, false});
  EXPECT_EQ(busy, quiet + " background=sweep+tuning");
}
