#include "experiments/runner.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include "io/user_files.hpp"
#include "scenes/driver.hpp"
#include "sim/core/parallel.hpp"
#if !CROWDLAB_SERIAL
#include <tbb/task_arena.h>
#include <tbb/task_group.h>
#endif

namespace experiments {

namespace {

// The job's scene prepared (driver.hpp), with every metric checked against what it gives.
bool prepare(const Job& job, scenes::SceneDriver& driver, std::string& error) {
  if (!(job.from >= 0.0) || !(job.to > 0.0) || !(job.from <= job.to) || job.to > 1e6) {
    char buf[120];
    std::snprintf(buf, sizeof buf, "the window %g:%g s is not a span of simulated time from 0 to 1e6 s", job.from,
                  job.to);
    error = buf;
    return false;
  }
  if (!driver.prepare(job.setup(), job.seed, error)) return false;
  const std::span<const sim::Metric> given = driver.metrics();
  for (const MetricSpec& m : job.metrics) {
    bool found = false;
    for (const sim::Metric& g : given) found = found || m.name == g.name;
    if (!found) {
      std::string names;
      for (const sim::Metric& g : given) names += (names.empty() ? "" : ", ") + std::string(g.name);
      error = "scene " + job.scene + " has no metric " + io::quoteText(m.name) + " (metrics: " + names + ")";
      return false;
    }
  }
  return true;
}

}  // namespace

std::string assignment(const std::string& name, double value) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", value);
  return name + "=" + buf;
}

int jobSteps(const Job& job) { return int(std::lround(job.to / scenes::kExperimentStep)); }

bool checkJob(const Job& job, std::string& error) {
  const sim::ThreadCountCeiling oneCore(1);
  scenes::SceneDriver driver;
  return prepare(job, driver, error);
}

Result runJob(const Job& job, const std::atomic<bool>* cancel) {
  const auto t0 = std::chrono::steady_clock::now();
  // One core per job, whatever the scene asks for its steps (the finale's `threads`): the runner's
  // parallelism is across jobs, and a job beside the window stays out of the live scene's arenas.
  const sim::ThreadCountCeiling oneCore(1);
  Result r;
  scenes::SceneDriver driver;
  if (!prepare(job, driver, r.error)) return r;
  std::vector<scenes::WindowReduction> reductions;
  for (const MetricSpec& m : job.metrics) reductions.emplace_back(m.reduce, m.level, job.from);
  driver.advance(jobSteps(job), [&](const scenes::StepTaken& taken) {
    if (cancel && cancel->load(std::memory_order_relaxed)) {
      r.cancelled = true;
      return false;
    }
    if (!scenes::inWindow(taken.simTime, job.from, job.to)) return true;
    const std::span<const sim::Metric> metrics = driver.metrics();
    for (size_t k = 0; k < job.metrics.size(); ++k)
      for (const sim::Metric& m : metrics)
        if (job.metrics[k].name == m.name) {
          reductions[k].add(taken.simTime, m.value);
          break;
        }
    return true;
  });
  if (r.cancelled) {
    r.error = "cancelled";
    return r;
  }
  for (const scenes::WindowReduction& w : reductions) r.values.push_back(w.value());
  r.ok = true;
  r.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

std::vector<Result> runAllJobs(std::span<const Job> jobs, int threads, const std::atomic<bool>* cancel) {
  std::vector<Result> results;
  results.reserve(jobs.size());
  RunOptions o;
  o.threads = threads;
  o.cancel = cancel;
  runJobs(jobs, o, [&](const Result& r) { results.push_back(r); });
  return results;
}

size_t runJobs(std::span<const Job> jobs, const RunOptions& options,
               const std::function<void(const Result&)>& onResult) {
  std::mutex mutex;  // guards the delivery below; onResult runs under it
  std::vector<std::optional<Result>> waiting(options.delivery == Delivery::InJobOrder ? jobs.size() : 0);
  size_t nextToDeliver = 0, delivered = 0;
  std::atomic<size_t> nextJob{0};
  auto cancelled = [&] { return options.cancel && options.cancel->load(std::memory_order_relaxed); };
  auto finish = [&](Result&& r) {
    if (r.cancelled) return;
    const std::lock_guard<std::mutex> lock(mutex);
    if (options.delivery == Delivery::AsFinished) {
      onResult(r);
      ++delivered;
      return;
    }
    waiting[r.job] = std::move(r);
    while (nextToDeliver < waiting.size() && waiting[nextToDeliver]) {
      onResult(*waiting[nextToDeliver]);
      waiting[nextToDeliver].reset();
      ++nextToDeliver;
      ++delivered;
    }
  };
  // Each worker takes the next job in order, so jobs start in order and in-order delivery rarely waits.
  auto worker = [&] {
    for (size_t i = nextJob++; i < jobs.size() && !cancelled(); i = nextJob++) {
      Result r = runJob(jobs[i], options.cancel);
      r.job = i;
      finish(std::move(r));
    }
  };
  const int cores = sim::hardwareThreads();
  int threads = options.threads <= 0 ? cores : options.threads;
  threads = int(std::min<size_t>(size_t(threads), std::max<size_t>(jobs.size(), 1)));
#if CROWDLAB_SERIAL
  (void)threads;
  worker();
#else
  if (threads <= 1) {
    worker();
  } else {
    tbb::task_arena arena(threads);
    arena.execute([&] {
      tbb::task_group group;
      for (int t = 0; t < threads; ++t) group.run(worker);
      group.wait();
    });
  }
#endif
  return delivered;
}

}  // namespace experiments
