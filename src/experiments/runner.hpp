// The one experiment runner: headless copies of a scene over a list of jobs (a set-up, a seed and a
// window of simulated time), each job a full restart as the claims do, each metric reduced over the
// window with the claims' reductions (scenes::WindowReduction). Jobs run at once on a oneTBB arena of
// the given size, each job on one thread; results are delivered with their job's index, in job order
// unless asked otherwise, so whatever is written from them does not depend on the thread count.
// `crowdlab claims`, `crowdlab sweep`, `crowdlab tune` and the app's Sweep panel sit on it.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>
#include "scenes/experiment.hpp"
#include "scenes/reduction.hpp"

namespace experiments {

struct MetricSpec {
  std::string name;                           // a name the scene's metrics() gives
  scenes::Reduce reduce = scenes::Reduce::Mean;
  double level = 0;                           // LongestBelow's level
};

struct Job {
  std::string scene;              // command-line scene name
  std::string preset;             // a built-in preset file of the scene ("" none), applied over the defaults
  std::vector<std::string> sets;  // then "name=value" assignments, in order (see assignment())
  std::string start;              // then the scene's starting state ("" the plain reset)
  uint64_t seed = 1;
  double from = 0, to = 10;       // the measuring window, simulated seconds since the start
  std::vector<MetricSpec> metrics;

  scenes::ExperimentSetup setup() const { return {scene, preset, sets, start, ""}; }
};

struct Result {
  size_t job = 0;               // index into the jobs given to runJobs
  bool ok = false;
  bool cancelled = false;       // stopped by the cancel flag (never delivered by runJobs)
  std::string error;            // one line when !ok
  std::vector<double> values;   // per metric of the job, in its order; NaN where the window had no sample
  double wallSeconds = 0;       // this job's wall time (differs between runs: keep it out of reproducible output)
};

enum class Delivery {
  InJobOrder,  // onResult sees job 0, 1, 2, ... (a finished job waits for the ones before it)
  AsFinished,  // onResult sees each job as soon as it finishes (live plots)
};

struct RunOptions {
  int threads = 0;                           // jobs at once; 0: every core
  const std::atomic<bool>* cancel = nullptr; // when it turns true, running jobs stop within a step
  Delivery delivery = Delivery::InJobOrder;
};

// "name=value" with the value written so that it reads back exactly (floats and doubles round-trip).
std::string assignment(const std::string& name, double value);

// How many steps of scenes::kExperimentStep a job runs: up to its window's end.
int jobSteps(const Job& job);

// Checks a job without stepping it: the scene exists, the set-up applies, the window is sane and
// every metric is one the scene gives. False with a one-line message.
bool checkJob(const Job& job, std::string& error);

// Runs one job on the calling thread (its scene on one core).
Result runJob(const Job& job, const std::atomic<bool>* cancel = nullptr);

// Runs every job; calls onResult once per finished job, never two at once (no locking needed in it),
// from one of the worker threads. Returns how many results were delivered (fewer than the jobs only
// when cancelled). Blocks until done.
size_t runJobs(std::span<const Job> jobs, const RunOptions& options,
               const std::function<void(const Result&)>& onResult);

// Runs every job (as runJobs, in job order) and returns the results; fewer than the jobs only when
// `cancel` was set.
std::vector<Result> runAllJobs(std::span<const Job> jobs, int threads, const std::atomic<bool>* cancel);

}  // namespace experiments
