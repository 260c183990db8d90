// One vector vocabulary (sim/core/lanes.hpp), one result: the AVX2 and baseline builds of the
// kernels, and the portable fallback, give the same bits.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
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
Flock<D> stepped(NeighborMethod method, bool wide, size_t n, int steps) {
  lanes::setWide(wide);
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
  EXPECT_EQ(std::memcmp(a.position.data(), b.position.data(), a.size() * sizeof(Vec<D>)), 0);
  EXPECT_EQ(std::memcmp(a.velocity.data(), b.velocity.data(), a.size() * sizeof(Vec<D>)), 0);
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.lastNeighbors(), b.lastNeighbors());
}

}  // namespace

TEST(Lanes, NameSaysWhatRuns) {
  lanes::setWide(false);
  const std::string baseline = lanes::name();
  lanes::setWide(true);
  EXPECT_NE(baseline, "avx2-x8");
  if (lanes::wide()) {
    EXPECT_STREQ(lanes::name(), "avx2-x8");
  }
}

TEST(Lanes, BoidsGridAvx2AndBaselineGiveTheSameBits) {
  const Flock<2> wide = stepped<2>(NeighborMethod::Grid, true, 3000, 60);
  const Flock<2> baseline = stepped<2>(NeighborMethod::Grid, false, 3000, 60);
  EXPECT_GT(wide.meanNeighbors(), 5.0);
  expectSameBits(wide, baseline);
}

TEST(Lanes, BoidsBruteForceAvx2AndBaselineGiveTheSameBits) {
  expectSameBits(stepped<2>(NeighborMethod::BruteForce, true, 700, 30),
                 stepped<2>(NeighborMethod::BruteForce, false, 700, 30));
}

TEST(Lanes, Boids3dAvx2AndBaselineGiveTheSameBits) {
  expectSameBits(stepped<3>(NeighborMethod::Grid, true, 2000, 30), stepped<3>(NeighborMethod::Grid, false, 2000, 30));
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
