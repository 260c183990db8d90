// Case finale: the big finale's full step (grid build, neighbours + rules, ORCA, integrate) with 30
// obstacles, ORCA off and on, at the scene's density (the world grows with N); with ORCA off also
// the rule weights from the hand-drawn curves and from the learned function (weights=curves,
// weights=learned: what the learned network costs per agent-step against the curves). Agents start at rest
// on a jittered lattice and chase the world's centre, so the measured steps cover the rush towards
// the target and the first of the crush around it. Seeded, and independent of the thread count.
#include <algorithm>
#include <cstdio>
#include <string>
#include "bench/bench.hpp"
#include "sim/core/lanes.hpp"
#include "sim/models/finale.hpp"
#include "sim/core/parallel.hpp"
#include "sim/core/rng.hpp"

namespace {

constexpr uint64_t kSeed = 2024;
constexpr int kObstacles = 30;
constexpr float kDt = 1.0f / 60.0f;

bench::Row measure(const bench::Options& o, size_t n, bool orca, int threads,
                   sim::WeightMode weights = sim::WeightMode::Constant) {
  bench::startRow(threads);
  sim::FinaleSim s;
  s.params.orca = orca;
  s.params.weightMode = weights;
  sim::Rng rng(kSeed);  // any weights cost the same; these are fixed so the run is
  for (float& w : s.params.learned.w) w = rng.uniform(-1.0f, 1.0f);
  s.world = sim::FinaleSim::worldFor(n);
  s.target = s.world.center();
  s.spawn(0, kSeed);
  const int placed = s.dropObstacles(kObstacles, kSeed);
  s.spawn(n, kSeed);
  uint64_t checks = 0;
  double neighbors = 0, grid = 0, rules = 0, orcaMs = 0, integrate = 0;
  uint64_t infeasible = 0;
  const double ms = bench::timeSteps(o, [&](bool measured) {
    s.step(kDt);
    if (!measured) return;
    const auto& m = s.metrics();
    const auto& t = s.timings();
    checks += m.checks;
    neighbors += m.meanNeighbors;
    infeasible += m.infeasible;
    grid += t.gridMs;
    rules += t.rulesMs;
    orcaMs += t.orcaMs;
    integrate += t.integrateMs;
  });
  const double steps = std::max(1, o.steps);
  bench::Row r;
  r.caseName = "finale";
  r.n = n;
  r.mode = weights == sim::WeightMode::Curves    ? "weights=curves"
           : weights == sim::WeightMode::Learned ? "weights=learned"
           : orca                                ? "orca"
                                                 : "boids";
  r.threads = threads;
  r.steps = o.steps;
  r.medianMsPerStep = ms;
  r.checksPerAgent = double(checks) / (double(n) * steps);
  r.neighborsPerAgent = neighbors / steps;
  char extra[256];
  std::snprintf(extra, sizeof extra,
                "obstacles=%d;grid_ms=%.2f;rules_ms=%.2f;orca_ms=%.2f;integrate_ms=%.2f;infeasible_share=%.3f;overlaps=%llu;lanes=%s",
                placed, grid / steps, rules / steps, orcaMs / steps, integrate / steps,
                double(infeasible) / (double(n) * steps), (unsigned long long)s.metrics().overlaps, sim::lanes::name());
  r.extra = extra;
  return r;
}

constexpr std::string_view kKinds[] = {"boids", "orca", "weights"};  // --mode

void runFinale(const bench::Options& o, std::vector<bench::Row>& rows) {
  const std::vector<size_t> ns = o.n.empty() ? std::vector<size_t>{10000, 20000, 100000} : o.n;
  const std::vector<int> threads = bench::threadCounts(o);
  const size_t first = rows.size();
  for (size_t n : ns)
    for (int t : threads) {
      if (bench::wantsKind(o, kKinds, "boids")) rows.push_back(measure(o, n, false, t));
      if (bench::wantsKind(o, kKinds, "orca")) rows.push_back(measure(o, n, true, t));
      if (!bench::wantsKind(o, kKinds, "weights")) continue;
      const bench::Row curves = measure(o, n, false, t, sim::WeightMode::Curves);
      bench::Row learned = measure(o, n, false, t, sim::WeightMode::Learned);
      char s[64];
      std::snprintf(s, sizeof s, ";vs_curves=%.3f", learned.medianMsPerStep / curves.medianMsPerStep);
      learned.extra += s;
      rows.push_back(curves);
      rows.push_back(learned);
    }
  // Each row with more threads than the fewest measured gets its speed-up over that one.
  const int fewest = *std::min_element(threads.begin(), threads.end());
  for (size_t i = first; i < rows.size(); ++i) {
    if (rows[i].threads == fewest) continue;
    for (size_t b = first; b < rows.size(); ++b)
      if (rows[b].threads == fewest && rows[b].n == rows[i].n && rows[b].mode == rows[i].mode) {
        char s[64];
        std::snprintf(s, sizeof s, ";speedup_vs_%dt=%.2f", fewest, rows[b].medianMsPerStep / rows[i].medianMsPerStep);
        rows[i].extra += s;
      }
  }
  sim::setThreadCount(0);
}

const bool registered = bench::registerCase(
    {"finale", "big finale step (arrive, boids, ORCA, 30 obstacles): ORCA off and on, chasing the centre", &runFinale, 224, kKinds});

}  // namespace
