// One way out for every file, one flag reader: every command's outputs go through io::OutputFile
// (links, FIFOs, devices, same-file, full disks, kills), every command reads its flags through
// io::FlagReader (--help, --flag=value, CROWDLAB_PARSE_ONLY), sweep files carry their experiment,
// and SIGTERM / SIGHUP stop long commands as Ctrl+C does. Paths and values differ from the issue's.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>
#include "app_util.hpp"

using apptest::runCrowdlab;
namespace fs = std::filesystem;

namespace {

// A sweep of 3 values x 2 seeds of a tiny flock: 6 jobs, a fraction of a second.
const std::string kSweep =
    "sweep --scene boids --vary wCoh=0.5:1.5:0.5 --set N=30 --metric polarization --window 0.1:0.3 --threads 2";

void write(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

size_t lines(const std::string& text) { return size_t(std::count(text.begin(), text.end(), '\n')); }

// `crowdlab ARGS...` in the background, stdout and stderr to `base`.out / .err.
pid_t start(const std::vector<std::string>& args, const std::string& base) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::setenv("CROWDLAB_CONFIG_DIR", (base + "-config").c_str(), 1);
    if (!std::freopen((base + ".out").c_str(), "w", stdout) || !std::freopen((base + ".err").c_str(), "w", stderr))
      ::_exit(126);
    std::vector<char*> argv{const_cast<char*>(CROWDLAB_EXE)};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(CROWDLAB_EXE, argv.data());
    ::_exit(127);
  }
  return pid;
}

// Waits up to `seconds` for the child; its wait status, or -1 (then it is killed).
int waitFor(pid_t pid, double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  int status = 0;
  while (std::chrono::steady_clock::now() < end) {
    if (::waitpid(pid, &status, WNOHANG) == pid) return status;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, &status, 0);
  return -1;
}

bool waitUntil(const std::function<bool()>& ready, double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    if (ready()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

}  // namespace

// A link in a shared folder that another user owns is never followed by any writer.
TEST(OutputFiles, ALinkAnotherUserOwnsIsRefusedByEveryWriter) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to give a link another owner";
  const std::string dir = apptest::freshDir("out-foreign-link");
  const std::string victim = dir + "/notes.md";
  write(victim, "my notes\n");
  const std::vector<std::pair<std::string, std::string>> writers = {
      {"bench --case boids2d --n 64 --steps 1 --warmup 0 --threads 1 --mode grid --csv ", "bench.csv"},
      {"--headless --scene steering --steps 2 --metrics-csv ", "steps.csv"},
      {kSweep + " --seeds 1 --plot ", "fig.svg"},
      {"tune --scene steering --objective clean-arrival --budget 8 --seeds 1 --test-seeds 0 --preset-out ", "p.json"}};
  for (const auto& [command, name] : writers) {
    const std::string link = dir + "/" + name;
    fs::create_symlink(victim, link);
    ASSERT_EQ(::lchown(link.c_str(), 2, 2), 0);  // daemon's
    const apptest::RunResult r = runCrowdlab(command + "'" + link + "'");
    EXPECT_NE(r.exitCode, 0) << command << r.err;
    EXPECT_NE(r.err.find("is a link owned by another user"), std::string::npos) << command << r.err;
    EXPECT_EQ(apptest::slurp(victim), "my notes\n") << command;
  }
}

// A stream that replaces a file replaces it only at its end: a SIGKILL leaves the old one whole.
TEST(OutputFiles, AKilledBenchLeavesTheOldCsvWhole) {
  const std::string dir = apptest::freshDir("out-bench-kill");
  const std::string csv = dir + "/timings.csv";
  write(csv, "case,n\nlast,week\n");
  const pid_t pid = start({"bench", "--case", "boids2d", "--n", "3000", "--steps", "100000", "--threads", "1", "--mode",
                           "brute", "--csv", csv},
                          dir + "/run");
  ASSERT_TRUE(waitUntil([&] { return apptest::slurp(dir + "/run.out").find("case") != std::string::npos; }, 60));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ::kill(pid, SIGKILL);
  waitFor(pid, 30);
  EXPECT_EQ(apptest::slurp(csv), "case,n\nlast,week\n");
}

// A FIFO nobody reads fails at once, before any work, for every command that takes an output.
TEST(OutputFiles, AFifoWithNoReaderFailsBeforeAnyWork) {
  const std::string dir = apptest::freshDir("out-fifo");
  const std::string fifo = dir + "/pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  ASSERT_EQ(::mkfifo((dir + "/fig.svg").c_str(), 0600), 0);
  const std::vector<std::string> commands = {
      kSweep + " --seeds 1 --csv '" + fifo + "' --resume",
      kSweep + " --seeds 1 --plot '" + dir + "/fig.svg'",
      "claims --scene boids --seeds 1 --csv '" + fifo + "'",
      "tune --scene steering --objective clean-arrival --budget 8 --seeds 1 --csv '" + fifo + "'",
      "bench --case boids2d --n 64 --steps 1 --threads 1 --csv '" + fifo + "'",
      "--headless --scene boids --steps 5 --metrics-csv '" + fifo + "'",
      "--headless --scene boids --steps 5 --state-out '" + fifo + "'"};
  for (const std::string& c : commands) {
    const apptest::RunResult r = runCrowdlab(c, "timeout -s KILL 60");
    EXPECT_TRUE(r.exitCode == 1 || r.exitCode == 2) << c << "\n" << r.err;  // 2: sweep, refused as a bad flag is
    EXPECT_NE(r.err.find(": is a pipe with no reader"), std::string::npos) << c << "\n" << r.err;
    EXPECT_EQ(r.err.find("jobs to run"), std::string::npos) << "no work before the check: " << c << "\n" << r.err;
    EXPECT_EQ(r.out.find("gen "), std::string::npos) << c << "\n" << r.out;
  }
}

// The window's --state-out and --screenshot (and `fps --json`) are opened before the window, as a
// headless run's files are: a FIFO nobody reads fails at once with one line, before any display is
// even asked for (it used to be only probed, so the run went on and failed at its end). Two of the
// window's outputs naming one file are refused. A FIFO someone reads gets the state.
TEST(OutputFiles, TheWindowsOutputsAreOpenedBeforeTheWindow) {
  const std::string dir = apptest::freshDir("out-window-fifo");
  const std::string state = dir + "/state", shot = dir + "/shot.png";
  ASSERT_EQ(::mkfifo(state.c_str(), 0600), 0);
  ASSERT_EQ(::mkfifo(shot.c_str(), 0600), 0);
  for (const std::string& c : {"--scene boids --frames 5 --state-out '" + state + "'",
                               "--scene boids --frames 5 --screenshot '" + shot + "'",
                               "fps --quick --cases boids-5k --json '" + state + "'"}) {
    const auto t0 = std::chrono::steady_clock::now();
    // No display: a window opened before the check would fail on that instead.
    const apptest::RunResult r = runCrowdlab(c, "DISPLAY= WAYLAND_DISPLAY= timeout -s KILL 60");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(r.exitCode, 1) << c << "\n" << r.err;
    EXPECT_NE(r.err.find(": is a pipe with no reader"), std::string::npos) << c << "\n" << r.err;
    EXPECT_EQ(lines(r.err), 1u) << c << "\n" << r.err;
    EXPECT_LT(seconds, 20.0) << c;
  }
  apptest::RunResult r = runCrowdlab("--scene boids --frames 3 --hidden --metrics-csv '" + dir + "/m.txt' --state-out '" +
                                     dir + "/m.txt'");
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_NE(r.err.find("--metrics-csv and --state-out name the same file"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir + "/m.txt")) << "the refused run leaves no file";
  r = runCrowdlab("--scene boids --frames 3 --hidden --state-out '" + dir + "/s.json' --screenshot '" + dir + "/s.json'");
  EXPECT_NE(r.exitCode, 0) << r.err;  // refused: --screenshot wants a .png name
  // With a reader the FIFO is held open from the start and the state arrives at the end.
  const pid_t reader = ::fork();
  if (reader == 0) {
    if (!std::freopen(state.c_str(), "r", stdin) || !std::freopen((dir + "/got.json").c_str(), "w", stdout)) ::_exit(1);
    for (int ch; (ch = std::getchar()) != EOF;) std::putchar(ch);
    ::_exit(std::fflush(stdout) == 0 ? 0 : 1);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the reader waits in open()
  r = runCrowdlab("--scene boids --frames 3 --hidden --state-out '" + state + "'", "timeout -s KILL 120");
  EXPECT_EQ(r.exitCode, 0) << r.err;
  const int status = waitFor(reader, 30);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_NE(apptest::slurp(dir + "/got.json").find("\"steps\""), std::string::npos) << apptest::slurp(dir + "/got.json");
}

// Two outputs of one command that name one file (also through a link) are refused before the run.
TEST(OutputFiles, TwoOutputsNamingOneFileAreRefused) {
  const std::string dir = apptest::freshDir("out-same");
  fs::create_symlink("result.out", dir + "/alias.out");
  apptest::RunResult r = runCrowdlab(kSweep + " --seeds 1 --csv '" + dir + "/fig.svg' --plot '" + dir + "/fig.svg'");
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_NE(r.err.find("--csv and --plot name the same file"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir + "/fig.svg")) << "nothing written";
  r = runCrowdlab("tune --scene steering --objective clean-arrival --budget 8 --seeds 1 --csv '" + dir +
                  "/result.out' --preset-out '" + dir + "/alias.out'");
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_NE(r.err.find("--csv and --preset-out name the same file"), std::string::npos) << r.err;
  r = runCrowdlab("--headless --scene boids --steps 3 --metrics-csv '" + dir + "/m.txt' --state-out '" + dir + "/m.txt'");
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_FALSE(fs::exists(dir + "/m.txt")) << "the refused run leaves no file";
}

// What a command prints into a full disk is an exit code with the reason, listings included.
TEST(OutputFiles, ListingsAndMergesIntoAFullDeviceFail) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  const std::string dir = apptest::freshDir("out-full");
  ASSERT_EQ(runCrowdlab(kSweep + " --seeds 1 --csv '" + dir + "/one.csv'").exitCode, 0);
  for (const std::string c : {"--list-scenes", "--scene finale --list-params", "bench --list", "claims --list",
                              "tune --list", "sweep --list-builtins", "claims --help"}) {
    const std::string err = dir + "/err.txt";
    const int status = std::system(("'" CROWDLAB_EXE "' " + c + " >/dev/full 2>'" + err + "'").c_str());
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) << c;
    EXPECT_NE(apptest::slurp(err).find("stdout: write failed"), std::string::npos) << c;
  }
  const apptest::RunResult merged = apptest::runCrowdlab("sweep --merge '" + dir + "/one.csv' --csv /dev/full");
  EXPECT_EQ(merged.exitCode, 1) << merged.err;
  EXPECT_NE(merged.err.find("/dev/full: write failed (No space left on device)"), std::string::npos) << merged.err;
}

// A settings file reached through the user's own link (a dotfiles folder) that holds a mistake is
// never saved over with defaults at exit.
TEST(OutputFiles, ALinkedSettingsFileWithAMistakeIsNeverSavedOver) {
  const std::string dir = apptest::freshDir("out-settings-link");
  fs::create_directories(dir + "/dotfiles");
  const std::string hand = "{\"lastScene\": \"finale\", \"uiScale\": 1.5,, }\n";
  write(dir + "/dotfiles/crowdlab.json", hand);
  fs::create_directories(dir + "/config");
  fs::create_symlink("../dotfiles/crowdlab.json", dir + "/config/settings.json");
  const apptest::RunResult r =
      runCrowdlab("--scene boids --keys ctrl+q", "CROWDLAB_CONFIG_DIR='" + dir + "/config' timeout 60");
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find("left as it is"), std::string::npos) << r.err;
  EXPECT_EQ(apptest::slurp(dir + "/dotfiles/crowdlab.json"), hand);
  EXPECT_TRUE(fs::is_symlink(dir + "/config/settings.json"));
}

// --resume and --merge take only rows of the same experiment, in job order, one row a job.
TEST(SweepExperiment, ResumeRefusesAnotherExperimentAndPutsRowsInOrder) {
  const std::string dir = apptest::freshDir("sweep-experiment");
  const std::string csv = dir + "/runs.csv";
  ASSERT_EQ(runCrowdlab(kSweep + " --seeds 2 --csv '" + csv + "'").exitCode, 0);
  const std::string whole = apptest::slurp(csv);
  ASSERT_EQ(lines(whole), 7u) << whole;
  EXPECT_NE(whole.find(",experiment\n"), std::string::npos) << whole;
  // Each of these defines other jobs than the file's: refused, the file untouched.
  for (const std::string& other : {kSweep + " --seeds 3", kSweep + " --seeds 2 --reduce max", kSweep + " --seeds 2 --set wSep=2",
                                   kSweep + " --seeds 2 --preset 4-balanced.json", kSweep + " --seeds 2 --first-seed 9",
                                   kSweep + " --seeds 2 --series 'loose:wAli=0.5'"}) {
    const apptest::RunResult r = runCrowdlab(other + " --csv '" + csv + "' --resume");
    EXPECT_EQ(r.exitCode, 2) << other << "\n" << r.err;
    EXPECT_EQ(apptest::slurp(csv), whole) << other;
  }
  // Rows repeated and out of order (two files concatenated by hand): resumed into job order, no repeats.
  std::vector<std::string> rows;
  {
    std::istringstream in(whole);
    for (std::string line; std::getline(in, line);) rows.push_back(line);
  }
  write(csv, rows[0] + "\n" + rows[4] + "\n" + rows[2] + "\n" + rows[4] + "\n" + rows[1] + "\n");
  const apptest::RunResult resumed = runCrowdlab(kSweep + " --seeds 2 --csv '" + csv + "' --resume");
  EXPECT_EQ(resumed.exitCode, 0) << resumed.err;
  EXPECT_EQ(apptest::slurp(csv), whole);
}

TEST(SweepExperiment, MergeNamesMissingJobsAndRefusesStrangers) {
  const std::string dir = apptest::freshDir("sweep-merge-check");
  const std::string sweep = kSweep + " --seeds 3";  // 9 jobs
  for (int s = 1; s <= 3; ++s)
    ASSERT_EQ(runCrowdlab(sweep + " --shard " + std::to_string(s) + "/3 --csv '" + dir + "/p" + std::to_string(s) + ".csv'").exitCode, 0);
  const std::string p1 = dir + "/p1.csv", p2 = dir + "/p2.csv", p3 = dir + "/p3.csv";
  apptest::RunResult r = runCrowdlab("sweep --merge '" + p1 + "' '" + p2 + "' '" + p3 + "' --csv '" + dir + "/all.csv'");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lines(apptest::slurp(dir + "/all.csv")), 10u);
  // The last shard without its last job (job 8), and a half row: exit 1 naming the jobs.
  std::string text = apptest::slurp(p3);
  write(dir + "/cut.csv", text.substr(0, text.rfind('\n', text.size() - 2) + 1));
  r = runCrowdlab("sweep --merge '" + p1 + "' '" + p2 + "' '" + dir + "/cut.csv'");
  EXPECT_EQ(r.exitCode, 1) << r.err;
  EXPECT_NE(r.err.find("1 jobs missing: 8"), std::string::npos) << r.err;
  write(dir + "/half.csv", text.substr(0, text.size() - 9));
  r = runCrowdlab("sweep --merge '" + p1 + "' '" + p2 + "' '" + dir + "/half.csv'");
  EXPECT_EQ(r.exitCode, 1) << r.err;
  EXPECT_NE(r.err.find("jobs missing: 8"), std::string::npos) << r.err;
  // A shard of the same grid from other seeds, and a row naming another scene: refused.
  ASSERT_EQ(runCrowdlab(sweep + " --first-seed 40 --shard 3/3 --csv '" + dir + "/other.csv'").exitCode, 0);
  r = runCrowdlab("sweep --merge '" + p1 + "' '" + p2 + "' '" + dir + "/other.csv'");
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_NE(r.err.find("another experiment"), std::string::npos) << r.err;
  std::string renamed = apptest::slurp(p2);
  renamed.replace(renamed.find(",boids,"), 7, ",finale,");
  write(dir + "/scene.csv", renamed);
  r = runCrowdlab("sweep --merge '" + p1 + "' '" + dir + "/scene.csv' '" + p3 + "'");
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_NE(r.err.find("names scene 'finale'"), std::string::npos) << r.err;
  // An existing file that is not this sweep's merge is never replaced.
  write(dir + "/chapter3.tex", "\\section{Results}\n");
  r = runCrowdlab("sweep --merge '" + p1 + "' '" + p2 + "' '" + p3 + "' --csv '" + dir + "/chapter3.tex'");
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_EQ(apptest::slurp(dir + "/chapter3.tex"), "\\section{Results}\n");
  // ... while the merge's own earlier output is (a merge run again).
  r = runCrowdlab("sweep --merge '" + p1 + "' '" + p2 + "' '" + p3 + "' --csv '" + dir + "/all.csv'");
  EXPECT_EQ(r.exitCode, 0) << r.err;
}

TEST(SweepExperiment, SmallRefusals) {
  apptest::RunResult r = apptest::expectRefused(kSweep + " --series 'a:wSep=1' --series 'a:wSep=2'", "is given twice");
  r = apptest::expectRefused(kSweep + " --seeds 4 --first-seed 4611686018427387902", "runs past the largest seed");
  // A CSV over the sweep's cap is named as what it is, not as a preset or settings file.
  const std::string dir = apptest::freshDir("sweep-too-large");
  write(dir + "/huge.csv", "job,scene\n");
  fs::resize_file(dir + "/huge.csv", size_t(65) << 20);
  r = apptest::expectRefused("sweep --merge '" + dir + "/huge.csv'", "a file of this kind is read up to 64 MB");
  EXPECT_EQ(r.err.find("preset or settings"), std::string::npos) << r.err;
}

// SIGTERM and SIGHUP stop a tune as Ctrl+C does: the best so far is written.
TEST(StopSignals, TermAndHupStopATuneThatStillWritesItsPreset) {
  const std::string dir = apptest::freshDir("tune-term");
  for (const int sig : {SIGTERM, SIGHUP}) {
    const std::string preset = dir + "/best-" + std::to_string(sig) + ".json";
    const pid_t pid = start({"tune", "--scene", "steering", "--objective", "clean-arrival", "--budget", "100000", "--seeds",
                             "2", "--threads", "2", "--preset-out", preset},
                            dir + "/run" + std::to_string(sig));
    ASSERT_TRUE(waitUntil([&] { return apptest::slurp(dir + "/run" + std::to_string(sig) + ".out").find("gen   2") !=
                                       std::string::npos; },
                          120));
    ::kill(pid, sig);
    const int status = waitFor(pid, 60);
    ASSERT_TRUE(WIFEXITED(status)) << "signal " << sig;
    EXPECT_EQ(WEXITSTATUS(status), 128 + sig);
    EXPECT_NE(apptest::slurp(preset).find("\"training_score\""), std::string::npos) << sig;
  }
}

// SIGTERM and SIGHUP stop `crowdlab claims` as Ctrl+C does: within a step, exit 128 + the signal. Its
// table is a whole document, so none is half-written: an earlier --csv stays as it was, and none is
// made where there was none (it used to die at once on SIGTERM, and on Ctrl+C too).
TEST(StopSignals, TermAndHupStopClaimsWithoutReplacingTheirTable) {
  const std::string dir = apptest::freshDir("claims-term");
  for (const int sig : {SIGTERM, SIGHUP, SIGINT}) {
    const std::string name = std::to_string(sig), csv = dir + "/claims-" + name + ".csv";
    const bool earlier = sig != SIGHUP;  // SIGHUP: no file before the run
    if (earlier) write(csv, "id,scene\nan,earlier run\n");
    const pid_t pid = start({"claims", "--seeds", "3", "--csv", csv, "--markdown", dir + "/claims-" + name + ".md"},
                            dir + "/run" + name);
    std::this_thread::sleep_for(std::chrono::milliseconds(1000));
    const auto t0 = std::chrono::steady_clock::now();
    ::kill(pid, sig);
    const int status = waitFor(pid, 60);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const std::string err = apptest::slurp(dir + "/run" + name + ".err");
    ASSERT_TRUE(WIFEXITED(status)) << "signal " << sig << " ended it unhandled";
    EXPECT_EQ(WEXITSTATUS(status), 128 + sig) << err;
    EXPECT_LT(seconds, 20.0) << "stopped within a step of each job";
    EXPECT_NE(err.find("crowdlab claims: stopped by "), std::string::npos) << err;
    if (earlier) EXPECT_EQ(apptest::slurp(csv), "id,scene\nan,earlier run\n");
    else EXPECT_FALSE(fs::exists(csv));
    EXPECT_FALSE(fs::exists(dir + "/claims-" + name + ".md"));
  }
  for (const fs::directory_entry& e : fs::directory_iterator(dir))
    EXPECT_EQ(e.path().filename().string().find(".tmp-"), std::string::npos) << "a temporary left: " << e.path();
}

// Ctrl+C in the first generation of a tune over many seeds ends it without scoring the start values
// on every seed first (that took as long as the generation itself).
TEST(StopSignals, ATuneStopsInItsFirstGeneration) {
  const std::string dir = apptest::freshDir("tune-first-gen");
  const pid_t pid = start({"tune", "--scene", "orca-corridor", "--objective", "fast-and-safe", "--budget", "100000",
                           "--seeds", "400", "--threads", "2", "--csv", dir + "/evals.csv"},
                          dir + "/run");
  ASSERT_TRUE(waitUntil([&] { return apptest::slurp(dir + "/run.out").find("budget") != std::string::npos; }, 60));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const auto t0 = std::chrono::steady_clock::now();
  ::kill(pid, SIGINT);
  const int status = waitFor(pid, 120);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130) << apptest::slurp(dir + "/run.err");
  // Scoring the start on 400 seeds takes minutes here; a stop that is heard ends within seconds.
  EXPECT_LT(seconds, 30.0) << apptest::slurp(dir + "/run.out");
}

// Every command reads its flags one way: --help everywhere, --flag=value everywhere.
TEST(FlagReader, EveryCommandHasHelpAndTakesFlagEqualsValue) {
  for (const std::string c : {"--help", "bench --help", "claims --help", "sweep --help", "tune --help"}) {
    const apptest::RunResult r = runCrowdlab(c);
    EXPECT_EQ(r.exitCode, 0) << c << r.err;
    EXPECT_NE(r.out.find("usage"), std::string::npos) << c << r.out;
  }
  EXPECT_EQ(runCrowdlab("--headless --scene=boids --steps=2").exitCode, 0);
  EXPECT_EQ(runCrowdlab("claims --list=1").exitCode, 2);
  apptest::expectRefused("claims --seeds=0", "--seeds expects a whole number");
  apptest::expectRefused("bench --steps=3 --steps 4", "--steps is given more than once");
  apptest::expectRefused("--headless --metrics-csv --steps 3 --scene boids", "--metrics-csv needs a value");
}

// CROWDLAB_PARSE_ONLY=1: flags read, nothing run, nothing written; a bad flag is still one line, exit 2.
TEST(FlagReader, ParseOnlyRunsNothing) {
  const std::string dir = apptest::freshDir("parse-only");
  const std::string env = "CROWDLAB_PARSE_ONLY=1";
  for (const std::string& c :
       {std::string("--scene finale --frames 50 --screenshot '") + dir + "/a.png'",
        "--headless --scene boids --steps 100000000 --metrics-csv '" + dir + "/m.csv'",
        "bench --case boids2d --n 20000 --csv '" + dir + "/b.csv'", "claims --seeds 50 --csv '" + dir + "/c.csv'",
        kSweep + " --seeds 3 --csv '" + dir + "/s.csv' --plot '" + dir + "/s.svg'",
        "tune --scene steering --objective clean-arrival --budget 900 --preset-out '" + dir + "/t.json'",
        std::string("sweep --list-builtins"), std::string("claims --list"), std::string("--list-scenes")}) {
    const apptest::RunResult r = runCrowdlab(c, env + " timeout 20");
    EXPECT_EQ(r.exitCode, 0) << c << "\n" << r.err;
    EXPECT_EQ(r.out, "") << c;
    EXPECT_EQ(r.err, "") << c;
  }
  EXPECT_TRUE(fs::is_empty(dir)) << "nothing written";
  for (const std::string c : {"bench --n x", "claims --bogus", "sweep --scene boids --vary nope=1:2:1 --metric polarization",
                              "tune --budget", "--headless --scene boids --steps 0"}) {
    const apptest::RunResult r = runCrowdlab(c, env);
    EXPECT_EQ(r.exitCode, 2) << c;
    EXPECT_EQ(r.out, "") << c;
  }
}
