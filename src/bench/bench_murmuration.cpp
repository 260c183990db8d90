// Case murmuration: one step of the 3D murmuration (grid build, the k = 7 nearest of every bird,
// the boids rule, fear and flight) with the scene's defaults, N birds spawned as the scene spawns
// them. Seeded, and every step is independent of the thread count, so the neighbour lists and the
// results repeat exactly from run to run.
#include <cstdio>
#include "bench/bench.hpp"
#include "sim/core/lanes.hpp"
#include "sim/core/parallel.hpp"
#include "sim/models/murmuration.hpp"

namespace {

constexpr uint64_t kSeed = 2024;
constexpr float kDt = 1.0f / 60.0f;

void runMurmuration(const bench::Options& o, std::vector<bench::Row>& rows) {
  const std::vector<size_t> ns = o.n.empty() ? std::vector<size_t>{50000} : o.n;
  for (size_t n : ns) {
    for (int threads : bench::threadCounts(o)) {
      bench::startRow(threads);
      sim::Murmuration<3> flock;
      flock.spawn(n, kSeed);
      char label[64];
      std::snprintf(label, sizeof label, "murmuration n=%zu threads=%d", n, threads);
      const double ms = bench::timeSteps(o, [&](bool) { flock.step(kDt); }, label);
      bench::Row r;
      r.caseName = "murmuration";
      r.n = n;
      r.mode = flock.params.metric ? "metric" : "topological";
      r.threads = threads;
      r.steps = o.steps;
      r.medianMsPerStep = ms;
      r.neighborsPerAgent = double(flock.neighborsOf(0).size());
      r.extra = std::string("lanes=") + sim::lanes::name();
      rows.push_back(r);
    }
  }
}

const bool registered = bench::registerCase(
    {"murmuration", "3D murmuration step: k = 7 nearest, the boids rule, fear (the scene's defaults)",
     &runMurmuration, 290});

}  // namespace
