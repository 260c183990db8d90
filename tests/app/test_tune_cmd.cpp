// `crowdlab tune`: bad input is one line and exit 2; a run prints one line per generation, the
// scores on training and held-out seeds, a CSV row per evaluation and a preset that loads; Ctrl+C
// stops it and still writes the best preset.
#include <gtest/gtest.h>

#include <sstream>
#include "app_util.hpp"

using apptest::runCrowdlab;

namespace {

void expectOneLineError(const std::string& args, const std::string& mention) {
  apptest::RunResult r = apptest::expectRefused("tune " + args, mention);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line:\n" << r.err;
  EXPECT_TRUE(r.out.empty()) << "nothing runs:\n" << r.out;
}

int countLines(const std::string& text, const std::string& prefix) {
  std::istringstream in(text);
  int n = 0;
  for (std::string line; std::getline(in, line);) n += line.rfind(prefix, 0) == 0;
  return n;
}

}  // namespace

TEST(TuneCmd, BadInputIsOneLineAndExitTwo) {
  expectOneLineError("--scene steering", "--objective NAME is needed");
  expectOneLineError("--scene steering --objective clean-arrival --budget -3", "--budget expects a whole number");
  expectOneLineError("--scene steering --objective clean-arrival --fast", "unknown option '--fast'");
  expectOneLineError("--scene steering --objective clean-arrival --seeds", "--seeds needs a value");
  expectOneLineError("--scene steering --objective clean-arrival --set nope", "--set expects name=value");
  // Output files a long run writes at its end are checked before it starts.
  expectOneLineError("--scene steering --objective clean-arrival --preset-out /proc/t.json", "/proc/t.json: cannot write");
  expectOneLineError("--scene steering --objective clean-arrival --csv /proc/t.csv", "/proc/t.csv: cannot write");
  // Checked by the tuner before anything runs: one line, no usage.
  for (const auto& [args, mention] : std::vector<std::pair<std::string, std::string>>{
           {"--scene nope --objective x", "unknown scene"},
           {"--scene steering --objective fastest", "objectives: clean-arrival"},
           {"--scene steering --objective clean-arrival --params seek", "switch or a choice"},
           {"--scene steering --objective clean-arrival --params warp", "unknown parameter 'warp'"},
           {"--scene steering --objective clean-arrival --budget 3", "at least one generation"}}) {
    apptest::RunResult r = apptest::expectRefused("tune " + args, mention);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

TEST(TuneCmd, ARunPrintsGenerationsScoresHeldOutAndWritesCsvAndPreset) {
  const std::string dir = apptest::freshDir("tune-run");
  const std::string csv = dir + "/evals.csv", preset = dir + "/tuned.json";
  apptest::RunResult r = runCrowdlab("tune --scene steering --objective clean-arrival --budget 24 --seeds 1 "
                                     "--test-seeds 2 --threads 2 --csv '" + csv + "' --preset-out '" + preset + "'");
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_EQ(countLines(r.out, "gen "), 3) << r.out;  // lambda 8 for 5 parameters: 3 generations
  EXPECT_NE(r.out.find("median"), std::string::npos);
  EXPECT_NE(r.out.find("sigma"), std::string::npos);
  EXPECT_NE(r.out.find("held-out seeds:  start"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("held-out seeds:  tuned"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("training seeds:  tuned"), std::string::npos) << r.out;
  const std::string rows = apptest::slurp(csv);
  EXPECT_EQ(rows.rfind("evaluation,generation,candidate,score,", 0), 0u) << rows;
  EXPECT_EQ(std::count(rows.begin(), rows.end(), '\n'), 25) << rows;
  const std::string json = apptest::slurp(preset);
  EXPECT_NE(json.find("\"held_out_score\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"command\": \"crowdlab tune --scene steering"), std::string::npos) << json;
  // The preset loads into the scene (its "tuned" part is read, not applied).
  apptest::RunResult loaded = runCrowdlab("--headless --scene steering --steps 2 --preset '" + preset + "'");
  EXPECT_EQ(loaded.exitCode, 0) << loaded.err;
}

// Ctrl+C (SIGINT after a few generations): the search stops, the best so far is written, exit 130.
TEST(TuneCmd, CtrlCStopsAndStillWritesTheBestPreset) {
  const std::string dir = apptest::freshDir("tune-interrupt");
  const std::string preset = dir + "/best.json";
  apptest::RunResult r = runCrowdlab("tune --scene steering --objective clean-arrival --budget 100000 --seeds 2 "
                                     "--threads 2 --preset-out '" + preset + "'",
                                     "timeout --preserve-status -s INT 6");
  EXPECT_EQ(r.exitCode, 130) << r.out << r.err;
  EXPECT_GE(countLines(r.out, "gen "), 1) << r.out;
  EXPECT_NE(r.out.find("interrupted: not scored on held-out seeds"), std::string::npos) << r.out;
  const std::string json = apptest::slurp(preset);
  EXPECT_NE(json.find("\"training_score\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"maxForce\""), std::string::npos) << json;
}
