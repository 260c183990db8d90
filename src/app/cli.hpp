// The command line, as documented in docs/cli.md and `crowdlab --help`.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace app {

class FpsDriver;

struct Options {
  std::string scene;             // empty: the last scene used (settings), else the first of the teaching order
  uint64_t seed = 1;
  std::vector<std::string> sets; // "name=value"
  std::string preset;
  int frames = 0;                // 0: run until closed
  std::string screenshot;
  int width = 1280, height = 720;
  bool sizeGiven = false;
  std::optional<bool> vsync;
  // --max-fps N (or CROWDLAB_MAX_FPS): frames a second at most while the window runs on its own
  // clock (a laptop on battery; a shared machine, such as the window tests'); 0: as many as it can.
  // Runs of a set number of frames (--frames, a recording, a claim's picture) are never held back.
  int maxFps = 0;
  bool fullscreen = false;
  bool headless = false;
  int steps = 0;
  std::string metricsCsv;
  bool listParams = false;
  bool listScenes = false;  // --list-scenes: print the registry's names (tests/web/page_check.py reads them)
  bool help = false;
  int recordFrames = 0;          // --record N: save N frames as a PNG sequence
  std::string recordDir;
  std::vector<std::string> keys; // --keys LIST: key presses fed one a frame at start (scripted slides, tests)
  std::string claim;             // --claim ID: open straight into that experiment (its scene, preset and start)
  std::string lesson;            // --lesson NAME: the lecture as data (lesson.hpp); it picks the scenes
  std::string tune;              // --tune OBJECTIVE: the Tune section opens with this objective chosen
  std::string stateOut;          // --state-out FILE: at exit, the state JSON the web page's crowdlab.state() gives
  bool hidden = false;           // --hidden: the window is never shown (scripted measurements: `crowdlab claims` runs window claims so)
  std::shared_ptr<FpsDriver> fps;  // `crowdlab fps`: the window runs the standard frame-rate cases (fps_run.hpp)
};

// Parses argv (after the program name). On a bad flag or value returns false with a one-line message.
bool parseOptions(const std::vector<std::string>& args, Options& out, std::string& error);
// The usage text; the scene list comes from the registry.
std::string usage();

}  // namespace app
