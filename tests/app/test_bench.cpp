// `crowdlab bench`: brute force never runs for minutes unasked, --mode picks the
// searches, and a long row shows progress.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <thread>
#include <vector>
#include "app_util.hpp"

namespace {
struct Timed {
  apptest::RunResult r;
  double seconds = 0;
};
Timed timedBench(const std::string& args) {
  auto t0 = std::chrono::steady_clock::now();
  Timed t{apptest::runCrowdlab("bench " + args), 0};
  t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return t;
}
}  // namespace

// At a million agents brute force is 10^12 checks a step: it used to run them, silently.
TEST(Bench, BruteForceAboveTheLimitIsEstimatedNotRun) {
  Timed t = timedBench("--case boids2d --n 1000000 --mode brute --threads 1 --steps 3 --warmup 0");
  ASSERT_EQ(t.r.exitCode, 0) << t.r.err;
  EXPECT_LT(t.seconds, 60.0);
  EXPECT_NE(t.r.out.find("brute-est"), std::string::npos) << t.r.out;
  EXPECT_NE(t.r.out.find("estimated=brute force timed at n=4000"), std::string::npos) << t.r.out;
  EXPECT_EQ(t.r.out.find(" grid "), std::string::npos) << "--mode brute runs no grid row\n" << t.r.out;
  EXPECT_NE(t.r.err.find("brute force at n=1000000 would take about"), std::string::npos) << t.r.err;
}

TEST(Bench, ModeGridRunsOnlyTheGridAndShowsProgressOnALongRow) {
  // About half a second a step on one core: progress lines start after three seconds.
  Timed t = timedBench("--case boids2d --n 1000000 --mode grid --threads 1 --steps 14 --warmup 0");
  ASSERT_EQ(t.r.exitCode, 0) << t.r.err;
  EXPECT_EQ(t.r.out.find("brute"), std::string::npos) << t.r.out;
  EXPECT_NE(t.r.out.find(" grid "), std::string::npos) << t.r.out;
  if (t.seconds > 6.0) {
    EXPECT_NE(t.r.err.find("crowdlab bench: boids2d n=1000000 grid threads=1: step "), std::string::npos) << t.r.err;
  }
}

// The finale's rows of one kind: ORCA on against off without the weight rows between them.
TEST(Bench, ModeOrcaRunsOnlyTheFinalesOrcaRow) {
  apptest::RunResult r = apptest::runCrowdlab("bench --case finale --n 500 --mode orca --threads 1 --steps 2 --warmup 0");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find(" orca "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(" boids "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("weights="), std::string::npos) << r.out;
  r = apptest::runCrowdlab("bench --case finale --n 500 --mode weights --threads 1 --steps 2 --warmup 0");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("weights=curves"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("weights=learned"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(" orca "), std::string::npos) << r.out;
}

// orca-circle's two kinds of row: --mode orca runs no classic row (the side-by-side with RVO2 runs
// `--mode orca` per thread count), --mode classic only the classic one, and a mode the case does not
// have (grid) runs both, as the help says.
TEST(Bench, ModePicksTheOrcaCirclesRowsAndAModeItLacksRunsThemAll) {
  const std::string circle = "bench --case orca-circle --n 250 --threads 1 --mode ";
  apptest::RunResult r = apptest::runCrowdlab(circle + "orca");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find(" orca "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(" classic "), std::string::npos) << r.out;
  r = apptest::runCrowdlab(circle + "classic");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find(" classic "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(" orca "), std::string::npos) << r.out;
  r = apptest::runCrowdlab(circle + "grid");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find(" orca "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" classic "), std::string::npos) << r.out;
  r = apptest::runCrowdlab("bench --case orca-circle --n 20 --threads 1 --steps 2 --warmup 0 --mode classic");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find("orca-circle's classic row runs at --n 250 only"), std::string::npos) << r.err;
}

// --report names the machine: the CPU, and on two cores or more what a shared cache line costs,
// which bounds what the second core buys a small step.
TEST(Bench, ReportNamesTheCpuAndTheCostOfACacheLineBetweenCores) {
  apptest::RunResult r = apptest::runCrowdlab("bench --report --case orca-circle --n 20 --threads 1 --steps 2 --warmup 0");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("CPU: "), std::string::npos) << r.out;
  if (std::thread::hardware_concurrency() >= 2) {
    const size_t at = r.out.find("cache line between two cores: ");
    ASSERT_NE(at, std::string::npos) << r.out;
    // On a machine too busy for both threads to run at once (the test tiers at load 10) the report
    // says so instead of a figure; otherwise the figure is a line's cost, well under 50 us.
    if (r.out.find("not measured, the cores were busy (fastest trip ", at) != std::string::npos) return;
    const double us = std::atof(r.out.c_str() + at + std::strlen("cache line between two cores: "));
    EXPECT_GT(us, 0.0) << r.out;
    EXPECT_LT(us, 50.0) << r.out;
  }
}

TEST(Bench, BadOrRepeatedModeIsOneLine) {
  apptest::RunResult r = apptest::runCrowdlab("bench --mode fast");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("--mode: 'fast' is not grid, brute (boids2d); boids, orca, weights (finale); orca, classic "
                       "(orca-circle); sfm, orca (social-force); or all"),
            std::string::npos)
      << r.err;
  r = apptest::runCrowdlab("bench --mode grid --mode brute");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("--mode is given more than once"), std::string::npos) << r.err;
}

// --lanes baseline runs the kernels a CPU without AVX2 gets, --lanes avx2 those a CPU without AVX-512
// gets, and the row says so.
TEST(Bench, LanesBaselineRunsTheBaselineKernelsAndSaysSo) {
  Timed t = timedBench("--case boids2d --n 2000 --mode grid --threads 1 --steps 3 --warmup 0 --lanes baseline");
  ASSERT_EQ(t.r.exitCode, 0) << t.r.err;
  EXPECT_NE(t.r.out.find("lanes="), std::string::npos) << t.r.out;
  EXPECT_EQ(t.r.out.find("lanes=avx2-x8"), std::string::npos) << t.r.out;
  EXPECT_EQ(t.r.out.find("lanes=avx512-x8"), std::string::npos) << t.r.out;
  t = timedBench("--case boids2d --n 2000 --mode grid --threads 1 --steps 3 --warmup 0 --lanes avx2");
  ASSERT_EQ(t.r.exitCode, 0) << t.r.err;
  EXPECT_NE(t.r.out.find("lanes="), std::string::npos) << t.r.out;
  EXPECT_EQ(t.r.out.find("lanes=avx512-x8"), std::string::npos) << t.r.out;
  apptest::RunResult bad = apptest::runCrowdlab("bench --lanes sse9");
  EXPECT_EQ(bad.exitCode, 2);
  EXPECT_NE(bad.err.find("--lanes: 'sse9' is not auto, avx2 or baseline"), std::string::npos) << bad.err;
}

// Issue 29, item 13: at --n 50000000 knn3d, orca-circle and finale printed nothing for minutes while
// growing to 5-10 GB. What a row will cost is known before it starts: above the limit (the memory
// available, or --max-memory) the run is refused with one line before anything is allocated. The run
// gets 1 GB of address space: a case that allocated its agents first would die of it, not refuse.
TEST(Bench, ARunThatWouldNotFitInMemoryIsRefusedBeforeItAllocates) {
  for (const char* name : {"knn3d", "orca-circle", "finale", "boids2d"}) {
    const std::string base = apptest::outDir() + "/bench-memory-" + name;
    const std::string cmd = std::string("ulimit -v 1000000; '" CROWDLAB_EXE "' bench --case ") + name +
                            " --n 50000000 --threads 1 --max-memory 1 >'" + base + ".out' 2>'" + base + ".err' </dev/null";
    const int status = std::system(cmd.c_str());
    const std::string err = apptest::slurp(base + ".err");
    ASSERT_TRUE(WIFEXITED(status)) << name << ": " << err;
    EXPECT_EQ(WEXITSTATUS(status), 2) << name << ": " << err;
    EXPECT_NE(err.find(std::string("crowdlab bench: ") + name + " at n=50000000 would need about "), std::string::npos) << err;
    EXPECT_NE(err.find("more than the 1.0 GB --max-memory allows; nothing was run"), std::string::npos) << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << "one line, no usage: the flags were right\n" << err;
    EXPECT_EQ(apptest::slurp(base + ".out"), "") << "no table header for a run that never starts";
  }
  apptest::RunResult bad = apptest::runCrowdlab("bench --max-memory -3");
  EXPECT_EQ(bad.exitCode, 2);
  EXPECT_NE(bad.err.find("--max-memory: '-3' is not a size in GB above 0"), std::string::npos) << bad.err;
}

// A hostile tester's `--threads 1000` on two cores printed rows labelled 1000 threads that ran on at
// most two (oneTBB keeps its workers to the hardware's count), and oneTBB's warning on stderr.
TEST(Bench, MoreThreadsThanTheMachineRunsAreRefusedInOneLine) {
  const int cores = std::max(1, int(std::thread::hardware_concurrency()));
  const apptest::RunResult r =
      apptest::runCrowdlab("bench --case boids2d --n 100 --steps 2 --threads 1," + std::to_string(cores + 1));
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_NE(r.err.find("crowdlab bench: --threads " + std::to_string(cores + 1) + ": this machine runs " +
                       std::to_string(cores) + " thread"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line, no usage: the flag was well formed\n" << r.err;
  EXPECT_EQ(r.out, "") << "no row runs";
  const apptest::RunResult all = apptest::runCrowdlab("bench --case boids2d --n 100 --steps 2 --threads 0," + std::to_string(cores));
  EXPECT_EQ(all.exitCode, 0) << all.err;
}

// Issue 28: each row of `--threads 1,2` runs on the threads it names, counted as the threads that
// really did its loops' work (threads_at_work=), not as the count it asked for.
TEST(Bench, EachRowRunsOnTheThreadsItNames) {
  const apptest::RunResult r =
      apptest::runCrowdlab("bench --case orca-circle --n 4000 --threads 1,2 --steps 100 --warmup 0");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  std::vector<std::string> rows;
  for (size_t at = r.out.find("orca-circle"); at != std::string::npos; at = r.out.find("orca-circle", at + 1))
    rows.push_back(r.out.substr(at, r.out.find('\n', at) - at));
  ASSERT_EQ(rows.size(), 2u) << r.out;
  EXPECT_NE(rows[0].find("threads_at_work=1"), std::string::npos) << rows[0];
  if (std::thread::hardware_concurrency() >= 2) {
    EXPECT_NE(rows[1].find("threads_at_work=2"), std::string::npos) << rows[1];
  }
}

// The figure the README quotes everywhere, ns per agent-step, is each row's median step over its
// agents: the CSV's two columns agree on every row (to their printed digits).
TEST(Bench, NsPerAgentStepIsTheMedianStepOverTheAgents) {
  const std::string csv = apptest::freshDir("bench-ns") + "/rows.csv";
  const apptest::RunResult r =
      apptest::runCrowdlab("bench --case orca-circle --n 250 --threads 1 --csv " + csv);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::string text = apptest::slurp(csv);
  ASSERT_EQ(text.rfind("case,n,mode,threads,steps,median_ms_per_step,ns_per_agent_step,", 0), 0u) << text;
  std::istringstream lines(text);
  std::string line;
  std::getline(lines, line);  // the header
  int rows = 0;
  while (std::getline(lines, line)) {
    char caseName[32] = {}, mode[32] = {};
    unsigned long n = 0;
    int threads = 0, steps = 0;
    double ms = 0, ns = 0;
    ASSERT_EQ(std::sscanf(line.c_str(), "%31[^,],%lu,%31[^,],%d,%d,%lf,%lf", caseName, &n, mode, &threads, &steps, &ms, &ns),
              7)
        << line;
    ASSERT_EQ(n, 250u);
    EXPECT_GT(ns, 0.0) << mode;
    EXPECT_NEAR(ns, ms * 1e6 / double(n), 0.01) << mode;
    ++rows;
  }
  EXPECT_EQ(rows, 2) << "at N = 250 an orca row and the classic example's row\n" << text;
}
