// `crowdlab fps`: the standard frame-rate run (a window, vsync off, fixed size, fixed cases) and
// `crowdlab fps --compare A.json B.txt ...`, a side-by-side table of runs with ratios to the first
// and an SVG of bars. See docs/fps.md.
#pragma once
#include <string>
#include <vector>

#include "app/fps_result.hpp"

namespace app {

// The command, after "fps". Exit 0, 1 (a file could not be written, the window failed) or 2 (a bad
// flag or a bad result to compare, with one line).
int runFps(const std::vector<std::string>& args);

// The compare table of `runs`, ratios to the first.
std::string fpsCompareTable(const std::vector<FpsResult>& runs);
// The same as bars: one group per case, one colour per run, each bar its FPS relative to the first run's.
std::string fpsCompareSvg(const std::vector<FpsResult>& runs);

}  // namespace app
