// One vector vocabulary (sim/core/lanes.hpp), one result: the AVX2 and baseline builds of the
// kernels, and the portable fallback, give the same bits.
#include <gtest/gtest.h>
#include "avx2_skip.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>
#include "sim/core/lanes.hpp"
#include "sim/core/parallel.hpp"
#include "sim/core/rng.hpp"
#include "sim/models/flock.hpp"

using namespace sim;

namespace {

struct ProbeResult {
  float distances = 0, pushes = 0, chosen = 0;
  int32_t near = 0;
  uint32_t bitsXor = 0;
};

// Every operation of the vocabulary over n points (x, y), padded to a whole register: the sum of
// distances to (cx, cy), of 1 / d^2 within `radius`, of a choice between +x and -y, the count
// within `radius`, and the true lanes' bits of the registers xor-ed together.
template <class L>
ProbeResult probe(const float* x, const float* y, uint32_t n, float cx, float cy, float radius) {
  using Floats = typename L::Floats;
  using Ints = typename L::Ints;
  Floats dist = L::splat(0.0f), push = dist, pick = dist;
  Ints near = L::splat(int32_t(0));
  uint32_t bitsXor = 0;
  const Floats px = L::splat(cx), py = L::splat(cy), r2 = L::splat(radius * radius), one = L::splat(1.0f),
               zero = L::splat(0.0f);
  for (uint32_t j = 0; j < n; j += lanes::kLanes) {
    const Ints live = j + lanes::kLanes <= n ? L::allLanes() : L::firstLanes(n - j);
    const Floats dx = L::load(x + j) - px, dy = L::load(y + j) - py;
    const Floats d2 = dx * dx + dy * dy;
    const Ints in = live & (d2 <= r2) & (d2 > zero);
    dist += L::keep(live, L::sqrt(d2));
    push += L::keep(in, one / d2);
    pick += L::keep(live, L::choose(dx > zero, dx, -dy));
    near -= in;
    bitsXor ^= L::bits(in) << (j / lanes::kLanes % 8);
  }
  return {L::sum(dist), L::sum(push), L::sum(pick), L::sum(near), bitsXor};
}

void expectSameBits(const ProbeResult& a, const ProbeResult& b) {
  EXPECT_EQ(std::memcmp(&a.distances, &b.distances, sizeof(float)), 0);
  EXPECT_EQ(std::memcmp(&a.pushes, &b.pushes, sizeof(float)), 0);
  EXPECT_EQ(std::memcmp(&a.chosen, &b.chosen, sizeof(float)), 0);
  EXPECT_EQ(a.near, b.near);
  EXPECT_EQ(a.bitsXor, b.bitsXor);
}

template <int D>
Flock<D> stepped(NeighborMethod method, lanes::Level level, size_t n, int steps) {
  lanes::setLevel(level);
  Flock<D> f;
  f.world.size = Vec<D>(400.0f);
  f.world.boundary = Boundary::Wrap;
  f.params.perceptionRadius = 40.0f;
  f.method = method;
  f.cellSize = 40.0f;
  f.spawn(n, 99);
  for (int s = 0; s < steps; ++s) f.step(1.0f / 60.0f);
  lanes::setWide(true);
  return f;
}

template <int D>
void expectSameBits(const Flock<D>& a, const Flock<D>& b) {
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(std::memcmp(a.positions().data(), b.positions().data(), a.size() * sizeof(Vec<D>)), 0);
  EXPECT_EQ(std::memcmp(a.velocities().data(), b.velocities().data(), a.size() * sizeof(Vec<D>)), 0);
  EXPECT_TRUE(std::equal(a.ids().begin(), a.ids().end(), b.ids().begin(), b.ids().end()));
  EXPECT_EQ(a.lastNeighbors(), b.lastNeighbors());
}

}  // namespace

TEST(Lanes, NameSaysWhatRuns) {
  lanes::setWide(false);
  const std::string baseline = lanes::name();
  lanes::setWide(true);
  EXPECT_NE(baseline, "avx2-x8");
  EXPECT_NE(baseline, "avx512-x8");
#if CROWDLAB_LANES_DISPATCH
  const char* expected[] = {"sse2-x8", "avx2-x8", "avx512-x8"};
  for (const lanes::Level level : lanes::available()) {
    lanes::setLevel(level);
    EXPECT_EQ(lanes::level(), level);
    EXPECT_STREQ(lanes::name(), expected[int(level)]);
  }
  lanes::setWide(true);
  EXPECT_EQ(lanes::level(), lanes::best());
#endif
#if CROWDLAB_LANES_DISPATCH && !defined(CROWDLAB_LANES_NO_AVX512)
  // A CPU with AVX-512 runs the AVX-512 build (the sanitizer builds leave it out).
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512dq")) {
    EXPECT_EQ(lanes::best(), lanes::Level::Avx512);
    EXPECT_STREQ(lanes::name(), "avx512-x8");
  }
#endif
}

namespace {
// Each build beyond the baseline this CPU runs (AVX2; AVX-512 where it has it) against the baseline.
template <int D>
void expectEveryBuildLikeTheBaseline(NeighborMethod method, size_t n, int steps) {
  const Flock<D> baseline = stepped<D>(method, lanes::Level::Baseline, n, steps);
  EXPECT_GT(baseline.meanNeighbors(), 2.0);
  for (const lanes::Level level : lanes::available().subspan(1)) {
    SCOPED_TRACE(int(level));
    expectSameBits(stepped<D>(method, level, n, steps), baseline);
  }
}
}  // namespace

TEST(Lanes, BoidsGridAvx2AndBaselineGiveTheSameBits) {
  CROWDLAB_SKIP_WITHOUT_AVX2();
  expectEveryBuildLikeTheBaseline<2>(NeighborMethod::Grid, 3000, 60);
}

TEST(Lanes, BoidsBruteForceAvx2AndBaselineGiveTheSameBits) {
  CROWDLAB_SKIP_WITHOUT_AVX2();
  expectEveryBuildLikeTheBaseline<2>(NeighborMethod::BruteForce, 700, 30);
}

TEST(Lanes, Boids3dAvx2AndBaselineGiveTheSameBits) {
  CROWDLAB_SKIP_WITHOUT_AVX2();
  expectEveryBuildLikeTheBaseline<3>(NeighborMethod::Grid, 2000, 30);
}

// The three kinds of lanes (one 32-byte vector, two 16-byte halves, a plain array for compilers
// without vector extensions) compute lane for lane the same and fold their sums in the same order.
TEST(Lanes, EveryKindGivesTheSameBits) {
  Rng rng(3);
  const uint32_t n = 203;  // not a whole number of registers
  std::vector<float> x(n + lanes::kLanes, 0.0f), y(n + lanes::kLanes, 0.0f);
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = rng.uniform(-50.0f, 50.0f);
    y[i] = rng.uniform(-50.0f, 50.0f);
  }
  const ProbeResult portable = probe<lanes::Portable>(x.data(), y.data(), n, 3.0f, -2.0f, 30.0f);
  EXPECT_GT(portable.near, 20);
  EXPECT_LT(portable.near, int32_t(n));
  // Close to a plain sum in index order (the fold adds in another order).
  float plain = 0.0f;
  for (uint32_t i = 0; i < n; ++i) plain += std::sqrt((x[i] - 3.0f) * (x[i] - 3.0f) + (y[i] + 2.0f) * (y[i] + 2.0f));
  EXPECT_NEAR(portable.distances, plain, 1e-3f * plain);
#if CROWDLAB_LANES_VECTOR
  expectSameBits(probe<lanes::Wide>(x.data(), y.data(), n, 3.0f, -2.0f, 30.0f), portable);
  expectSameBits(probe<lanes::Split>(x.data(), y.data(), n, 3.0f, -2.0f, 30.0f), portable);
#endif
}

namespace {

// Random sums with the cases the scalar rules branch on: no neighbours, coincident neighbours (zero
// sums), sums past the force clamp, slow and still agents, and positions past the world's edges.
template <int D>
void expectLanesIntegrateLikeTheScalarRules(Boundary boundary) {
  Rng rng(17 + D);
  World<D> world;
  world.size = Vec<D>(300.0f);
  world.boundary = boundary;
  BoidsParams p;
  p.minSpeed = 20.0f;
  const uint32_t n = 203;  // the last batch is partial
  std::vector<BoidsAccum<D>> sums(n);
  std::vector<float> axis[2][D];
  for (auto& a : axis)
    for (auto& k : a) k.assign(n + lanes::kLanes, 0.0f);
  for (uint32_t i = 0; i < n; ++i) {
    BoidsAccum<D>& s = sums[i];
    const int kind = int(i % 7);
    s.alignmentCount = s.cohesionCount = kind == 0 ? 0 : int(rng.below(12)) + 1;
    s.separationCount = kind == 1 ? 0 : int(rng.below(4));
    const float spread = kind == 2 ? 1e-7f : (kind == 3 ? 5000.0f : 60.0f);
    s.separationSum = s.separationCount ? rng.unitVec<D>() * rng.uniform(0.0f, 0.5f) : Vec<D>(0.0f);
    s.velocitySum = kind == 0 ? Vec<D>(0.0f) : rng.unitVec<D>() * spread * float(s.alignmentCount);
    s.offsetSum = kind == 0 ? Vec<D>(0.0f) : rng.unitVec<D>() * rng.uniform(0.0f, spread);
    const Vec<D> pos = kind == 4 ? Vec<D>(299.99f) : rng.inBox<D>(world.min, world.max());
    const Vec<D> vel = kind == 5 ? Vec<D>(0.0f) : rng.unitVec<D>() * rng.uniform(0.0f, 150.0f);
    for (int k = 0; k < D; ++k) {
      axis[0][k][i] = pos[k];
      axis[1][k][i] = vel[k];
    }
  }
  CandidateAxes<D> state;
  for (int k = 0; k < D; ++k) {
    state.position[k] = axis[0][k].data();
    state.velocity[k] = axis[1][k].data();
  }
  const float dt = 1.0f / 30.0f;
  for (const lanes::Level level : lanes::available()) {
    lanes::setLevel(level);
    std::vector<Vec<D>> lanePos(n), laneVel(n);
    for (uint32_t b = 0; b < n; b += kBoidsLaneBatch) {
      const uint32_t count = std::min(kBoidsLaneBatch, n - b);
      integrateLanes<D>(std::span<const BoidsAccum<D>>(sums.data() + b, count), b, state, p, dt, world,
                        lanePos.data(), laneVel.data());
    }
    int wrapped = 0;
    for (uint32_t i = 0; i < n; ++i) {
      Vec<D> pos, vel;
      for (int k = 0; k < D; ++k) {
        pos[k] = axis[0][k][i];
        vel[k] = axis[1][k][i];
      }
      const Vec<D> before = pos + vel * dt;
      integrate(pos, vel, boidsAcceleration(sums[i], vel, p), dt, p.maxSpeed, world, p.minSpeed);
      wrapped += pos != before;
      ASSERT_EQ(std::memcmp(&pos, &lanePos[i], sizeof pos), 0) << "agent " << i << " level " << int(level);
      ASSERT_EQ(std::memcmp(&vel, &laneVel[i], sizeof vel), 0) << "agent " << i << " level " << int(level);
    }
    EXPECT_GT(wrapped, 0);  // some positions crossed an edge
  }
  lanes::setWide(true);
}

}  // namespace

TEST(Lanes, IntegrateGivesTheScalarRulesBits2D) {
  expectLanesIntegrateLikeTheScalarRules<2>(Boundary::Wrap);
  expectLanesIntegrateLikeTheScalarRules<2>(Boundary::Bounce);
}

TEST(Lanes, IntegrateGivesTheScalarRulesBits3D) {
  expectLanesIntegrateLikeTheScalarRules<3>(Boundary::Wrap);
  expectLanesIntegrateLikeTheScalarRules<3>(Boundary::Bounce);
}

namespace {
// A register built lane by lane, then its chosen lanes moved to the front.
template <class L>
std::vector<float> compressed(unsigned bits) {
  const typename L::Floats v = L::fromLanes([](int l) { return 10.0f + float(l); });
  const typename L::Floats moved = L::asFloats(L::permute(L::asInts(v), L::compressOrder(bits)));
  float out[lanes::kLanes];
  std::memcpy(out, &moved, sizeof out);
  return std::vector<float>(out, out + std::popcount(bits));
}
}  // namespace

// fromLanes, compressOrder and permute (NearestKeys' append, buildPrograms' inputs) on every kind:
// the chosen lanes, in order, for every set of lanes.
TEST(Lanes, ChosenLanesMoveToTheFrontInOrderOnEveryKind) {
  for (unsigned bits = 0; bits < 256; ++bits) {
    std::vector<float> expected;
    for (int l = 0; l < lanes::kLanes; ++l)
      if (bits >> l & 1u) expected.push_back(10.0f + float(l));
    ASSERT_EQ(compressed<lanes::Baseline>(bits), expected) << bits;
    ASSERT_EQ(compressed<lanes::Portable>(bits), expected) << bits;
#if CROWDLAB_LANES_VECTOR
    ASSERT_EQ(compressed<lanes::Wide>(bits), expected) << bits;
#endif
  }
}

// dispatchLanes is the one choice of instruction set: the baseline kind when wide() is off, the AVX2
// kind (Wide) in the AVX2 and the AVX-512 builds, and the kernel's result the same bits each way.
TEST(Lanes, DispatchLanesRunsTheKindWideChooses) {
  const float x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, y[8] = {0.5f, 1, 1.5f, 2, 2.5f, 3, 3.5f, 4};
  auto run = [&](lanes::Level level, bool& tookAvx2) {
    lanes::setLevel(level);
    ProbeResult r;
    lanes::dispatchLanes([&](auto kind) CROWDLAB_LANES_INLINE_LAMBDA {
      using L = typename decltype(kind)::type;
      tookAvx2 = std::is_same_v<L, lanes::Avx2> && !std::is_same_v<L, lanes::Baseline>;
      r = probe<L>(x, y, 8, 2.0f, 1.0f, 3.0f);
    });
    return r;
  };
  bool avx2 = true;
  const ProbeResult baseline = run(lanes::Level::Baseline, avx2);
  EXPECT_FALSE(avx2) << "wide() off must run the baseline kind";
  CROWDLAB_SKIP_WITHOUT_AVX2();
  for (const lanes::Level level : lanes::available().subspan(1)) {
    const ProbeResult wide = run(level, avx2);
    EXPECT_TRUE(avx2) << "wide() on must run the AVX2 kind";
    EXPECT_EQ(std::bit_cast<uint32_t>(wide.distances), std::bit_cast<uint32_t>(baseline.distances));
    EXPECT_EQ(wide.near, baseline.near);
  }
  lanes::setWide(true);
}
