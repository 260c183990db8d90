// `crowdlab claims`: bad flags give one line and exit 2; --csv writes the documented columns.
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include "app_util.hpp"

using apptest::runCrowdlab;

namespace {
void expectOneLineError(const std::string& args, const std::string& mention) {
  apptest::RunResult r = apptest::expectRefused("claims " + args, mention);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line:\n" << r.err;
  EXPECT_TRUE(r.out.empty()) << "nothing runs:\n" << r.out;
}
}  // namespace

TEST(ClaimsCmd, SeedsZero) { expectOneLineError("--seeds 0", "--seeds expects a whole number from 1"); }
TEST(ClaimsCmd, SeedsNotANumber) { expectOneLineError("--seeds abc", "got 'abc'"); }
TEST(ClaimsCmd, UnknownScene) { expectOneLineError("--scene nope", "unknown scene 'nope'"); }
TEST(ClaimsCmd, UnknownFlag) { expectOneLineError("--fast", "unknown option '--fast'"); }
TEST(ClaimsCmd, MissingValue) { expectOneLineError("--csv", "--csv needs a value"); }
// `--list --seeds 3` said "unknown option '--list'", an option the usage names.
TEST(ClaimsCmd, ListWithOtherOptions) { expectOneLineError("--list --seeds 3", "--list takes no other options"); }

TEST(ClaimsCmd, CsvHasTheDocumentedColumnsAndOneRowPerClaimMetric) {
  const std::string csv = apptest::outDir() + "/claims-spatial-hash.csv";
  apptest::RunResult r = runCrowdlab("claims --scene spatial-hash --seeds 1 --csv '" + csv + "'");
  EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
  std::istringstream in(apptest::slurp(csv));
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  EXPECT_EQ(line, "id,scene,seeds,metric,mean,min,max,verdict");
  int rows = 0;
  bool sawFix = false, sawRatio = false;
  while (std::getline(in, line)) {
    ++rows;
    EXPECT_EQ(line.rfind("spatial-hash.", 0), 0u) << line;
    EXPECT_NE(line.find(",spatial-hash,1,"), std::string::npos) << line;
    sawFix |= line.find("holds with crowdlab's fix") != std::string::npos;
    sawRatio |= line.find("spatial-hash.brute-vs-grid,spatial-hash,1,checks_per_agent,") == 0;
  }
  EXPECT_GE(rows, 4);
  EXPECT_TRUE(sawFix) << "the auto rings claim holds only with crowdlab's fix";
  EXPECT_TRUE(sawRatio);
  // The printed table: one header line per claim and the summary.
  EXPECT_NE(r.out.find("spatial-hash.classic-misses"), std::string::npos);
  EXPECT_NE(r.out.find("claims hold (1 seeds each"), std::string::npos);
}

// The GPU scene's claims are measured from frames OpenGL draws: `claims` runs each in a hidden window
// of its own (crowdlab --claim ID --hidden) and prints their rows like any other, not "0 of 0 hold".
TEST(ClaimsCmd, GpuClaimsAreMeasuredInHiddenWindows) {
  apptest::RunResult r = runCrowdlab("claims --scene gpu --seeds 1");
  EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
  for (const char* id : {"gpu.instanced", "gpu.per-agent", "gpu.cpu-sim", "gpu.gpu-sim"})
    EXPECT_NE(r.out.find(id), std::string::npos) << id << "\n" << r.out;
  EXPECT_EQ(r.out.find("not measured"), std::string::npos) << r.out;
  // One instanced draw against one draw per agent, as the windows counted them.
  EXPECT_NE(r.out.find("also agent_draw_calls: 1 (1 .. 1)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("also agent_draw_calls: 20000 (20000 .. 20000)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("of 4 claims hold (1 seeds each"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("frames="), std::string::npos) << "the windows' own state lines stay out of the table";
}

TEST(ClaimsCmd, HiddenNeedsAnEnd) {
  apptest::expectRefused("--hidden", "--hidden needs --frames N or --claim ID");
}

// `claims --list`: every id of the registry, one a line (scripts/claim-screenshots.sh reads it).
TEST(ClaimsCmd, ListPrintsEveryClaimIdOnce) {
  apptest::RunResult r = runCrowdlab("claims --list");
  EXPECT_EQ(r.exitCode, 0) << r.err;
  std::istringstream in(r.out);
  std::set<std::string> ids;
  for (std::string line; std::getline(in, line);) {
    EXPECT_NE(line.find('.'), std::string::npos) << "scene.name: " << line;
    EXPECT_TRUE(ids.insert(line).second) << "twice: " << line;
  }
  for (const char* id : {"murmuration.k1-chains", "orca-corridor.orca-lanes-w2", "gpu.gpu-sim"}) EXPECT_TRUE(ids.count(id)) << id;
}
