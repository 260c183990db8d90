#include "experiments/claim_runs.hpp"

#include <cmath>

namespace experiments {

Job claimJob(const scenes::Claim& c, uint64_t seed) {
  Job job;
  job.scene = c.scene;
  job.preset = c.preset;
  job.sets.assign(c.sets.begin(), c.sets.end());
  job.start = c.start;
  job.seed = seed;
  job.from = c.from;
  job.to = c.from + c.window;
  job.metrics.push_back({c.rule.metric, c.rule.reduce, c.rule.level});
  for (const char* a : c.also) job.metrics.push_back({a, scenes::Reduce::Mean, 0.0});
  return job;
}

std::shared_future<double>& BaselineRuns::start(const scenes::Claim& base, uint64_t seed) {
  const Key key{base.id, seed};
  auto it = runs_.find(key);
  if (it != runs_.end()) return it->second;
  ++started_;
  const Job job = claimJob(base, seed);
  // Its own thread, one core (runJob): the live scene keeps the others.
  std::shared_future<double> run = std::async(std::launch::async, [job, stop = &stop_] {
                                     const Result r = runJob(job, stop);
                                     return r.ok && !r.values.empty() ? r.values[0] : std::nan("");
                                   }).share();
  return runs_.emplace(key, std::move(run)).first->second;
}

void BaselineRuns::request(const scenes::Claim& base, uint64_t seed) {
  const std::lock_guard<std::mutex> lock(mutex_);
  start(base, seed);
}

std::optional<double> BaselineRuns::value(const scenes::Claim& base, uint64_t seed) {
  std::shared_future<double> run;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    run = start(base, seed);
  }
  if (run.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return std::nullopt;
  return run.get();
}

double BaselineRuns::wait(const scenes::Claim& base, uint64_t seed) {
  std::shared_future<double> run;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    run = start(base, seed);
  }
  return run.get();
}

size_t BaselineRuns::runsStarted() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return started_;
}

BaselineRuns::~BaselineRuns() {
  stop_ = true;  // quitting never waits for a baseline's whole run
  const std::lock_guard<std::mutex> lock(mutex_);
  for (auto& [key, run] : runs_) run.wait();
}

BaselineRuns& baselineRuns() {
  static BaselineRuns runs;
  return runs;
}

}  // namespace experiments
