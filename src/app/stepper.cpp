#include "app/stepper.hpp"

#include <algorithm>

namespace app {

namespace {
constexpr double kRecentSeconds = 5.0;  // longer than any window the HUD asks for
}

double Stepper::timedStep() {
  const auto t0 = Clock::now();
  step_(kStepSeconds);
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

void Stepper::book(double ms) {
  lastStepMs_ = ms;
  ++steps_;
  simTime_ += kStepSeconds;
  const auto now = Clock::now();
  recent_.emplace_back(now, ms);
  const auto horizon = now - std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(kRecentSeconds));
  if (recent_.front().first < horizon)
    recent_.erase(recent_.begin(), std::find_if(recent_.begin(), recent_.end(), [&](const auto& r) { return r.first >= horizon; }));
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

void Stepper::restart() {
  waitIdle();
  accumulator_ = 0;
  lastStepMs_ = 0;
  simTime_ = 0;
  steps_ = 0;
  stepsDropped_ = 0;
  singleStep_ = false;
  recent_.clear();
}

double Stepper::inFlightSeconds() const {
  return pending_.valid() ? std::chrono::duration<double>(Clock::now() - asyncStart_).count() : 0.0;
}

std::vector<double> Stepper::recentStepMs(double seconds) const {
  const auto horizon = Clock::now() - std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  std::vector<double> out;
  for (const auto& [at, ms] : recent_)
    if (at >= horizon) out.push_back(ms);
  return out;
}

void Stepper::advance(double frameSeconds, bool lockstep) {
  if (pending_.valid()) {
    // A slow step runs on the worker; the window keeps drawing the last frame meanwhile.
    if (!idle()) return;
    stepsDropped_++;  // real time moved on while it ran
    accumulator_ = 0;
    return;
  }
  int budget = 4;
  if (lockstep) {
    budget = paused && !singleStep_ ? 0 : 1;
    accumulator_ = budget * kStepSeconds;
  } else if (paused) {
    accumulator_ = singleStep_ ? kStepSeconds : 0;
  } else {
    accumulator_ += std::min(frameSeconds, 0.25) * speed;
  }
  singleStep_ = false;
  const auto frameStart = Clock::now();
  int taken = 0;
  while (accumulator_ >= kStepSeconds - 1e-9 && taken < budget) {
    if (!lockstep && lastStepMs_ > asyncAfterMs_) {
      asyncStart_ = Clock::now();
      pending_ = std::async(std::launch::async, [this] { return timedStep(); });
      accumulator_ = 0;
      return;
    }
    book(timedStep());
    accumulator_ -= kStepSeconds;
    ++taken;
    if (std::chrono::duration<double>(Clock::now() - frameStart).count() > 0.030) break;  // keep the frame responsive
  }
  if (accumulator_ >= kStepSeconds) {
    // Behind real time: drop the backlog instead of spiralling.
    stepsDropped_ += int(accumulator_ / kStepSeconds);
    accumulator_ = 0;
  }
}

}  // namespace app
