#include "app/claims_cmd.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include "scenes/claims.hpp"

namespace app {

namespace {

constexpr const char* kUsage = "usage: crowdlab claims [--scene NAME] [--seeds N] [--first-seed S] [--csv FILE]";

struct ClaimsOptions {
  std::string scene, csv;
  int seeds = 3;
  uint64_t firstSeed = 1;  // seeds firstSeed .. firstSeed + seeds - 1
};

bool parse(const std::vector<std::string>& args, ClaimsOptions& o, std::string& error) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a != "--scene" && a != "--seeds" && a != "--first-seed" && a != "--csv") {
      error = "unknown option '" + a + "'";
      return false;
    }
    if (i + 1 >= args.size()) {
      error = a + " needs a value";
      return false;
    }
    const std::string& v = args[++i];
    if (a == "--scene") {
      if (!scenes::findScene(v)) {
        error = "unknown scene '" + v + "' (scenes: " + scenes::sceneNames() + ")";
        return false;
      }
      o.scene = v;
    } else if (a == "--csv") {
      o.csv = v;
    } else {
      const bool seeds = a == "--seeds";
      const long long hi = seeds ? 1000 : 1000000000;
      errno = 0;
      char* end = nullptr;
      const long long n = std::strtoll(v.c_str(), &end, 10);
      if (v.empty() || *end != '\0' || errno == ERANGE || n < 1 || n > hi) {
        error = a + " expects a whole number from 1 to " + std::to_string(hi) + ", got '" + v + "'";
        return false;
      }
      if (seeds) o.seeds = int(n);
      else o.firstSeed = uint64_t(n);
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
  const auto t0 = std::chrono::steady_clock::now();
  std::map<std::string, std::vector<double>> raw;  // claim id -> per-seed window value, for relativeTo
  std::vector<Row> rows;
  bool mustHoldFailed = false;
  for (const scenes::Claim& claim : scenes::allClaims()) {
    if (!o.scene.empty() && o.scene != claim.scene) continue;
    if (claim.needsWindow) {  // its figures come from frames OpenGL draws: no headless run measures them
      std::printf("%-36s %s\n    measured in a window only (OpenGL frames): crowdlab --claim %s\n", claim.id, claim.statement,
                  claim.id);
      continue;
    }
    Row row{&claim, {}, std::vector<std::vector<double>>(claim.also.size()), {}};
    std::vector<double> rawValues;
    for (int s = 0; s < o.seeds; ++s) {
      const uint64_t seed = o.firstSeed + uint64_t(s);
      double baseline = 0.0;
      if (*claim.relativeTo) {
        auto it = raw.find(claim.relativeTo);
        if (it != raw.end() && size_t(s) < it->second.size()) {
          baseline = it->second[size_t(s)];
        } else if (const scenes::Claim* base = scenes::findClaim(claim.relativeTo)) {
          baseline = scenes::runClaim(*base, seed).raw;
        }
      }
      scenes::ClaimRun run = scenes::runClaim(claim, seed, baseline);
      if (!run.ok) {
        std::fprintf(stderr, "crowdlab claims: %s\n", run.error.c_str());
        return 1;
      }
      rawValues.push_back(run.raw);
      row.values.push_back(run.value);
      for (size_t a = 0; a < run.also.size(); ++a) row.also[a].push_back(run.also[a]);
    }
    raw[claim.id] = rawValues;
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
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  int held = 0;
  for (const Row& r : rows) held += r.verdict.holds ? 1 : 0;
  std::printf("%d of %zu claims hold (%d seeds each, %.0f s)%s\n", held, rows.size(), o.seeds, seconds,
              mustHoldFailed ? "; a must-hold claim FAILED" : "");

  if (!o.csv.empty()) {
    std::ofstream f(o.csv);
    if (!f) {
      std::fprintf(stderr, "crowdlab claims: cannot write %s\n", o.csv.c_str());
      return 1;
    }
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
    if (!f) {
      std::fprintf(stderr, "crowdlab claims: cannot write %s\n", o.csv.c_str());
      return 1;
    }
  }
  return mustHoldFailed ? 1 : 0;
}

}  // namespace app
