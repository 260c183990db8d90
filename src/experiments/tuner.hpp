// Tuning: CMA-ES over a scene's declared parameters, each candidate scored by the experiment runner
// on the training seeds (the mean of the objective's score), the best then scored again on held-out
// seeds it never saw. Used by `crowdlab tune` and the app's Tune section; the same settings give
// the same run, evaluation for evaluation, at any thread count.
#pragma once
#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>
#include "experiments/cmaes.hpp"
#include "experiments/objectives.hpp"

namespace experiments {

struct TunedParam {
  std::string name;
  double lo = 0, hi = 1, start = 0;
  bool integer = false;
};

struct TuneSettings {
  std::string scene, objective;
  std::vector<std::string> params;   // names or group names; empty: the objective's own
  std::vector<std::string> sets;     // extra assignments after the objective's (and the groups')
  long budget = 200;                 // evaluations (candidates; each runs on every training seed)
  int seeds = 3;                     // training seeds 1..seeds
  int testSeeds = 5;                 // held-out seeds kFirstTestSeed..
  uint64_t seed = 1;                 // the optimizer's own
  int threads = 0;                   // jobs at once; 0 every core
};

inline constexpr uint64_t kFirstTestSeed = 1001;

// What one set of values scored on some seeds: the mean score and the mean of each part.
struct Score {
  double score = 0;
  std::vector<double> parts;
  std::vector<double> perSeed;
  bool ok = false;
  std::string error;
};

struct Evaluation {
  int generation = 0, index = 0;
  long number = 0;              // 1, 2, ... over the run
  std::vector<double> values;   // per tuned parameter
  Score score;
};

struct GenerationSummary {
  int generation = 0;
  long evaluations = 0;
  double best = 0, median = 0, sigma = 0, bestSoFar = 0;
};

class Tuner {
 public:
  // Checks everything (scene, objective, parameters and their ranges, the experiment) without
  // running it; error() is one line when something is wrong.
  explicit Tuner(const TuneSettings& settings);
  const std::string& error() const { return error_; }

  const Objective& objective() const { return *objective_; }
  const std::vector<TunedParam>& params() const { return params_; }
  // The assignments every job gets after the objective's: the groups' modes, then the user's.
  const std::vector<std::string>& sets() const { return sets_; }
  const TuneSettings& settings() const { return settings_; }

  // Runs one generation (lambda candidates x training seeds as jobs); false once the budget is spent,
  // the search has converged (stopReason) or `cancel` turned true (that generation is dropped).
  bool step(const std::atomic<bool>* cancel, const std::function<void(const Evaluation&)>& onEvaluation);
  bool done() const;
  std::string stopReason() const;  // why done() (empty while not)
  const GenerationSummary& lastGeneration() const { return summary_; }
  long evaluations() const { return cmaes_ ? cmaes_->evaluations() : 0; }

  bool hasBest() const { return hasBest_; }
  const std::vector<double>& best() const { return best_; }
  const Score& bestScore() const { return bestScore_; }
  std::vector<double> startValues() const;

  // Scores values of the tuned parameters on seeds first..first+count-1 (held-out: kFirstTestSeed).
  Score scoreOn(const std::vector<double>& values, uint64_t first, int count, const std::atomic<bool>* cancel) const;
  // "name=value" for each tuned parameter, as the jobs and presets get them.
  std::vector<std::string> assignments(const std::vector<double>& values) const;

  // A preset of the scene (scenes/presets.hpp) holding the tuned values and the mode their groups
  // need, nothing else, so it can be applied over any state; its "tuned" field says where it came
  // from: objective, scores, seeds, budget, the optimizer's seed and `command` (how to reproduce it).
  std::string presetText(const std::vector<double>& values, const Score& training, const Score* heldOut,
                         const std::string& command) const;

 private:
  std::vector<std::string> jobSets(const std::vector<double>& values) const;

  TuneSettings settings_;
  const Objective* objective_ = nullptr;
  std::vector<TunedParam> params_;
  std::vector<std::string> sets_;
  double sigma_ = 0.3;
  std::unique_ptr<Cmaes> cmaes_;
  std::string error_;
  GenerationSummary summary_;
  bool hasBest_ = false, cancelled_ = false;
  std::vector<double> best_;
  Score bestScore_;
};

}  // namespace experiments
