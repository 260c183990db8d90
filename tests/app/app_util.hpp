// Running the real crowdlab program from tests: exit code, stdout, stderr; and looking at PNGs it wrote.
#pragma once
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>
#include <unistd.h>
#include <stb/stb_image.h>
#include <nlohmann/json.hpp>

namespace apptest {

struct RunResult {
  int exitCode = -1;
  std::string out, err;
  nlohmann::json state;  // what --state-out wrote at exit (window runs: the helpers ask for it)
  std::string folder;    // a driven run's folder (runDriven), where its snapshots are
  // A driven run's snapshot NAME (`snap NAME` in its actions: the state, and the --screenshot of
  // that frame when the run asked for one, as `picture`); exit code 0 when it was taken, else -1.
  struct Snapshot;
  Snapshot at(const std::string& name) const;
  // A value of the run's state (its "probe", probe.hpp, else the state's own or its layout's) as text: a string as it is, a flag 1 or 0,
  // a whole number in digits, another number with two decimals, a place "x,y", an area "x,y,w,h", a
  // list of places or areas joined by ';', none "". Else a "name=value" line of stdout (a headless
  // run's, a test's own notes); "" when absent.
  std::string value(const std::string& name) const {
    // The probe first, then what the state holds once for everyone (scene, steps, agents, the layout).
    if (state.is_object())
      for (const char* part : {"probe", "", "layout"}) {
        const nlohmann::json& in = *part ? state.value(part, nlohmann::json()) : state;
        if (in.is_object() && in.contains(name)) return text(in[name]);
      }
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);)
      if (line.rfind(name + "=", 0) == 0) return line.substr(name.size() + 1);
    return {};
  }
  static std::string text(const nlohmann::json& v) {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_boolean()) return v.get<bool>() ? "1" : "0";
    if (v.is_number_integer() || v.is_number_unsigned()) return v.dump();
    if (v.is_number()) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.2f", v.get<double>());
      return buf;
    }
    std::string joined;
    if (v.is_array())
      for (const nlohmann::json& e : v) joined += (joined.empty() ? "" : e.is_array() ? ";" : ",") + text(e);
    return joined;
  }
};

struct RunResult::Snapshot : RunResult {
  std::string picture;  // the frame's screenshot, "" when the run took none
};

// The value of `flag` in a command line ("" none); it may be quoted with '.
inline std::string flagValueIn(const std::string& args, const std::string& flag) {
  const size_t at = args.find(flag + " ");
  if (at == std::string::npos) return "";
  const size_t from = at + flag.size() + 1;
  if (from < args.size() && args[from] == '\'') return args.substr(from + 1, args.find('\'', from + 1) - from - 1);
  return args.substr(from, args.find(' ', from) == std::string::npos ? std::string::npos : args.find(' ', from) - from);
}
// The file named by --state-out in a command line ("" none).
inline std::string stateOutIn(const std::string& args) { return flagValueIn(args, "--state-out"); }

// Reads a --state-out file into r.state (left empty when the run wrote none or a broken one).
inline void readState(RunResult& r, const std::string& path) {
  if (!std::filesystem::is_regular_file(path)) return;  // a test's FIFO or /dev/stdout: its own to read
  std::ifstream in(path);
  if (in) r.state = nlohmann::json::parse(in, nullptr, false);
  if (r.state.is_discarded()) r.state = nlohmann::json();
}

inline std::string outDir() {
  std::filesystem::create_directories(CROWDLAB_TEST_OUT);
  return CROWDLAB_TEST_OUT;
}

// An empty folder under the test output, e.g. a config dir: each test starts from nothing.
inline std::string freshDir(const std::string& name) {
  std::string dir = outDir() + "/" + name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs `crowdlab ARGS` through the shell; `env` is prepended (e.g. "SDL_VIDEODRIVER=none").
// Window runs need a display: the test command runs ctest under xvfb-run.
// Unless `env` names CROWDLAB_CONFIG_DIR, runs use a private settings folder, never the user's.
inline RunResult runCrowdlab(const std::string& args, const std::string& env = "") {
  static int counter = 0;
  std::string base = outDir() + "/run" + std::to_string(::getpid()) + "_" + std::to_string(counter++);
  std::string fullEnv = env.find("CROWDLAB_CONFIG_DIR=") == std::string::npos
                            ? "CROWDLAB_CONFIG_DIR='" + outDir() + "/config-" + std::to_string(::getpid()) + "' " + env
                            : env;
  // A window run (no command word, no --headless) reports its probe in a state file of its own.
  const bool window = args.rfind("--", 0) == 0 && args.find("--headless") == std::string::npos &&
                      args.find("--list-") == std::string::npos;
  const std::string given = stateOutIn(args), statePath = given.empty() ? base + ".state.json" : given;
  const std::string state = window && given.empty() ? " --state-out '" + statePath + "'" : "";
  std::string cmd = fullEnv + " '" CROWDLAB_EXE "' " + args + state + " >'" + base + ".out' 2>'" + base + ".err' </dev/null";
  int status = std::system(cmd.c_str());
  RunResult r;
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(base + ".out");
  r.err = slurp(base + ".err");
  if (window) readState(r, statePath);
  return r;
}

// The scenes the program registers, in teaching order (`--list-scenes`): a test of every scene loops
// over these, so a new scene is covered the day it lands and none is left out by a hand-written list.
inline std::vector<std::string> sceneNames() {
  std::vector<std::string> names;
  std::istringstream in(runCrowdlab("--list-scenes").out);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) names.push_back(line);
  return names;
}

// The shell command that runs `script` with bash on a virtual display of its own (-a: a free display
// number). -noreset: Xvfb resets whenever its last client leaves, and a window opening during the
// reset finds no display.
inline std::string onOwnDisplay(const std::string& script, const std::string& screen = "1280x720") {
  return "xvfb-run -a -s '-noreset -screen 0 " + screen + "x24' bash '" + script + "'";
}

// `crowdlab ARGS` refused with exit 2 and a message that mentions `mention`; the run, for more checks.
inline RunResult expectRefused(const std::string& args, const std::string& mention) {
  RunResult r = runCrowdlab(args);
  EXPECT_EQ(r.exitCode, 2) << args << "\n" << r.err;
  EXPECT_NE(r.err.find(mention), std::string::npos) << args << " should mention '" << mention << "':\n" << r.err;
  return r;
}

struct ImageStats {
  bool loaded = false;
  int width = 0, height = 0;
  size_t distinctColors = 0;   // quantised to 5 bits per channel
  double dominantFraction = 0; // share of pixels in the most common quantised colour
};

inline ImageStats pngStats(const std::string& path) {
  ImageStats s;
  int n = 0;
  unsigned char* px = stbi_load(path.c_str(), &s.width, &s.height, &n, 4);
  if (!px) return s;
  s.loaded = true;
  std::vector<uint32_t> counts(1u << 15, 0);
  const size_t total = size_t(s.width) * size_t(s.height);
  for (size_t i = 0; i < total; ++i) {
    const unsigned char* p = px + i * 4;
    counts[(uint32_t(p[0] >> 3) << 10) | (uint32_t(p[1] >> 3) << 5) | uint32_t(p[2] >> 3)]++;
  }
  uint32_t best = 0;
  for (uint32_t c : counts) {
    s.distinctColors += c > 0;
    best = std::max(best, c);
  }
  s.dominantFraction = total ? double(best) / double(total) : 1.0;
  stbi_image_free(px);
  return s;
}

// A PNG's pixels, for looking at parts of a picture.
struct Pixels {
  int width = 0, height = 0;
  std::vector<unsigned char> rgba;
  const unsigned char* at(int x, int y) const { return rgba.data() + (size_t(y) * size_t(width) + size_t(x)) * 4; }
};

inline Pixels loadPixels(const std::string& path) {
  Pixels p;
  int n = 0;
  unsigned char* data = stbi_load(path.c_str(), &p.width, &p.height, &n, 4);
  if (data) {
    p.rgba.assign(data, data + size_t(p.width) * size_t(p.height) * 4);
    stbi_image_free(data);
  }
  return p;
}

// What a scene put on top of its background in the rectangle [x0, x1) x [y0, y1): each row's most
// common colour is the background there (a flat clear colour, or one band of a vertical sky
// gradient), and a pixel that differs from it by more than `threshold` (sum over RGB) is foreground.
struct Foreground {
  size_t pixels = 0;        // foreground pixels
  size_t colors = 0;        // distinct foreground colours, quantised to 4 bits per channel
  double share = 0;         // pixels / area
};

inline uint32_t quantised4(const unsigned char* c) { return (uint32_t(c[0] >> 4) << 8) | (uint32_t(c[1] >> 4) << 4) | uint32_t(c[2] >> 4); }

// Row y's background in [x0, x1): the mean of the pixels in its most common quantised colour.
inline std::array<int, 3> rowBackground(const Pixels& p, int y, int x0, int x1) {
  std::vector<uint32_t> counts(1u << 12, 0u);
  for (int x = x0; x < x1; ++x) counts[quantised4(p.at(x, y))]++;
  const uint32_t mode = uint32_t(std::max_element(counts.begin(), counts.end()) - counts.begin());
  int sum[3] = {0, 0, 0}, n = 0;
  for (int x = x0; x < x1; ++x)
    if (quantised4(p.at(x, y)) == mode) {
      for (int c = 0; c < 3; ++c) sum[c] += p.at(x, y)[c];
      ++n;
    }
  return {sum[0] / n, sum[1] / n, sum[2] / n};
}

// Foreground: a pixel differing from its row's background by more than `threshold` (sum over RGB).
inline bool isForeground(const unsigned char* c, const std::array<int, 3>& bg, int threshold = 60) {
  return std::abs(c[0] - bg[0]) + std::abs(c[1] - bg[1]) + std::abs(c[2] - bg[2]) > threshold;
}

// WCAG 2 contrast ratio of two sRGB colours, 1 to 21.
inline double contrastRatio(const unsigned char* a, const std::array<int, 3>& b) {
  auto channel = [](double v) { v /= 255.0; return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
  auto luminance = [&](double r, double g, double bl) { return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(bl); };
  const double la = luminance(a[0], a[1], a[2]), lb = luminance(b[0], b[1], b[2]);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

inline Foreground foreground(const Pixels& p, int x0, int y0, int x1, int y1, int threshold = 60) {
  Foreground f;
  std::set<uint32_t> colors;
  for (int y = y0; y < y1; ++y) {
    const std::array<int, 3> bg = rowBackground(p, y, x0, x1);
    for (int x = x0; x < x1; ++x) {
      const unsigned char* c = p.at(x, y);
      if (isForeground(c, bg, threshold)) {
        ++f.pixels;
        colors.insert(quantised4(c));
      }
    }
  }
  f.colors = colors.size();
  f.share = double(f.pixels) / (double(x1 - x0) * double(y1 - y0));
  return f;
}

// The instance counts of every instanced draw in the last complete frame, read from an apitrace
// trace of `crowdlab ARGS`: an independent check of the renderer's own draw-call counter.
// `available` is false when apitrace is not installed. `run`, where given, gets the traced run's
// exit code and its --state-out, so one run serves the trace's checks and the state's.
inline std::vector<long long> instancedDrawsInLastFrame(const std::string& args, const std::string& name, bool& available,
                                                        RunResult* run = nullptr) {
  std::vector<long long> last, current;
  available = std::system("command -v apitrace >/dev/null 2>&1") == 0;
  if (!available) return last;
  std::string trace = outDir() + "/" + name + ".trace", dump = outDir() + "/" + name + ".txt";
  std::remove(trace.c_str());
  const std::string state = outDir() + "/" + name + ".state.json";
  std::remove(state.c_str());
  std::string cmd = "CROWDLAB_CONFIG_DIR='" + outDir() + "/config-trace' apitrace trace -o '" + trace + "' '" CROWDLAB_EXE "' " +
                    args + (run ? " --state-out '" + state + "'" : "") + " >/dev/null 2>&1 </dev/null";
  const int status = std::system(cmd.c_str());
  if (run) {
    run->exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    readState(*run, state);
  }
  if (status != 0) return last;
  cmd = "apitrace dump --color=never '" + trace + "' 2>/dev/null | grep -E 'glDraw|SwapBuffers' > '" + dump + "'";
  if (std::system(cmd.c_str()) != 0) return last;
  std::istringstream in(slurp(dump));
  for (std::string line; std::getline(in, line);) {
    if (line.find("SwapBuffers") != std::string::npos) {
      last.swap(current);
      current.clear();
    } else if (size_t at = line.find("instancecount = "); at != std::string::npos) {
      current.push_back(std::atoll(line.c_str() + at + 16));
    }
  }
  std::remove(trace.c_str());
  return last;
}

// crowdlab ARGS on an X display of its own (`screen`, e.g. "1280x720") while `actions` (xdotool
// commands; $id is the window, `press KEY` holds a key over a few frames) play, then SIGTERM (a clean
// quit). Real X input: the wheel scrolls, clicks and typing reach ImGui as a person's. Settings
// (UI scale `scale`) in a fresh folder of the test's own.
// `windowManager`: openbox manages the display first, as a desktop's would. F11 needs one: SDL asks
// the window manager for full screen, and on a bare Xvfb no one answers, so the window stayed
// 1280 x 720 on the display while SDL reported 1920 x 1080 (the picture was its lower left part).
// `xsize` says the window's size on the display, as X has it; `note k=v` adds a line to the result's
// output (read with value()); `click X Y` clicks there as a hand does (a press held over frames);
// `snap NAME` keeps the state now, and the picture of that frame where the run has --screenshot, as
// snapshot NAME (RunResult::at); `point NAME KEY` says "x y" of a place in snapshot NAME, for `click
// $(point NAME KEY)`: one run finds a widget and clicks it; `probed NAME KEY` prints what the probe
// holds under KEY (JSON: `true`, `3`); `snapUntil NAME KEY` snaps until there is such a place (a panel
// drawn late).
// `waitTitle REGEX SECONDS` waits until the window's title matches (a window list's view of it: the
// sweep's or the search's progress), at most SECONDS, and notes it as title=.
inline RunResult runDriven(const std::string& name, const std::string& args, const std::string& actions,
                           const std::string& screen = "1280x720", const std::string& scale = "1.0",
                           bool windowManager = false) {
  const std::string dir = freshDir("driven-" + name), out = dir + "/run.out", notes = dir + "/notes.out";
  std::ofstream(dir + "/settings.json") << "{\"uiScale\": " << scale << "}";
  std::ofstream drive(dir + "/drive.sh");
  if (windowManager)  // --startup runs once openbox manages the screen
    drive << "openbox --startup \"touch '" << dir << "/wm.ready'\" >'" << dir << "/wm.log' 2>&1 &\nwm=$!\n"
          << "for i in $(seq 100); do [ -e '" << dir << "/wm.ready' ] && break; sleep 0.1; done\n"
          << "[ -e '" << dir << "/wm.ready' ] || exit 4\n";
  const bool ownState = args.find("--state-out") == std::string::npos;
  const std::string state = ownState ? dir + "/state.json" : stateOutIn(args);
  const std::string shot = flagValueIn(args, "--screenshot");
  drive << "CROWDLAB_CONFIG_DIR='" << dir << "' '" CROWDLAB_EXE "' " << args
        << (ownState ? " --state-out '" + state + "'" : std::string()) << " >'" << out << "' 2>&1 &\n"
        << "pid=$!\n"
        << "id=$(timeout 20 xdotool search --sync --onlyvisible --pid $pid | head -1) || exit 3\n"
        << "sleep 1\n"
        // Once more after that second: on a loaded machine the first id found was gone by then
        // (BadWindow), and the window the program draws into is the one visible now.
        << "live=$(xdotool search --onlyvisible --pid $pid | tail -1); [ -n \"$live\" ] && id=$live\n"
        // A key held over a few frames: ImGui 1.86 loses a press and release in one frame.
        << "press() { xdotool keydown \"$1\"; sleep 0.15; xdotool keyup \"$1\"; sleep 0.1; }\n"
        << "xsize() { xdotool getwindowgeometry --shell $id | awk -F= '/^WIDTH/ { w = $2 } /^HEIGHT/ { h = $2 } END { print w \"x\" h }'; }\n"
        << "note() { echo \"$1\" >>'" << notes << "'; }\n"
        // snap NAME: the state now (SIGUSR1), and the picture of that frame, kept as NAME.json, NAME.png.
        << "snap() { rm -f '" << state << "'; kill -USR1 $pid; for i in $(seq 50); do [ -s '" << state << "' ] && break; sleep 0.1; done;"
           " cp '" << state << "' '" << dir << "/'\"$1\".json; " << (shot.empty() ? std::string() : "cp '" + shot + "' '" + dir + "/'\"$1\".png; ")
        << "}\n"
        // point NAME KEY: the place "x y" that snapshot NAME's probe (or layout) holds under KEY (of a
        // list of places, the last), to click; "-1 -1" when it holds none.
        << "point() { python3 -c 'import json, sys; s = json.load(open(sys.argv[1])); v = s.get(\"probe\", {}).get(sys.argv[2])"
           " or s.get(\"layout\", {}).get(sys.argv[2]) or [-1, -1]; v = v[-1] if isinstance(v[0], list) else v;"
           " print(round(v[0]), round(v[1]))' '" << dir << "/'\"$1\".json \"$2\"; }\n"
        // probed NAME KEY: what snapshot NAME's probe holds under KEY, as JSON ("" when nothing).
        << "probed() { python3 -c 'import json, sys; v = json.load(open(sys.argv[1])).get(\"probe\", {}).get(sys.argv[2]);"
           " print(\"\" if v is None else json.dumps(v))' '" << dir << "/'\"$1\".json \"$2\"; }\n"
        // snapUntil NAME KEY: snap NAME again until it holds a place under KEY (a panel drawn late on a
        // busy machine), at most 20 times.
        << "snapUntil() { for i in $(seq 20); do snap \"$1\"; [ \"$(point \"$1\" \"$2\")\" != '-1 -1' ] && break; sleep 0.3; done; }\n"
        << "click() { xdotool mousemove --window $id $1 $2; sleep 0.25; xdotool mousedown 1; sleep 0.12; xdotool mouseup 1;"
           " sleep 0.25; }\n"
        << "waitTitle() { for i in $(seq $(( $2 * 10 ))); do xdotool getwindowname $id | grep -Eq \"$1\" && break; sleep 0.1;"
           " done; note \"title=$(xdotool getwindowname $id)\"; }\n"
        << actions << "\nsleep 0.5\nkill -TERM $pid\nwait $pid\n";  // SDL turns SIGTERM into a quit event
  if (windowManager) drive << "kill $wm 2>/dev/null\n";
  drive.close();
  const std::string cmd = onOwnDisplay(dir + "/drive.sh", screen);
  RunResult r;
  r.exitCode = std::system(cmd.c_str());
  r.out = slurp(out);
  if (!r.out.empty() && r.out.back() != '\n') r.out += '\n';
  r.out += slurp(notes);
  readState(r, state);
  r.folder = dir;
  return r;
}

inline RunResult::Snapshot RunResult::at(const std::string& name) const {
  Snapshot s;
  readState(s, folder + "/" + name + ".json");
  s.exitCode = s.state.is_object() ? 0 : -1;
  if (std::filesystem::is_regular_file(folder + "/" + name + ".png")) s.picture = folder + "/" + name + ".png";
  return s;
}

inline bool haveXdotool() { return std::system("command -v xdotool >/dev/null 2>&1") == 0; }
inline bool haveOpenbox() { return std::system("command -v openbox >/dev/null 2>&1") == 0; }

}  // namespace apptest
