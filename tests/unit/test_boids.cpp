// Reynolds' rules against hand-computed vectors, the clamps, wrap-around, determinism and behaviour.
#include <gtest/gtest.h>

#include <cmath>
#include "sim/rules/boids.hpp"
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
  Vec2 a = alignmentRule(acc, Vec2{100, 0}, alignmentFade(p));
  EXPECT_NEAR(glm::length(a), 0.5f / alignmentFade(p), 1e-5f);
  EXPECT_NEAR(glm::length(alignmentRule(acc, Vec2{0, 0}, alignmentFade(p))), 1.0f, 1e-5f);  // far off: unit
}

TEST(BoidsRules, NoNeighboursGivesZero) {
  BoidsAccum<2> acc;
  expectVec(boidsAcceleration(acc, Vec2{10, 0}, defaults()), Vec2{0, 0});
}

TEST(BoidsRules, WeightZeroDisablesARule) {
  BoidsParams p = defaults();
  BoidsAccum<2> acc;
  accumulateNeighbor(acc, p, -2.0f, Vec2{1, 0}, Vec2{10, 0}, 100.0f, Vec2{0, 50});
  p.wSeparation = 0; p.wAlignment = 0; p.wCohesion = 1;
  Vec2 onlyCohesion = boidsAcceleration(acc, Vec2{10, 0}, p);
  // Towards the neighbour at +x; 10 of the 50-unit perception radius away: a fifth of full strength.
  expectVec(onlyCohesion, Vec2{p.maxForce * 0.2f, 0}, 1e-3f);
  p.wCohesion = 0; p.wSeparation = 1;
  expectVec(boidsAcceleration(acc, Vec2{10, 0}, p), Vec2{-p.maxForce, 0});
  p.wSeparation = 0; p.wAlignment = 1;
  expectVec(boidsAcceleration(acc, Vec2{10, 0}, p), p.maxForce * glm::normalize(Vec2{-10, 50}), 1e-3f);
  p.wAlignment = 0;
  expectVec(boidsAcceleration(acc, Vec2{10, 0}, p), Vec2{0, 0});
}

TEST(BoidsRules, WeightedSumIsClampedByMaxForce) {
  BoidsParams p = defaults();
  p.wSeparation = 3; p.wAlignment = 3; p.wCohesion = 3;
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
  return a.position == b.position && a.velocity == b.velocity;
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

TEST(FlockBehaviour, SeparationOnlySpreadsTheFlock) {
  Flock<2> f = makeFlock(300, 3, 1000);
  Rng rng(11);  // crowd them into a 120 x 120 box: mean spacing far below the separation radius
  for (Vec2& p : f.position) p = Vec2{440, 440} + Vec2{rng.uniform(0, 120), rng.uniform(0, 120)};
  f.params.wAlignment = 0; f.params.wCohesion = 0; f.params.wSeparation = 1;
  // Start at rest and allow rest, so only the separation rule can move anyone.
  f.params.minSpeed = 0;
  for (Vec2& v : f.velocity) v = Vec2{0, 0};
  Flock<2> control = f;
  control.params.wSeparation = 0;
  double before = meanNearestNeighborDistance<2>(f.position, f.world);
  for (int s = 0; s < 300; ++s) f.step(1.0f / 60);
  double after = meanNearestNeighborDistance<2>(f.position, f.world);
  EXPECT_GT(after, before * 1.2);
  for (int s = 0; s < 300; ++s) control.step(1.0f / 60);
  EXPECT_NEAR(meanNearestNeighborDistance<2>(control.position, control.world), before, 1e-6);
}

TEST(FlockBehaviour, CohesionOnlyContracts) {
  Flock<2> f = makeFlock(300, 3, 800);
  f.params.wAlignment = 0; f.params.wCohesion = 1; f.params.wSeparation = 0;
  double before = meanNearestNeighborDistance<2>(f.position, f.world);
  for (int s = 0; s < 600; ++s) f.step(1.0f / 60);
  double after = meanNearestNeighborDistance<2>(f.position, f.world);
  EXPECT_LT(after, before * 0.75);
}

TEST(FlockBehaviour, AlignmentOnlyPolarises) {
  Flock<2> f = makeFlock(300, 5, 400);
  f.params.wAlignment = 1; f.params.wCohesion = 0; f.params.wSeparation = 0;
  EXPECT_LT(polarization<2>(f.velocity), 0.3);
  for (int s = 0; s < 600; ++s) f.step(1.0f / 60);
  EXPECT_GT(polarization<2>(f.velocity), 0.9);
}

TEST(Metrics, PolarizationOfAlignedAndOpposedFlocks) {
  std::vector<Vec2> aligned(10, Vec2{3, 4});
  EXPECT_NEAR(polarization<2>(aligned), 1.0, 1e-6);
  std::vector<Vec2> opposed{{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
  EXPECT_NEAR(polarization<2>(opposed), 0.0, 1e-6);
}
