// RVO2 (github.com/snape/RVO2) on the circle `crowdlab bench --case orca-circle` runs, for the side by
// side table of docs/performance.md. Not part of the build: scripts/rvo2-circle.sh compiles it against
// a fetched RVO2 outside this tree. Prints the median doStep time in ns per agent-step.
#include <RVO.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 250;
  if (n < 2) {
    std::fprintf(stderr, "usage: rvo2-circle N   (threads: OMP_NUM_THREADS)\n");
    return 2;
  }
  // The bench's circle: radius 1.5, neighbour distance 15, 10 neighbours, tau 10, max speed 2,
  // dt 0.25, a circle of radius 200 N / 250 crossed to the opposite point.
  RVO::RVOSimulator sim;
  sim.setTimeStep(0.25f);
  sim.setAgentDefaults(15.0f, 10, 10.0f, 10.0f, 1.5f, 2.0f);
  const float radius = 200.0f * float(n) / 250.0f;
  std::vector<RVO::Vector2> goals;
  for (int i = 0; i < n; ++i) {
    const float a = float(i) * 2.0f * float(M_PI) / float(n);
    const RVO::Vector2 p(radius * std::cos(a), radius * std::sin(a));
    sim.addAgent(p);
    goals.push_back(-p);
  }
  // Large crowds take tens of thousands of steps to meet: they time their first 200 after 20.
  const bool episode = n <= 2000;
  const int warmup = episode ? 0 : 20, maxSteps = episode ? 1000000 : 220;
  std::vector<double> ns;
  int step = 0;
  for (; step < maxSteps; ++step) {
    bool arrived = true;
    for (int i = 0; i < n; ++i) {
      RVO::Vector2 v = goals[size_t(i)] - sim.getAgentPosition(size_t(i));
      if (RVO::absSq(v) > 1.5f * 1.5f) arrived = false;
      if (RVO::absSq(v) > 1.0f) v = RVO::normalize(v);
      sim.setAgentPrefVelocity(size_t(i), v);
    }
    if (episode && arrived) break;
    const auto t0 = std::chrono::steady_clock::now();
    sim.doStep();
    const auto t1 = std::chrono::steady_clock::now();
    if (step >= warmup) ns.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / n);
  }
  std::sort(ns.begin(), ns.end());
  std::printf("rvo2 circle N=%d steps=%d median_ns_per_agent_step=%.1f\n", n, step, ns[ns.size() / 2]);
  return 0;
}
