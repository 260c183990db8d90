#include "app/stop_signals.hpp"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>

namespace app {

namespace {
std::atomic<bool> gStop{false};
std::atomic<int> gSignal{0};
std::atomic<int64_t> gFirstAtNs{0};  // when the first signal came; 0: none yet
constexpr int64_t kSameRequestNs = 500'000'000;

int64_t nowNs() {  // steady_clock is clock_gettime(CLOCK_MONOTONIC) on Linux: safe in a handler
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

extern "C" void onStopSignal(int sig) {
  const int64_t now = std::max<int64_t>(nowNs(), 1);
  int64_t first = 0;
  if (gFirstAtNs.compare_exchange_strong(first, now)) {
    gSignal.store(sig);
    gStop.store(true);
    return;
  }
  if (now - first < kSameRequestNs) return;  // the same request, delivered again
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}
}  // namespace

StopSignals::StopSignals(std::initializer_list<int> signals) {
  gStop.store(false);
  gSignal.store(0);
  gFirstAtNs.store(0);
  for (int sig : signals) {
    if (count_ == 4) break;
    signals_[count_] = sig;
    previous_[count_++] = std::signal(sig, onStopSignal);
  }
}

StopSignals::~StopSignals() {
  // After a request the program is on its way out: the handler stays, so that a copy of the request
  // arriving during the exit does not end it before its files are closed.
  if (gStop.load()) return;
  for (int k = 0; k < count_; ++k) std::signal(signals_[k], previous_[k]);
}

const std::atomic<bool>& StopSignals::stopRequested() { return gStop; }
int StopSignals::received() { return gSignal.load(); }
void StopSignals::requestStop() { gStop.store(true); }

}  // namespace app
