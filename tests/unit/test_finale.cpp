// The big finale's crowd: the pipeline's order on one agent, a long ORCA run with obstacles (no
// overlap, nobody inside an obstacle, no NaN), determinism across thread counts, no allocation per
// step, level of detail, density-aware weights, and the grid against brute force.
#include <gtest/gtest.h>
#include "avx2_skip.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <span>
#include <vector>
#include "alloc_counter.hpp"
#include "sim/core/lanes.hpp"
#include "sim/models/finale.hpp"
#include "sim/models/orca_crowd.hpp"
#include "sim/rules/orca.hpp"
#include "sim/core/parallel.hpp"
#include "sim/core/rng.hpp"

using namespace sim;

namespace {

constexpr float kDt = 1.0f / 60.0f;

bool finite(const Vec2& v) { return std::isfinite(v.x) && std::isfinite(v.y); }

// A crowd the way the scene makes one: obstacles first, then agents clear of them.
FinaleSim crowd(size_t n, int obstacles, uint64_t seed = 7) {
  FinaleSim s;
  s.world = FinaleSim::worldFor(n);
  s.target = s.world.center();
  s.spawn(0, seed);
  if (obstacles) s.dropObstacles(obstacles, seed);
  s.spawn(n, seed);
  return s;
}

// Agent `id`'s index in the current (cell) order.
size_t indexOf(const FinaleSim& s, uint32_t id) {
  for (size_t k = 0; k < s.size(); ++k)
    if (s.ids()[k] == id) return k;
  return s.size();
}

// One step from a given state, with the given settings applied to a fresh crowd.
template <class Configure>
FinaleSim stepFrom(const FinaleSim& warm, std::span<const Vec2> positions, std::span<const Vec2> velocities,
                   Configure&& configure) {
  FinaleSim s;
  s.world = warm.world;
  s.target = warm.target;
  s.setObstacles(warm.obstacles());
  s.setAgents(positions, velocities);
  configure(s);
  s.step(kDt);
  return s;
}

// A crowded state to step from: 1500 agents after two seconds of chasing the target.
struct Snapshot {
  FinaleSim warm;
  std::vector<Vec2> positions, velocities;
};
Snapshot crowdedSnapshot() {
  Snapshot snap{crowd(1500, 10), {}, {}};
  for (int i = 0; i < 120; ++i) snap.warm.step(kDt);
  snap.positions.assign(snap.warm.positions().begin(), snap.warm.positions().end());
  snap.velocities.assign(snap.warm.velocities().begin(), snap.warm.velocities().end());
  return snap;
}

// Largest velocity difference between two crowds, agent by agent (ids match agents up).
double worstVelocityGap(const FinaleSim& a, const FinaleSim& b) {
  double worst = 0;
  for (size_t k = 0; k < a.size(); ++k) {
    const size_t j = indexOf(b, a.ids()[k]);
    worst = std::max(worst, double(glm::length(a.velocities()[k] - b.velocities()[j])));
  }
  return worst;
}

// Two steps from the same state that must see the same neighbours; their sums run in another
// order, so the velocities agree closely rather than bitwise.
void expectSameNeighboursAndVelocities(const FinaleSim& a, const FinaleSim& b) {
  EXPECT_EQ(a.metrics().meanNeighbors, b.metrics().meanNeighbors);
  EXPECT_EQ(a.metrics().maxNeighbors, b.metrics().maxNeighbors);
  EXPECT_EQ(a.metrics().overlaps, b.metrics().overlaps);
  EXPECT_LT(worstVelocityGap(a, b), 0.01);
}
}  // namespace

// One agent with known neighbours: the step hands ORCA the boids-corrected preferred velocity,
// not the steering one, and ends with what ORCA makes of it.
TEST(FinalePipeline, OrcaReceivesTheBoidsCorrectedPreferredVelocity) {
  setThreadCount(1);
  FinaleSim s;
  s.world = FinaleSim::worldFor(100);  // 1280 x 720, walls far from everyone
  s.target = {900.0f, 360.0f};
  // Agent 0 heads for the target. Neighbour 1 is just inside the separation radius and ahead of it,
  // slower (ORCA must act), but beyond one step's reach (no one-step plane, so the step's program is
  // exactly orca::newVelocity's); 2 is an ORCA neighbour; 3 only counts for alignment and cohesion.
  // The neighbours drift up the screen, so alignment bends the corrected velocity sideways, along
  // ORCA's constraint, where it changes ORCA's answer.
  const std::vector<Vec2> positions = {{640, 360}, {650, 355}, {630, 372}, {655, 375}};
  const std::vector<Vec2> velocities = {{60, 0}, {20, 60}, {40, 70}, {10, 90}};
  s.setAgents(positions, velocities);
  const FinaleParams& p = s.params;
  ASSERT_GT(glm::length(positions[1] - positions[0]), 2.0f * p.agentRadius + 2.0f * p.maxSpeed * kDt);
  ASSERT_LT(glm::length(positions[1] - positions[0]), p.separationRadius);

  // The reference: the pipeline run stage by stage on the state before the step.
  BruteForceSearch<2> brute{positions, &s.world};
  const PipelineVelocities ref =
      agentPipeline(p, 0, positions[0], velocities[0], s.target, brute, velocities, s.obstacles(), s.orcaObstacles(),
                    true, kDt);
  s.step(kDt);
  const PipelineVelocities got = s.lastPipeline(indexOf(s, 0));

  EXPECT_TRUE(got.orcaTier);
  EXPECT_EQ(got.neighbors, 3);
  EXPECT_EQ(got.orcaInput, got.boidsCorrected);  // what ORCA was given
  EXPECT_GT(glm::length(got.boidsCorrected - got.preferred), 1.0f) << "the boids rules should change it";
  EXPECT_LT(glm::length(got.preferred - ref.preferred), 1e-4f);
  EXPECT_LT(glm::length(got.boidsCorrected - ref.boidsCorrected), 1e-3f);
  EXPECT_LT(glm::length(got.final - ref.final), 1e-3f);

  // ORCA's answer for the corrected velocity is the agent's new velocity; for the bare steering
  // one it would have been another.
  const orca::Params op = p.orcaParams();
  const Vec2 fromCorrected =
      orca::newVelocity(0, positions[0], velocities[0], got.boidsCorrected, brute, velocities, s.orcaObstacles(), op, kDt).velocity;
  const Vec2 fromPreferred =
      orca::newVelocity(0, positions[0], velocities[0], got.preferred, brute, velocities, s.orcaObstacles(), op, kDt).velocity;
  EXPECT_LT(glm::length(got.final - fromCorrected), 1e-3f);
  EXPECT_GT(glm::length(got.final - fromPreferred), 1.0f);
  EXPECT_GT(glm::length(got.final - got.boidsCorrected), 1.0f) << "ORCA should have clipped it";
  const size_t k = indexOf(s, 0);
  EXPECT_EQ(s.velocities()[k], got.final);
  setThreadCount(0);
}

// ORCA on, 2,000 agents chasing a fixed target for 60 s of simulated time among 30 obstacles.
TEST(FinaleCrowd, OrcaKeepsTwoThousandAgentsApartAndOutOfObstaclesForAMinute) {
  FinaleSim s = crowd(2000, 30);
  ASSERT_GE(s.obstacles().size(), 25u);
  s.target = s.world.min + s.world.size * Vec2{0.7f, 0.45f};
  auto meanDistance = [&] {
    double sum = 0;
    for (const Vec2& q : s.positions()) sum += glm::length(q - s.target);
    return sum / double(s.size());
  };
  const double before = meanDistance();
  ASSERT_EQ(s.countOverlaps(), 0u);
  ASSERT_EQ(s.countInObstacle(), 0u);
  for (int i = 0; i < 3600; ++i) {
    s.step(kDt);
    const auto& m = s.metrics();
    // overlaps: pairs closer than 0.99 * 2r at the start of the step; the others after it.
    ASSERT_EQ(m.overlaps, 0u) << "step " << i;
    ASSERT_EQ(m.inObstacle, 0u) << "step " << i;
    ASSERT_EQ(m.nanCount, 0u) << "step " << i;
    ASSERT_EQ(m.orcaTier, 2000u);
  }
  EXPECT_EQ(s.countOverlaps(), 0u);
  EXPECT_EQ(s.countInObstacle(), 0u);
  for (size_t k = 0; k < s.size(); ++k) ASSERT_TRUE(finite(s.positions()[k]) && finite(s.velocities()[k]));
  EXPECT_LT(meanDistance(), 0.5 * before) << "the crowd should have gathered at the target";
}

// Same seed, 1 thread or 2: the same bits after 300 steps, in every mode.
TEST(FinaleDeterminism, OneAndTwoThreadsGiveBitwiseIdenticalState) {
  struct Mode {
    const char* name;
    size_t n;
    bool orca, lod;
    WeightMode weights;
    bool hash;
  };
  const Mode modes[] = {{"orca", 3000, true, false, WeightMode::Constant, true},
                        {"lod + density", 3000, true, true, WeightMode::Curves, true},
                        {"boids, learned weights", 3000, false, false, WeightMode::Learned, true},
                        {"boids, brute force", 600, false, false, WeightMode::Curves, false}};
  for (const Mode& mode : modes) {
    SCOPED_TRACE(mode.name);
    auto run = [&](int threads) {
      setThreadCount(threads);
      FinaleSim s = crowd(mode.n, 20, 3);
      s.params.orca = mode.orca;
      s.params.lod = mode.lod;
      s.params.lodRadius = 150.0f;
      s.params.weightMode = mode.weights;
      Rng weights(5);
      for (float& w : s.params.learned.w) w = weights.uniform(-1.5f, 1.5f);
      s.params.spatialHash = mode.hash;
      s.target = s.world.min + s.world.size * Vec2{0.3f, 0.6f};
      for (int i = 0; i < 300; ++i) s.step(kDt);
      return s;
    };
    const FinaleSim one = run(1), two = run(2);
    setThreadCount(0);
    ASSERT_EQ(one.size(), two.size());
    EXPECT_EQ(std::memcmp(one.positions().data(), two.positions().data(), one.size() * sizeof(Vec2)), 0);
    EXPECT_EQ(std::memcmp(one.velocities().data(), two.velocities().data(), one.size() * sizeof(Vec2)), 0);
    EXPECT_EQ(std::memcmp(one.ids().data(), two.ids().data(), one.size() * sizeof(uint32_t)), 0);
    EXPECT_EQ(one.metrics().meanSpeed, two.metrics().meanSpeed);
    EXPECT_EQ(one.metrics().overlaps, two.metrics().overlaps);
  }
}

// A oneTBB loop's fork and join costs more than a second thread saves in a very short step: below
// 200 agents the step keeps to one thread, above it uses both.
TEST(FinaleThreads, AStepTooShortToPayForASecondThreadKeepsToOne) {
  if (hardwareThreads() < 2) GTEST_SKIP() << "one core";
  const ScopedThreadCount two(2);
  // Steps until a second thread has done some of the work, or `steps` steps: on a busy machine a
  // worker may not be scheduled for a while and the caller takes every chunk itself, so "two" gets
  // many steps and "one" fifty.
  auto threadsFor = [](size_t n, bool orca, int steps) {
    FinaleSim s = crowd(n, 20, 3);
    s.params.orca = orca;
    resetThreadsAtWork();
    for (int i = 0; i < steps && threadsAtWork() < 2; ++i) s.step(kDt);
    return threadsAtWork();
  };
  for (const bool orca : {false, true}) {
    EXPECT_EQ(threadsFor(130, orca, 50), 1) << (orca ? "ORCA on" : "ORCA off");
    EXPECT_EQ(threadsFor(1000, orca, 5000), 2) << (orca ? "ORCA on" : "ORCA off");
  }
}

TEST(FinaleAllocation, NoAllocationPerStep) {
  struct Mode {
    bool orca, lod, hash;
    WeightMode weights = WeightMode::Constant;
  };
  for (Mode mode : {Mode{true, false, true}, Mode{true, true, true}, Mode{false, false, true}, Mode{true, false, false},
                    Mode{false, false, true, WeightMode::Learned}}) {
    FinaleSim s = crowd(mode.hash ? 1500 : 400, 30);
    s.params.orca = mode.orca;
    s.params.lod = mode.lod;
    s.params.spatialHash = mode.hash;
    s.params.weightMode = mode.weights;
    s.params.learned.w.fill(0.3f);
    for (int i = 0; i < 3; ++i) s.step(kDt);
    const uint64_t before = allocationCount();
    for (int i = 0; i < 5; ++i) s.step(kDt);
    EXPECT_EQ(allocationCount() - before, 0u) << "orca " << mode.orca << " lod " << mode.lod << " hash " << mode.hash;
  }
}

// The learned weight function's softplus (its own exp and log1p, + - * / only) against the library's.
TEST(FinaleLearned, SoftplusMatchesTheLibrary) {
  for (float x = -30.0f; x <= 30.0f; x += 0.0625f) {
    const double want = x > 0 ? x + std::log1p(std::exp(-double(x))) : std::log1p(std::exp(double(x)));
    EXPECT_NEAR(LearnedNet<ScalarOps>::softplus(x), want, 2e-6 * std::max(1.0, want)) << x;
  }
  EXPECT_TRUE(std::isfinite(LearnedNet<ScalarOps>::softplus(std::nanf(""))));
}

// A network of zeros multiplies every weight by exactly 1: the learned mode then steps bit for bit
// like the constant weights. Other weights change the crowd, and the agents' weights differ with
// their situation (a function of it, not one more constant).
TEST(FinaleLearned, ZeroNetworkIsTheConstantWeightsAndTrainedOnesAreNot) {
  auto run = [](WeightMode mode, float weight) {
    FinaleSim s = crowd(800, 0);
    s.params.orca = false;
    s.params.weightMode = mode;
    for (size_t i = 0; i < s.params.learned.w.size(); ++i) s.params.learned.w[i] = weight * float(int(i % 7) - 3);
    for (int i = 0; i < 90; ++i) s.step(kDt);
    return s;
  };
  const FinaleSim constant = run(WeightMode::Constant, 0.0f), zero = run(WeightMode::Learned, 0.0f),
                  learned = run(WeightMode::Learned, 0.4f);
  EXPECT_EQ(std::memcmp(constant.positions().data(), zero.positions().data(), constant.size() * sizeof(Vec2)), 0);
  EXPECT_NE(std::memcmp(constant.positions().data(), learned.positions().data(), constant.size() * sizeof(Vec2)), 0);
  float lo = 1e9f, hi = -1e9f;
  for (size_t k = 0; k < learned.size(); ++k) {
    const Vec3 w = learned.lastPipeline(k).weights;
    lo = std::min(lo, w.x), hi = std::max(hi, w.x);
    EXPECT_EQ(zero.lastPipeline(k).weights, Vec3(zero.params.weights.separation, zero.params.weights.alignment, zero.params.weights.cohesion));
  }
  EXPECT_GT(hi - lo, 0.05f) << "separation weights should vary with the agents' situations";
}

// Arrival: every agent is counted once it first comes within the arrival radius; the mean counts
// the others at the current time.
TEST(FinaleArrival, ArrivalTimesAreFirstVisitsWithinTheRadius) {
  FinaleSim s = crowd(300, 0);
  s.params.orca = false;
  EXPECT_EQ(s.metrics().arrivedShare, 0.0);
  double lastMean = 0;
  for (int i = 0; i < 1800; ++i) {
    s.step(kDt);
    EXPECT_GE(s.metrics().meanArrivalSeconds, lastMean - 1e-9);  // never decreases
    EXPECT_LE(s.metrics().meanArrivalSeconds, s.time() + 1e-6);
    lastMean = s.metrics().meanArrivalSeconds;
  }
  EXPECT_GT(s.metrics().arrivedShare, 0.5);
  EXPECT_GT(s.metrics().meanArrivalSeconds, 1.0);
  EXPECT_NEAR(s.time(), 30.0, 1e-3);
}

// Level of detail: ORCA exactly for the agents within the radius of the target when the step began.
TEST(FinaleLod, TiersSplitAtTheRadius) {
  FinaleSim s = crowd(2000, 0);
  s.params.lod = true;
  s.params.lodRadius = 200.0f;
  s.target = s.world.center();
  s.step(kDt);  // the agents now sit in cell order, as the next step sees them
  std::vector<Vec2> start(s.positions().begin(), s.positions().end());
  std::vector<uint32_t> ids(s.ids().begin(), s.ids().end());
  uint32_t inside = 0;
  for (const Vec2& q : start) inside += glm::length(q - s.target) <= 200.0f;
  s.step(kDt);
  const auto& m = s.metrics();
  EXPECT_EQ(m.orcaTier, inside);
  EXPECT_EQ(m.orcaTier + m.boidsTier, 2000u);
  EXPECT_GT(m.orcaTier, 0u);
  EXPECT_GT(m.boidsTier, 0u);
  for (size_t k = 0; k < s.size(); ++k) {
    const size_t before = size_t(std::find(ids.begin(), ids.end(), s.ids()[k]) - ids.begin());
    EXPECT_EQ(s.orcaTier()[k] != 0, glm::length(start[before] - s.target) <= 200.0f);
  }
}

TEST(FinaleDensity, WeightsAreInterpolatedBetweenSamples) {
  DensityWeights d;
  d.neighborsPerSample = 2.0f;
  for (int b = 0; b < DensityWeights::kSamples; ++b) {
    d.separation[size_t(b)] = float(b);
    d.alignment[size_t(b)] = 1.0f;
    d.cohesion[size_t(b)] = float(10 - b);
  }
  EXPECT_EQ(d.at(0.0f), Vec3(0.0f, 1.0f, 10.0f));
  EXPECT_EQ(d.at(4.0f), Vec3(2.0f, 1.0f, 8.0f));
  const Vec3 mid = d.at(5.0f);  // halfway between samples 2 and 3
  EXPECT_FLOAT_EQ(mid.x, 2.5f);
  EXPECT_FLOAT_EQ(mid.z, 7.5f);
  EXPECT_EQ(d.at(1000.0f), Vec3(7.0f, 1.0f, 3.0f));  // beyond the last sample: the last
  EXPECT_EQ(d.at(-3.0f), d.at(0.0f));
}

// More separation in a crush: with boids alone, the default density-aware curves keep the crowd at
// the target less crushed than the fixed weights do.
TEST(FinaleDensity, DensityAwareWeightsEaseTheCrush) {
  auto run = [](bool densityAware) {
    FinaleSim s = crowd(2000, 0);
    s.params.orca = false;
    s.params.weightMode = densityAware ? WeightMode::Curves : WeightMode::Constant;
    for (int i = 0; i < 600; ++i) s.step(kDt);
    return s.metrics();
  };
  const auto fixed = run(false), aware = run(true);
  EXPECT_LT(aware.meanNeighbors, 0.8 * fixed.meanNeighbors);
  EXPECT_LT(double(aware.overlaps), 0.8 * double(fixed.overlaps));
}

// The grid finds exactly the neighbours brute force finds, in a crowded state.
TEST(FinaleSearch, GridAndBruteForceSeeTheSameNeighbours) {
  const Snapshot snap = crowdedSnapshot();
  auto stepOnce = [&](bool hash) {
    return stepFrom(snap.warm, snap.positions, snap.velocities, [&](FinaleSim& f) { f.params.spatialHash = hash; });
  };
  const FinaleSim grid = stepOnce(true), brute = stepOnce(false);
  EXPECT_GT(grid.metrics().meanNeighbors, 5.0);
  expectSameNeighboursAndVelocities(grid, brute);
}

// The AVX2 and AVX-512 (where the CPU has them) and the baseline builds of the lane kernels run the same 8 lanes
// summed in the same order: the same bits after many steps, with ORCA off and on.
TEST(FinaleKernels, Avx2AndBaselineLanesGiveTheSameBits) {
  CROWDLAB_SKIP_WITHOUT_AVX2();
  for (bool orca : {false, true}) {
    SCOPED_TRACE(orca ? "orca" : "boids");
    auto run = [&](lanes::Level level) {
      lanes::setLevel(level);
      FinaleSim s = crowd(1500, 10);
      s.params.orca = orca;
      for (int i = 0; i < 60; ++i) s.step(kDt);
      lanes::setWide(true);
      return s;
    };
    const FinaleSim baseline = run(lanes::Level::Baseline);
    EXPECT_GT(baseline.metrics().meanNeighbors, 2.0);
    for (const lanes::Level level : lanes::available().subspan(1)) {  // AVX2, and AVX-512 where the CPU has it
      SCOPED_TRACE(int(level));
      const FinaleSim wide = run(level);
      ASSERT_EQ(wide.size(), baseline.size());
      EXPECT_EQ(std::memcmp(wide.positions().data(), baseline.positions().data(), wide.size() * sizeof(Vec2)), 0);
      EXPECT_EQ(std::memcmp(wide.velocities().data(), baseline.velocities().data(), wide.size() * sizeof(Vec2)), 0);
    }
  }
}

// A crush so dense that one query block holds more candidates than the per-cell candidate buffer:
// those agents scan their rows in place, and still see exactly what brute force sees.
TEST(FinaleSearch, OverfullBlocksStillSeeEveryNeighbour) {
  FinaleSim warm = crowd(1500, 0);
  std::vector<Vec2> positions;
  Rng rng(5, 1);
  const Vec2 c = warm.world.center();
  for (int i = 0; i < 3000; ++i) positions.push_back(rng.inBox(c - 30.0f, c + 30.0f));  // within 3x3 cells of 25
  const std::vector<Vec2> velocities(positions.size(), Vec2{0.0f});
  const FinaleSim grid = stepFrom(warm, positions, velocities, [](FinaleSim& f) { f.params.orca = false; });
  const FinaleSim brute = stepFrom(warm, positions, velocities, [](FinaleSim& f) {
    f.params.orca = false;
    f.params.spatialHash = false;
  });
  EXPECT_GT(grid.metrics().maxNeighbors, 300u);
  // Most agents' blocks hold more candidates than the buffer (1024) takes.
  EXPECT_GT(double(grid.metrics().checks) / double(grid.size()), 1024.0);
  expectSameNeighboursAndVelocities(grid, brute);
}

// One ORCA program builder (orca::buildProgram): the finale and orca::Crowd (the corridor's and the
// circle bench's engine) given the same agents, obstacles and preferred velocities choose the same
// velocity for every agent, bit for bit, though each finds the neighbours its own way.
TEST(FinaleOrca, SameProgramAsTheCrowdForTheSameNeighbourhood) {
  const Snapshot snap = crowdedSnapshot();
  const FinaleSim finale = stepFrom(snap.warm, snap.positions, snap.velocities, [](FinaleSim&) {});
  ASSERT_EQ(finale.metrics().orcaTier, finale.size());
  orca::Crowd crowd;
  crowd.params = finale.params.orcaParams();
  crowd.stepSafety = finale.params.stepSafety;
  crowd.obstacles.assign(finale.orcaObstacles().begin(), finale.orcaObstacles().end());
  crowd.setAgents(snap.positions, snap.velocities);
  for (size_t k = 0; k < finale.size(); ++k) crowd.preferred()[finale.ids()[k]] = finale.lastPipeline(k).orcaInput;
  crowd.step(kDt);
  EXPECT_GT(crowd.lastStats().neighbors, 5 * crowd.size());
  size_t differ = 0;
  for (size_t k = 0; k < finale.size(); ++k) {
    const Vec2 a = finale.velocities()[k], b = crowd.velocities()[finale.ids()[k]];
    differ += std::memcmp(&a, &b, sizeof(Vec2)) != 0;
  }
  EXPECT_EQ(differ, 0u);
}

// Stages 1 and 2 in lanes give the scalar stages' bits, through every branch: no neighbours, a
// target on the agent, inside and outside the slowing radius, obstacles to avoid, fixed and
// density-aware weights, clamps that bind and that do not.
TEST(FinaleLanes, PreferredAndCorrectedGiveTheScalarStagesBits) {
  Rng rng(41);
  for (WeightMode mode : {WeightMode::Constant, WeightMode::Curves, WeightMode::Learned})
    for (const lanes::Level level : lanes::available()) {
      lanes::setLevel(level);
      FinaleParams p;
      p.weightMode = mode;
      for (float& w : p.learned.w) w = rng.uniform(-2.0f, 2.0f);
      const Vec2 target{400.0f, 300.0f};
      const size_t n = 203;
      std::vector<RuleSums> sums(n);
      std::vector<Vec2> pos(n), vel(n), avoidance(n), preferred(n), corrected(n);
      std::vector<Vec3> weights(n);
      std::vector<uint8_t> avoids(n);
      for (size_t i = 0; i < n; ++i) {
        const int kind = int(i % 6);
        pos[i] = kind == 0 ? target : target + rng.unitVec2() * rng.uniform(0.0f, kind == 1 ? 5.0f : 900.0f);
        vel[i] = rng.unitVec2() * rng.uniform(0.0f, 2.0f * p.maxSpeed);
        RuleSums& s = sums[i];
        s.perceivedCount = s.alignmentCount = s.cohesionCount = kind == 2 ? 0 : int(rng.below(20)) + 1;
        if (s.perceivedCount) {
          s.separationCount = int(rng.below(uint32_t(s.perceivedCount) + 1));
          if (s.separationCount) s.separationSum = rng.unitVec2() * rng.uniform(0.0f, 3.0f);
          s.velocitySum = rng.unitVec2() * rng.uniform(0.0f, 100.0f) * float(s.perceivedCount);
          s.offsetSum = kind == 3 ? Vec2{0.0f} : rng.unitVec2() * rng.uniform(0.0f, 40.0f);
        }
        avoids[i] = kind == 4;
        avoidance[i] = avoids[i] ? rng.unitVec2() * rng.uniform(0.0f, 200.0f) : Vec2{0.0f};
      }
      for (size_t b = 0; b < n; b += kFinaleLaneBatch) {
        const size_t count = std::min(kFinaleLaneBatch, n - b);
        const StageInputs in{std::span<const RuleSums>(sums.data() + b, count), &pos[b], &vel[b], &avoidance[b],
                             &avoids[b]};
        preferredAndCorrectedLanes(p, target, in, &preferred[b], &corrected[b], &weights[b]);
      }
      for (size_t i = 0; i < n; ++i) {
        Vec2 want = arriveDesiredVelocity(pos[i], target, p.maxSpeed, p.slowingRadius);
        if (avoids[i]) want += avoidance[i];
        want = clampLength(want, p.maxSpeed);
        const Vec3 wantWeights = ruleWeights(p, sums[i], pos[i], vel[i], target);
        const Vec2 wantCorrected = boidsCorrectedVelocity(p, want, vel[i], sums[i], wantWeights);
        ASSERT_EQ(std::memcmp(&wantWeights, &weights[i], sizeof wantWeights), 0) << "agent " << i << " level " << int(level);
        ASSERT_EQ(std::memcmp(&want, &preferred[i], sizeof want), 0) << "agent " << i << " level " << int(level);
        ASSERT_EQ(std::memcmp(&wantCorrected, &corrected[i], sizeof want), 0) << "agent " << i << " level " << int(level);
      }
    }
  lanes::setWide(true);
}
