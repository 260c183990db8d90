// What a user can ask the tuner for, declared per scene as data (like the claims): an objective is
// a name, a sentence, an experiment (preset, assignments, starting state, window), the metrics of
// that window and how they combine into one number to minimise, and the parameters it tunes unless
// told otherwise. `crowdlab tune` and the app's Tune section read the same list.
#pragma once
#include <optional>
#include <span>
#include <string>
#include <vector>
#include "experiments/runner.hpp"

namespace experiments {

// One part of the score: weight * value, or weight * |value - target| when a target is given,
// the value being the metric reduced over the window (a NaN part makes the score NaN: the worst).
struct ObjectiveTerm {
  const char* metric;
  scenes::Reduce reduce = scenes::Reduce::Mean;
  double weight = 1.0;
  std::optional<double> target;
  double level = 0;     // LongestBelow's level
  const char* label;    // how tables and the panel name the part, e.g. "overlapping pairs (mean)"
};

// Named parameters tuned together, e.g. the finale's "learned" = nn0, nn1, ... (the prefix followed
// by digits only); choosing them also applies `sets` (the mode they act in).
struct ParamGroup {
  const char* name;
  std::vector<const char*> prefixes;
  std::vector<const char*> sets;
  std::optional<double> start;  // every member starts here instead of at its default
  double sigma = 0.0;           // initial step size as a fraction of the ranges; 0: the objective's
  const char* about;
};

struct Objective {
  const char* scene;
  const char* name;
  const char* sentence;
  const char* preset;              // a built-in preset of the scene ("" none)
  std::vector<const char*> sets;   // then these assignments
  const char* start;               // then this starting state ("" the plain reset)
  double from, to;                 // the window, simulated seconds
  std::vector<ObjectiveTerm> terms;
  std::vector<const char*> params; // tuned by default
  std::vector<ParamGroup> groups = {};
  double sigma = 0.3;              // initial step size as a fraction of each range (Hansen: about 0.3)
};

std::span<const Objective> allObjectives();
std::vector<const Objective*> objectivesOf(const std::string& scene);
const Objective* findObjective(const std::string& scene, const std::string& name);

// The job that measures `objective` on `seed` with `extraSets` applied after its own assignments.
Job objectiveJob(const Objective& objective, uint64_t seed, const std::vector<std::string>& extraSets);

// A job's score from its metric values (in the objective's term order) and each part's contribution.
double objectiveScore(const Objective& objective, std::span<const double> values, std::vector<double>* parts = nullptr);

// "mean_arrival_s (final) + 0.05 x overlaps_total (mean)", for --help-like listings and the panel.
std::string describeScore(const Objective& objective);

}  // namespace experiments
