#include "app/fps_run.hpp"

#include <utility>

namespace app {

FpsDriver::FpsDriver(FpsPlan plan, std::vector<const FpsCase*> cases) : plan_(plan), cases_(std::move(cases)) {
  result_.plan = plan_;
  result_.version = crowdlabVersion();
  result_.buildType = crowdlabBuildType();
}

const FpsCase* FpsDriver::caseToOpen() {
  if (!started_) {
    started_ = true;
    runStart_ = Clock::now();
    busy_.start();
  }
  if (finished() || open_) return nullptr;
  current_ = FpsCaseResult{};
  current_.name = cases_[index_]->name;
  current_.scene = cases_[index_]->scene;
  return cases_[index_];
}

void FpsDriver::opened(size_t agents) {
  open_ = true;
  current_.agents = agents;
  warmup_ = 0;
  haveLastFrame_ = false;
  frameMs_.clear();
  simMs_.clear();
  renderMs_.clear();
  caseStart_ = Clock::now();
}

void FpsDriver::skip(const std::string& why) {
  current_.skipped = why;
  result_.cases.push_back(current_);
  ++index_;
}

void FpsDriver::frameDone(double frameWorkMs, double simMs, double renderMs, int drawCalls, size_t agents) {
  if (!open_) return;
  const Clock::time_point now = Clock::now();
  const double interval = haveLastFrame_ ? std::chrono::duration<double, std::milli>(now - lastFrame_).count() : frameWorkMs;
  lastFrame_ = now;
  haveLastFrame_ = true;
  const double caseSeconds = std::chrono::duration<double>(now - caseStart_).count();
  // Warm-up: the plan's frames and an eighth of the case's time, whichever is longer (within a
  // quarter of it): a software renderer compiles its shader variants over the first frames, and a
  // fast case's 15 frames last a fifth of a second, so its median then depended on the run.
  if ((warmup_ < plan_.warmupFrames || caseSeconds < 0.125 * plan_.caseSeconds) && caseSeconds < 0.25 * plan_.caseSeconds) {
    ++warmup_;
    return;
  }
  frameMs_.push_back(useWorkTime_ ? frameWorkMs : interval);
  simMs_.push_back(simMs);
  renderMs_.push_back(renderMs);
  current_.drawCalls = drawCalls;
  current_.agents = agents;
  if (int(frameMs_.size()) >= plan_.frames || caseSeconds >= plan_.caseSeconds) endCase();
}

void FpsDriver::endCase() {
  summariseCase(current_, frameMs_, simMs_, renderMs_);
  result_.cases.push_back(current_);
  open_ = false;
  ++index_;
}

void FpsDriver::finish() {
  busy_.finish(result_.machine);
  result_.seconds = std::chrono::duration<double>(Clock::now() - runStart_).count();
}

}  // namespace app
