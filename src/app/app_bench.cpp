#include "app/app_bench.hpp"

#include <SDL.h>

#include <cstdio>

namespace app {

std::string AppBenchmark::start(const std::string& scene) {
  ends_ = Clock::now() + std::chrono::seconds(int(kSeconds));
  return "benchmarking " + scene + " for 10 s...";
}

double AppBenchmark::secondsLeft() const {
  return ends_ ? std::chrono::duration<double>(*ends_ - Clock::now()).count() : 0.0;
}

bool AppBenchmark::due() const { return ends_ && Clock::now() >= *ends_; }

std::string AppBenchmark::finish(const BenchmarkFigures& figures) {
  ends_.reset();
  const std::string line = benchmarkLine(figures);
  std::printf("%s\n", line.c_str());
  std::fflush(stdout);
  SDL_SetClipboardText(line.c_str());
  return line + "\n(copied to the clipboard)";
}

}  // namespace app
