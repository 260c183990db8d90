#include "app/stepper.hpp"

#include <algorithm>
#include <cmath>

namespace app {

void RecentSamples::push(double value, Clock::time_point at) {
  samples_.emplace_back(at, value);
  const auto horizon = at - std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(keep_));
  if (samples_.front().first < horizon)
    samples_.erase(samples_.begin(), std::find_if(samples_.begin(), samples_.end(), [&](const auto& s) { return s.first >= horizon; }));
}

std::vector<double> RecentSamples::last(double seconds) const {
  const auto horizon = Clock::now() - std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  std::vector<double> out;
  for (const auto& [at, value] : samples_)
    if (at >= horizon) out.push_back(value);
  return out;
}

double Stepper::realTimeShare(double seconds) const {
  const double window = std::min(seconds, std::chrono::duration<double>(Clock::now() - restartedAt_).count());
  if (window < 0.5) return 1.0;  // too early to say
  const double simulated = double(recentStepMs(window).size()) * kStepSeconds;
  return simulated / (window * double(speed) * double(std::max(fastForward, 1)));
}

double Stepper::timedStep(const std::function<void(float)>& step) {
  const auto t0 = Clock::now();
  step(kStepSeconds);
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

void Stepper::book(double ms) {
  lastStepMs_ = ms;
  ++steps_;
  simTime_ += kStepSeconds;
  recent_.push(ms);
  if (onStepped) onStepped();
}

bool Stepper::idle() {
  if (!pending_.valid()) return true;
  if (pending_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return false;
  book(pending_.get());
  return true;
}

void Stepper::waitIdle() {
  if (pending_.valid()) book(pending_.get());
}

bool Stepper::abandon(std::shared_ptr<void> keepAlive) {
  // Not booked even when it has just ended: the caller may have handed over what it runs on already.
  if (!pending_.valid()) return false;
  // Kept, not dropped: the last future of std::async waits for its step when destroyed.
  abandoned_.push_back({std::move(pending_), std::move(keepAlive)});
  return true;
}

bool Stepper::abandonedRunning() {
  std::erase_if(abandoned_, [](Abandoned& a) { return a.step.wait_for(std::chrono::seconds(0)) == std::future_status::ready; });
  return !abandoned_.empty();
}

void Stepper::restart() {
  waitIdle();
  costUnknown_ = true;
  accumulator_ = 0;
  lastStepMs_ = 0;
  simTime_ = 0;
  steps_ = 0;
  stepsDropped_ = 0;
  singleStep_ = false;
  recent_.clear();
  restartedAt_ = Clock::now();
}

double Stepper::inFlightSeconds() const {
  return pending_.valid() ? std::chrono::duration<double>(Clock::now() - asyncStart_).count() : 0.0;
}

void Stepper::advance(double frameSeconds, bool lockstep) {
  if (!abandoned_.empty()) abandonedRunning();  // frees what finished abandoned steps ran on
  if (pending_.valid()) {
    // A slow step runs on the worker; the window keeps drawing the last frame meanwhile.
    if (!idle()) return;
    stepsDropped_++;  // real time moved on while it ran
    accumulator_ = 0;
    return;
  }
  const int rate = std::max(fastForward, 1);
  int budget = 4 * rate;
  if (lockstep) {
    budget = paused && !singleStep_ ? 0 : singleStep_ ? 1 : rate;
    accumulator_ = budget * kStepSeconds;
  } else if (paused) {
    accumulator_ = singleStep_ ? kStepSeconds : 0;
  } else {
    accumulator_ += std::min(frameSeconds, 0.25) * speed * rate;
  }
  singleStep_ = false;
  const auto frameStart = Clock::now();
  int taken = 0;
  while (accumulator_ >= kStepSeconds - 1e-9 && taken < budget) {
    // An infinite asyncAfterMs_ means no background steps at all (the browser has no threads), not
    // even for a step of unknown cost.
    if (!lockstep && ((costUnknown_ && std::isfinite(asyncAfterMs_)) || lastStepMs_ > asyncAfterMs_)) {
      costUnknown_ = false;
      asyncStart_ = Clock::now();
      // The worker gets its own copy of the step: setStep() after an abandon never reaches it.
      pending_ = std::async(std::launch::async, [step = step_] { return timedStep(step); });
      accumulator_ = 0;
      return;
    }
    book(timedStep(step_));
    accumulator_ -= kStepSeconds;
    ++taken;
    if (std::max(fastForward, 1) < rate) {  // lowered by the step (a claim's verdict came in): the frame ends there
      accumulator_ = 0;
      break;
    }
    // Keep the frame responsive; a lockstep frame takes all its steps (reproducible frames).
    if (!lockstep && std::chrono::duration<double>(Clock::now() - frameStart).count() > 0.030) break;
  }
  if (accumulator_ >= kStepSeconds) {
    // Behind real time: drop the backlog instead of spiralling.
    stepsDropped_ += int(accumulator_ / kStepSeconds);
    accumulator_ = 0;
  }
}

}  // namespace app
