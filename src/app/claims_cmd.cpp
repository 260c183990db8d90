#include "app/claims_cmd.hpp"
#include "app/flag_reader.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include "experiments/runner.hpp"
#include <set>
#include <sstream>
#include "render/atomic_file.hpp"
#include "scenes/claims.hpp"
#include "scenes/user_input.hpp"

namespace app {

namespace {

// The scene's claims this command measures: those a headless run can (not the window-only ones).
bool hasHeadlessClaims(const std::string& scene) {
  for (const scenes::Claim* c : scenes::claimsOf(scene))
    if (!c->needsWindow) return true;
  return false;
}

std::string scenesWithClaims() {
  std::string names;
  for (const scenes::SceneEntry& e : scenes::registeredScenes())
    if (hasHeadlessClaims(e.name)) names += (names.empty() ? "" : ", ") + std::string(e.name);
  return names;
}

constexpr const char* kUsage = "usage: crowdlab claims [--scene NAME] [--seeds N] [--first-seed S] [--csv FILE]";

struct ClaimsOptions {
  std::string scene, csv;
  int seeds = 3;
  uint64_t firstSeed = 1;  // seeds firstSeed .. firstSeed + seeds - 1
};

bool parse(const std::vector<std::string>& args, ClaimsOptions& o, std::string& error) {
  FlagReader flags(args);
  std::string a, v;
  while (!flags.done()) {
    if (!flags.take({"--scene", "--seeds", "--first-seed", "--csv"}, {}, a, v, error)) return false;
    if (a == "--scene") {
      if (!scenes::findScene(v)) {
        error = "unknown scene " + scenes::quoteText(v) + " (scenes: " + scenes::sceneNames() + ")";
        return false;
      }
      if (!hasHeadlessClaims(v)) {
        error = scenes::claimsOf(v).empty()
                    ? "scene " + v + " has no claims (scenes with claims: " + scenesWithClaims() + ")"
                    : "scene " + v + "'s claims are measured in a window only (OpenGL frames): crowdlab --claim " +
                          scenes::claimsOf(v).front()->id + " (its experiment buttons list them)";
        return false;
      }
      o.scene = v;
    } else if (a == "--csv") {
      o.csv = v;
    } else {
      const bool seeds = a == "--seeds";
      uint64_t n = 0;
      if (!FlagReader::wholeNumber(a, v, 1, seeds ? 1000 : 1000000000, n, error)) return false;
      if (seeds) o.seeds = int(n);
      else o.firstSeed = n;
    }
  }
  return true;
}

struct Row {
  const scenes::Claim* claim;
  std::vector<double> values;               // per seed
  std::vector<std::vector<double>> also;    // per also-metric, per seed
  scenes::ClaimVerdict verdict;
};

struct Spread {
  double mean = 0, min = 0, max = 0;
  bool finite = false;
};
Spread spread(const std::vector<double>& xs) {
  Spread s;
  int n = 0;
  for (double x : xs) {
    if (!std::isfinite(x)) continue;
    s.min = n ? std::min(s.min, x) : x;
    s.max = n ? std::max(s.max, x) : x;
    s.mean += x;
    ++n;
  }
  s.finite = n > 0;
  if (n) s.mean /= n;
  return s;
}

std::string csvField(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string number(double v) {
  if (!std::isfinite(v)) return "nan";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

}  // namespace

int runClaims(const std::vector<std::string>& args) {
  ClaimsOptions o;
  std::string error;
  if (!parse(args, o, error)) {
    std::fprintf(stderr, "crowdlab claims: %s (%s)\n", error.c_str(), kUsage);
    return 2;
  }
  // The CSV path is checked before the claims run (minutes), not after them.
  if (!o.csv.empty() && !render::checkWritable(o.csv, error)) {
    std::fprintf(stderr, "crowdlab claims: %s\n", error.c_str());
    return 1;
  }
  const auto t0 = std::chrono::steady_clock::now();
  // Every claim's seeds are jobs for the experiment runner, on every core; a ratio claim's baseline
  // runs before it (a hidden row when it is not printed itself). Results come back in job order, so
  // each claim is printed as soon as its last seed is in, whatever the thread count.
  struct Planned {
    const scenes::Claim* claim;
    bool shown;
  };
  std::vector<Planned> plan;
  auto find = [&](const char* id) -> Planned* {
    for (Planned& p : plan)
      if (id == std::string(p.claim->id)) return &p;
    return nullptr;
  };
  for (const scenes::Claim& claim : scenes::allClaims()) {
    if (!o.scene.empty() && o.scene != claim.scene) continue;
    if (claim.needsWindow) {  // its figures come from frames OpenGL draws: no headless run measures them
      std::printf("%-36s %s\n    measured in a window only (OpenGL frames): crowdlab --claim %s\n", claim.id, claim.statement,
                  claim.id);
      continue;
    }
    if (*claim.relativeTo && !find(claim.relativeTo))
      if (const scenes::Claim* base = scenes::findClaim(claim.relativeTo)) plan.push_back({base, false});
    if (Planned* p = find(claim.id)) p->shown = true;
    else plan.push_back({&claim, true});
  }
  std::vector<experiments::Job> jobs;
  for (const Planned& p : plan) {
    const scenes::Claim& c = *p.claim;
    for (int s = 0; s < o.seeds; ++s) {
      experiments::Job job;
      job.scene = c.scene;
      job.preset = c.preset;
      job.sets.assign(c.sets.begin(), c.sets.end());
      job.start = c.start;
      job.seed = o.firstSeed + uint64_t(s);
      job.from = c.from;
      job.to = c.from + c.window;
      job.metrics.push_back({c.rule.metric, c.rule.reduce, c.rule.level});
      for (const char* a : c.also) job.metrics.push_back({a, scenes::Reduce::Mean, 0.0});
      jobs.push_back(std::move(job));
    }
  }

  std::map<std::string, std::vector<double>> raw;  // claim id -> per-seed window value, for relativeTo
  std::vector<Row> rows;
  bool mustHoldFailed = false;
  std::string failure;
  std::atomic<bool> stop{false};
  std::vector<experiments::Result> seeds;  // the current claim's results so far
  auto onResult = [&](const experiments::Result& r) {
    if (!failure.empty()) return;
    if (!r.ok) {
      failure = "claim " + std::string(plan[r.job / size_t(o.seeds)].claim->id) + ": " + r.error;
      stop = true;
      return;
    }
    seeds.push_back(r);
    if (seeds.size() < size_t(o.seeds)) return;
    const Planned& p = plan[r.job / size_t(o.seeds)];
    const scenes::Claim& claim = *p.claim;
    Row row{&claim, {}, std::vector<std::vector<double>>(claim.also.size()), {}};
    std::vector<double> rawValues;
    for (size_t s = 0; s < seeds.size(); ++s) {
      const experiments::Result& run = seeds[s];
      double value = run.values[0];
      rawValues.push_back(value);
      if (*claim.relativeTo) {
        const auto it = raw.find(claim.relativeTo);
        const double baseline = it != raw.end() ? it->second[s] : 0.0;
        value = baseline > 0.0 ? value / baseline : std::nan("");
      }
      row.values.push_back(value);
      for (size_t a = 0; a < claim.also.size(); ++a) row.also[a].push_back(run.values[1 + a]);
    }
    seeds.clear();
    raw[claim.id] = rawValues;
    if (!p.shown) return;
    row.verdict = scenes::judge(claim, row.values);
    if (claim.mustHold && !row.verdict.holds) mustHoldFailed = true;

    const Spread sp = spread(row.values);
    std::printf("%-36s %s%s\n", claim.id, claim.statement, claim.mustHold ? "  [must hold]" : "");
    if (sp.finite)
      std::printf("    %s: %s (%s .. %s)  ->  %s\n", claim.rule.metric, scenes::formatValue(claim, sp.mean).c_str(),
                  number(sp.min).c_str(), number(sp.max).c_str(), row.verdict.text.c_str());
    else
      std::printf("    %s: n/a  ->  %s\n", claim.rule.metric, row.verdict.text.c_str());
    for (size_t a = 0; a < claim.also.size(); ++a) {
      const Spread s = spread(row.also[a]);
      std::printf("    also %s: %s (%s .. %s)\n", claim.also[a], number(s.mean).c_str(), number(s.min).c_str(),
                  number(s.max).c_str());
    }
    std::fflush(stdout);
    rows.push_back(std::move(row));
  };
  experiments::RunOptions run;
  run.cancel = &stop;
  experiments::runJobs(jobs, run, onResult);
  if (!failure.empty()) {
    std::fprintf(stderr, "crowdlab claims: %s\n", failure.c_str());
    return 1;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  int held = 0;
  for (const Row& r : rows) held += r.verdict.holds ? 1 : 0;
  std::printf("%d of %zu claims hold (%d seeds each, %.0f s)%s\n", held, rows.size(), o.seeds, seconds,
              mustHoldFailed ? "; a must-hold claim FAILED" : "");

  if (!o.csv.empty()) {
    // Written whole through a temporary (or straight to a device or pipe); a full disk or /dev/full
    // is an error with the path and the reason, never an empty file and exit 0.
    std::ostringstream f;
    f << "id,scene,seeds,metric,mean,min,max,verdict\n";
    auto line = [&](const Row& r, const char* metric, const std::vector<double>& xs) {
      const Spread s = spread(xs);
      f << r.claim->id << ',' << r.claim->scene << ',' << xs.size() << ',' << metric << ','
        << (s.finite ? number(s.mean) : "nan") << ',' << (s.finite ? number(s.min) : "nan") << ','
        << (s.finite ? number(s.max) : "nan") << ',' << csvField(r.verdict.text) << '\n';
    };
    for (const Row& r : rows) {
      line(r, r.claim->rule.metric, r.values);
      for (size_t a = 0; a < r.claim->also.size(); ++a) line(r, r.claim->also[a], r.also[a]);
    }
    if (!render::writeFileAtomically(o.csv, f.str(), error)) {
      std::fprintf(stderr, "crowdlab claims: %s\n", error.c_str());
      return 1;
    }
  }
  return mustHoldFailed ? 1 : 0;
}

}  // namespace app
