// The in-app benchmark's report: one line a user pastes into an issue or a slide, with the machine
// it ran on. Apart from the loop, so the loop only books the figures.
#pragma once
#include <cstddef>
#include <string>

namespace app {

// What "Benchmark this scene (10 s)" measured.
struct BenchmarkFigures {
  std::string scene;
  size_t agents = 0;
  double medianStepMs = 0.0;
  double fps = 0.0;
  size_t steps = 0;
  std::string gl;  // the renderer's GL_RENDERER / GL_VERSION line
  // Work that ran beside the scene on the other cores the whole run ("sweep", "tuning", both; ""
  // none): its figures are then not a quiet machine's, and the line says so.
  std::string background;
  // The window's drawable size and whether frames waited for the display (vsync): a 60 Hz display
  // with vsync on reads 60 FPS whatever the machine.
  int width = 0, height = 0;
  bool vsync = false;
};

// "crowdlab benchmark: scene=... N=... median_step_ms=... fps=... steps=... gl=\"...\" cpu=\"...\"
// window=WxH vsync=on|off", then " background=..." when work ran beside the scene.
std::string benchmarkLine(const BenchmarkFigures& figures);

// The CPU's model name from /proc/cpuinfo; "unknown" where there is none (not Linux, a container
// without it).
std::string cpuName();

}  // namespace app
