// `crowdlab sweep`: the CSV does not depend on the thread count, a killed sweep plus --resume equals
// an uninterrupted one, shards run through GNU parallel and merged equal one run, every bad input is
// one line and exit 2, and --plot writes a figure.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <thread>
#include "app_util.hpp"

extern char** environ;

using apptest::runCrowdlab;

namespace {

// A small sweep: 5 alignment weights x 2 seeds of a small flock, a fraction of a second each.
const std::string kSmall =
    "sweep --scene boids --vary wAli=0:2:0.5 --set N=60 --metric polarization,groups:final --window 0.2:0.5 --seeds 2";

size_t lines(const std::string& text) { return size_t(std::count(text.begin(), text.end(), '\n')); }

void expectOneLine(const std::string& args, const std::string& mention) {
  const apptest::RunResult r = apptest::expectRefused("sweep " + args, mention);
  EXPECT_EQ(lines(r.err), 1u) << "one line:\n" << r.err;
  EXPECT_TRUE(r.out.empty()) << "nothing runs:\n" << r.out;
}

}  // namespace

TEST(SweepCmd, SameCsvAtOneAndTwoThreads) {
  const std::string dir = apptest::freshDir("sweep-threads");
  const apptest::RunResult one = runCrowdlab(kSmall + " --threads 1 --csv '" + dir + "/one.csv'");
  ASSERT_EQ(one.exitCode, 0) << one.err;
  const apptest::RunResult two = runCrowdlab(kSmall + " --threads 2 --csv '" + dir + "/two.csv'");
  ASSERT_EQ(two.exitCode, 0) << two.err;
  const std::string a = apptest::slurp(dir + "/one.csv"), b = apptest::slurp(dir + "/two.csv");
  EXPECT_EQ(lines(a), 11u) << a;  // header + 5 x 2 jobs
  EXPECT_EQ(a.substr(0, a.find('\n')), "job,scene,wAli,seed,polarization,groups,experiment");
  EXPECT_EQ(a, b);
  EXPECT_NE(one.err.find("10/10 jobs"), std::string::npos) << "a progress line: " << one.err;
  // Without --csv the rows go to stdout, the same bytes.
  const apptest::RunResult out = runCrowdlab(kSmall + " --threads 2");
  EXPECT_EQ(out.out, a);
}

TEST(SweepCmd, KilledThenResumedEqualsOneRun) {
  const std::string dir = apptest::freshDir("sweep-resume");
  // Jobs long enough (about 0.1 s each) to kill the run in the middle.
  const std::string sweep = "sweep --scene boids --vary wAli=0:2.75:0.25 --set N=1500 --metric polarization --window 1:2 --seeds 2 --threads 2";
  const apptest::RunResult whole = runCrowdlab(sweep + " --csv '" + dir + "/whole.csv'");
  ASSERT_EQ(whole.exitCode, 0) << whole.err;
  const std::string expected = apptest::slurp(dir + "/whole.csv");
  ASSERT_EQ(lines(expected), 25u);

  // Start it again and kill it (SIGKILL: no chance to tidy up) once a few rows are in.
  const std::string killed = dir + "/killed.csv";
  std::vector<std::string> words = {CROWDLAB_EXE};
  {
    std::istringstream in(sweep + " --csv " + killed);
    for (std::string w; in >> w;) words.push_back(w);
  }
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  ASSERT_EQ(posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ), 0);
  posix_spawn_file_actions_destroy(&actions);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (lines(apptest::slurp(killed)) < 4 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  const std::string part = apptest::slurp(killed);
  ASSERT_GE(lines(part), 4u);
  ASSERT_LT(lines(part), 25u) << "the run finished before it was killed; the test needs longer jobs";
  EXPECT_EQ(expected.rfind(part, 0), 0u) << "a killed sweep keeps a prefix of the rows";
  // As if killed while writing a row: half a line at the end.
  {
    std::ofstream tail(killed, std::ios::app);
    tail << "23,boids,2.75";
  }
  const apptest::RunResult resumed = runCrowdlab(sweep + " --csv '" + killed + "' --resume");
  ASSERT_EQ(resumed.exitCode, 0) << resumed.err;
  EXPECT_EQ(apptest::slurp(killed), expected);
  EXPECT_NE(resumed.err.find("half-written"), std::string::npos) << resumed.err;
  // Resuming a finished sweep runs nothing and changes nothing.
  const apptest::RunResult again = runCrowdlab(sweep + " --csv '" + killed + "' --resume");
  EXPECT_EQ(again.exitCode, 0) << again.err;
  EXPECT_NE(again.err.find("0 of 24 jobs"), std::string::npos) << again.err;
  EXPECT_EQ(apptest::slurp(killed), expected);
}

TEST(SweepCmd, FourShardsThroughGnuParallelMergeToOneRun) {
  if (std::system("parallel --version >/dev/null 2>&1") != 0) GTEST_SKIP() << "GNU parallel is not installed";
  const std::string dir = apptest::freshDir("sweep-shards");
  const apptest::RunResult one = runCrowdlab(kSmall + " --csv '" + dir + "/one.csv'");
  ASSERT_EQ(one.exitCode, 0) << one.err;
  const std::string cmd = "cd '" + dir + "' && parallel --halt now,fail=1 '" CROWDLAB_EXE "' " + kSmall +
                          " --threads 1 --shard {}/4 --csv shard{}.csv ::: 1 2 3 4 2>/dev/null";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  for (int s = 1; s <= 4; ++s) EXPECT_GT(lines(apptest::slurp(dir + "/shard" + std::to_string(s) + ".csv")), 1u);
  const apptest::RunResult merged = runCrowdlab("sweep --merge '" + dir + "/shard3.csv' '" + dir + "/shard1.csv' '" +
                                                dir + "/shard4.csv' '" + dir + "/shard2.csv' --csv '" + dir +
                                                "/merged.csv' --plot '" + dir + "/merged.svg'");
  ASSERT_EQ(merged.exitCode, 0) << merged.err;
  EXPECT_EQ(apptest::slurp(dir + "/merged.csv"), apptest::slurp(dir + "/one.csv"));
  EXPECT_NE(apptest::slurp(dir + "/merged.svg").find("<polyline"), std::string::npos);
  // A missing shard is said, and the exit code says so.
  const apptest::RunResult partial =
      runCrowdlab("sweep --merge '" + dir + "/shard1.csv' '" + dir + "/shard3.csv' --csv '" + dir + "/partial.csv'");
  EXPECT_EQ(partial.exitCode, 1);
  EXPECT_NE(partial.err.find("missing"), std::string::npos) << partial.err;
}

TEST(SweepCmd, PlotIsAnSvgWithAxesBandAndLegend) {
  const std::string dir = apptest::freshDir("sweep-plot");
  const apptest::RunResult r = runCrowdlab(kSmall + " --plot '" + dir + "/p.svg' --csv '" + dir + "/p.csv'");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::string svg = apptest::slurp(dir + "/p.svg");
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("alignment weight"), std::string::npos) << "the parameter's label on the x axis";
  EXPECT_NE(svg.find("polarization (0 = random"), std::string::npos) << "the metric and its unit";
  EXPECT_NE(svg.find("<polygon"), std::string::npos) << "the min-max band";
  EXPECT_NE(svg.find("min-max over"), std::string::npos) << "the legend";
  // Two --vary: a heat map.
  const apptest::RunResult heat = runCrowdlab(
      "sweep --scene boids --vary wAli=0:2:1 --vary wCoh=0:2:1 --set N=60 --metric polarization --window 0.2:0.4 --seeds 1 --plot '" +
      dir + "/h.svg'");
  ASSERT_EQ(heat.exitCode, 0) << heat.err;
  EXPECT_NE(apptest::slurp(dir + "/h.svg").find("mean over seeds"), std::string::npos);
}

TEST(SweepCmd, BadInputIsOneLineAndExitTwo) {
  const std::string base = "--scene boids --metric polarization ";
  expectOneLine(base + "--vary nope=0:1:0.5", "unknown parameter 'nope'");
  expectOneLine("--scene boids --vary wAli=0:1:0.5 --metric speediness", "no metric 'speediness'");
  expectOneLine("--scene boids --vary wAli=0:1:0.5 --metric polarization:final,groups,polarization",
                "--metric polarization is given twice");
  expectOneLine(base + "--vary wAli=0:9:1", "outside");
  expectOneLine(base + "--vary wAli=0:1:0", "STEP is 0");
  expectOneLine(base + "--vary wAli=0:1:-0.5", "wrong way");
  expectOneLine(base + "--vary wAli=1:0:0.5", "wrong way");
  expectOneLine(base + "--vary wAli=", "empty grid");
  expectOneLine(base + "--vary wAli=0:3:0.001 --seeds 1000", "at most 100000");
  expectOneLine(base + "--vary wAli=0:1:0.5 --shard 5/4", "--shard expects I/N");
  expectOneLine(base + "--vary wAli=0:1:0.5 --shard 0/4", "--shard expects I/N");
  expectOneLine(base + "--vary wAli=0:1:0.5 --shard x", "--shard expects I/N");
  expectOneLine(base + "--vary wAli=0:1:0.5 --seeds 1 --shard 9/9", "has no jobs");
  expectOneLine(base + "--vary N=10.5:20:1", "whole number");
  expectOneLine(base + "--vary wAli=a:1:0.5", "must be numbers");
  expectOneLine("--scene nope --vary wAli=0:1:0.5 --metric polarization", "unknown scene 'nope'");
  expectOneLine("--vary wAli=0:1:0.5 --metric polarization", "needs --scene");
  expectOneLine(base, "needs --vary");
  expectOneLine(base + "--vary wAli=0:1:0.5 --window 5:2", "--window expects");
  expectOneLine(base + "--vary wAli=0:1:0.5 --reduce median", "--reduce expects");
  expectOneLine(base + "--vary wAli=0:1:0.5 --fast", "unknown option '--fast'");
  expectOneLine(base + "--vary wAli=0:1:0.5 --plot out.png", "FILE.svg");
  expectOneLine(base + "--vary wAli=0:1:0.5 --resume", "--resume needs --csv");
  expectOneLine(base + "--vary wAli=0:1:0.5 --set wAli=1", "sets the varied parameter");
  expectOneLine("--builtin nope", "unknown built-in sweep 'nope'");
  expectOneLine("--merge", "--merge needs");
  expectOneLine(base + "--vary wAli=0:1:0.5 --plot /no/such/folder/p.svg", "no folder '/no/such/folder'");
  // A folder that is there but takes no files (/proc, even for root): said before any job runs.
  expectOneLine(base + "--vary wAli=0:1:0.5 --plot /proc/p.svg", "/proc/p.svg: cannot write");
  EXPECT_EQ(runCrowdlab("sweep --help").exitCode, 0);
  // A file that is not this sweep's is refused, and left as it was.
  const std::string dir = apptest::freshDir("sweep-bad");
  {
    std::ofstream f(dir + "/other.csv");
    f << "job,scene,wCoh,seed,polarization\n0,boids,1,1,0.5\n";
  }
  expectOneLine(base + "--vary wAli=0:1:0.5 --csv '" + dir + "/other.csv' --resume", "another sweep");
  expectOneLine(base + "--vary wAli=0:1:0.5 --csv '" + dir + "/other.csv'", "exists");
  EXPECT_EQ(apptest::slurp(dir + "/other.csv"), "job,scene,wCoh,seed,polarization\n0,boids,1,1,0.5\n");
  expectOneLine("--merge '" + dir + "/missing.csv'", "missing.csv");
}
