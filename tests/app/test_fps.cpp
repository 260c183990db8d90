// `crowdlab fps`: the standard frame-rate run in a window of its own display, its JSON (the keys the
// browser page's must match), its line, the busy mark, and `--compare`: the ratio table, the SVG, and
// one line with exit 2 for anything that is not a result of this version.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <nlohmann/json.hpp>
#include "app_util.hpp"

namespace {

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(line);
  return out;
}

// The key paths of a result, as `crowdlab fps --keys` prints them: "machine.cpu", "cases[].fps_median".
void keysOf(const nlohmann::json& j, const std::string& prefix, std::set<std::string>& out) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) keysOf(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), out);
  } else if (j.is_array() && !j.empty() && j.front().is_object()) {
    for (const nlohmann::json& e : j) keysOf(e, prefix + "[]", out);
  } else {
    out.insert(prefix);
  }
}

// The project's version, as CMakeLists.txt declares it (the program's results carry it).
std::string projectVersion() {
  const std::string text = apptest::slurp(CROWDLAB_SOURCE_DIR "/CMakeLists.txt");
  const size_t at = text.find("project(crowdlab VERSION ");
  if (at == std::string::npos) return "?";
  const size_t from = at + std::string("project(crowdlab VERSION ").size();
  return text.substr(from, text.find_first_of(" )", from) - from);
}
const std::string kVersion = projectVersion();

std::string write(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
  return path;
}

// A pasted line of this version, with the figures given.
std::string pastedLine(const std::string& cases, const std::string& cpu) {
  return "crowdlab-fps 2 v" + kVersion + " RelWithDebInfo desktop 1920x1080 vsync=off full " + cases + " | cpu=\"" + cpu +
         "\" threads=2 gl=\"llvmpipe (LLVM 15)\" sw=1 os=\"Debian\" busy=no\n";
}

// A window run of `args` on a display of its own, beside `beside` (a shell command run in the
// background for the run's length, or "").
apptest::RunResult fpsOnOwnDisplay(const std::string& name, const std::string& args, const std::string& beside = "") {
  const std::string dir = apptest::freshDir("fps-" + name);
  std::ofstream script(dir + "/run.sh");
  // Every job the script started ends with it (a loop left behind would hold the test's pipes and a core).
  if (!beside.empty()) script << "trap 'kill $(jobs -p) 2>/dev/null' EXIT\n" << beside << " &\n";
  script << "CROWDLAB_CONFIG_DIR='" << dir << "' '" CROWDLAB_EXE "' fps " << args << " >'" << dir << "/out' 2>'" << dir << "/err'\n"
         << "code=$?\n";
  script << "exit $code\n";
  script.close();
  const int status = std::system(apptest::onOwnDisplay(dir + "/run.sh", "1920x1080").c_str());
  apptest::RunResult r;
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = apptest::slurp(dir + "/out");
  r.err = apptest::slurp(dir + "/err");
  return r;
}

}  // namespace

TEST(Fps, ARunWritesEveryKeyTheLineAndTheTable) {
  const std::string json = apptest::outDir() + "/fps-run.json";
  std::remove(json.c_str());
  const apptest::RunResult r = fpsOnOwnDisplay("run", "--quick --cases boids-5k,gpu-200k --size 640x360 --json '" + json + "'");
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  nlohmann::json doc = nlohmann::json::parse(apptest::slurp(json), nullptr, false);
  ASSERT_TRUE(doc.is_object()) << apptest::slurp(json);
  // The same keys as every result, the page's included (tests/web/page_check.py compares its own).
  std::set<std::string> keys;
  keysOf(doc, "", keys);
  const std::vector<std::string> expected = lines(apptest::runCrowdlab("fps --keys").out);
  EXPECT_EQ(std::vector<std::string>(keys.begin(), keys.end()), expected);
  EXPECT_EQ(doc["run"]["width"], 640);
  EXPECT_EQ(doc["run"]["height"], 360);
  EXPECT_EQ(doc["run"]["vsync"], false);
  EXPECT_EQ(doc["crowdlab"]["version"], kVersion);
  ASSERT_EQ(doc["cases"].size(), 2u);
  const nlohmann::json& boids = doc["cases"][0];
  EXPECT_EQ(boids["name"], "boids-5k");
  EXPECT_EQ(boids["agents"], 5000);
  EXPECT_GT(boids["frames"].get<int>(), 0);
  EXPECT_GT(boids["fps_median"].get<double>(), 0.0);
  EXPECT_GE(boids["fps_median"].get<double>(), boids["fps_low_1pct"].get<double>());
  EXPECT_GT(boids["sim_ms"].get<double>(), 0.0);
  EXPECT_GT(boids["render_ms"].get<double>(), 0.0);
  EXPECT_GE(boids["draw_calls"].get<int>(), 1);
  // The gpu case runs where compute shaders are, and says why not elsewhere.
  const nlohmann::json& gpu = doc["cases"][1];
  EXPECT_TRUE(gpu["skipped"] != "" || gpu["agents"] == 200000) << gpu;
  const std::string machine = doc["machine"]["cpu"];
  EXPECT_FALSE(machine.empty());
  EXPECT_NE(doc["machine"]["gl_renderer"], "");
  EXPECT_TRUE(doc["machine"]["load_before"].is_number()) << doc["machine"];
  EXPECT_TRUE(doc["machine"]["others_cpu"].is_number()) << doc["machine"];
  // The line: on stdout and in the JSON, and read back by --compare as the JSON is.
  const std::string line = doc["line"];
  EXPECT_EQ(line.rfind("crowdlab-fps 2 v", 0), 0u) << line;
  EXPECT_NE(line.find(" 640x360 vsync=off quick boids-5k="), std::string::npos) << line;
  EXPECT_NE(r.out.find(line), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("boids-5k"), std::string::npos) << r.out;
  const std::string pasted = write(apptest::outDir() + "/fps-run-line.txt", "from the other laptop:\n" + line + "\n");
  const apptest::RunResult both = apptest::runCrowdlab("fps --compare '" + json + "' '" + pasted + "'");
  EXPECT_EQ(both.exitCode, 0) << both.err;
  EXPECT_NE(both.out.find("1.00x"), std::string::npos) << both.out;
}

// A full run measures every case in five rounds, each from its seed, and reports the fastest: a
// slow stretch of the machine then pulls down one round, not the case.
TEST(Fps, AFullRunReportsEachCasesFastestOfFiveRounds) {
  const std::string json = apptest::outDir() + "/fps-rounds.json";
  std::remove(json.c_str());
  const apptest::RunResult r = fpsOnOwnDisplay("rounds", "--cases boids-5k --size 640x360 --json '" + json + "'");
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  const nlohmann::json doc = nlohmann::json::parse(apptest::slurp(json), nullptr, false);
  ASSERT_TRUE(doc.is_object()) << apptest::slurp(json);
  EXPECT_EQ(doc["run"]["passes"], 5);
  ASSERT_EQ(doc["cases"].size(), 1u);
  const nlohmann::json& boids = doc["cases"][0];
  ASSERT_EQ(boids["pass_fps"].size(), 5u) << boids;
  double fastest = 0;
  for (const nlohmann::json& f : boids["pass_fps"]) {
    EXPECT_GT(f.get<double>(), 0.0) << boids;
    fastest = std::max(fastest, f.get<double>());
  }
  EXPECT_DOUBLE_EQ(boids["fps_median"].get<double>(), fastest) << boids;
}

TEST(Fps, ARunBesideABusyLoopIsMarkedBusy) {
  const std::string json = apptest::outDir() + "/fps-busy.json";
  std::remove(json.c_str());
  // Two loops: on a machine of two cores one takes half of it; both, all of it.
  const apptest::RunResult r =
      fpsOnOwnDisplay("busy", "--quick --cases boids-5k --size 640x360 --json '" + json + "'", "yes >/dev/null & yes >/dev/null");
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  const nlohmann::json doc = nlohmann::json::parse(apptest::slurp(json), nullptr, false);
  ASSERT_TRUE(doc.is_object());
  EXPECT_EQ(doc["machine"]["busy"], true) << doc["machine"];
  EXPECT_NE(doc["machine"]["busy_why"], "") << doc["machine"];
  EXPECT_NE(doc["line"].get<std::string>().find(" busy=yes"), std::string::npos) << doc["line"];
  EXPECT_NE(r.out.find("BUSY:"), std::string::npos) << r.out;
}

TEST(Fps, CompareGivesRatiosToTheFirstAndAnSvgOfBars) {
  const std::string a = write(apptest::outDir() + "/fps-a.txt",
                              pastedLine("boids-5k=50.0/40.0 finale-100k=4.0/3.0 gpu-200k=skip", "Laptop A"));
  const std::string b = write(apptest::outDir() + "/fps-b.txt",
                              "> " + pastedLine("boids-5k=100.0/90.0 finale-100k=2.0/1.5 gpu-200k=30.0/25.0", "Laptop B"));
  const std::string svg = apptest::outDir() + "/fps-compare.svg";
  std::remove(svg.c_str());
  const apptest::RunResult r = apptest::runCrowdlab("fps --compare '" + a + "' '" + b + "' --plot '" + svg + "'");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("Laptop A"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Laptop B"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2.00x"), std::string::npos) << r.out;  // boids: B twice A
  EXPECT_NE(r.out.find("0.50x"), std::string::npos) << r.out;  // finale: B half A
  EXPECT_NE(r.out.find("skipped"), std::string::npos) << r.out;
  const std::string plot = apptest::slurp(svg);
  EXPECT_EQ(plot.rfind("<svg", 0), 0u);
  size_t bars = 0;
  for (size_t at = plot.find("<rect x="); at != std::string::npos; at = plot.find("<rect x=", at + 1)) ++bars;
  EXPECT_EQ(bars, 4u + 2u) << "two cases with both figures, two bars each, and two legend squares:\n" << plot;
  EXPECT_NE(plot.find("#4e79a7"), std::string::npos);
  EXPECT_NE(plot.find("#f28e2b"), std::string::npos);
}

TEST(Fps, BadInputGivesOneLineAndExit2) {
  const std::string dir = apptest::freshDir("fps-bad");
  const std::string good = write(dir + "/good.txt", pastedLine("boids-5k=50.0/40.0", "Laptop A"));
  struct Bad {
    std::string file, content, mention;
  };
  const std::vector<Bad> bad = {
      {"notes.txt", "just some notes\n", "not a crowdlab fps result"},
      {"other.json", "{\"format\": \"something-else\"}", "not a crowdlab fps result"},
      {"broken.json", "{\"format\": ", "broken.json"},
      {"old.txt", "crowdlab-fps 2 v0.0.1 Release desktop 1920x1080 vsync=off full boids-5k=50.0/40.0 | cpu=\"X\"\n", "a result of crowdlab '0.0.1'"},
      {"format.txt", "crowdlab-fps 9 v" + kVersion + " Release desktop 1920x1080 vsync=off full boids-5k=50.0/40.0\n", "format"},
      {"case.txt", pastedLine("boids-7k=50.0/40.0", "X"), "unknown case 'boids-7k'"},
      {"figure.txt", pastedLine("boids-5k=fast", "X"), "expected FPS/LOW"},
      {"case.json",
       "{\"format\": \"crowdlab-fps\", \"format_version\": 2, \"crowdlab\": {\"version\": \"" + kVersion +
       "\", \"build_type\": \"Release\", \"platform\": \"desktop\"}, \"run\": {\"width\": 1, \"height\": 1, \"vsync\": false, "
       "\"quick\": false, \"frames\": 1, \"warmup_frames\": 1, \"passes\": 3, \"seconds\": 1}, \"machine\": {\"cpu\": \"x\", \"threads\": 1, "
       "\"gl_renderer\": \"x\", \"busy\": false}, \"cases\": [{\"name\": \"nope\"}]}",
       "unknown case 'nope'"},
  };
  for (const Bad& b : bad) {
    const std::string path = write(dir + "/" + b.file, b.content);
    const apptest::RunResult r = apptest::expectRefused("fps --compare '" + good + "' '" + path + "'", b.mention);
    EXPECT_EQ(lines(r.err).size(), 1u) << b.file << ":\n" << r.err;
    EXPECT_EQ(r.out, "") << b.file;
  }
  const apptest::RunResult missing = apptest::expectRefused("fps --compare '" + dir + "/missing.json'", "missing.json");
  EXPECT_EQ(lines(missing.err).size(), 1u) << missing.err;
  // The run's own flags: one line and the usage.
  apptest::expectRefused("fps --cases boids-7k", "unknown case 'boids-7k'");
  apptest::expectRefused("fps --size 100", "--size expects WIDTHxHEIGHT");
  apptest::expectRefused("fps --compare '" + good + "' --plot out.png", "FILE.svg");
  apptest::expectRefused("fps --frobnicate", "unknown option");
}

TEST(Fps, ListsItsCasesAndKeys) {
  const apptest::RunResult list = apptest::runCrowdlab("fps --list");
  ASSERT_EQ(list.exitCode, 0);
  for (const char* name : {"boids-5k", "boids-50k", "finale-10k-orca", "finale-100k", "murmuration-20k", "gpu-200k"})
    EXPECT_NE(list.out.find(name), std::string::npos) << name;
  const std::vector<std::string> keys = lines(apptest::runCrowdlab("fps --keys").out);
  for (const char* key : {"machine.cpu", "machine.busy", "cases[].fps_median", "cases[].fps_low_1pct", "cases[].sim_ms",
                          "cases[].render_ms", "cases[].draw_calls", "run.width", "line"})
    EXPECT_NE(std::find(keys.begin(), keys.end(), key), keys.end()) << key;
}
