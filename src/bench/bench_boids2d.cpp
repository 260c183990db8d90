// Case boids2d: one full boids step (grid build + rules + integrate), brute force against the grid.
// Agents start uniform on a torus sized so each has on average 10 others within the perception
// radius; the grid's cell size is that radius. Seeded, and every step is independent of the thread
// count, so checks and neighbour counts repeat exactly from run to run.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include "bench/bench.hpp"
#include "sim/core/lanes.hpp"
#include "sim/models/flock.hpp"

namespace {

constexpr float kRadius = 50.0f;
constexpr double kExpectedNeighbors = 10.0;
constexpr uint64_t kSeed = 2024;
constexpr float kDt = 1.0f / 60.0f;
// Brute force costs N^2 checks a step: 10^10 at N = 100,000, minutes per row. Above this it is
// timed on a flock of kBruteSample agents at the same density and scaled by (N / kBruteSample)^2.
constexpr size_t kBruteLimit = 20000;
constexpr size_t kBruteSample = 4000;
constexpr int kBruteSampleSteps = 20;
constexpr size_t kRatioN = 20000;      // brute vs grid, always measured with the default N list

bench::Row measure(const bench::Options& o, size_t n, sim::NeighborMethod method, int threads) {
  bench::startRow(threads);
  sim::Flock<2> flock;
  flock.world.size = sim::worldForDensity(double(n), 3.14159265358979 * kRadius * kRadius / kExpectedNeighbors, 1.0, 1.0);
  flock.world.boundary = sim::Boundary::Wrap;
  flock.params.perceptionRadius = kRadius;
  flock.method = method;
  flock.cellSize = kRadius;
  flock.spawn(n, kSeed);
  uint64_t checks = 0, neighbors = 0;
  const char* mode = method == sim::NeighborMethod::Grid ? "grid" : "brute";
  char label[96];
  std::snprintf(label, sizeof label, "boids2d n=%zu %s threads=%d", n, mode, threads);
  double ms = bench::timeSteps(o, [&](bool measured) {
    flock.step(kDt);
    if (measured) {
      checks += flock.lastChecks();
      neighbors += flock.lastNeighbors();
    }
  }, label);
  bench::Row r;
  r.caseName = "boids2d";
  r.n = n;
  r.mode = mode;
  r.threads = threads;
  r.steps = o.steps;
  r.medianMsPerStep = ms;
  r.checksPerAgent = double(checks) / (double(n) * double(o.steps));
  r.neighborsPerAgent = double(neighbors) / (double(n) * double(o.steps));
  r.extra = std::string("lanes=") + sim::lanes::name();
  return r;
}

// Brute force at n agents, estimated: measured at kBruteSample agents (same density, the same
// step), scaled by the square of the ratio. Checks per agent are exact (n - 1); neighbours per agent
// keep the sample's value, since the density is the same.
bench::Row estimateBrute(const bench::Options& o, size_t n, int threads) {
  bench::Options sample = o;
  sample.steps = std::min(o.steps, kBruteSampleSteps);
  sample.warmup = std::min(o.warmup, 2);
  bench::Row r = measure(sample, kBruteSample, sim::NeighborMethod::BruteForce, threads);
  const double scale = double(n) / double(kBruteSample);
  r.n = n;
  r.mode = "brute-est";
  r.steps = o.steps;
  r.medianMsPerStep *= scale * scale;
  r.checksPerAgent = double(n - 1);
  char extra[96];
  std::snprintf(extra, sizeof extra, "estimated=brute force timed at n=%zu and scaled by (n/%zu)^2", kBruteSample,
                kBruteSample);
  r.extra = extra;
  const double seconds = r.medianMsPerStep * (o.steps + o.warmup) / 1000.0;
  char duration[32];
  if (seconds < 120) std::snprintf(duration, sizeof duration, "%.0f s", seconds);
  else if (seconds < 7200) std::snprintf(duration, sizeof duration, "%.0f min", seconds / 60);
  else std::snprintf(duration, sizeof duration, "%.1f h", seconds / 3600);
  std::fprintf(stderr,
               "crowdlab bench: boids2d brute force at n=%zu would take about %s for %d steps; "
               "reporting an estimate (mode brute-est) instead\n",
               n, duration, o.steps + o.warmup);
  return r;
}

constexpr std::string_view kKinds[] = {"grid", "brute"};  // --mode

void runBoids2d(const bench::Options& o, std::vector<bench::Row>& rows) {
  const bool defaultN = o.n.empty();
  const bool brute = bench::wantsKind(o, kKinds, "brute"), grid = bench::wantsKind(o, kKinds, "grid");
  std::vector<size_t> ns = defaultN ? std::vector<size_t>{1000, 10000, kRatioN, 100000} : o.n;
  const std::vector<int> threads = bench::threadCounts(o);
  const int maxThreads = *std::max_element(threads.begin(), threads.end());
  const size_t first = rows.size();
  for (size_t n : ns) {
    // The default list gets N = 20,000 only for the brute / grid ratio, at the most threads.
    const std::vector<int> ts = defaultN && n == kRatioN ? std::vector<int>{maxThreads} : threads;
    if (brute && (n <= kBruteLimit || !defaultN))
      for (int t : ts) rows.push_back(n <= kBruteLimit ? measure(o, n, sim::NeighborMethod::BruteForce, t) : estimateBrute(o, n, t));
    if (grid)
      for (int t : ts) rows.push_back(measure(o, n, sim::NeighborMethod::Grid, t));
  }
  for (size_t g = first; g < rows.size(); ++g) {
    if (rows[g].mode != "grid") continue;
    for (size_t b = first; b < rows.size(); ++b) {
      if ((rows[b].mode == "brute" || rows[b].mode == "brute-est") && rows[b].n == rows[g].n &&
          rows[b].threads == rows[g].threads) {
        char extra[64];
        std::snprintf(extra, sizeof extra, "%s=%.1f", rows[b].mode == "brute" ? "brute_over_grid" : "brute_est_over_grid",
                      rows[b].medianMsPerStep / rows[g].medianMsPerStep);
        rows[g].extra = extra;
      }
    }
  }
}

const bool registered = bench::registerCase(
    {"boids2d", "boids step on a torus (10 neighbours each on average): brute force vs uniform grid", &runBoids2d, 96, kKinds});

}  // namespace
