#include "experiments/objectives.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

namespace experiments {

namespace {

using scenes::Reduce;

ObjectiveTerm towards(const char* metric, Reduce reduce, double target, double weight, const char* label) {
  return {metric, reduce, weight, target, 0.0, label};
}
ObjectiveTerm plain(const char* metric, Reduce reduce, double weight, const char* label) {
  return {metric, reduce, weight, std::nullopt, 0.0, label};
}

std::vector<Objective> buildObjectives() {
  std::vector<Objective> o;
  // Boids: one polarised group at a spacing near the separation radius (20, the scene's default).
  // From the plain reset (random positions and headings), measured over the last 10 s of 30.
  o.push_back({"boids", "one-flock",
               "One polarised flock: everybody in the largest group, flying the same way, about a separation "
               "radius (20) apart",
               "", {}, "", 20.0, 30.0,
               {towards("largest_group_share", Reduce::Mean, 1.0, 1.0, "1 - largest group share (mean)"),
                towards("polarization", Reduce::Mean, 1.0, 1.0, "1 - polarization (mean)"),
                towards("mean_nn_distance", Reduce::Mean, 20.0, 1.0 / 20.0, "|nn distance - 20| / 20 (mean)")},
               {"wSep", "wAli", "wCoh", "perception"}});
  // ORCA corridor: two groups of 20 through a corridor 2.5 diameters wide, as fast as they can
  // without ever touching.
  o.push_back({"orca-corridor", "fast-and-safe",
               "Throughput at width 2.5 with zero overlaps: two groups of 20 pass as often as they can, never "
               "touching",
               "", {"groupSize=20", "width=2.5", "method=orca"}, "", 10.0, 60.0,
               {plain("throughput_per_min", Reduce::Final, -1.0, "- throughput per minute"),
                plain("overlaps_total", Reduce::Max, 10.0, "10 x overlapping pairs (max)")},
               {"tau", "tauObst", "neighborDist", "maxNeighbors"}});
  // Steering: the seek + arrive experiment; how long until 95 % have settled, and no orbiting (what
  // is still unsettled at the end costs 20 s per share).
  o.push_back({"steering", "clean-arrival",
               "A clean arrival: 95 % of the agents settled on the target soon, and nobody still orbiting at "
               "the end",
               "2-seek-arrive.json", {}, "", 0.0, 25.0,
               {{"settled_share", Reduce::LongestBelow, 1.0, std::nullopt, 0.95, "seconds until 95 % settled"},
                towards("settled_share", Reduce::Final, 1.0, 20.0, "20 x share unsettled at the end")},
               {"maxForce", "slowingRadius", "wArrive", "wSeparate", "separationRadius"}});
  // Finale: 300 agents on the lattice rush the target with ORCA off, so the weights alone keep them
  // apart. One thread per job: the runner runs jobs side by side.
  Objective finale{"finale", "fast-and-safe",
                   "Fast and safe with ORCA off: the crowd reaches the target soon (mean arrival time) and does "
                   "not overlap (each overlapping pair costs 0.05 s)",
                   "", {"N=300", "orca=false", "threads=1"}, "", 0.0, 20.0,
                   {plain("mean_arrival_s", Reduce::Final, 1.0, "mean arrival time (s)"),
                    plain("overlaps_total", Reduce::Mean, 0.05, "0.05 x overlapping pairs (mean)")},
                   {"wSep", "wAli", "wCoh"}};
  finale.groups = {
      {"learned", {"nn"}, {"weights=learned"}, 0.0, 0.04,
       "the learned weight function's 91 weights, from zeros (the constant weights)"},
      {"curves", {"sep", "ali", "coh"}, {"weights=curves"}, std::nullopt, 0.0,
       "the hand-drawn density curves' 24 samples, from the drawn ones"},
  };
  o.push_back(finale);
  return o;
}

}  // namespace

std::span<const Objective> allObjectives() {
  static const std::vector<Objective> objectives = buildObjectives();
  return objectives;
}

std::vector<const Objective*> objectivesOf(const std::string& scene) {
  std::vector<const Objective*> out;
  for (const Objective& o : allObjectives())
    if (scene == o.scene) out.push_back(&o);
  return out;
}

const Objective* findObjective(const std::string& scene, const std::string& name) {
  for (const Objective& o : allObjectives())
    if (scene == o.scene && name == o.name) return &o;
  return nullptr;
}

Job objectiveJob(const Objective& objective, uint64_t seed, const std::vector<std::string>& extraSets) {
  Job j;
  j.scene = objective.scene;
  j.preset = objective.preset;
  for (const char* s : objective.sets) j.sets.push_back(s);
  j.sets.insert(j.sets.end(), extraSets.begin(), extraSets.end());
  j.start = objective.start;
  j.seed = seed;
  j.from = objective.from;
  j.to = objective.to;
  for (const ObjectiveTerm& t : objective.terms) j.metrics.push_back({t.metric, t.reduce, t.level});
  return j;
}

double objectiveScore(const Objective& objective, std::span<const double> values, std::vector<double>* parts) {
  if (parts) parts->clear();
  if (values.size() != objective.terms.size()) return std::numeric_limits<double>::quiet_NaN();
  double score = 0;
  for (size_t k = 0; k < values.size(); ++k) {
    const ObjectiveTerm& t = objective.terms[k];
    const double part = t.weight * (t.target ? std::fabs(values[k] - *t.target) : values[k]);
    if (parts) parts->push_back(part);
    score += part;
  }
  return score;
}

std::string describeScore(const Objective& objective) {
  std::string s;
  for (const ObjectiveTerm& t : objective.terms) s += (s.empty() ? "" : " + ") + std::string(t.label);
  return s;
}

}  // namespace experiments
