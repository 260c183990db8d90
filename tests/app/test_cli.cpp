// The command line: every mistake gets one clear line, the usage and exit code 2; headless runs print metrics.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include "app_util.hpp"

using apptest::runCrowdlab;

namespace {
void expectUsageError(const std::string& args, const std::string& mention) {
  apptest::RunResult r = runCrowdlab(args);
  EXPECT_EQ(r.exitCode, 2) << args << "\n" << r.err;
  EXPECT_NE(r.err.find(mention), std::string::npos) << args << " should mention '" << mention << "':\n" << r.err;
  EXPECT_NE(r.err.find("usage:"), std::string::npos) << args;
  EXPECT_EQ(r.err.find("terminate called"), std::string::npos);
}
}  // namespace

TEST(Cli, UnknownFlag) { expectUsageError("--bogus", "unknown option '--bogus'"); }
TEST(Cli, MissingValue) { expectUsageError("--scene", "--scene needs a value"); }
TEST(Cli, UnknownScene) { expectUsageError("--headless --scene nope --steps 1", "unknown scene 'nope'"); }
TEST(Cli, MalformedNumber) { expectUsageError("--frames ten", "--frames expects a whole number"); }
TEST(Cli, BadVsync) { expectUsageError("--vsync maybe", "--vsync expects on or off"); }
TEST(Cli, HeadlessNeedsSteps) { expectUsageError("--headless --scene boids", "--headless needs --steps"); }
TEST(Cli, StepsNeedHeadless) { expectUsageError("--scene boids --steps 5", "--steps is for --headless"); }
TEST(Cli, UnknownParameter) { expectUsageError("--headless --scene boids --steps 1 --set nope=1", "unknown parameter 'nope'"); }
TEST(Cli, MalformedParameterValue) { expectUsageError("--headless --scene boids --steps 1 --set wSep=abc", "'abc' is not a number"); }
TEST(Cli, OutOfRangeParameter) { expectUsageError("--headless --scene boids --steps 1 --set wSep=99", "outside 0..3"); }
TEST(Cli, NanParameter) { expectUsageError("--headless --scene boids --steps 1 --set wSep=nan", "not a finite number"); }
TEST(Cli, SetWithoutEquals) { expectUsageError("--headless --scene boids --steps 1 --set wSep", "--set expects name=value"); }
TEST(Cli, MissingPresetFile) {
  expectUsageError("--headless --scene boids --steps 1 --preset /nonexistent/x.json", "/nonexistent/x.json: cannot open");
}
TEST(Cli, BadSceneInWindowModeFailsBeforeOpeningAWindow) {
  expectUsageError("--scene nope --frames 1", "unknown scene 'nope'");
}

TEST(Cli, HelpExitsZero) {
  apptest::RunResult r = runCrowdlab("--help");
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_NE(r.out.find("--headless"), std::string::npos);
}

TEST(Cli, ListParamsNamesEveryDeclaredParameter) {
  apptest::RunResult r = runCrowdlab("--scene boids --list-params");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  for (const char* name : {"N ", "wSep ", "wAli ", "wCoh ", "perception ", "separation ", "maxSpeed ", "maxForce "})
    EXPECT_NE(("\n" + r.out).find(std::string("\n") + name), std::string::npos) << name << " missing in\n" << r.out;
  EXPECT_NE(r.out.find("default=300"), std::string::npos);
  EXPECT_NE(r.out.find("range=10..5000"), std::string::npos);
}

TEST(Cli, HeadlessBoidsPrintsItsMetrics) {
  apptest::RunResult r = runCrowdlab("--headless --scene boids --steps 300");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  for (const char* m : {"mean_neighbors", "polarization", "mean_nn_distance"}) {
    std::string v = r.value(m);
    ASSERT_FALSE(v.empty()) << m << " missing in\n" << r.out;
    EXPECT_TRUE(std::isfinite(std::atof(v.c_str()))) << m << "=" << v;
  }
  double pol = std::atof(r.value("polarization").c_str());
  EXPECT_GE(pol, 0.0);
  EXPECT_LE(pol, 1.0);
  EXPECT_EQ(r.value("agents"), "300");
}

TEST(Cli, HeadlessRunsAreDeterministicPerSeed) {
  apptest::RunResult a = runCrowdlab("--headless --scene boids --steps 120 --seed 5");
  apptest::RunResult b = runCrowdlab("--headless --scene boids --steps 120 --seed 5");
  apptest::RunResult c = runCrowdlab("--headless --scene boids --steps 120 --seed 6");
  ASSERT_EQ(a.exitCode, 0);
  EXPECT_EQ(a.out, b.out);
  EXPECT_NE(a.out, c.out);
}

TEST(Cli, SetChangesTheSimulation) {
  apptest::RunResult r = runCrowdlab("--headless --scene boids --steps 10 --set N=42");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.value("agents"), "42");
}

TEST(Cli, MetricsCsvHasHeaderAndOneRowPerStep) {
  std::string path = apptest::outDir() + "/boids_metrics.csv";
  std::remove(path.c_str());
  apptest::RunResult r = runCrowdlab("--headless --scene boids --steps 25 --metrics-csv '" + path + "'");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  std::istringstream in(apptest::slurp(path));
  std::string header;
  std::getline(in, header);
  EXPECT_EQ(header, "step,time,mean_neighbors,polarization,mean_nn_distance");
  int rows = 0;
  for (std::string line; std::getline(in, line);) rows++;
  EXPECT_EQ(rows, 25);
}

TEST(Cli, NoUsableDisplayExitsOneAndSaysWhatIsMissing) {
  apptest::RunResult r = runCrowdlab("--scene boids --frames 1", "SDL_VIDEODRIVER=no-such-driver");
  EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("xvfb-run"), std::string::npos) << r.err;
}
