// Steering behaviours against hand-computed vectors, and the playground's classic experiments run
// headless: seek overshoots, arrive stops, avoidance flows around, pursue beats seek, formations hold.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>
#include "sim/rules/boids.hpp"
#include "sim/core/parallel.hpp"
#include "sim/rules/steering.hpp"
#include "sim/models/steering_world.hpp"
#include "alloc_counter.hpp"

using namespace sim;

namespace {
constexpr float kDt = 1.0f / 60.0f;

void expectVec(const Vec2& a, const Vec2& b, float eps = 1e-4f) {
  EXPECT_NEAR(a.x, b.x, eps);
  EXPECT_NEAR(a.y, b.y, eps);
}

float dist(const Vec2& a, const Vec2& b) { return glm::length(a - b); }

// Every behaviour off: each test switches on only what it is about.
SteeringParams nothingOn() {
  SteeringParams p;
  p.seek = p.arrive = p.wander = p.avoid = p.flee = p.pursue = p.evade = p.formation = p.contain = false;
  return p;
}

// A world with n agents and no obstacles, the given behaviours.
SteeringWorld makeWorld(const SteeringParams& p, uint64_t seed = 1) {
  SteeringWorld w;
  w.params = p;
  w.reset(seed);
  w.clearObstacles();
  return w;
}

bool sameState(const SteeringWorld& a, const SteeringWorld& b) {
  auto eq = [](std::span<const Vec2> x, std::span<const Vec2> y) { return std::equal(x.begin(), x.end(), y.begin(), y.end()); };
  return eq(a.positions(), b.positions()) && eq(a.velocities(), b.velocities()) &&
         a.quarryPosition() == b.quarryPosition() && a.quarryVelocity() == b.quarryVelocity();
}
}  // namespace

// ---- behaviours as pure functions ----

TEST(SteerBehaviours, SeekAndFleeAskForFullSpeedTowardsAndAway) {
  expectVec(seek(Vec2{0, 0}, Vec2{10, 0}, Vec2{100, 0}, 50.0f), Vec2{40, 0});
  expectVec(flee(Vec2{0, 0}, Vec2{10, 0}, Vec2{100, 0}, 50.0f), Vec2{-60, 0});
  // Outside the panic radius flee has nothing to say.
  expectVec(flee(Vec2{0, 0}, Vec2{10, 0}, Vec2{100, 0}, 50.0f, 99.0f), Vec2{0, 0});
}

TEST(SteerBehaviours, ArriveScalesDesiredSpeedInsideTheSlowingRadius) {
  // 30 units out of a 120 slowing radius: a quarter of max speed; outside it: full speed.
  expectVec(arriveDesiredVelocity(Vec2{0, 0}, Vec2{0, 30}, 100.0f, 120.0f), Vec2{0, 25});
  expectVec(arriveDesiredVelocity(Vec2{0, 0}, Vec2{0, 300}, 100.0f, 120.0f), Vec2{0, 100});
  expectVec(arrive(Vec2{5, 5}, Vec2{3, 4}, Vec2{5, 5}, 100.0f, 120.0f), Vec2{-3, -4});  // on target: stop
}

TEST(SteerBehaviours, PursueAndEvadeUseThePredictedPosition) {
  // Distance 100 at max speed 100: predict 1 s ahead, to (100, 50).
  expectVec(pursue(Vec2{0, 0}, Vec2{0, 0}, Vec2{100, 0}, Vec2{0, 50}, 100.0f, 5.0f),
            glm::normalize(Vec2{100, 50}) * 100.0f);
  // The cap: 0.2 s ahead at most, to (100, 10).
  expectVec(pursue(Vec2{0, 0}, Vec2{0, 0}, Vec2{100, 0}, Vec2{0, 50}, 100.0f, 0.2f),
            glm::normalize(Vec2{100, 10}) * 100.0f);
  expectVec(evade(Vec2{0, 0}, Vec2{0, 0}, Vec2{100, 0}, Vec2{0, 50}, 100.0f, 5.0f),
            -glm::normalize(Vec2{100, 50}) * 100.0f);
  expectVec(evade(Vec2{0, 0}, Vec2{0, 0}, Vec2{100, 0}, Vec2{0, 50}, 100.0f, 5.0f, 90.0f), Vec2{0, 0});
}

TEST(SteerBehaviours, WanderTargetLiesOnACircleAheadOfTheHeading) {
  WanderGeometry g = wanderGeometry(Vec2{10, 10}, Vec2{0, 1}, 0.5f, 20.0f, 50.0f);
  expectVec(g.center, Vec2{10, 60});
  EXPECT_NEAR(dist(g.point, g.center), 20.0f, 1e-4f);
  // Angle 0 is straight ahead, +90 degrees is to the agent's left.
  expectVec(wanderGeometry(Vec2{0, 0}, Vec2{1, 0}, 0.0f, 20.0f, 50.0f).point, Vec2{70, 0});
  expectVec(wanderGeometry(Vec2{0, 0}, Vec2{1, 0}, 1.5707963f, 20.0f, 50.0f).point, Vec2{50, 20});
}

TEST(SteerBehaviours, WanderAngleWalksDeterministicallyWithItsSpread) {
  Rng a(5, 1000), b(5, 1000), c(5, 1001);
  float xa = 0, xb = 0, xc = 0;
  double sumSq = 0;
  const int steps = 60;
  for (int s = 0; s < steps; ++s) {
    xa = advanceWanderAngle(xa, 2.0f, kDt, a);
    xb = advanceWanderAngle(xb, 2.0f, kDt, b);
    xc = advanceWanderAngle(xc, 2.0f, kDt, c);
  }
  EXPECT_EQ(xa, xb);
  EXPECT_NE(xa, xc);
  // Spread after one second over many walks: standard deviation about the jitter (2 rad).
  Rng r(9);
  const int walks = 2000;
  for (int k = 0; k < walks; ++k) {
    float x = 0;
    for (int s = 0; s < steps; ++s) x += 2.0f * std::sqrt(3.0f * kDt) * r.uniform(-1.0f, 1.0f);
    sumSq += double(x) * x;
  }
  EXPECT_NEAR(std::sqrt(sumSq / walks), 2.0, 0.15);
  EXPECT_EQ(advanceWanderAngle(1.0f, 0.0f, kDt, r), 1.0f);  // no jitter, no drift
}

TEST(SteerBehaviours, AvoidanceSteersSidewaysAwayFromTheObstacleAhead) {
  const Vec2 p{0, 0}, v{100, 0};
  // Obstacle slightly to the right (negative y is right of +x): steer left (+y), purely sideways.
  CircleObstacle right{{60, -5}, 20};
  AvoidanceResult r = avoidObstacles(p, v, 5.0f, std::span(&right, 1), 80.0f, 100.0f);
  EXPECT_EQ(r.obstacle, 0);
  EXPECT_GT(r.steering.y, 0.0f);
  EXPECT_NEAR(r.steering.x, 0.0f, 1e-4f);
  // Mirrored: steer right.
  CircleObstacle left{{60, 5}, 20};
  EXPECT_LT(avoidObstacles(p, v, 5.0f, std::span(&left, 1), 80.0f, 100.0f).steering.y, 0.0f);
  // Closer and more central threats ask for more.
  CircleObstacle nearer{{40, -5}, 20};
  EXPECT_GT(avoidObstacles(p, v, 5.0f, std::span(&nearer, 1), 80.0f, 100.0f).steering.y, r.steering.y);
}

TEST(SteerBehaviours, AvoidanceIgnoresObstaclesBehindBesideOrBeyondTheFeeler) {
  const Vec2 p{0, 0}, v{100, 0};  // at max speed the feeler reaches 5 + 80 = 85
  std::vector<CircleObstacle> harmless{{{-60, 0}, 20}, {{40, 40}, 20}, {{120, 0}, 20}};
  AvoidanceResult r = avoidObstacles(p, v, 5.0f, harmless, 80.0f, 100.0f);
  EXPECT_EQ(r.obstacle, -1);
  expectVec(r.steering, Vec2{0, 0});
  // The same obstacle 120 ahead is seen by a feeler that is long enough, and not by a slow agent's.
  EXPECT_EQ(avoidObstacles(p, v, 5.0f, harmless, 100.0f, 100.0f).obstacle, 2);
  EXPECT_EQ(avoidObstacles(p, Vec2{10, 0}, 5.0f, harmless, 100.0f, 100.0f).obstacle, -1);
}

TEST(SteerBehaviours, AvoidancePicksTheObstacleTheFeelerMeetsFirst) {
  std::vector<CircleObstacle> two{{{70, 0}, 10}, {{40, 3}, 10}};
  AvoidanceResult r = avoidObstacles(Vec2{0, 0}, Vec2{100, 0}, 5.0f, two, 80.0f, 100.0f);
  EXPECT_EQ(r.obstacle, 1);
  EXPECT_LT(r.steering.y, 0.0f);  // away from the second one, which lies to the left
  // An obstacle the agent already overlaps is the most urgent: pushed straight out.
  std::vector<CircleObstacle> overlap{{{40, 0}, 10}, {{0, -8}, 10}};
  r = avoidObstacles(Vec2{0, 0}, Vec2{100, 0}, 5.0f, overlap, 80.0f, 100.0f);
  EXPECT_EQ(r.obstacle, 1);
  expectVec(r.steering, Vec2{0, 100});
}

TEST(SteerBehaviours, ContainmentTurnsBackFromTheWallAhead) {
  const Vec2 lo{0, 0}, hi{1280, 720};
  // Heading right at the right wall: the x component is asked to reverse, y is kept.
  const Vec2 v{100, 20};
  Vec2 desired = v + containWithin<2>(Vec2{1230, 300}, v, lo, hi, 40.0f, 0.5f, 150.0f);
  EXPECT_LT(desired.x, -100.0f);
  EXPECT_GT(desired.y, 0.0f);
  // In the middle, or moving away from the wall: nothing.
  expectVec(containWithin<2>(Vec2{640, 360}, Vec2{100, 0}, lo, hi, 40.0f, 0.5f, 150.0f), Vec2{0, 0});
  expectVec(containWithin<2>(Vec2{1230, 300}, Vec2{-100, 0}, lo, hi, 40.0f, 0.5f, 150.0f), Vec2{0, 0});
}

TEST(SteerBehaviours, PrioritisedAccumulationServesTheFirstRequestFirst) {
  Vec2 total(0.0f);
  float budget = 10.0f;
  accumulatePrioritized(total, budget, Vec2{0, 6});
  accumulatePrioritized(total, budget, Vec2{8, 0});  // only 4 left
  accumulatePrioritized(total, budget, Vec2{5, 5});  // nothing left
  expectVec(total, Vec2{4, 6});
  EXPECT_EQ(budget, 0.0f);
}

TEST(SteerBehaviours, TurnLimitRotatesByAtMostTheAngleAndKeepsSpeed) {
  Vec2 out = limitTurn(Vec2{10, 0}, Vec2{0, 20}, 0.1f);
  EXPECT_NEAR(glm::length(out), 20.0f, 1e-4f);
  EXPECT_NEAR(std::atan2(out.y, out.x), 0.1f, 1e-5f);
  expectVec(limitTurn(Vec2{10, 0}, Vec2{10, 0.5f}, 0.1f), Vec2{10, 0.5f});  // small turns pass
  expectVec(limitTurn(Vec2{0, 0}, Vec2{0, 5}, 0.1f), Vec2{0, 5});          // starting from rest
}

// Seek and pursue chase a target moving at constant velocity; pursue, leading it, catches it first.
TEST(SteerBehaviours, PursueInterceptsAConstantVelocityTargetSoonerThanSeek) {
  World<2> open;
  open.boundary = Boundary::Open;
  auto timeToCatch = [&](bool usePursue) {
    Vec2 p{100, 500}, v{0, 0};
    Vec2 tp{600, 100}, tv{0, 80};
    for (int s = 0; s < 60 * 30; ++s) {
      if (dist(p, tp) < 10.0f) return s;
      Vec2 steer = usePursue ? pursue(p, v, tp, tv, 150.0f, 3.0f) : seek(p, v, tp, 150.0f);
      integrate(p, v, clampLength(steeringToAcceleration(steer, 1.0f, kDt), 400.0f), kDt, 150.0f, open);
      tp += tv * kDt;
    }
    return 1 << 30;
  };
  int seekSteps = timeToCatch(false), pursueSteps = timeToCatch(true);
  EXPECT_LT(pursueSteps, 60 * 30);
  EXPECT_LT(pursueSteps, seekSteps);
}

// ---- the playground ----

TEST(SteerWorld, SeekAloneOvershootsTheTarget) {
  SteeringParams p = nothingOn();
  p.agents = 1;
  p.seek = true;
  SteeringWorld w = makeWorld(p);
  w.setTarget(Vec2{640, 360});
  w.placeAgent(0, Vec2{340, 360}, Vec2{0, 0});
  std::vector<float> d;
  for (int s = 0; s < 240; ++s) {
    w.step(kDt);
    d.push_back(dist(w.positions()[0], w.target()));
  }
  size_t argmin = size_t(std::min_element(d.begin(), d.end()) - d.begin());
  EXPECT_LT(d[argmin], 5.0f);  // it passes through the target...
  float after = *std::max_element(d.begin() + std::ptrdiff_t(argmin), d.end());
  EXPECT_GT(after, d[argmin] + 15.0f);  // ...and runs on past it before turning back
}

TEST(SteerWorld, ArriveStopsOnTheTargetWithoutOscillating) {
  SteeringParams p = nothingOn();
  p.agents = 1;
  p.seek = p.arrive = true;
  SteeringWorld w = makeWorld(p);
  w.setTarget(Vec2{900, 400});
  w.placeAgent(0, Vec2{300, 300}, Vec2{0, 80});  // a sideways start, so the approach curves
  bool inside = false;
  float prev = 1e9f;
  for (int s = 0; s < 60 * 10; ++s) {
    w.step(kDt);
    float d = dist(w.positions()[0], w.target());
    if (inside) {
      EXPECT_LE(d, prev + 1e-3f) << "distance rose at step " << s;
    }
    inside = inside || d < p.slowingRadius;
    prev = d;
  }
  EXPECT_TRUE(inside);
  EXPECT_LT(dist(w.positions()[0], w.target()), 0.5f);
  EXPECT_LT(glm::length(w.velocities()[0]), 1.0f);
}

TEST(SteerWorld, AvoidanceFlowsAroundAnObstacleAndReachesTheTargetBehindIt) {
  for (float offset : {0.0f, 3.0f, -12.0f, 30.0f}) {
    SteeringParams p = nothingOn();
    p.agents = 1;
    p.seek = p.arrive = p.avoid = true;
    SteeringWorld w = makeWorld(p);
    const CircleObstacle o{{640, 360 + offset}, 60};
    w.addObstacle(o.center, o.radius);
    w.setTarget(Vec2{1000, 360});
    w.placeAgent(0, Vec2{200, 360}, Vec2{p.maxSpeed, 0});  // straight at the obstacle, target behind it
    float closest = 1e9f;
    for (int s = 0; s < 60 * 15; ++s) {
      w.step(kDt);
      closest = std::min(closest, dist(w.positions()[0], o.center));
    }
    EXPECT_GE(closest, o.radius + 0.5f * p.agentRadius) << "offset " << offset;
    EXPECT_EQ(w.obstaclePenetrations(), 0u) << "offset " << offset;
    EXPECT_LT(dist(w.positions()[0], w.target()), 2.0f) << "offset " << offset;
  }
}

TEST(SteerWorld, WanderRoamsAndStaysInside) {
  SteeringParams p = nothingOn();
  p.agents = 20;
  p.wander = p.contain = true;
  SteeringWorld w = makeWorld(p, 3);
  std::vector<Vec2> start(w.positions().begin(), w.positions().end());
  double travelled = 0;
  for (int s = 0; s < 60 * 10; ++s) {
    w.step(kDt);
    for (size_t i = 0; i < w.size(); ++i) {
      travelled += glm::length(w.velocities()[i]) * kDt;
      ASSERT_GE(w.positions()[i].x, 0.0f);
      ASSERT_LE(w.positions()[i].x, 1280.0f);
      ASSERT_GE(w.positions()[i].y, 0.0f);
      ASSERT_LE(w.positions()[i].y, 720.0f);
    }
  }
  // They keep moving (mean path > 5 s at half speed) and end up somewhere else.
  EXPECT_GT(travelled / double(w.size()), 5.0 * 0.5 * p.maxSpeed);
  double moved = 0;
  for (size_t i = 0; i < w.size(); ++i) moved += dist(w.positions()[i], start[i]);
  EXPECT_GT(moved / double(w.size()), 100.0);
}

TEST(SteerWorld, TurnRateLimitBoundsEachStepsHeadingChange) {
  SteeringParams p = nothingOn();
  p.agents = 10;
  p.seek = p.wander = p.contain = true;
  p.maxTurnRate = 2.0f;
  SteeringWorld w = makeWorld(p, 4);
  for (int s = 0; s < 300; ++s) {
    std::vector<Vec2> before(w.velocities().begin(), w.velocities().end());
    w.step(kDt);
    for (size_t i = 0; i < w.size(); ++i) {
      Vec2 a = before[i], b = w.velocities()[i];
      if (glm::length(a) < 1e-2f || glm::length(b) < 1e-2f) continue;
      // A wall bounce flips the velocity outside steering's control; skip agents touching an edge.
      Vec2 q = w.positions()[i];
      if (q.x < 5 || q.y < 5 || q.x > 1275 || q.y > 715) continue;
      EXPECT_LE(std::fabs(std::atan2(cross2(a, b), glm::dot(a, b))), 2.0f * kDt + 1e-4f);
    }
  }
}

TEST(SteerWorld, DebugGeometryShowsDesiredVelocityFeelerAndWanderCircle) {
  SteeringParams p = nothingOn();
  p.agents = 2;
  p.seek = true;
  SteeringWorld w = makeWorld(p);
  w.setTarget(Vec2{640, 600});
  w.placeAgent(0, Vec2{640, 300}, Vec2{p.maxSpeed, 0});
  w.placeAgent(1, Vec2{100, 100}, Vec2{0, 0});
  w.step(kDt);
  // Seek alone asks for full speed straight at the target, whatever the agent does now.
  expectVec(w.desiredVelocities()[0], Vec2{0, p.maxSpeed});
  // The feeler points along the velocity; a moving agent's is longer than one at rest.
  SteeringWorld::Feeler f = w.feeler(0);
  expectVec(f.from, w.positions()[0]);
  EXPECT_NEAR(glm::dot(glm::normalize(f.to - f.from), glm::normalize(w.velocities()[0])), 1.0f, 1e-5f);
  EXPECT_GT(glm::length(f.to - f.from), glm::length(w.feeler(1).to - w.feeler(1).from));
  WanderGeometry g = w.wanderOf(0);
  EXPECT_NEAR(dist(g.center, w.positions()[0]), p.wanderDistance, 1e-3f);
  EXPECT_NEAR(dist(g.point, g.center), p.wanderRadius, 1e-3f);
}

// Smoothing closes a velocity gap over the smoothing time: a small, jitter-sized change of what the
// agent wants is taken gently, where the classic step spends the full force on it at once.
TEST(SteerWorld, SmoothingSoftensASuddenChangeOfSteering) {
  auto firstTurn = [](float smoothingTime) {
    SteeringParams p = nothingOn();
    p.agents = 1;
    p.seek = true;
    p.smoothingTime = smoothingTime;
    SteeringWorld w = makeWorld(p);
    w.setTarget(Vec2{1000, 360});
    w.placeAgent(0, Vec2{640, 360}, Vec2{p.maxSpeed, 0});
    for (int s = 0; s < 10; ++s) w.step(kDt);  // cruising at the target: nothing to steer
    w.setTarget(Vec2{1000, 380});              // the target twitches a little to the side
    Vec2 before = w.velocities()[0];
    w.step(kDt);
    return glm::length(w.velocities()[0] - before);
  };
  float classic = firstTurn(0.0f), smoothed = firstTurn(0.2f);
  EXPECT_NEAR(classic, 400.0f * kDt, 1e-3f);  // the full max force at once
  EXPECT_LT(smoothed, 0.2f * classic);
}

// Seek + arrive with separation: the crowd packs around the target and stops, with or without
// smoothing (a smoothed agent must brake as surely as an unsmoothed one: no orbiting).
TEST(SteerWorld, ArrivingCrowdSettlesWithAnySmoothing) {
  for (float smoothing : {0.0f, 0.3f, 1.0f}) {
    SteeringWorld w;
    w.params.separate = true;
    w.params.smoothingTime = smoothing;
    w.reset(5);
    for (int s = 0; s < int(20.0f / kDt); ++s) w.step(kDt);
    std::vector<Metric> m;
    w.appendMetrics(m);
    double settled = -1.0;
    for (const Metric& x : m)
      if (std::string(x.name) == "settled_share") settled = x.value;
    EXPECT_GE(settled, 0.95) << "smoothing " << smoothing;
  }
}

TEST(SteerWorld, ObstaclesAreAddedMovedRemovedAndPicked) {
  SteeringWorld w = makeWorld(nothingOn());
  size_t a = w.addObstacle(Vec2{100, 100}, 30);
  size_t b = w.addObstacle(Vec2{120, 100}, 30);
  EXPECT_EQ(w.obstacleAt(Vec2{110, 100}), int(b));  // overlapping: the last added is on top
  EXPECT_EQ(w.obstacleAt(Vec2{75, 100}), int(a));
  EXPECT_EQ(w.obstacleAt(Vec2{500, 500}), -1);
  w.moveObstacle(a, Vec2{500, 500});
  EXPECT_EQ(w.obstacleAt(Vec2{510, 500}), int(a));
  w.removeObstacle(a);
  ASSERT_EQ(w.obstacles().size(), 1u);
  EXPECT_EQ(w.obstacles()[0].center, (Vec2{120, 100}));
  EXPECT_EQ(w.obstacleAt(Vec2{510, 500}), -1);
}

TEST(SteerWorld, MetricsReportDistanceSpeedAndPenetrations) {
  SteeringParams p = nothingOn();
  p.agents = 2;
  SteeringWorld w = makeWorld(p);
  w.setTarget(Vec2{0, 0});
  w.placeAgent(0, Vec2{30, 40}, Vec2{3, 4});
  w.placeAgent(1, Vec2{0, 100}, Vec2{0, 0});
  std::vector<Metric> m;
  w.appendMetrics(m);
  EXPECT_NEAR(metricValue(m, "mean_distance_to_target"), 75.0, 1e-4);
  EXPECT_NEAR(metricValue(m, "mean_speed"), 2.5, 1e-4);
  EXPECT_EQ(metricValue(m, "obstacle_penetrations"), 0.0);
  // An obstacle dropped onto agent 1 counts it once per step it stays inside.
  w.addObstacle(Vec2{0, 100}, 30);
  w.step(kDt);
  w.step(kDt);
  m.clear();
  w.appendMetrics(m);
  EXPECT_EQ(metricValue(m, "obstacle_penetrations"), 2.0);
}

// ---- formations ----

TEST(Formation, SlotOffsetsFollowTheShape) {
  // Column: single file behind; wedge: a symmetric V behind; line: abreast.
  expectVec(formationSlotOffset(FormationShape::Column, 2, 10), Vec2{-30, 0});
  expectVec(formationSlotOffset(FormationShape::Wedge, 0, 10), Vec2{-10, -10});
  expectVec(formationSlotOffset(FormationShape::Wedge, 1, 10), Vec2{-10, 10});
  expectVec(formationSlotOffset(FormationShape::Line, 3, 10), Vec2{0, 20});
  // In the world, relative to a leader heading +y: "behind" is -y, "left" is -x.
  expectVec(formationSlotPosition(FormationShape::Wedge, 1, 10, Vec2{100, 100}, Vec2{0, 1}), Vec2{90, 90});
}

TEST(Formation, GreedyMatchingPairsNearestFirstAndIsAPermutation) {
  std::vector<Vec2> agents{{0, 0}, {10, 0}, {20, 0}};
  std::vector<Vec2> slots{{21, 1}, {-1, 1}, {11, 1}};
  std::vector<uint32_t> slotOf(3);
  GreedySlotMatcher m;
  m.reserve(3);
  m.assign(agents, slots, slotOf);
  EXPECT_EQ(slotOf, (std::vector<uint32_t>{1, 2, 0}));
  // Greedy, not optimal: the closest pair goes first even if that costs the others.
  std::vector<Vec2> a2{{0, 0}, {3, 0}}, s2{{2, 0}, {-10, 0}};
  std::vector<uint32_t> slotOf2(2);
  m.assign(a2, s2, slotOf2);
  EXPECT_EQ(slotOf2, (std::vector<uint32_t>{1, 0}));
}

TEST(Formation, FollowersReachTheirSlotsAroundAStationaryLeader) {
  for (FormationShape shape : {FormationShape::Line, FormationShape::Wedge, FormationShape::Column}) {
    SteeringParams p = nothingOn();
    p.agents = 10;
    p.formation = true;
    p.shape = shape;
    SteeringWorld w = makeWorld(p, 6);
    const Vec2 leader{640, 360};  // the longest column (9 x 35 behind) stays inside the world
    w.placeAgent(0, leader, Vec2{0, 0});
    w.setTarget(leader);  // the leader arrives where it stands: it stays put
    for (int s = 0; s < 60 * 12; ++s) w.step(kDt);
    EXPECT_LT(dist(w.positions()[0], leader), 0.5f);
    for (size_t i = 1; i < w.size(); ++i)
      EXPECT_LT(dist(w.positions()[i], w.slotPosition(w.slotOf(i))), 2.0f) << "agent " << i << " shape " << int(shape);
  }
}

TEST(Formation, SlotsAreReassignedWhenTheLeaderTurnsAround) {
  SteeringParams p = nothingOn();
  p.agents = 8;
  p.formation = true;
  p.shape = FormationShape::Wedge;
  SteeringWorld w = makeWorld(p, 2);
  w.placeAgent(0, Vec2{300, 360}, Vec2{50, 0});
  w.setTarget(Vec2{700, 360});
  for (int s = 0; s < 60 * 10; ++s) w.step(kDt);  // the wedge forms trailing the leader to the right
  std::vector<uint32_t> before;
  for (size_t i = 1; i < w.size(); ++i) before.push_back(w.slotOf(i));
  w.setTarget(Vec2{100, 360});  // leader turns back through 180 degrees
  for (int s = 0; s < 60; ++s) w.step(kDt);
  ASSERT_LT(w.leaderHeading().x, 0.0f);
  std::vector<uint32_t> after;
  for (size_t i = 1; i < w.size(); ++i) after.push_back(w.slotOf(i));
  EXPECT_NE(before, after);
  std::vector<uint32_t> sorted = after;
  std::sort(sorted.begin(), sorted.end());
  for (uint32_t s = 0; s < sorted.size(); ++s) EXPECT_EQ(sorted[s], s);  // still one slot per follower
  // The new assignment is shorter overall than keeping the old slots would be.
  double kept = 0, reassigned = 0;
  for (size_t i = 1; i < w.size(); ++i) {
    kept += dist(w.positions()[i], w.slotPosition(before[i - 1]));
    reassigned += dist(w.positions()[i], w.slotPosition(after[i - 1]));
  }
  EXPECT_LT(reassigned, kept);
}

// ---- determinism and allocation ----

namespace {
SteeringParams everythingOn() {
  SteeringParams p;
  p.agents = 500;
  p.seek = p.wander = p.avoid = p.pursue = p.evade = p.contain = true;
  p.arrive = false;
  p.smoothingTime = 0.1f;
  p.maxTurnRate = 6.0f;
  return p;
}
}  // namespace

TEST(SteerWorld, SameSeedSameState) {
  SteeringWorld a, b, c;
  a.params = b.params = c.params = everythingOn();
  a.reset(42);
  b.reset(42);
  c.reset(43);
  for (int s = 0; s < 120; ++s) { a.step(kDt); b.step(kDt); c.step(kDt); }
  EXPECT_TRUE(sameState(a, b));
  EXPECT_FALSE(sameState(a, c));
  a.reset(42);  // a restart replays the same run
  for (int s = 0; s < 120; ++s) a.step(kDt);
  EXPECT_TRUE(sameState(a, b));
}

TEST(SteerWorld, OneThreadEqualsTwoThreads) {
  for (bool formation : {false, true}) {
    SteeringWorld a, b;
    a.params = b.params = everythingOn();
    a.params.formation = b.params.formation = formation;
    a.reset(7);
    b.reset(7);
    setThreadCount(1);
    for (int s = 0; s < 120; ++s) a.step(kDt);
    setThreadCount(2);
    for (int s = 0; s < 120; ++s) b.step(kDt);
    setThreadCount(0);
    EXPECT_TRUE(sameState(a, b)) << "formation " << formation;
  }
}

TEST(SteerWorld, NoAllocationPerStep) {
  SteeringWorld w;
  w.params = everythingOn();
  w.reset(5);
  for (int s = 0; s < 5; ++s) w.step(kDt);  // warm-up: the thread pool, first slot assignment
  const uint64_t before = allocationCount();
  for (int s = 0; s < 60; ++s) w.step(kDt);
  w.params.formation = true;  // slot assignment, then a turn-around that reassigns
  for (int s = 0; s < 30; ++s) w.step(kDt);
  w.setTarget(w.positions()[0] - w.velocities()[0] * 10.0f);
  for (int s = 0; s < 60; ++s) w.step(kDt);
  w.params.agents = 120;  // fewer, then more again: within the capacity reserved up front
  w.step(kDt);
  w.params.agents = SteeringWorld::kMaxAgents;
  w.step(kDt);
  EXPECT_EQ(allocationCount() - before, 0u);
}
