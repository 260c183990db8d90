// Case orca-circle: N ORCA agents on a circle walk to the antipodal point, the classic ORCA
// example's set-up (radius 1.5, neighbour distance 15, 10 neighbours, tau = tau_obst = 10, max
// speed 2, dt 0.25, preferred velocity towards the goal at unit speed), on a circle of radius
// 200 * N / 250 so that agents start as far apart as the 250 of the original on radius 200.
//
// The whole episode is the interesting part (the crowd meets in the middle long after the start),
// so for N <= 2000 each row runs it to the end: every agent within one radius of its goal, or 60k
// steps. Larger circles need tens of thousands of steps to meet; they run the measured steps only
// (--warmup + --steps from the start) and say so with steps_to_arrive=-1. The median is over the
// steps run. Rows carry steps_to_arrive, min_distance_ratio (closest pair ever / 2r) and
// overlap_pair_steps (pairs closer than 0.99 * 2r, summed over steps).
//
// Preferred velocities turn right when an agent is blocked (orca::keepRightWhenBlocked): with the
// one-step separation planes nobody squeezes through the jam in the middle any more, and without a
// common passing side the perfectly symmetric crowd would stand there for good. One more row,
// mode "classic", runs the circle of 250 as the classic implementation does (no Step planes, no
// turning), for comparison.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include "bench/bench.hpp"
#include "sim/models/orca_crowd.hpp"

namespace {

constexpr float kDt = 0.25f;
constexpr float kKeepRight = 1.0f;      // radians, for a fully blocked agent
constexpr size_t kFullEpisodeMaxN = 2000;
constexpr int kMaxEpisodeSteps = 60000;

struct Episode {
  int steps = 0;
  bool arrived = false;
  uint64_t overlaps = 0, checks = 0, neighbors = 0;
  float minDistance = 3.4e38f;
  std::vector<double> ms;
};

Episode runCircle(size_t n, int warmup, int maxSteps, bool classic) {
  sim::orca::Crowd c;
  c.params = {1.5f, 2.0f, 10.0f, 10.0f, 15.0f, 10};
  c.stepSafety = !classic;
  c.resize(n);
  const float circle = 200.0f * float(n) / 250.0f;
  std::vector<sim::Vec2> goal(n);
  for (size_t i = 0; i < n; ++i) {
    const float a = 6.28318530718f * float(i) / float(n);
    c.positions()[i] = sim::Vec2{std::cos(a), std::sin(a)} * circle;
    c.velocities()[i] = sim::Vec2{0.0f};
    goal[i] = -c.positions()[i];
  }
  Episode e;
  e.ms.reserve(size_t(maxSteps));
  const float r2 = c.params.radius * c.params.radius;
  char label[64];
  std::snprintf(label, sizeof label, "orca-circle n=%zu%s", n, classic ? " classic" : "");
  bench::Progress progress(label, warmup + maxSteps);
  for (; e.steps < warmup + maxSteps; ++e.steps, progress.tick(e.steps)) {
    bool all = true;
    for (size_t i = 0; i < n; ++i) {
      const sim::Vec2 g = goal[i] - c.positions()[i];
      const float d2 = glm::dot(g, g);
      all = all && d2 <= r2;
      const sim::Vec2 pref = d2 > 1.0f ? g / std::sqrt(d2) : g;
      c.preferred()[i] = classic ? pref : sim::orca::keepRightWhenBlocked(pref, c.velocities()[i], kKeepRight);
    }
    if (all) {
      e.arrived = true;
      break;
    }
    const auto t0 = std::chrono::steady_clock::now();
    c.step(kDt);
    const auto t1 = std::chrono::steady_clock::now();
    if (e.steps >= warmup) {
      e.ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
      e.checks += c.lastStats().checks;
      e.neighbors += c.lastStats().neighbors;
    }
    e.overlaps += c.lastStats().overlaps;  // of the state this step started from
    e.minDistance = std::min(e.minDistance, c.lastStats().minDistance);
  }
  progress.finish();
  const sim::orca::Crowd::Stats last = c.measure();  // the final state
  e.overlaps += last.overlaps;
  e.minDistance = std::min(e.minDistance, last.minDistance);
  return e;
}

bench::Row row(size_t n, const char* mode, int threads, Episode& e) {
  bench::Row r;
  r.caseName = "orca-circle";
  r.n = n;
  r.mode = mode;
  r.threads = threads;
  r.steps = int(e.ms.size());
  r.medianMsPerStep = bench::medianMs(e.ms);
  const double agentSteps = double(n) * double(std::max<size_t>(e.ms.size(), 1));
  r.checksPerAgent = double(e.checks) / agentSteps;
  r.neighborsPerAgent = double(e.neighbors) / agentSteps;
  char extra[160], ratio[32] = "n/a";  // one agent has no pair: no closest distance to report
  if (n >= 2) std::snprintf(ratio, sizeof ratio, "%.4f", double(e.minDistance) / 3.0);
  std::snprintf(extra, sizeof extra, "steps_to_arrive=%d;min_distance_ratio=%s;overlap_pair_steps=%llu",
                e.arrived ? e.steps : -1, ratio, static_cast<unsigned long long>(e.overlaps));
  r.extra = extra;
  return r;
}

constexpr std::string_view kKinds[] = {"orca", "classic"};  // --mode

void runOrcaCircle(const bench::Options& o, std::vector<bench::Row>& rows) {
  const std::vector<size_t> ns = o.n.empty() ? std::vector<size_t>{250, 2000, 10000} : o.n;
  const std::vector<int> threads = bench::threadCounts(o);
  for (size_t n : ns) {
    if (!bench::wantsKind(o, kKinds, "orca")) break;
    const bool full = n <= kFullEpisodeMaxN;
    for (int t : threads) {
      bench::startRow(t);
      Episode e = full ? runCircle(n, 0, kMaxEpisodeSteps, false) : runCircle(n, o.warmup, o.steps, false);
      rows.push_back(row(n, "orca", t, e));
    }
  }
  const bool at250 = o.n.empty() || std::find(o.n.begin(), o.n.end(), size_t(250)) != o.n.end();
  if (o.mode == "classic" && !at250)
    std::fprintf(stderr, "crowdlab bench: orca-circle's classic row runs at --n 250 only\n");
  if (at250 && bench::wantsKind(o, kKinds, "classic")) {
    const int t = *std::max_element(threads.begin(), threads.end());
    bench::startRow(t);
    Episode e = runCircle(250, 0, kMaxEpisodeSteps, true);
    rows.push_back(row(250, "classic", t, e));
  }
  sim::setThreadCount(0);
}

const bool registered = bench::registerCase(
    {"orca-circle", "ORCA agents on a circle swap to the antipodes (the classic example, density kept for any N)",
     &runOrcaCircle, 144, kKinds});

}  // namespace
