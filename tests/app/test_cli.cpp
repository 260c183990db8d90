// The command line: every mistake gets one clear line, the usage and exit code 2; headless runs print metrics.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <thread>
#include "app_util.hpp"

using apptest::runCrowdlab;

namespace {
void expectUsageError(const std::string& args, const std::string& mention) {
  apptest::RunResult r = apptest::expectRefused(args, mention);
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
// A screenshot is PNG whatever its name: `--screenshot x.jpg` wrote PNG bytes under a JPEG name.
TEST(Cli, ScreenshotNameNotEndingInPngIsRefused) {
  expectUsageError("--scene boids --frames 1 --screenshot /tmp/crowdlab-shot.jpg", "--screenshot writes PNG: give a FILE.png");
  expectUsageError("--scene boids --frames 1 --screenshot png", "got 'png'");
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
  // Lines named *_ms are wall-clock timings (step_ms_median): the only ones allowed to differ.
  auto measured = [](const std::string& out) {
    std::istringstream in(out);
    std::string kept;
    for (std::string line; std::getline(in, line);)
      if (line.find("_ms=") == std::string::npos && line.find("_ms_") == std::string::npos) kept += line + "\n";
    return kept;
  };
  EXPECT_NE(a.value("step_ms_median"), "");
  EXPECT_EQ(measured(a.out), measured(b.out));
  EXPECT_NE(measured(a.out), measured(c.out));
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
  EXPECT_EQ(header, "step,time,mean_neighbors,polarization,mean_nn_distance,groups,largest_group_share");
  int rows = 0;
  for (std::string line; std::getline(in, line);) rows++;
  EXPECT_EQ(rows, 25);
}

TEST(Cli, NoUsableDisplayExitsOneAndSaysWhatIsMissing) {
  apptest::RunResult r = runCrowdlab("--scene boids --frames 1", "SDL_VIDEODRIVER=no-such-driver");
  EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("xvfb-run"), std::string::npos) << r.err;
}

// With no window system answering, SDL falls back to a driver that shows nothing (offscreen, through
// EGL) and the window run went on with no window anywhere: a lecturer starting it over ssh, or an
// instance starting while its X server reset, got a process and no picture. Now one line and exit 1;
// a hidden run (screenshots only) may still draw offscreen.
TEST(Cli, AWindowNoDisplayAnswersIsRefusedNotDrawnOffscreen) {
  apptest::RunResult unset = runCrowdlab("--scene boids --frames 30", "env -u DISPLAY -u WAYLAND_DISPLAY");
  EXPECT_EQ(unset.exitCode, 1) << unset.out << unset.err;
  EXPECT_NE(unset.err.find("crowdlab: cannot open a display (DISPLAY is not set)"), std::string::npos) << unset.err;
  EXPECT_EQ(unset.value("frames"), "") << "no frame is drawn:\n" << unset.state;
  apptest::RunResult refused = runCrowdlab("--scene boids --frames 30", "DISPLAY=:31999 env -u WAYLAND_DISPLAY");
  EXPECT_EQ(refused.exitCode, 1) << refused.out << refused.err;
  EXPECT_NE(refused.err.find("DISPLAY=:31999 did not answer"), std::string::npos) << refused.err;
  apptest::RunResult hidden = runCrowdlab("--scene boids --hidden --frames 3", "env -u DISPLAY -u WAYLAND_DISPLAY");
  EXPECT_EQ(hidden.exitCode, 0) << hidden.err;
  EXPECT_EQ(hidden.value("frames"), "3") << hidden.state;
}

// ---- hostile input ----
namespace {
std::string writeTestFile(const std::string& name, const std::string& text) {
  std::string path = apptest::outDir() + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}
std::string nested(int depth, const std::string& inner) {
  return std::string(size_t(depth), '[') + inner + std::string(size_t(depth), ']');
}
double secondsOf(const std::function<void()>& f) {
  auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

// Item 1: a number beyond a double threw json::out_of_range, which nothing caught (exit 134).
TEST(Cli, PresetWithAnOverflowingNumberIsOneLineNotAnAbort) {
  std::string path = writeTestFile("overflow.json", R"({"scene":"boids","params":{"wSep":1e400}})");
  expectUsageError("--headless --scene boids --steps 1 --preset '" + path + "'", "too large");
}

// Item 2: a value nested 100,000 deep overflowed the stack when the message printed it.
TEST(Cli, DeeplyNestedPresetValueIsOneShortLine) {
  std::string path = writeTestFile("nested.json", R"({"scene":"boids","params":{"wSep":)" + nested(100000, "1") + "}}");
  apptest::RunResult r = runCrowdlab("--headless --scene boids --steps 1 --preset '" + path + "'");
  EXPECT_EQ(r.exitCode, 2) << r.err.substr(0, 300);
  EXPECT_NE(r.err.find("nested deeper than"), std::string::npos) << r.err.substr(0, 300);
  // Within the nesting cap the message still quotes the value flat, not as a 50 KB dump.
  path = writeTestFile("nested-shallow.json", R"({"scene":"boids","params":{"wSep":)" + nested(60, "1") + "}}");
  r = runCrowdlab("--headless --scene boids --steps 1 --preset '" + path + "'");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("expected a number, got an array"), std::string::npos) << r.err;
  EXPECT_LT(r.err.find('\n'), 200u) << r.err;
}

// Item 5: float limits compared as doubles rejected documented minimums such as 0.2.
// Every number parameter of every scene at its printed minimum, then maximum, by --set and by preset.
TEST(Cli, EveryParameterAcceptsItsPrintedMinimumAndMaximum) {
  for (const std::string& scene : apptest::sceneNames()) {
    apptest::RunResult list = runCrowdlab("--scene " + scene + " --list-params");
    ASSERT_EQ(list.exitCode, 0) << scene << list.err;
    std::vector<std::pair<std::string, std::pair<std::string, std::string>>> ranges;
    std::istringstream in(list.out);
    for (std::string line; std::getline(in, line);) {
      std::istringstream words(line);
      std::string name, def, range;
      words >> name >> def >> range;
      size_t dots = range.find("..");
      if (range.rfind("range=", 0) != 0 || dots == std::string::npos) continue;  // booleans and options
      ranges.push_back({name, {range.substr(6, dots - 6), range.substr(dots + 2)}});
    }
    ASSERT_GE(ranges.size(), 3u) << scene << ":\n" << list.out;
    for (int end = 0; end < 2; ++end) {
      std::string sets, json;
      for (const auto& [name, r] : ranges) {
        const std::string& v = end == 0 ? r.first : r.second;
        sets += " --set " + name + "=" + v;
        json += std::string(json.empty() ? "" : ",") + "\"" + name + "\":" + v;
      }
      apptest::RunResult bySet = runCrowdlab(std::string("--headless --scene ") + scene + " --steps 1" + sets);
      EXPECT_EQ(bySet.exitCode, 0) << scene << (end ? " maximum" : " minimum") << " by --set: " << bySet.err;
      std::string path = writeTestFile(std::string("limits-") + scene + ".json",
                                       std::string("{\"scene\":\"") + scene + "\",\"params\":{" + json + "}}");
      apptest::RunResult byPreset = runCrowdlab(std::string("--headless --scene ") + scene + " --steps 1 --preset '" + path + "'");
      EXPECT_EQ(byPreset.exitCode, 0) << scene << (end ? " maximum" : " minimum") << " by preset: " << byPreset.err;
    }
  }
}

// Item 7: the CSV path was checked only after the whole run.
TEST(Cli, MetricsCsvPathIsCheckedBeforeTheRun) {
  apptest::RunResult r;
  double seconds = secondsOf([&] {
    r = runCrowdlab("--headless --scene finale --steps 20000 --metrics-csv /nonexistent-dir/m.csv");
  });
  EXPECT_EQ(r.exitCode, 1) << r.err;
  EXPECT_NE(r.err.find("/nonexistent-dir/m.csv: cannot write (No such file or directory)"), std::string::npos) << r.err;
  EXPECT_LT(seconds, 5.0) << "the path should fail before the 20,000-step run";
}

// Item 7: rows were kept in memory until the end, so a killed run left no file.
TEST(Cli, MetricsCsvKeepsWhatAKilledRunMeasured) {
  std::string path = apptest::outDir() + "/killed.csv";
  std::remove(path.c_str());
  std::string cmd = "CROWDLAB_CONFIG_DIR='" + apptest::outDir() + "/config-killed' timeout -s KILL 4 '" CROWDLAB_EXE
                    "' --headless --scene boids --steps 100000000 --metrics-csv '" + path + "' >/dev/null 2>&1";
  int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 128 + 9) << status;  // killed, as intended
  std::istringstream in(apptest::slurp(path));
  std::string header;
  std::getline(in, header);
  EXPECT_EQ(header, "step,time,mean_neighbors,polarization,mean_nn_distance,groups,largest_group_share");
  int rows = 0;
  for (std::string line; std::getline(in, line);) rows++;
  EXPECT_GT(rows, 60) << "rows are flushed every second";
}

// Item 7, window runs: the path was checked only after the window closed. Here the display cannot
// open at all, so only a check made before the window can give this line.
TEST(Cli, WindowMetricsCsvPathIsCheckedBeforeTheWindowOpens) {
  apptest::RunResult r = runCrowdlab("--scene boids --frames 2 --metrics-csv /nonexistent-dir/m.csv",
                                     "SDL_VIDEODRIVER=no-such-driver");
  EXPECT_EQ(r.exitCode, 1) << r.err;
  EXPECT_EQ(r.err, "crowdlab: /nonexistent-dir/m.csv: cannot write (No such file or directory)\n");
}

// Item 7, window runs: the rows were written only when the window closed, so a killed interactive run
// left no file. The run is killed (SIGKILL: no handler, no exit path) once its rows reach the disk.
TEST(Cli, WindowMetricsCsvKeepsWhatAKilledRunMeasured) {
  const std::string path = apptest::outDir() + "/window-killed.csv", config = apptest::freshDir("config-window-killed");
  std::remove(path.c_str());
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::setenv("CROWDLAB_CONFIG_DIR", config.c_str(), 1);
    std::freopen("/dev/null", "w", stdout);
    std::freopen("/dev/null", "w", stderr);
    ::execl(CROWDLAB_EXE, CROWDLAB_EXE, "--scene", "boids", "--width", "640", "--height", "360", "--metrics-csv",
            path.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  auto lines = [&] {
    std::istringstream in(apptest::slurp(path));
    int n = 0;
    for (std::string line; std::getline(in, line);) ++n;
    return n;
  };
  int status = 0;
  bool exited = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (lines() < 3 && std::chrono::steady_clock::now() < deadline && !(exited = ::waitpid(pid, &status, WNOHANG) == pid))
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ASSERT_FALSE(exited) << "the window run ended by itself (no display?), status " << status;
  ::kill(pid, SIGKILL);
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << status;
  std::istringstream in(apptest::slurp(path));
  std::string header;
  std::getline(in, header);
  EXPECT_EQ(header, "step,time,mean_neighbors,polarization,mean_nn_distance,groups,largest_group_share");
  int rows = 0;
  for (std::string line; std::getline(in, line) && !in.eof();) {  // whole lines: the last may be cut by the kill
    EXPECT_EQ(std::count(line.begin(), line.end(), ','), std::count(header.begin(), header.end(), ',')) << line;
    EXPECT_EQ(line.rfind(std::to_string(rows) + ",", 0), 0u) << "row " << rows << ": " << line;  // steps 0, 1, 2...
    ++rows;
  }
  EXPECT_GE(rows, 2) << "rows are flushed every second while the window runs";
}

// Item 8: /dev/zero grew without bound, a FIFO hung, a folder was "empty", a huge file loaded whole.
TEST(Cli, PresetsAreReadOnlyFromRegularFilesUnderACap) {
  double seconds = secondsOf([] {
    expectUsageError("--headless --scene boids --steps 1 --preset /dev/zero", "/dev/zero: not a regular file (a device)");
  });
  EXPECT_LT(seconds, 5.0);
  std::string fifo = apptest::outDir() + "/preset.fifo";
  std::remove(fifo.c_str());
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  expectUsageError("--headless --scene boids --steps 1 --preset '" + fifo + "'", "not a regular file (a FIFO)");
  expectUsageError("--headless --scene boids --steps 1 --preset '" + apptest::outDir() + "'", "is a folder, not a file");
  std::string big = writeTestFile("big.json", R"({"scene":"boids","params":{}})" + std::string(2 << 20, ' '));
  expectUsageError("--headless --scene boids --steps 1 --preset '" + big + "'", "too large");
}

// Item 9: each hostile value gets one clear line.
TEST(Cli, EmptyFileNamesAreRejected) {
  expectUsageError("--headless --scene boids --steps 1 --preset ''", "--preset needs a value, got an empty one");
  expectUsageError("--headless --scene boids --steps 1 --metrics-csv ''", "--metrics-csv needs a value, got an empty one");
}
TEST(Cli, NumbersWithSpacesAreRejectedOnEitherSide) {
  expectUsageError("--headless --scene boids --steps ' 5'", "--steps expects a whole number");
  expectUsageError("--headless --scene boids --steps '5 '", "--steps expects a whole number");
  expectUsageError("--headless --scene boids --steps 1 --set 'wSep= 1'", "spaces");
  expectUsageError("--headless --scene boids --steps 1 --set 'wSep=1 '", "spaces");
}
TEST(Cli, DuplicatedFlagIsOneClearLine) {
  expectUsageError("--headless --scene boids --scene finale --steps 1", "--scene is given more than once");
  expectUsageError("--headless --scene boids --steps 1 --steps 2", "--steps is given more than once");
  EXPECT_EQ(runCrowdlab("--headless --scene boids --steps 1 --set N=20 --set wSep=1").exitCode, 0);  // --set repeats
}
TEST(Cli, DenormalIsOutOfRangeNotNotANumber) {
  expectUsageError("--headless --scene boids --steps 1 --set wSep=1e-320", "too close to zero");
  expectUsageError("--headless --scene boids --steps 1 --set wSep=1e400", "out of range");
  std::string path = writeTestFile("denormal.json", R"({"scene":"boids","params":{"wSep":1e-320}})");
  expectUsageError("--headless --scene boids --steps 1 --preset '" + path + "'", "too close to zero");
}
TEST(Cli, JunkAfterANulByteIsRejected) {
  std::string path = writeTestFile("nul.json", std::string(R"({"scene":"boids","params":{}})") + '\0' + "junk");
  expectUsageError("--headless --scene boids --steps 1 --preset '" + path + "'", "NUL byte");
}
TEST(Cli, MetricsCsvToAnUnwritableFileNamesTheFileAndTheReason) {
  apptest::RunResult r = runCrowdlab("--headless --scene boids --steps 1 --metrics-csv /proc/version");
  EXPECT_EQ(r.exitCode, 1);
  // Root may open it and fail on the first flush: either way the real path and errno's reason.
  EXPECT_TRUE(r.err.find("crowdlab: /proc/version: cannot write (") == 0 ||
              r.err.find("crowdlab: /proc/version: write failed (Input/output error)") == 0) << r.err;
  EXPECT_EQ(r.err.find(".tmp"), std::string::npos) << r.err;
}
TEST(Cli, ControlCharactersInValuesAreShownNotSent) {
  apptest::RunResult r = runCrowdlab("--headless --scene boids --steps 1 --set \"wSep=$(printf '\\033[2J')\"");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(r.err.find('\033'), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("\\x1B"), std::string::npos) << r.err;
}
