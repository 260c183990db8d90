// The social force model's forces against hand-computed cases (a pair at contact, a pair apart, a
// wall), and the pedestrian model: the same results at one and two threads, no allocation per step.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include "alloc_counter.hpp"
#include "sim/core/parallel.hpp"
#include "sim/models/pedestrians.hpp"
#include "sim/rules/social_force.hpp"

using namespace sim;

namespace {
const sfm::Params kHelbing{};  // Helbing, Farkas, Vicsek 2000: A 2000 N, B 0.08 m, k 1.2e5, kappa 2.4e5
constexpr float kTolerance = 1e-3f;  // relative
void expectNear(Vec2 got, Vec2 want) {
  const float scale = std::max(1.0f, glm::length(want));
  EXPECT_NEAR(got.x, want.x, kTolerance * scale);
  EXPECT_NEAR(got.y, want.y, kTolerance * scale);
}
}  // namespace

// Two bodies of radius 0.25 whose centres are 0.45 m apart (5 cm of overlap), j east of i, sliding
// past each other: i north at 0.5 m/s, j south at 0.5 m/s.
//   n = (-1, 0) (from j to i), t = (0, -1), dv_ji = (vj - vi) . t = 1 m/s
//   normal: A e^(0.05/0.08) + k 0.05 = 2000 * 1.8682460 + 6000 = 9736.49 N along n
//   friction: kappa 0.05 * 1 = 12000 N along t (against i's sliding, north)
TEST(SocialForce, PairAtContactHasRepulsionBodyForceAndFriction) {
  const Vec2 offset{0.45f, 0.0f};
  const Vec2 f = sfm::pairForce(offset, 0.45f, 0.5f, {0.0f, 0.5f}, {0.0f, -0.5f}, Vec2{0.0f}, kHelbing);
  expectNear(f, {-9736.49f, -12000.0f});
  // Newton's third law: j feels the opposite.
  const Vec2 g = sfm::pairForce(-offset, 0.45f, 0.5f, {0.0f, -0.5f}, {0.0f, 0.5f}, Vec2{0.0f}, kHelbing);
  expectNear(g, -f);
}

// Apart (1 m between centres, radii summing to 0.5): the repulsion alone, 2000 e^(-6.25) = 3.8615 N,
// whatever the velocities.
TEST(SocialForce, PairApartFeelsOnlyTheExponentialRepulsion) {
  const Vec2 f = sfm::pairForce({0.0f, 1.0f}, 1.0f, 0.5f, {1.0f, 0.0f}, {-1.0f, 0.0f}, Vec2{0.0f}, kHelbing);
  expectNear(f, {0.0f, -3.8615f});
  // Field of view: lambda 0.2 weights a neighbour straight behind by 0.2, one straight ahead by 1.
  sfm::Params p = kHelbing;
  p.lambda = 0.2f;
  const Vec2 behind = sfm::pairForce({0.0f, -1.0f}, 1.0f, 0.5f, Vec2{0.0f}, Vec2{0.0f}, {0.0f, 1.0f}, p);
  const Vec2 ahead = sfm::pairForce({0.0f, 1.0f}, 1.0f, 0.5f, Vec2{0.0f}, Vec2{0.0f}, {0.0f, 1.0f}, p);
  expectNear(behind, {0.0f, 0.2f * 3.8615f});
  expectNear(ahead, {0.0f, -3.8615f});
}

// A body of radius 0.25 at 0.2 m above a wall (5 cm into it), walking east at 1 m/s:
//   n = (0, 1), t = (-1, 0), v . t = -1
//   normal 9736.49 N up; friction -kappa 0.05 (v . t) t = 12000 t = (-12000, 0): against the walk.
TEST(SocialForce, WallPushesOutAndRubs) {
  const Vec2 f = sfm::wallForce({0.0f, -0.2f}, 0.2f, 0.25f, {1.0f, 0.0f}, kHelbing);
  expectNear(f, {-12000.0f, 9736.49f});
  // Clear of the wall by 0.15 m: 2000 e^(-0.15/0.08) = 306.73 N, no friction.
  expectNear(sfm::wallForce({0.0f, -0.4f}, 0.4f, 0.25f, {1.0f, 0.0f}, kHelbing), {0.0f, 306.73f});
}

TEST(SocialForce, DrivingTermRelaxesToTheDesiredVelocity) {
  expectNear(sfm::drivingForce({1.34f, 0.0f}, Vec2{0.0f}, kHelbing), {80.0f * 1.34f / 0.5f, 0.0f});
  expectNear(sfm::drivingForce({1.0f, 0.0f}, {1.0f, 0.0f}, kHelbing), Vec2{0.0f});
}

// 1.34 (1 - exp(-1.913 (1/rho - 1/5.4))) by hand: 1.058 at 1, 0.606 at 2, 0.331 at 3 (not 0.28).
TEST(Weidmann, TheFundamentalDiagramsKnownPoints) {
  EXPECT_NEAR(weidmannSpeed(1.0), 1.058, 0.001);
  EXPECT_NEAR(weidmannSpeed(2.0), 0.606, 0.001);
  EXPECT_NEAR(weidmannSpeed(3.0), 0.331, 0.001);
  EXPECT_EQ(weidmannSpeed(5.4), 0.0);
}

namespace {
PedestrianParams setup(PedSetup s, PedMethod m) {
  PedestrianParams p;
  p.setup = s;
  p.method = m;
  p.density = 2.5f;
  p.people = 60;
  p.warmup = 0.5f;
  return p;
}
std::vector<Vec2> runSteps(const PedestrianParams& p, int threads, int steps, PedestrianMetrics* metrics = nullptr) {
  ScopedThreadCount count(threads);
  PedestrianSim sim(p);
  for (int s = 0; s < steps; ++s) sim.step(1.0f / 60.0f);
  if (metrics) *metrics = sim.metrics();
  return {sim.positions().begin(), sim.positions().end()};
}
bool sameBits(const std::vector<Vec2>& a, const std::vector<Vec2>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Vec2)) == 0;
}
}  // namespace

TEST(Pedestrians, OneAndTwoThreadsGiveBitwiseIdenticalState) {
  for (PedSetup s : {PedSetup::Corridor, PedSetup::Bottleneck, PedSetup::CounterFlow})
    for (PedMethod m : {PedMethod::Separation, PedMethod::Orca, PedMethod::OrcaLanes, PedMethod::SocialForce}) {
      SCOPED_TRACE(std::to_string(int(s)) + " " + pedMethodName(m));
      const PedestrianParams p = setup(s, m);
      const auto one = runSteps(p, 1, 90), two = runSteps(p, 2, 90);
      EXPECT_FALSE(one.empty());
      EXPECT_TRUE(sameBits(one, two));
    }
}

TEST(Pedestrians, SocialForceStepsWithoutAllocating) {
  PedestrianSim sim(setup(PedSetup::CounterFlow, PedMethod::SocialForce));
  for (int s = 0; s < 5; ++s) sim.step(1.0f / 60.0f);
  const uint64_t before = allocationCount();
  for (int s = 0; s < 30; ++s) sim.step(1.0f / 60.0f);
  EXPECT_EQ(allocationCount() - before, 0u);
}

// The social force keeps bodies apart where separation alone lets them through each other: at
// 2.5 /m^2 nobody in the measurement area overlaps by more than 1 % of a diameter, and the body force
// holds a crowd pressed against a wall out of it.
TEST(Pedestrians, SocialForceKeepsBodiesApartAndInsideTheWalls) {
  PedestrianParams p = setup(PedSetup::Corridor, PedMethod::SocialForce);
  PedestrianSim sim(p);
  for (int s = 0; s < 300; ++s) sim.step(1.0f / 60.0f);
  EXPECT_LT(sim.metrics().overlapShare, 0.02);
  for (const Vec2& q : sim.positions()) EXPECT_LT(std::fabs(q.y), sim.halfWidth() - 0.8f * p.radius);
  EXPECT_GT(sim.metrics().meanSpeed, 0.5);
}

// A room empties through the door: everyone out, the flow measured between the 10th and the 90th.
TEST(Pedestrians, TheRoomEmptiesThroughTheDoor) {
  PedestrianParams p = setup(PedSetup::Bottleneck, PedMethod::SocialForce);
  p.doorWidth = 1.2f;
  PedestrianMetrics m;
  runSteps(p, 2, 60 * 60, &m);
  EXPECT_EQ(m.exited, 60);
  EXPECT_GT(m.evacuationTime, 5.0);
  EXPECT_GT(m.flow, 1.0);
  EXPECT_NEAR(m.specificFlow, m.flow / 1.2, 1e-6);
}
