#include "app/fps_run.hpp"

#include <algorithm>
#include <utility>

namespace app {

FpsDriver::FpsDriver(FpsPlan plan, std::vector<const FpsCase*> cases)
    : plan_(plan), cases_(std::move(cases)), rounds_(cases_.size()), skipped_(cases_.size()) {
  plan_.passes = std::max(1, plan_.passes);
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
  while (!finished() && !open_ && !skipped_[caseIndex()].empty()) nextSlot();  // a case that could not run is not tried again
  if (finished() || open_) return nullptr;
  current_ = FpsCaseResult{};
  current_.name = cases_[caseIndex()]->name;
  current_.scene = cases_[caseIndex()]->scene;
  return cases_[caseIndex()];
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
  skipped_[caseIndex()] = why.empty() ? "could not run" : why;
  nextSlot();
}

void FpsDriver::frameDone(double frameWorkMs, double simMs, double renderMs, int drawCalls, size_t agents) {
  if (!open_) return;
  const Clock::time_point now = Clock::now();
  const double interval = haveLastFrame_ ? std::chrono::duration<double, std::milli>(now - lastFrame_).count() : frameWorkMs;
  lastFrame_ = now;
  haveLastFrame_ = true;
  const double caseSeconds = std::chrono::duration<double>(now - caseStart_).count();
  // Warm-up: in the first round the plan's frames and a quarter of the case's time, whichever is
  // longer (within a half of it): a software renderer compiles its shader variants over the first
  // frames, and a fast case's 15 frames last a fifth of a second. A later round finds the program
  // warm and skips only the reopened scene's first frames (its buffers' uploads).
  const bool firstRound = slot_ < cases_.size();
  const bool warming = firstRound ? (warmup_ < plan_.warmupFrames || caseSeconds < 0.25 * plan_.caseSeconds) && caseSeconds < 0.5 * plan_.caseSeconds
                                  : warmup_ < kLaterRoundWarmupFrames && caseSeconds < 0.25 * plan_.caseSeconds;
  if (warming) {
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
  rounds_[caseIndex()].push_back(current_);
  open_ = false;
  nextSlot();
}

void FpsDriver::nextSlot() {
  ++slot_;
  if (!finished()) return;
  // Each case's figures are its fastest round's, with every round's FPS beside them.
  result_.cases.clear();
  for (size_t i = 0; i < cases_.size(); ++i) {
    const std::vector<FpsCaseResult>& rounds = rounds_[i];
    const auto fastest = std::max_element(rounds.begin(), rounds.end(),
                                          [](const FpsCaseResult& a, const FpsCaseResult& b) { return a.fpsMedian < b.fpsMedian; });
    FpsCaseResult c = fastest == rounds.end() ? FpsCaseResult{} : *fastest;
    c.name = cases_[i]->name;
    c.scene = cases_[i]->scene;
    c.skipped = rounds.empty() ? skipped_[i] : "";
    for (const FpsCaseResult& r : rounds) c.passFps.push_back(r.fpsMedian);
    result_.cases.push_back(std::move(c));
  }
}

void FpsDriver::finish() {
  busy_.finish(result_.machine);
  result_.seconds = std::chrono::duration<double>(Clock::now() - runStart_).count();
}

}  // namespace app
