// Claims as the experiment runner's jobs, and the baselines of ratio claims for the window.
//
// `crowdlab claims` runs every claim through claimJob; the window takes a ratio claim's baseline from
// the same job run headless (so the same number), once per claim and seed in this build, on a worker
// thread while the window draws the claim itself: never a second window run first.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include "experiments/runner.hpp"
#include "scenes/claims.hpp"

namespace experiments {

// The claim on one seed: its set-up, its window, its rule's metric first, then its `also` metrics.
Job claimJob(const scenes::Claim& claim, uint64_t seed);

class BaselineRuns {
 public:
  // Whether the window takes this baseline from a headless run: not one measured from frames drawn
  // (needsWindow), nor where there are no worker threads (the browser's one-thread page): those run
  // in the window first.
  static bool headless(const scenes::Claim& base) {
#if CROWDLAB_SERIAL
    (void)base;
    return false;
#else
    return !base.needsWindow;
#endif
  }
  // Starts the baseline's headless run on a worker thread unless it ran or runs already (in this
  // program) for this seed; does not wait.
  void request(const scenes::Claim& base, uint64_t seed);
  // Its window value once the run has finished (starting it when it was not asked for yet); nullopt
  // while it runs; NaN when it could not run.
  std::optional<double> value(const scenes::Claim& base, uint64_t seed);
  // Blocks until the baseline is measured (tests, and scripts with nothing to draw).
  double wait(const scenes::Claim& base, uint64_t seed);
  // How many baseline runs were started in all (each claim and seed once).
  size_t runsStarted() const;

  ~BaselineRuns();  // stops runs in flight within a step and waits for them

 private:
  using Key = std::pair<std::string, uint64_t>;
  std::shared_future<double>& start(const scenes::Claim& base, uint64_t seed);  // under mutex_
  mutable std::mutex mutex_;
  std::atomic<bool> stop_{false};
  std::map<Key, std::shared_future<double>> runs_;
  size_t started_ = 0;
};

// The program's one cache of baselines (the window's experiment buttons and `--claim ID`).
BaselineRuns& baselineRuns();

}  // namespace experiments
