// `crowdlab tune`: CMA-ES over a scene's parameters for one of its objectives, on the experiment
// runner; one line per generation, a CSV of every evaluation, the best written as a preset and
// scored again on held-out seeds. Ctrl+C stops the search and still writes what it found.
#include "app/tune_cmd.hpp"
#include "app/flag_reader.hpp"
#include "app/stop_signals.hpp"

#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include "experiments/tuner.hpp"
#include "io/output_file.hpp"
#include "io/user_files.hpp"

namespace app {

namespace {

constexpr const char* kUsage =
    "usage: crowdlab tune --scene S --objective NAME [--params a,b,...] [--budget EVALS] [--seeds N]\n"
    "                     [--test-seeds N] [--threads T] [--seed N] [--set k=v]... [--csv FILE] [--preset-out FILE]\n"
    "       crowdlab tune --list     (every scene's objectives, their scores and parameter groups)";

struct TuneOptions {
  experiments::TuneSettings settings;
  std::string csv, presetOut;
  bool list = false, help = false;
};

bool parse(const std::vector<std::string>& args, TuneOptions& o, std::string& error) {
  o.settings.params.clear();
  FlagReader flags(args);
  std::string a, v;
  while (!flags.done()) {
    if (flags.nextIs({"--list", "--help", "-h"})) {
      if (!flags.takeSwitch({"--list", "--help", "-h"}, a, error)) return false;
      (a == "--list" ? o.list : o.help) = true;
      continue;
    }
    if (!flags.take({"--scene", "--objective", "--params", "--budget", "--seeds", "--test-seeds", "--threads", "--seed",
                     "--csv", "--preset-out"},
                    {"--set"}, a, v, error))
      return false;
    uint64_t n = 0;
    if (a == "--scene") o.settings.scene = v;
    else if (a == "--objective") o.settings.objective = v;
    else if (a == "--params") {
      std::istringstream list(v);
      for (std::string p; std::getline(list, p, ',');)
        if (!p.empty()) o.settings.params.push_back(p);
      if (o.settings.params.empty()) {
        error = "--params expects names separated by commas, got " + io::quoteText(v);
        return false;
      }
    } else if (a == "--budget") {
      if (!FlagReader::wholeNumber(a, v, 0, 1000000, n, error)) return false;
      o.settings.budget = long(n);
    } else if (a == "--seeds") {
      if (!FlagReader::wholeNumber(a, v, 1, 1000, n, error)) return false;
      o.settings.seeds = int(n);
    } else if (a == "--test-seeds") {
      if (!FlagReader::wholeNumber(a, v, 0, 1000, n, error)) return false;
      o.settings.testSeeds = int(n);
    } else if (a == "--threads") {
      if (!FlagReader::wholeNumber(a, v, 1, 1024, n, error)) return false;
      o.settings.threads = int(n);
    } else if (a == "--seed") {
      if (!FlagReader::wholeNumber(a, v, 0, uint64_t(1) << 40, n, error)) return false;
      o.settings.seed = n;
    } else if (a == "--set") {
      if (v.find('=') == std::string::npos || v.front() == '=') {
        error = "--set expects name=value, got " + io::quoteText(v);
        return false;
      }
      o.settings.sets.push_back(v);
    } else if (a == "--csv") o.csv = v;
    else if (a == "--preset-out") o.presetOut = v;
  }
  if (o.list || o.help) return true;
  if (o.settings.scene.empty()) { error = "--scene S is needed (crowdlab tune --list shows the objectives)"; return false; }
  if (o.settings.objective.empty()) { error = "--objective NAME is needed (crowdlab tune --list shows them)"; return false; }
  return true;
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string partsText(const experiments::Objective& o, const experiments::Score& s) {
  std::string t;
  for (size_t k = 0; k < s.parts.size() && k < o.terms.size(); ++k)
    t += (t.empty() ? "" : " | ") + std::string(o.terms[k].label) + " " + num(s.parts[k]);
  return t;
}

std::string valuesText(const experiments::Tuner& tuner, const std::vector<double>& values) {
  std::string t;
  const auto& params = tuner.params();
  const size_t shown = std::min<size_t>(values.size(), 12);
  for (size_t i = 0; i < shown; ++i) t += (t.empty() ? "" : " ") + params[i].name + "=" + num(values[i]);
  if (values.size() > shown) t += " ... (" + std::to_string(values.size()) + " values)";
  return t;
}

void listObjectives() {
  for (const experiments::Objective& o : experiments::allObjectives()) {
    std::printf("%s %s\n    %s\n    score (minimised): %s\n    window %g-%g s; tunes by default:", o.scene, o.name,
                o.sentence, experiments::describeScore(o).c_str(), o.from, o.to);
    for (const char* p : o.params) std::printf(" %s", p);
    std::printf("\n");
    for (const experiments::ParamGroup& g : o.groups) std::printf("    group %s: %s\n", g.name, g.about);
  }
}

}  // namespace

int runTune(const std::vector<std::string>& args) {
  TuneOptions o;
  std::string error;
  if (!parse(args, o, error)) {
    std::fprintf(stderr, "crowdlab tune: %s (crowdlab tune --help shows the usage)\n", error.c_str());
    return 2;
  }
  if (FlagReader::parseOnly() && (o.help || o.list)) return 0;
  if (o.help) {
    std::printf("%s\n", kUsage);
    return 0;
  }
  if (o.list) {
    listObjectives();
    return 0;
  }
  experiments::Tuner tuner(o.settings);
  if (!tuner.error().empty()) {
    std::fprintf(stderr, "crowdlab tune: %s\n", tuner.error().c_str());
    return 2;
  }
  if (FlagReader::parseOnly()) return 0;
  // Written at the end of a run that may take hours: both files are opened now (a path that cannot be
  // written, a FIFO nobody reads, one file named twice fail before the first evaluation).
  io::OutputFile csvFile, presetFile;
  if ((!o.csv.empty() && !csvFile.open(o.csv, {}, error)) ||
      (!o.presetOut.empty() && !presetFile.open(o.presetOut, {}, error))) {
    std::fprintf(stderr, "crowdlab tune: %s\n", error.c_str());
    return 2;  // refused before any work, as a bad flag is
  }
  if (!io::distinctOutputs({{"--csv", &csvFile}, {"--preset-out", &presetFile}}, error)) {
    std::fprintf(stderr, "crowdlab tune: %s\n", error.c_str());
    return 2;
  }
  const experiments::Objective& obj = tuner.objective();
  const experiments::TuneSettings& s = o.settings;
  std::string command = "crowdlab tune";
  for (const std::string& a : args) command += " " + a;

  std::printf("tune %s/%s: %s\n", obj.scene, obj.name, obj.sentence);
  std::printf("score (minimised): %s; window %g-%g s; training seeds 1..%d, held-out seeds %llu..%llu\n",
              experiments::describeScore(obj).c_str(), obj.from, obj.to, s.seeds,
              (unsigned long long)experiments::kFirstTestSeed,
              (unsigned long long)(experiments::kFirstTestSeed + uint64_t(s.testSeeds) - 1));
  std::printf("%zu parameters from %s; budget %ld evaluations, optimizer seed %llu\n", tuner.params().size(),
              valuesText(tuner, tuner.startValues()).c_str(), s.budget, (unsigned long long)s.seed);
  std::fflush(stdout);

  std::string csv = "evaluation,generation,candidate,score";
  // Each part of the score as it counts (weight x value, or weight x distance to its target).
  for (const experiments::ObjectiveTerm& t : obj.terms)
    csv += std::string(",part_") + t.metric + "_" + scenes::reduceName(t.reduce);
  for (const experiments::TunedParam& p : tuner.params()) csv += "," + p.name;
  csv += "\n";
  auto csvRow = [&](const experiments::Evaluation& e) {
    csv += std::to_string(e.number) + "," + std::to_string(e.generation) + "," + std::to_string(e.index) + "," +
           (e.score.ok ? num(e.score.score) : "nan");
    for (size_t k = 0; k < obj.terms.size(); ++k)
      csv += "," + (k < e.score.parts.size() && e.score.ok ? num(e.score.parts[k]) : std::string("nan"));
    for (double v : e.values) {
      char buf[40];
      std::snprintf(buf, sizeof buf, ",%.9g", v);
      csv += buf;
    }
    csv += "\n";
  };

  // Ctrl+C, SIGTERM (timeout, a batch scheduler) or SIGHUP: the generation under way stops, the best so
  // far is written; a second one ends it at once.
  const StopSignals stops{SIGINT, SIGTERM, SIGHUP};
  const std::atomic<bool>& interruptRequested = StopSignals::stopRequested();
  const auto t0 = std::chrono::steady_clock::now();
  while (tuner.step(&interruptRequested, csvRow)) {
    const experiments::GenerationSummary& g = tuner.lastGeneration();
    std::printf("gen %3d  evals %5ld  best %-10s median %-10s sigma %-9s best so far %s\n", g.generation,
                g.evaluations, num(g.best).c_str(), num(g.median).c_str(), num(g.sigma).c_str(),
                num(g.bestSoFar).c_str());
    std::fflush(stdout);
  }
  const bool interrupted = interruptRequested.load();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%s after %ld evaluations (%.0f s)\n", tuner.stopReason().c_str(), tuner.evaluations(), seconds);

  const bool searched = tuner.hasBest();
  const std::vector<double> best = searched ? tuner.best() : tuner.startValues();
  experiments::Score training = tuner.bestScore();
  // Stopped in the first generation: the start values are scored unless a stop came (then it would
  // run every seed again before the program could end).
  if (!searched && !interruptRequested.load()) training = tuner.scoreOn(best, 1, s.seeds, &interruptRequested);
  int status = 0;
  experiments::Score heldOut, start;
  if (!interrupted && s.testSeeds > 0) {
    // The start and the best on seeds the search never saw.
    start = tuner.scoreOn(tuner.startValues(), experiments::kFirstTestSeed, s.testSeeds, &interruptRequested);
    if (searched) heldOut = tuner.scoreOn(best, experiments::kFirstTestSeed, s.testSeeds, &interruptRequested);
  }
  if (searched) std::printf("best: %s\n", valuesText(tuner, best).c_str());
  std::printf("training seeds:  %s %s  [%s]\n", searched ? "tuned" : "start", num(training.score).c_str(),
              partsText(obj, training).c_str());
  if (start.ok) {
    std::printf("held-out seeds:  start %s  [%s]\n", num(start.score).c_str(), partsText(obj, start).c_str());
    if (heldOut.ok) {
      std::printf("held-out seeds:  tuned %s  [%s]\n", num(heldOut.score).c_str(), partsText(obj, heldOut).c_str());
      const double gain = start.score - heldOut.score;
      if (gain > 0)
        std::printf("on held-out seeds the tuned values improve the score by %s (%s %%)\n", num(gain).c_str(),
                    num(100.0 * gain / std::max(std::fabs(start.score), 1e-12)).c_str());
      else
        std::printf("on held-out seeds the tuned values do NOT beat the start (%s vs %s): they fit the training "
                    "seeds only\n", num(heldOut.score).c_str(), num(start.score).c_str());
      if (heldOut.score > training.score + 0.1 * std::fabs(training.score) && gain > 0)
        std::printf("note: held-out %s is worse than training %s by more than 10 %%: partly fitted to the training seeds\n",
                    num(heldOut.score).c_str(), num(training.score).c_str());
    }
  } else if (interrupted) {
    std::printf("interrupted: not scored on held-out seeds\n");
  }

  if (csvFile.isOpen()) {
    csvFile.write(csv);
    if (!csvFile.commit(error)) {
      std::fprintf(stderr, "crowdlab tune: %s\n", error.c_str());
      status = 1;
    } else {
      std::printf("wrote every evaluation to %s\n", o.csv.c_str());
    }
  }
  if (presetFile.isOpen()) {
    presetFile.write(tuner.presetText(best, training, heldOut.ok ? &heldOut : nullptr, command));
    if (!presetFile.commit(error)) {
      std::fprintf(stderr, "crowdlab tune: %s\n", error.c_str());
      status = 1;
    } else {
      std::printf("wrote the %s preset to %s\n", searched ? "best" : "start", o.presetOut.c_str());
    }
  }
  return interrupted ? 128 + (StopSignals::received() ? StopSignals::received() : SIGINT) : status;
}

}  // namespace app
