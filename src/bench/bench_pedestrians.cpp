// Case social-force: the pedestrians' periodic corridor (100 m x 10 m at 2 persons/m^2: 2,000 people
// by default, the corridor's length grows with N) stepped by the social force model, and by ORCA on
// the same crowd for comparison. One step here is one integration step of the social force model
// (dt = 1/120 s, one substep: what the scene runs twice per 1/60 s frame), and one ORCA program per
// agent for ORCA (dt = 1/60 s): an agent-step is one evaluation of the method for one agent.
// Each step includes the grid build and the measurement area's sampling. Seeded, and independent
// of the thread count.
#include <algorithm>
#include <cstdio>
#include <string>
#include "bench/bench.hpp"
#include "sim/models/pedestrians.hpp"

namespace {

constexpr float kDensity = 2.0f, kWidth = 10.0f;

bench::Row measure(const bench::Options& o, size_t n, sim::PedMethod method, int threads) {
  bench::startRow(threads);
  sim::PedestrianParams p;
  p.setup = sim::PedSetup::Corridor;
  p.method = method;
  p.density = kDensity;
  p.corridorWidth = kWidth;
  p.corridorLength = std::max(8.0f, float(double(n) / (kDensity * kWidth)));
  p.substeps = 1;
  p.warmup = 0.0f;  // the measurement area is sampled from the first step: its cost is in the figure
  p.seed = 2024;
  const float dt = method == sim::PedMethod::SocialForce ? 1.0f / 120.0f : 1.0f / 60.0f;
  sim::PedestrianSim sim(p);
  const double ms = bench::timeSteps(o, [&](bool) { sim.step(dt); }, std::string("social-force ") + sim::pedMethodName(method));
  bench::Row r;
  r.caseName = "social-force";
  r.n = sim.size();
  r.mode = method == sim::PedMethod::SocialForce ? "sfm" : "orca";
  r.threads = threads;
  r.steps = o.steps;
  r.medianMsPerStep = ms;
  char extra[128];
  std::snprintf(extra, sizeof extra, "dt=%.4f;walking_speed=%.3f;density=%.2f", double(dt), sim.metrics().meanSpeed,
                double(kDensity));
  r.extra = extra;
  return r;
}

constexpr std::string_view kKinds[] = {"sfm", "orca"};

void runSocialForce(const bench::Options& o, std::vector<bench::Row>& rows) {
  const std::vector<size_t> ns = o.n.empty() ? std::vector<size_t>{2000} : o.n;
  for (size_t n : ns)
    for (int t : bench::threadCounts(o)) {
      if (bench::wantsKind(o, kKinds, "sfm")) rows.push_back(measure(o, n, sim::PedMethod::SocialForce, t));
      if (bench::wantsKind(o, kKinds, "orca")) rows.push_back(measure(o, n, sim::PedMethod::Orca, t));
    }
  sim::setThreadCount(0);
}

const bool registered = bench::registerCase(
    {"social-force", "pedestrians in a periodic corridor at 2 /m^2: the social force model against ORCA", &runSocialForce, 400, kKinds});

}  // namespace
