#include "app/scene_benchmark.hpp"

#include <SDL.h>

#include <cstdio>

namespace app {

namespace {
// One line on stdout for every run's end, with or without figures (scripts read it).
void report(const std::string& line) {
  std::printf("%s\n", line.c_str());
  std::fflush(stdout);
}
// A run's end without figures, and why: reported, and the HUD's message.
std::string withoutFigures(const std::string& scene, const std::string& why) {
  const std::string line = "crowdlab benchmark: scene=" + scene + " " + why + ": no figures";
  report(line);
  return line;
}
}  // namespace

std::string AppBenchmark::start(const BenchmarkWatch& now) {
  ends_ = Clock::now() + std::chrono::seconds(int(kSeconds));
  started_ = now;
  return "benchmarking " + now.scene + " for 10 s, the cursor scripted (a pause, a restart or a changed parameter stops it)...";
}

double AppBenchmark::secondsLeft() const {
  return ends_ ? std::chrono::duration<double>(*ends_ - Clock::now()).count() : 0.0;
}

std::optional<std::string> AppBenchmark::stopIfChanged(const BenchmarkWatch& now) {
  if (!ends_ || now == started_) return std::nullopt;
  const char* why = now.scene != started_.scene         ? "another scene was opened"
                    : now.sceneRun != started_.sceneRun ? "the scene restarted"
                    : now.paramWrites != started_.paramWrites ? "a parameter changed"
                    : now.paused != started_.paused           ? "the simulation was paused"
                                                              : "a sweep or search began or ended beside it";
  ends_.reset();
  return withoutFigures(started_.scene, std::string("stopped, ") + why);
}

bool AppBenchmark::due() const { return ends_ && Clock::now() >= *ends_; }

std::string AppBenchmark::finish(const BenchmarkFigures& figures) {
  ends_.reset();
  if (figures.steps == 0) return withoutFigures(figures.scene, "no step ended in the 10 s (each takes longer)");
  const std::string line = benchmarkLine(figures);
  report(line);
  SDL_SetClipboardText(line.c_str());
  return line + "\n(copied to the clipboard)" +
         (figures.vsync ? "\nvsync is on: the FPS stops at the display's rate; turn it off to compare machines (or run crowdlab fps)" : "");
}

}  // namespace app
