// Reynolds' rules against hand-computed vectors, the clamps, wrap-around, determinism and behaviour.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>
#include "sim/core/rng.hpp"
#include "sim/models/finale.hpp"
#include "sim/rules/boids.hpp"
#include "sim/rules/boids_lanes.hpp"
#include "sim/models/flock.hpp"
#include "sim/core/metrics.hpp"

using namespace sim;

namespace {
void expectVec(const Vec2& a, const Vec2& b, float eps = 1e-5f) {
  EXPECT_NEAR(a.x, b.x, eps);
  EXPECT_NEAR(a.y, b.y, eps);
}
BoidsParams defaults() { return BoidsParams{}; }
}  // namespace

TEST(BoidsRules, SeparationPointsAwayWeightedByInverseDistance) {
  BoidsParams p = defaults();
  BoidsAccum<2> acc;
  Vec2 heading{1, 0};
  // Neighbour at +x distance 10 pushes (-1/10, 0); neighbour at +y distance 5 pushes (0, -1/5).
  accumulateNeighbor(acc, p, -2.0f, heading, Vec2{10, 0}, 100.0f, Vec2{0, 0});
  accumulateNeighbor(acc, p, -2.0f, heading, Vec2{0, 5}, 25.0f, Vec2{0, 0});
  expectVec(acc.separationSum, Vec2{-0.1f, -0.2f});
  Vec2 expected = glm::normalize(Vec2{-0.1f, -0.2f});
  expectVec(separationRule(acc), expected);
  EXPECT_EQ(acc.separationCount, 2);
}

TEST(BoidsRules, SeparationIgnoresNeighboursBeyondItsRadius) {
  BoidsParams p = defaults();  // separation radius 20
  BoidsAccum<2> acc;
  accumulateNeighbor(acc, p, -2.0f, Vec2{1, 0}, Vec2{30, 0}, 900.0f, Vec2{0, 0});
  expectVec(separationRule(acc), Vec2{0, 0});
  EXPECT_EQ(acc.perceivedCount, 1);
}

TEST(BoidsRules, AlignmentSteersTowardMeanVelocity) {
  BoidsParams p = defaults();
  BoidsAccum<2> acc;
  accumulateNeighbor(acc, p, -2.0f, Vec2{1, 0}, Vec2{30, 0}, 900.0f, Vec2{0, 10});
  accumulateNeighbor(acc, p, -2.0f, Vec2{1, 0}, Vec2{0, 30}, 900.0f, Vec2{0, 30});
  // mean velocity (0, 20), own velocity (20, 0) -> (-20, 20) -> normalised
  expectVec(alignmentRule(acc, Vec2{20, 0}), glm::normalize(Vec2{-1, 1}));
}

TEST(BoidsRules, CohesionSteersTowardCentroid) {
  BoidsParams p = defaults();
  BoidsAccum<2> acc;
  accumulateNeighbor(acc, p, -2.0f, Vec2{1, 0}, Vec2{40, 0}, 1600.0f, Vec2{0, 0});
  accumulateNeighbor(acc, p, -2.0f, Vec2{1, 0}, Vec2{0, 40}, 1600.0f, Vec2{0, 0});
  expectVec(cohesionRule(acc), glm::normalize(Vec2{1, 1}));
}

TEST(BoidsRules, SatisfiedRulesFadeInsteadOfJittering) {
  // A tiny velocity difference must not become a full-strength unit push in a random direction.
  BoidsParams p = defaults();
  BoidsAccum<2> acc;
  accumulateNeighbor(acc, p, -2.0f, Vec2{1, 0}, Vec2{30, 0}, 900.0f, Vec2{100.5f, 0});
  Vec2 a = alignmentRule(acc, Vec2{100, 0}, boidsShape(p).alignmentFade);
  EXPECT_NEAR(glm::length(a), 0.5f / boidsShape(p).alignmentFade, 1e-5f);
  EXPECT_NEAR(glm::length(alignmentRule(acc, Vec2{0, 0}, boidsShape(p).alignmentFade)), 1.0f, 1e-5f);  // far off: unit
}

TEST(BoidsRules, NoNeighboursGivesZero) {
  BoidsAccum<2> acc;
  expectVec(boidsAcceleration(acc, Vec2{10, 0}, defaults()), Vec2{0, 0});
}

TEST(BoidsRules, WeightZeroDisablesARule) {
  BoidsParams p = defaults();
  BoidsAccum<2> acc;
  accumulateNeighbor(acc, p, -2.0f, Vec2{1, 0}, Vec2{10, 0}, 100.0f, Vec2{0, 50});
  p.weights.separation = 0; p.weights.alignment = 0; p.weights.cohesion = 1;
  Vec2 onlyCohesion = boidsAcceleration(acc, Vec2{10, 0}, p);
  // Towards the neighbour at +x; 10 of the 50-unit perception radius away: a fifth of full strength.
  expectVec(onlyCohesion, Vec2{p.maxForce * 0.2f, 0}, 1e-3f);
  p.weights.cohesion = 0; p.weights.separation = 1;
  expectVec(boidsAcceleration(acc, Vec2{10, 0}, p), Vec2{-p.maxForce, 0});
  p.weights.separation = 0; p.weights.alignment = 1;
  expectVec(boidsAcceleration(acc, Vec2{10, 0}, p), p.maxForce * glm::normalize(Vec2{-10, 50}), 1e-3f);
  p.weights.alignment = 0;
  expectVec(boidsAcceleration(acc, Vec2{10, 0}, p), Vec2{0, 0});
}

TEST(BoidsRules, WeightedSumIsClampedByMaxForce) {
  BoidsParams p = defaults();
  p.weights.separation = 3; p.weights.alignment = 3; p.weights.cohesion = 3;
  BoidsAccum<2> acc;
  accumulateNeighbor(acc, p, -2.0f, Vec2{1, 0}, Vec2{30, 0}, 900.0f, Vec2{0, 100});
  Vec2 a = boidsAcceleration(acc, Vec2{0, 0}, p);
  EXPECT_NEAR(glm::length(a), p.maxForce, 1e-3f);
}

TEST(BoidsRules, FieldOfViewHidesNeighboursBehind) {
  BoidsParams p = defaults();
  p.useFieldOfView = true;
  p.fieldOfViewDegrees = 180.0f;  // sees only the half-plane ahead
  float fov = fieldOfViewCos(p);
  BoidsAccum<2> acc;
  accumulateNeighbor(acc, p, fov, Vec2{1, 0}, Vec2{-10, 0}, 100.0f, Vec2{0, 0});  // behind
  EXPECT_EQ(acc.perceivedCount, 0);
  accumulateNeighbor(acc, p, fov, Vec2{1, 0}, Vec2{10, 1}, 101.0f, Vec2{0, 0});  // ahead
  EXPECT_EQ(acc.perceivedCount, 1);
}

TEST(BoidsRules, SeparateRadiiApplyPerRule) {
  BoidsParams p = defaults();
  p.separateRadii = true;
  p.alignmentRadius = 30;
  p.cohesionRadius = 60;
  BoidsAccum<2> acc;
  accumulateNeighbor(acc, p, -2.0f, Vec2{1, 0}, Vec2{40, 0}, 1600.0f, Vec2{0, 5});
  EXPECT_EQ(acc.alignmentCount, 0);
  EXPECT_EQ(acc.cohesionCount, 1);
  EXPECT_FLOAT_EQ(p.searchRadius(), 60.0f);
}

TEST(Integrator, ClampsSpeed) {
  World<2> w;
  w.size = Vec2{1000, 1000};
  Vec2 pos{500, 500}, vel{100, 0};
  integrate(pos, vel, Vec2{100000, 0}, 1.0f / 60, 120.0f, w);
  EXPECT_NEAR(glm::length(vel), 120.0f, 1e-3f);
  EXPECT_NEAR(pos.x, 502.0f, 1e-3f);
}

TEST(World, WrapsPositionsAndOffsetsAcrossTheSeam) {
  World<2> w;
  w.size = Vec2{100, 100};
  Vec2 p{99, 50}, v{120, 0};
  integrate(p, v, Vec2{0, 0}, 0.05f, 1000.0f, w);  // moves 6 to x = 105 -> 5
  EXPECT_NEAR(p.x, 5.0f, 1e-4f);
  Vec2 d = w.delta(Vec2{98, 1}, Vec2{2, 99});
  expectVec(d, Vec2{4, -2});
}

TEST(World, BounceReflects) {
  World<2> w;
  w.size = Vec2{100, 100};
  w.boundary = Boundary::Bounce;
  Vec2 p{99, 50}, v{60, 0};
  integrate(p, v, Vec2{0, 0}, 0.05f, 1000.0f, w);  // moves 3 to x = 102 -> reflected to 98
  EXPECT_NEAR(p.x, 98.0f, 1e-4f);
  EXPECT_LT(v.x, 0.0f);
}

namespace {
Flock<2> makeFlock(size_t n, uint64_t seed, float worldSize = 600.0f) {
  Flock<2> f;
  f.world.size = Vec2{worldSize, worldSize};
  f.spawn(n, seed);
  return f;
}
template <int D>
bool sameState(const Flock<D>& a, const Flock<D>& b) {
  auto same = [](auto x, auto y) { return std::equal(x.begin(), x.end(), y.begin(), y.end()); };
  return same(a.positions(), b.positions()) && same(a.velocities(), b.velocities());
}
}  // namespace

TEST(FlockDeterminism, SameSeedSameStateAfter500Steps) {
  Flock<2> a = makeFlock(300, 42), b = makeFlock(300, 42);
  for (int s = 0; s < 500; ++s) { a.step(1.0f / 60); b.step(1.0f / 60); }
  EXPECT_TRUE(sameState(a, b));
  Flock<2> c = makeFlock(300, 43);
  for (int s = 0; s < 500; ++s) c.step(1.0f / 60);
  EXPECT_FALSE(sameState(a, c));
}

TEST(FlockDeterminism, OneThreadEqualsTwoThreads) {
  Flock<2> a = makeFlock(400, 7), b = makeFlock(400, 7);
  setThreadCount(1);
  for (int s = 0; s < 200; ++s) a.step(1.0f / 60);
  setThreadCount(2);
  for (int s = 0; s < 200; ++s) b.step(1.0f / 60);
  setThreadCount(0);
  EXPECT_TRUE(sameState(a, b));  // bitwise: std::vector<glm::vec2> compares exact floats
}

// Up to 1,024 agents the grid's rule pass gives each thread a block of rows with about as many
// agents each: the blocks must cover every row once, however the crowd lies in them (2,048 agents
// take oneTBB's path, for comparison).
TEST(FlockDeterminism, ShortGridStepsOnTwoThreadsEqualOne) {
  for (const size_t n : {size_t(300), size_t(1000), size_t(2048)})
    for (const float worldSize : {300.0f, 1500.0f}) {  // dense; sparse, rows left empty
      Flock<2> a = makeFlock(n, 11, worldSize), b = makeFlock(n, 11, worldSize);
      a.method = b.method = NeighborMethod::Grid;
      setThreadCount(1);
      for (int s = 0; s < 60; ++s) a.step(1.0f / 60);
      setThreadCount(2);
      for (int s = 0; s < 60; ++s) b.step(1.0f / 60);
      setThreadCount(0);
      EXPECT_TRUE(sameState(a, b)) << "n " << n << ", world " << worldSize;
    }
}

// A thread's share of a short step must pay for handing it over: a step that would give a thread
// fewer agents than pay for it keeps to one; a longer one uses both.
TEST(FlockThreads, AGridStepTooShortToPayForASecondThreadKeepsToOne) {
  if (hardwareThreads() < 2) GTEST_SKIP() << "one core";
  const ScopedThreadCount two(2);
  // Steps until a second thread has done some of the work, or `steps` steps: on a busy machine the
  // helper may not be scheduled for a while, and the caller then takes every part itself (CI at load
  // saw one thread in 100 steps of 1,000 agents), so "two" gets many steps and "one" a hundred.
  auto threadsFor = [](size_t n, int steps) {
    Flock<2> f = makeFlock(n, 5);
    f.method = NeighborMethod::Grid;
    resetThreadsAtWork();
    for (int s = 0; s < steps && threadsAtWork() < 2; ++s) f.step(1.0f / 60);
    return threadsAtWork();
  };
  EXPECT_EQ(threadsFor(100, 100), 1);
  EXPECT_EQ(threadsFor(1000, 20000), 2);
}

TEST(FlockBehaviour, SeparationOnlySpreadsTheFlock) {
  Flock<2> f = makeFlock(300, 3, 1000);
  Rng rng(11);  // crowd them into a 120 x 120 box: mean spacing far below the separation radius
  std::vector<Vec2> crowded(f.size());
  for (Vec2& p : crowded) p = Vec2{440, 440} + Vec2{rng.uniform(0, 120), rng.uniform(0, 120)};
  f.params.weights.alignment = 0; f.params.weights.cohesion = 0; f.params.weights.separation = 1;
  // Start at rest and allow rest, so only the separation rule can move anyone.
  f.params.minSpeed = 0;
  f.setAgents(crowded, std::vector<Vec2>(f.size(), Vec2{0, 0}));
  Flock<2> control = f;
  control.params.weights.separation = 0;
  double before = meanNearestNeighborDistance<2>(f.positions(), f.world);
  for (int s = 0; s < 300; ++s) f.step(1.0f / 60);
  double after = meanNearestNeighborDistance<2>(f.positions(), f.world);
  EXPECT_GT(after, before * 1.2);
  for (int s = 0; s < 300; ++s) control.step(1.0f / 60);
  EXPECT_NEAR(meanNearestNeighborDistance<2>(control.positions(), control.world), before, 1e-6);
}

TEST(FlockBehaviour, CohesionOnlyContracts) {
  Flock<2> f = makeFlock(300, 3, 800);
  f.params.weights.alignment = 0; f.params.weights.cohesion = 1; f.params.weights.separation = 0;
  double before = meanNearestNeighborDistance<2>(f.positions(), f.world);
  for (int s = 0; s < 600; ++s) f.step(1.0f / 60);
  double after = meanNearestNeighborDistance<2>(f.positions(), f.world);
  EXPECT_LT(after, before * 0.75);
}

TEST(FlockBehaviour, AlignmentOnlyPolarises) {
  Flock<2> f = makeFlock(300, 5, 400);
  f.params.weights.alignment = 1; f.params.weights.cohesion = 0; f.params.weights.separation = 0;
  EXPECT_LT(polarization<2>(f.velocities()), 0.3);
  for (int s = 0; s < 600; ++s) f.step(1.0f / 60);
  EXPECT_GT(polarization<2>(f.velocities()), 0.9);
}

TEST(Metrics, PolarizationOfAlignedAndOpposedFlocks) {
  std::vector<Vec2> aligned(10, Vec2{3, 4});
  EXPECT_NEAR(polarization<2>(aligned), 1.0, 1e-6);
  std::vector<Vec2> opposed{{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
  EXPECT_NEAR(polarization<2>(opposed), 0.0, 1e-6);
}

// ---- the one rule ----

TEST(BoidsRule, NormalizedKeepsSeparationBelowPerceptionAndMinSpeedAtMostMax) {
  BoidsParams p;
  EXPECT_EQ(p.normalized().separationRadius, p.separationRadius);  // already consistent: left alone
  p.perceptionRadius = 30.0f;
  for (float separation : {29.0f, 30.0f, 45.0f}) {
    p.separationRadius = separation;
    const BoidsParams n = p.normalized();
    EXPECT_LT(n.separationRadius, n.perceptionRadius) << separation;
    EXPECT_EQ(n.separationRadius, separation < 30.0f ? separation : 27.0f);
  }
  p.minSpeed = 200.0f;
  EXPECT_EQ(p.normalized().minSpeed, p.maxSpeed);
  FinaleParams f;
  f.separationRadius = 2.0f * f.perceptionRadius;
  EXPECT_EQ(f.normalized().separationRadius, f.perceptionRadius);  // the finale's push may reach the perception radius
}

namespace {

// boidsSteeringLanes over sums[0..count), into out.
template <class L, int D>
void steerInLanes(const BoidsAccum<D>* sums, uint32_t count, const Vec<D>* velocity, const BoidsWeights& w,
                  const BoidsShape& shape, Vec<D>* out) {
  alignas(32) float v[D][lanes::kLanes] = {};
  for (uint32_t l = 0; l < count; ++l)
    for (int k = 0; k < D; ++k) v[k][l] = velocity[l][k];
  typename L::Floats vel[D], steer[D];
  for (int k = 0; k < D; ++k) vel[k] = L::load(v[k]);
  boidsSteeringLanes<L, D>(boidsLaneSumsOf<L, D>(sums, count), vel, L::splat(w.separation), L::splat(w.alignment),
                           L::splat(w.cohesion), shape, steer);
  for (uint32_t l = 0; l < count; ++l)
    for (int k = 0; k < D; ++k) out[l][k] = L::lane(steer[k], int(l));
}

template <int D>
void expectLaneTwinIsTheRule(SeparationLaw law) {
  Rng rng(11);
  const uint32_t n = 203;  // the last register is partial
  std::vector<BoidsAccum<D>> sums(n);
  std::vector<Vec<D>> velocity(n);
  for (uint32_t i = 0; i < n; ++i) {
    BoidsAccum<D>& s = sums[i];
    const int kind = int(i % 7);  // no neighbours, none close, tiny and huge sums, a standing agent
    s.alignmentCount = kind == 0 ? 0 : int(rng.below(12)) + 1;
    s.cohesionCount = kind == 0 ? 0 : std::max(1, s.alignmentCount - int(rng.below(3)));
    s.perceivedCount = s.alignmentCount;
    s.separationCount = kind == 1 ? 0 : int(rng.below(4));
    const float spread = kind == 2 ? 1e-7f : (kind == 3 ? 5000.0f : 60.0f);
    s.separationSum = s.separationCount ? rng.unitVec<D>() * rng.uniform(0.0f, 3.0f) : Vec<D>(0.0f);
    s.velocitySum = kind == 0 ? Vec<D>(0.0f) : rng.unitVec<D>() * spread * float(s.alignmentCount);
    s.offsetSum = kind == 0 ? Vec<D>(0.0f) : rng.unitVec<D>() * rng.uniform(0.0f, spread);
    velocity[i] = kind == 5 ? Vec<D>(0.0f) : rng.unitVec<D>() * rng.uniform(0.0f, 150.0f);
  }
  const BoidsWeights w{1.3f, 0.7f, 0.45f};
  const BoidsShape shape{law, 12.0f, law == SeparationLaw::LinearFade ? 25.0f : 0.0f};
  for (int build = 0; build < 3; ++build) {
    std::vector<Vec<D>> lanesOut(n);
    for (uint32_t b = 0; b < n; b += lanes::kLanes) {
      const uint32_t count = std::min(uint32_t(lanes::kLanes), n - b);
      if (build == 0) steerInLanes<lanes::Wide, D>(&sums[b], count, &velocity[b], w, shape, &lanesOut[b]);
      if (build == 1) steerInLanes<lanes::Split, D>(&sums[b], count, &velocity[b], w, shape, &lanesOut[b]);
      if (build == 2) steerInLanes<lanes::Portable, D>(&sums[b], count, &velocity[b], w, shape, &lanesOut[b]);
    }
    for (uint32_t i = 0; i < n; ++i) {
      const Vec<D> want = boidsSteering(sums[i], velocity[i], w, shape);
      ASSERT_EQ(std::memcmp(&want, &lanesOut[i], sizeof want), 0) << "agent " << i << " build " << build;
    }
  }
}

}  // namespace

TEST(BoidsRule, LaneTwinGivesTheScalarRulesBitsOnRandomNeighbourhoods) {
  expectLaneTwinIsTheRule<2>(SeparationLaw::InverseDistance);
  expectLaneTwinIsTheRule<2>(SeparationLaw::LinearFade);
  expectLaneTwinIsTheRule<3>(SeparationLaw::InverseDistance);
  expectLaneTwinIsTheRule<3>(SeparationLaw::LinearFade);
}

TEST(BoidsRule, TheLinearPushFadesToNothingAtTheRadiusAndIsClampedToOne) {
  BoidsAccum<2> acc;
  addSeparationPush(acc, Vec2{10.0f, 0.0f}, 100.0f, SeparationLaw::LinearFade, 1.0f / 10.0f);
  EXPECT_NEAR(glm::length(separationRule(acc, SeparationLaw::LinearFade)), 0.0f, 1e-6f);  // at R: nothing
  BoidsAccum<2> close;
  addSeparationPush(close, Vec2{5.0f, 0.0f}, 25.0f, SeparationLaw::LinearFade, 1.0f / 10.0f);
  EXPECT_NEAR(separationRule(close, SeparationLaw::LinearFade).x, -0.5f, 1e-6f);  // half way: half a push, away
  EXPECT_NEAR(separationRule(close).x, -1.0f, 1e-6f);  // Reynolds': a unit vector whatever the distance
  addSeparationPush(close, Vec2{1.0f, 0.0f}, 1.0f, SeparationLaw::LinearFade, 1.0f / 10.0f);
  EXPECT_NEAR(glm::length(separationRule(close, SeparationLaw::LinearFade)), 1.0f, 1e-6f);  // clamped to one
}
