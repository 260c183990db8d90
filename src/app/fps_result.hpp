// `crowdlab fps`: the standard frame-rate run's cases, what one run found, and the forms it is
// handed around in: the JSON file with everything, and one short line to paste. The window loop
// measures (fps_run.hpp); the command compares (fps_cmd.hpp); this file only knows the figures.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>

namespace app {

// The result's own format, apart from the program's version: a reader refuses another.
inline constexpr int kFpsFormat = 2;

// One case of the standard run: a scene at a set size and settings, always from seed 1.
struct FpsCase {
  const char* name;   // stable: lines, JSON and the compare table key on it
  const char* scene;
  std::vector<std::string> sets;  // --set assignments, N included
  bool needsCompute = false;      // runs only where OpenGL 4.3 compute shaders are there
};
// The cases in their running order.
const std::vector<FpsCase>& fpsCases();
const FpsCase* findFpsCase(const std::string& name);

// How many frames a case warms up with and then measures, and the most seconds it may take (a slow
// machine measures fewer frames rather than run past the run's limit; the result says how many).
// The cases run in `passes` rounds, each case measured once a round from its seed: a virtual
// machine or a laptop slows down for some seconds now and then, and a case's fastest round is the
// figure a slow stretch cannot pull down (one round a case would put it in whichever case ran then).
struct FpsPlan {
  bool quick = false;
  int warmupFrames = 0;
  int frames = 0;          // measured frames of a case in one round
  double caseSeconds = 0;  // the most a case may take in one round
  int passes = 1;
};
FpsPlan fpsPlan(bool quick);

// What one case measured. Frame times are per frame: median FPS from the median frame, the 1 % low
// from the 99th percentile of frame times (the slowest 1 % of frames, as 3DMark counts it).
struct FpsCaseResult {
  std::string name, scene;
  size_t agents = 0;
  int frames = 0;             // measured frames of the round reported (fewer than planned when it hit its time limit)
  double fpsMedian = 0, fpsLow1 = 0;
  double frameMs = 0;         // median frame time
  double simMs = 0;           // median simulation step per frame (one step a frame)
  double renderMs = 0;        // median CPU time drawing a frame up to the swap
  int drawCalls = 0;          // GL draw calls of the last measured frame
  std::string skipped;        // why the case did not run ("" ran)
  std::vector<double> passFps;  // each round's median FPS in running order; the figures above are the fastest round's
};

// The machine as far as the OS, the browser and GL tell; "" or nullopt for what they do not.
struct FpsMachine {
  std::string cpu;            // model name string
  std::string cpuSignature;   // "family 25 model 1 stepping 1" where the OS gives that (x86 Linux)
  int cores = 0;              // physical cores (0 unknown)
  int threads = 0;            // hardware threads the program's loops run on
  double memoryGb = 0;        // 0 unknown
  std::string glRenderer, glVendor, glVersion;
  bool softwareRenderer = false;  // llvmpipe, softpipe, SwiftShader, Microsoft Basic Render...
  std::string os;
  std::string power;          // "ac", "battery" or "" unknown
  std::string governor;       // cpufreq governor, "" unknown
  std::optional<double> loadBefore, loadAfter;    // 1-minute load average
  std::optional<double> othersCpu;                // other processes' share of all CPUs during the run, 0..1
  std::optional<double> displayServerCpu;         // the X server's share (it presents our frames)
  bool busy = false;
  std::string busyWhy;        // what made it busy
};

struct FpsResult {
  int format = kFpsFormat;
  std::string version;        // crowdlab's
  std::string buildType;
  std::string platform;       // "desktop" or "browser"
  int width = 0, height = 0;  // drawable pixels
  bool vsync = false;
  std::string frameClock;     // "interval": start to start of frames; "work": each frame's own work (the page)
  FpsPlan plan;
  double seconds = 0;         // wall time of the whole run
  FpsMachine machine;
  std::vector<FpsCaseResult> cases;
  std::string source;         // where it was read from (compare only; not written)
};

// The program's version and build type, compiled in.
std::string crowdlabVersion();
std::string crowdlabBuildType();

// Figures of a case from its per-frame samples (ms).
void summariseCase(FpsCaseResult& out, const std::vector<double>& frameMs, const std::vector<double>& simMs,
                   const std::vector<double>& renderMs);

// Whether GL_RENDERER names a renderer that draws on the CPU.
bool isSoftwareRenderer(const std::string& glRenderer);

// Everything, as the JSON file holds it (its "line" included).
nlohmann::json fpsJson(const FpsResult& r);
// The line to paste: "crowdlab-fps 1 v0.1 1920x1080 boids-5k=61.2/48.0 ... | cpu=... gl=... busy=no".
std::string fpsLine(const FpsResult& r);
// The terminal table of one run.
std::string fpsTable(const FpsResult& r);
// Every key path of fpsJson, "machine.cpu", "cases[].fps_median": the desktop's and the page's JSON
// must both have exactly these.
std::vector<std::string> fpsJsonKeys(const nlohmann::json& doc);
std::vector<std::string> fpsJsonKeys();

// Reads a result back from its JSON or its line: false with one line saying why (not a result, another
// format, an unknown case, a malformed figure).
bool parseFpsJson(const nlohmann::json& doc, FpsResult& out, std::string& error);
bool parseFpsLine(const std::string& line, FpsResult& out, std::string& error);

}  // namespace app
