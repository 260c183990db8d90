#include "experiments/tuner.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>
#include <nlohmann/json.hpp>
#include "io/user_files.hpp"
#include "sim/core/parallel.hpp"

namespace experiments {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A name that is `prefix` followed by digits only ("nn12" for "nn", not "separation" for "sep").
bool inGroup(const std::string& name, const ParamGroup& g) {
  for (const char* prefix : g.prefixes) {
    const std::string p = prefix;
    if (name.size() <= p.size() || name.compare(0, p.size(), p) != 0) continue;
    if (std::all_of(name.begin() + long(p.size()), name.end(), [](char c) { return c >= '0' && c <= '9'; })) return true;
  }
  return false;
}

// Values as the parameters hold them: floats rounded to float, integers to integers, so what is
// scored is exactly what a preset stores.
double quantise(const TunedParam& p, double v) {
  v = std::clamp(v, p.lo, p.hi);
  return p.integer ? std::round(v) : double(float(v));
}

}  // namespace

Tuner::Tuner(const TuneSettings& settings) : settings_(settings) {
  const scenes::SceneEntry* entry = scenes::findScene(settings.scene);
  if (!entry) {
    error_ = "unknown scene " + io::quoteText(settings.scene) + " (scenes: " + scenes::sceneNames() + ")";
    return;
  }
  objective_ = findObjective(settings.scene, settings.objective);
  if (!objective_) {
    std::string names;
    for (const Objective* o : objectivesOf(settings.scene)) names += (names.empty() ? "" : ", ") + std::string(o->name);
    error_ = "scene " + settings.scene + " has no objective " + io::quoteText(settings.objective) +
             (names.empty() ? " (it has none)" : " (objectives: " + names + ")");
    return;
  }
  if (settings.budget < 0 || settings.seeds < 1 || settings.testSeeds < 0) {
    error_ = "the budget, seeds and held-out seeds must not be negative (and at least one training seed)";
    return;
  }
  // The parameters: the groups and names asked for, in that order.
  scenes::SceneContext ctx;  // the start's set-up below runs the scene on it
  auto scene = entry->create(ctx, 1);
  const std::span<const scenes::Param> declared = scene->params();
  std::vector<std::string> asked = settings.params;
  if (asked.empty())
    for (const char* p : objective_->params) asked.push_back(p);
  std::set<std::string> seen;
  std::vector<std::optional<double>> starts;
  double sigma = 0.0;
  auto add = [&](const scenes::Param& p, std::optional<double> start) {
    if (!seen.insert(p.name).second) {
      error_ = "parameter " + std::string(p.name) + " is asked for twice";
      return false;
    }
    if (p.type != scenes::ParamType::Float && p.type != scenes::ParamType::Int) {
      error_ = "parameter " + std::string(p.name) + " is a switch or a choice; tune takes numbers (set it with --set)";
      return false;
    }
    if (!(p.max > p.min)) {
      error_ = "parameter " + std::string(p.name) + " has no range to search";
      return false;
    }
    params_.push_back({p.name, p.min, p.max, 0.0, p.type == scenes::ParamType::Int});
    starts.push_back(start);
    return true;
  };
  for (const std::string& name : asked) {
    const ParamGroup* group = nullptr;
    for (const ParamGroup& g : objective_->groups)
      if (name == g.name) group = &g;
    if (group) {
      for (const scenes::Param& p : declared)
        if (inGroup(p.name, *group) && !add(p, group->start)) return;
      for (const char* s : group->sets) sets_.push_back(s);
      if (group->sigma > 0) sigma = sigma > 0 ? std::min(sigma, group->sigma) : group->sigma;
      continue;
    }
    const scenes::Param* p = scenes::findParam(declared, name);
    if (!p) {
      std::string groups;
      for (const ParamGroup& g : objective_->groups) groups += std::string(", ") + g.name;
      error_ = "unknown parameter " + io::quoteText(name) + " (see --list-params" +
               (groups.empty() ? "" : "; groups" + groups.substr(1)) + ")";
      return;
    }
    if (!add(*p, std::nullopt)) return;
  }
  sets_.insert(sets_.end(), settings.sets.begin(), settings.sets.end());
  sigma_ = sigma > 0 ? sigma : objective_->sigma;

  // The start: what the experiment's set-up leaves in each parameter (or the group's start); the
  // set-up is checked on the way, metrics included.
  Job probe = objectiveJob(*objective_, 1, sets_);
  if (!checkJob(probe, error_)) return;
  {
    const sim::ThreadCountCeiling oneCore(1);  // as a job: this runs beside the window in its Tune section
    if (!scenes::startSetup(*scene, probe.setup(), error_)) return;
    for (size_t i = 0; i < params_.size(); ++i) {
      const double v = starts[i] ? *starts[i] : scenes::findParam(declared, params_[i].name)->get();
      params_[i].start = std::clamp(v, params_[i].lo, params_[i].hi);
    }
  }
  if (settings.budget == 0) return;  // only the start is scored
  CmaesOptions o;
  for (const TunedParam& p : params_) {
    o.start.push_back(p.start);
    o.lower.push_back(p.lo);
    o.upper.push_back(p.hi);
  }
  o.sigma = sigma_;
  o.seed = settings.seed;
  cmaes_ = std::make_unique<Cmaes>(o);
  if (!cmaes_->error().empty()) {
    error_ = cmaes_->error();
    return;
  }
  if (settings.budget < cmaes_->lambda()) {
    error_ = "the budget must be 0 (score the start only) or at least one generation, " +
             std::to_string(cmaes_->lambda()) + " evaluations";
    return;
  }
}

std::vector<double> Tuner::startValues() const {
  std::vector<double> v;
  for (const TunedParam& p : params_) v.push_back(quantise(p, p.start));
  return v;
}

std::vector<std::string> Tuner::assignments(const std::vector<double>& values) const {
  std::vector<std::string> out;
  for (size_t i = 0; i < params_.size() && i < values.size(); ++i)
    out.push_back(assignment(params_[i].name, values[i]));
  return out;
}

std::vector<std::string> Tuner::jobSets(const std::vector<double>& values) const {
  std::vector<std::string> s = sets_;
  const std::vector<std::string> a = assignments(values);
  s.insert(s.end(), a.begin(), a.end());
  return s;
}

bool Tuner::done() const { return !stopReason().empty(); }

std::string Tuner::stopReason() const {
  if (!error_.empty()) return error_;
  if (cancelled_) return "stopped";
  if (!cmaes_) return "nothing to search (budget 0)";
  if (cmaes_->evaluations() + cmaes_->lambda() > settings_.budget) return "budget spent";
  return cmaes_->stopReason();
}

Score Tuner::scoreOn(const std::vector<double>& values, uint64_t first, int count,
                     const std::atomic<bool>* cancel) const {
  Score s;
  if (!objective_ || count <= 0) return s;
  std::vector<Job> jobs;
  for (int k = 0; k < count; ++k) jobs.push_back(objectiveJob(*objective_, first + uint64_t(k), jobSets(values)));
  const std::vector<Result> results = runAllJobs(jobs, settings_.threads, cancel);
  if (results.size() != jobs.size()) {
    s.error = "stopped";
    return s;
  }
  s.parts.assign(objective_->terms.size(), 0.0);
  std::vector<double> parts;
  for (const Result& r : results) {
    if (!r.ok) {
      s.error = r.error;
      s.score = kNaN;
      return s;
    }
    const double score = objectiveScore(*objective_, r.values, &parts);
    s.perSeed.push_back(score);
    s.score += score / double(count);
    for (size_t t = 0; t < parts.size(); ++t) s.parts[t] += parts[t] / double(count);
  }
  s.ok = std::isfinite(s.score);
  return s;
}

bool Tuner::step(const std::atomic<bool>* cancel, const std::function<void(const Evaluation&)>& onEvaluation) {
  if (done()) return false;
  const auto& xs = cmaes_->ask();
  const int seeds = settings_.seeds;
  std::vector<std::vector<double>> values;
  std::vector<Job> jobs;
  for (const std::vector<double>& x : xs) {
    std::vector<double> v(x.size());
    for (size_t i = 0; i < x.size(); ++i) v[i] = quantise(params_[i], x[i]);
    for (int s = 0; s < seeds; ++s) jobs.push_back(objectiveJob(*objective_, uint64_t(s) + 1, jobSets(v)));
    values.push_back(std::move(v));
  }
  const std::vector<Result> results = runAllJobs(jobs, settings_.threads, cancel);
  if (results.size() != jobs.size()) {
    cancelled_ = true;
    return false;
  }
  std::vector<double> scores;
  std::vector<double> parts;
  const int generation = cmaes_->generation() + 1;
  for (size_t k = 0; k < values.size(); ++k) {
    Evaluation e;
    e.generation = generation;
    e.index = int(k);
    e.number = cmaes_->evaluations() + long(k) + 1;
    e.values = values[k];
    e.score.parts.assign(objective_->terms.size(), 0.0);
    for (int s = 0; s < seeds; ++s) {
      const Result& r = results[k * size_t(seeds) + size_t(s)];
      if (!r.ok) {
        e.score.error = r.error;
        e.score.score = kNaN;
        break;
      }
      const double score = objectiveScore(*objective_, r.values, &parts);
      e.score.perSeed.push_back(score);
      e.score.score += score / double(seeds);
      for (size_t t = 0; t < parts.size(); ++t) e.score.parts[t] += parts[t] / double(seeds);
    }
    e.score.ok = std::isfinite(e.score.score);
    scores.push_back(e.score.ok ? e.score.score : kNaN);
    if (e.score.ok && (!hasBest_ || e.score.score < bestScore_.score)) {
      hasBest_ = true;
      best_ = e.values;
      bestScore_ = e.score;
    }
    if (onEvaluation) onEvaluation(e);
  }
  cmaes_->tell(scores);
  summary_.generation = cmaes_->generation();
  summary_.evaluations = cmaes_->evaluations();
  summary_.best = cmaes_->generationBest();
  summary_.median = cmaes_->generationMedian();
  summary_.sigma = cmaes_->sigma();
  summary_.bestSoFar = hasBest_ ? bestScore_.score : kNaN;
  return true;
}

std::string Tuner::presetText(const std::vector<double>& values, const Score& training, const Score* heldOut,
                              const std::string& command) const {
  const scenes::SceneEntry* entry = scenes::findScene(settings_.scene);
  if (!entry || !objective_) return {};
  // The values go through a scene's declared parameters, so they are written as a preset writes them.
  auto scene = scenes::declarationsOf(*entry);
  const std::span<const scenes::Param> declared = scene->params();
  std::vector<scenes::Param> kept;
  std::string ignored;
  std::vector<std::string> sets;
  for (const std::string& name : settings_.params)
    for (const ParamGroup& g : objective_->groups)
      if (name == g.name) sets.insert(sets.end(), g.sets.begin(), g.sets.end());
  const std::vector<std::string> tuned = assignments(values);
  sets.insert(sets.end(), tuned.begin(), tuned.end());
  for (const std::string& s : sets) {
    scenes::setParamAssignment(declared, s, ignored);
    if (const scenes::Param* p = scenes::findParam(declared, s.substr(0, s.find('=')))) kept.push_back(*p);
  }
  nlohmann::json doc = scenes::paramsToJson(kept, settings_.scene);
  doc["name"] = std::string("Tuned: ") + objective_->name;
  doc["description"] = std::string(objective_->sentence);
  nlohmann::json t;
  t["objective"] = objective_->name;
  t["score"] = describeScore(*objective_);
  t["training_score"] = training.score;
  t["training_seeds"] = nlohmann::json::array({1, settings_.seeds});
  if (heldOut && heldOut->ok) {
    t["held_out_score"] = heldOut->score;
    t["held_out_seeds"] = nlohmann::json::array({kFirstTestSeed, kFirstTestSeed + uint64_t(settings_.testSeeds) - 1});
  }
  t["budget"] = settings_.budget;
  t["evaluations"] = evaluations();
  t["optimizer_seed"] = settings_.seed;
  t["experiment_sets"] = sets_;
  if (!command.empty()) t["command"] = command;
  doc["tuned"] = t;
  return doc.dump(2) + "\n";
}

}  // namespace experiments
