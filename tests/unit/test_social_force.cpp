// The social force model's forces against hand-computed cases (a pair at contact, a pair apart, a
// wall), and the pedestrian model: the same results at one and two threads, no allocation per step.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <vector>
#include "alloc_counter.hpp"
#include "sim/core/lanes.hpp"
#include "sim/core/parallel.hpp"
#include "sim/core/rng.hpp"
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
// The exponential the forces take: as close to std::exp as the float product x log2 e allows
// (its rounding grows with |x|: 3e-7 relative at the forces' usual |x| < 10), down to 1e-37; and
// each lane build gives expOne's bits.
TEST(SocialForce, ExpIsCloseToTheLibrarysAndTheSameInEveryLaneBuild) {
  std::vector<float> xs;
  for (float x = -87.0f; x <= 88.0f; x += 0.01370f) xs.push_back(x);
  for (float x : {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -7.5f, 6.25f}) xs.push_back(x);
  for (float x : xs) {
    const double want = std::exp(double(x)), got = lanes::expOne(x);
    ASSERT_NEAR(got / want, 1.0, 2e-7 + 1e-7 * std::fabs(double(x))) << "x = " << x;
  }
  EXPECT_EQ(lanes::expOne(-1000.0f), lanes::expOne(-88.0f));  // held, not 0 or NaN
  EXPECT_TRUE(std::isfinite(lanes::expOne(1000.0f)));
  EXPECT_TRUE(std::isfinite(lanes::expOne(NAN)));
  while (xs.size() % lanes::kLanes) xs.push_back(0.0f);
  for (const lanes::Level level : lanes::available()) {
    SCOPED_TRACE(int(level));
    lanes::setLevel(level);
    std::vector<float> got(xs.size());
    for (size_t i = 0; i < xs.size(); i += lanes::kLanes)
      lanes::dispatchLanes([&](auto kind) CROWDLAB_LANES_INLINE_LAMBDA {
        using L = typename decltype(kind)::type;
        const auto v = lanes::exp<L>(L::load(xs.data() + i));
        std::memcpy(got.data() + i, &v, sizeof v);
      });
    for (size_t i = 0; i < xs.size(); ++i) ASSERT_EQ(std::bit_cast<uint32_t>(got[i]), std::bit_cast<uint32_t>(lanes::expOne(xs[i]))) << xs[i];
  }
  lanes::setWide(true);
}

// pairForceSum, the model's kernel, is pairForce summed over the candidates within the cutoff
// (the body itself and those farther left out), seam shifts and minimum image included, with the
// same bits on every lane build.
TEST(SocialForce, TheKernelSumsPairForceOverTheCandidatesInReach) {
  Rng rng(5, 1);
  constexpr size_t kCandidates = 29;  // three registers and a part
  std::vector<float> x(kCandidates + 16), y(kCandidates + 16), vx(kCandidates + 16), vy(kCandidates + 16);
  const Vec2 self{0.3f, -0.2f}, vi{1.1f, 0.2f}, world{20.0f, 12.0f};
  for (size_t j = 0; j < kCandidates; ++j) {
    x[j] = self.x + rng.uniform(-1.3f, 1.3f);
    y[j] = self.y + rng.uniform(-1.3f, 1.3f);
    vx[j] = rng.uniform(-1.5f, 1.5f);
    vy[j] = rng.uniform(-1.5f, 1.5f);
  }
  x[3] = self.x, y[3] = self.y;            // the body itself
  x[7] = self.x + 0.35f, y[7] = self.y;    // in contact
  x[11] = self.x - 0.2f, y[11] = self.y + 0.2f;
  const CandidateAxes<2> axes{{x.data(), y.data()}, {vx.data(), vy.data()}};
  sfm::Params p = kHelbing;
  for (float lambda : {1.0f, 0.3f}) {
    p.lambda = lambda;
    const Vec2 heading = lambda < 1.0f ? safeNormalize(vi) : Vec2{0.0f};
    // Two runs, the second shifted across a seam (its candidates a world's width to the west).
    for (size_t j = 20; j < kCandidates; ++j) x[j] += world.x;
    const CandidateRun<2> runs[] = {{0, 20, Vec2{0.0f}}, {20, uint32_t(kCandidates), Vec2{-world.x, 0.0f}}};
    Vec2 want{0.0f};
    int inReach = 0;
    for (size_t j = 0; j < kCandidates; ++j) {
      const Vec2 off = Vec2{x[j], y[j]} - self + (j >= 20 ? Vec2{-world.x, 0.0f} : Vec2{0.0f});
      const float d2 = glm::dot(off, off);
      if (d2 > 0.0f && d2 <= p.cutoff * p.cutoff) {
        want += sfm::pairForce(off, std::sqrt(d2), 0.4f, vi, {vx[j], vy[j]}, heading, p);
        ++inReach;
      }
    }
    ASSERT_GT(inReach, 6);
    std::vector<Vec2> byLevel;
    for (const lanes::Level level : lanes::available()) {
      lanes::setLevel(level);
      byLevel.push_back(sfm::pairForceSum(self, vi, heading, 0.4f, axes, runs, false, world, p));
      // The minimum image finds the same neighbours without the shifts.
      const CandidateRun<2> plain[] = {{0, 20, Vec2{0.0f}}, {20, uint32_t(kCandidates), Vec2{0.0f}}};
      const Vec2 image = sfm::pairForceSum(self, vi, heading, 0.4f, axes, plain, true, world, p);
      EXPECT_NEAR(image.x, byLevel.back().x, 1e-3f * glm::length(want));
      EXPECT_NEAR(image.y, byLevel.back().y, 1e-3f * glm::length(want));
    }
    lanes::setWide(true);
    expectNear(byLevel[0], want);
    for (const Vec2& f : byLevel) EXPECT_EQ(std::memcmp(&f, &byLevel[0], sizeof f), 0);
    for (size_t j = 20; j < kCandidates; ++j) x[j] -= world.x;
  }
}

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
