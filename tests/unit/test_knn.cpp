// Exact k nearest neighbours on the grid against brute force: random and clustered layouts, 2D and
// 3D, wrap and box worlds, every k up to 30, fewer agents than k, ties, and no allocation.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>
#include "alloc_counter.hpp"
#include "sim/core/knn.hpp"
#include "sim/core/rng.hpp"
#include "worlds.hpp"

using namespace sim;

namespace {

// All (distSq, sorted index) pairs from p, nearest first, ties by index: the definition itself.
// `keep`: only the nearest so many (a partial sort gives the same first pairs).
template <int D>
std::vector<std::pair<float, uint32_t>> bruteOrder(const UniformGrid<D>& g, uint32_t self, const Vec<D>& p,
                                                   size_t keep = SIZE_MAX) {
  std::vector<std::pair<float, uint32_t>> all;
  for (uint32_t j = 0; j < g.size(); ++j) {
    if (j == self) continue;
    Vec<D> d = g.world().delta(g.inside(p), g.sortedPositions()[j]);
    all.push_back({glm::dot(d, d), j});
  }
  keep = std::min(keep, all.size());
  std::partial_sort(all.begin(), all.begin() + std::ptrdiff_t(keep), all.end());
  all.resize(keep);
  return all;
}

// Hints as a moving flock gives them: mostly the true neighbours, some swapped for random agents,
// and now and then the agent itself, an index past the end, or kNoNeighbor.
template <int D>
std::vector<uint32_t> hintsFor(const std::vector<std::pair<float, uint32_t>>& expected, uint32_t self, uint32_t n,
                               int k, Rng& rng) {
  std::vector<uint32_t> hints;
  const int count = k >= 20 ? 2 * k : k;  // more hints than kMaxNearest too
  for (int m = 0; m < count && m < int(expected.size()); ++m) {
    const uint32_t roll = rng.below(10);
    hints.push_back(roll < 6 ? expected[size_t(m)].second
                    : roll < 8 ? rng.below(n)
                    : roll == 8 ? self
                                : (rng.below(2) ? kNoNeighbor : n + 3));
  }
  return hints;
}

template <int D>
void expectKnnMatchesBrute(const std::vector<Vec<D>>& points, const World<D>& w, float cellSize,
                           std::initializer_list<int> ks, uint32_t queryStride = 1, bool withHints = false) {
  UniformGrid<D> g;
  g.build(points, w, cellSize);
  Nearest found;
  Rng rng(5);
  for (uint32_t i = 0; i < g.size(); i += queryStride) {
    auto expected = bruteOrder(g, i, g.sortedPositions()[i]);
    for (int k : ks) {
      const std::vector<uint32_t> hints =
          withHints ? hintsFor<D>(expected, i, g.size(), k, rng) : std::vector<uint32_t>{};
      nearestNeighbors(g, i, g.sortedPositions()[i], k, found, hints);
      const int want = std::min<int>(k, int(expected.size()));
      ASSERT_EQ(found.count, want) << "agent " << i << " k " << k;
      for (int m = 0; m < want; ++m) {
        ASSERT_EQ(found.index[m], expected[m].second) << "agent " << i << " k " << k << " rank " << m << " cellSize " << cellSize;
        ASSERT_EQ(found.distSq[m], expected[m].first);
      }
    }
  }
}

template <int D>
std::vector<Vec<D>> uniformPoints(size_t n, const World<D>& w, uint64_t seed) {
  Rng rng(seed);
  std::vector<Vec<D>> p(n);
  for (auto& x : p) x = rng.inBox<D>(w.min, w.max());
  return p;
}

// Half the points crowded into a small corner box, the rest spread thinly.
template <int D>
std::vector<Vec<D>> clusteredPoints(size_t n, const World<D>& w, uint64_t seed) {
  Rng rng(seed);
  std::vector<Vec<D>> p(n);
  for (size_t i = 0; i < n; ++i)
    p[i] = i % 2 ? rng.inBox<D>(w.min, w.min + w.size * 0.05f) : rng.inBox<D>(w.min, w.max());
  return p;
}

}  // namespace

TEST(Knn, MatchesBruteForce2D) {
  for (Boundary b : {Boundary::Wrap, Boundary::Bounce}) {
    World<2> w = makeWorld<2>(b, Vec2{-50, 30}, Vec2{300, 200});
    auto p = uniformPoints(400, w, 1);
    for (float cs : {40.0f, 12.0f, 3.0f}) expectKnnMatchesBrute(p, w, cs, {1, 2, 7, 16, 30}, 3);
  }
}

TEST(Knn, MatchesBruteForce3D) {
  for (Boundary b : {Boundary::Wrap, Boundary::Bounce}) {
    World<3> w = makeWorld<3>(b, Vec3{0, -20, 5}, Vec3{60, 40, 50});
    auto p = uniformPoints(500, w, 2);
    for (float cs : {15.0f, 6.0f, 2.5f}) expectKnnMatchesBrute(p, w, cs, {1, 3, 7, 15, 30}, 3);
  }
}

TEST(Knn, EveryKFrom1To30) {
  World<3> w = makeWorld<3>(Boundary::Wrap, Vec3{0, 0, 0}, Vec3{40, 40, 40});
  auto p = uniformPoints(300, w, 3);
  expectKnnMatchesBrute(p, w, 5.0f,
                        {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27,
                         28, 29, 30},
                        7);
}

TEST(Knn, ClusteredLayouts) {
  World<2> w2 = makeWorld<2>(Boundary::Bounce, Vec2{0, 0}, Vec2{1000, 1000});
  expectKnnMatchesBrute(clusteredPoints(600, w2, 4), w2, 50.0f, {1, 7, 30}, 2);
  World<3> w3 = makeWorld<3>(Boundary::Wrap, Vec3{0, 0, 0}, Vec3{100, 100, 100});
  expectKnnMatchesBrute(clusteredPoints(600, w3, 5), w3, 8.0f, {1, 7, 30}, 2);
}

TEST(Knn, FewerAgentsThanK) {
  World<2> w = makeWorld<2>(Boundary::Wrap, Vec2{0, 0}, Vec2{100, 100});
  for (size_t n = 1; n <= 9; ++n) expectKnnMatchesBrute(uniformPoints(n, w, 10 + n), w, 10.0f, {1, 7, 8, 9, 30});
  UniformGrid<2> g;
  std::vector<Vec2> none;
  g.build(none, w, 10.0f);
  Nearest found;
  nearestNeighbors(g, kNoNeighbor, Vec2{5, 5}, 7, found);
  EXPECT_EQ(found.count, 0);
}

// Lattice points and duplicates: many equal distances, decided by index.
TEST(Knn, TiesGoToTheSmallerIndex) {
  World<2> w = makeWorld<2>(Boundary::Wrap, Vec2{0, 0}, Vec2{20, 20});
  std::vector<Vec2> p;
  for (int y = 0; y < 20; y += 2)
    for (int x = 0; x < 20; x += 2) p.push_back(Vec2{float(x), float(y)});
  p.push_back(Vec2{4, 4});  // duplicates
  p.push_back(Vec2{4, 4});
  for (float cs : {2.0f, 3.0f, 7.0f}) expectKnnMatchesBrute(p, w, cs, {1, 4, 5, 8, 9, 13, 30});
  World<3> w3 = makeWorld<3>(Boundary::Bounce, Vec3{0, 0, 0}, Vec3{8, 8, 8});
  std::vector<Vec3> p3;
  for (int z = 0; z < 8; z += 2)
    for (int y = 0; y < 8; y += 2)
      for (int x = 0; x < 8; x += 2) p3.push_back(Vec3{float(x), float(y), float(z)});
  expectKnnMatchesBrute(p3, w3, 2.0f, {1, 6, 7, 18, 19, 26, 30});

  // The rule itself, on a small case: four neighbours at distance 1 around the origin.
  UniformGrid<2> g;
  std::vector<Vec2> cross = {{10, 11}, {11, 10}, {10, 9}, {9, 10}, {10, 10}};
  g.build(cross, w, 5.0f);
  Nearest found;
  nearestNeighbors(g, kNoNeighbor, Vec2{10, 10}, 3, found);
  ASSERT_EQ(found.count, 3);
  EXPECT_EQ(found.distSq[0], 0.0f);
  EXPECT_EQ(found.index[1] < found.index[2], true);
  EXPECT_EQ(found.distSq[1], 1.0f);
}

TEST(Knn, AcrossTheSeam) {
  World<2> w = makeWorld<2>(Boundary::Wrap, Vec2{0, 0}, Vec2{100, 100});
  std::vector<Vec2> p = {{1, 50}, {98, 50}, {10, 50}, {50, 50}};
  UniformGrid<2> g;
  g.build(p, w, 10.0f);
  Nearest found;
  nearestNeighbors(g, kNoNeighbor, Vec2{0.5f, 50}, 2, found);
  ASSERT_EQ(found.count, 2);
  EXPECT_EQ(g.order()[found.index[0]], 0u);  // (1, 50): 0.5 away
  EXPECT_EQ(g.order()[found.index[1]], 1u);  // (98, 50): 2.5 away across the seam
  EXPECT_FLOAT_EQ(found.distSq[1], 6.25f);
}

// A query that is not an agent, anywhere, even outside a box world.
TEST(Knn, ArbitraryQueryPoints) {
  World<3> w = makeWorld<3>(Boundary::Open, Vec3{0, 0, 0}, Vec3{50, 50, 50});
  auto p = uniformPoints(300, w, 6);
  UniformGrid<3> g;
  g.build(p, w, 6.0f);
  Rng rng(7);
  Nearest found;
  for (int t = 0; t < 60; ++t) {
    Vec3 q = rng.inBox<3>(Vec3(-30.0f), Vec3(80.0f));
    auto expected = bruteOrder(g, kNoNeighbor, q);
    nearestNeighbors(g, kNoNeighbor, q, 9, found);
    ASSERT_EQ(found.count, 9);
    for (int m = 0; m < 9; ++m) ASSERT_EQ(found.index[m], expected[m].second) << q.x << " " << q.y << " " << q.z;
  }
}

TEST(Knn, AllAgentsFlatListAndNoAllocation) {
  World<2> w = makeWorld<2>(Boundary::Wrap, Vec2{0, 0}, Vec2{200, 200});
  auto p = uniformPoints(2000, w, 8);
  UniformGrid<2> g;
  g.build(p, w, 8.0f);
  const int k = 7;
  std::vector<uint32_t> flat(g.size() * k);
  std::vector<float> d2(g.size() * k);
  nearestNeighborsAll(g, k, flat, d2);
  uint64_t before = allocationCount();
  uint64_t checks = nearestNeighborsAll(g, k, flat, d2);
  Nearest found;
  for (uint32_t i = 0; i < g.size(); i += 97) nearestNeighbors(g, i, g.sortedPositions()[i], k, found);
  EXPECT_EQ(allocationCount() - before, 0u);
  EXPECT_GT(checks, uint64_t(g.size()) * k);
  EXPECT_LT(checks, uint64_t(g.size()) * 200);  // far from brute force's 2000 per agent
  for (uint32_t i = 0; i < g.size(); i += 13) {
    auto expected = bruteOrder(g, i, g.sortedPositions()[i]);
    for (int m = 0; m < k; ++m) {
      EXPECT_EQ(flat[i * k + m], expected[m].second);
      EXPECT_EQ(d2[i * k + m], expected[m].first);
    }
  }
  // Fewer agents than k: the rest of each row is kNoNeighbor.
  std::vector<Vec2> three = {{1, 1}, {5, 5}, {9, 9}};
  g.build(three, w, 8.0f);
  std::vector<uint32_t> small(3 * k);
  nearestNeighborsAll(g, k, small);
  for (uint32_t i = 0; i < 3; ++i) {
    EXPECT_NE(small[i * k + 0], kNoNeighbor);
    EXPECT_NE(small[i * k + 1], kNoNeighbor);
    for (int m = 2; m < k; ++m) EXPECT_EQ(small[i * k + m], kNoNeighbor);
  }
}

// Hints (last step's neighbours, in the murmuration) only make the search faster: with true,
// random, repeated or invalid hints the k nearest are the same, ties included, in a box (where the
// search visits the ball of the k-th hint) and on a torus.
TEST(Knn, HintsNeverChangeTheResult) {
  for (Boundary b : {Boundary::Bounce, Boundary::Open, Boundary::Wrap}) {
    const World<2> w = makeWorld<2>(b, Vec2{-50, 10}, Vec2{100, 60});
    expectKnnMatchesBrute<2>(uniformPoints<2>(600, w, 3), w, 4.0f, {1, 7, 30}, 1, true);
    expectKnnMatchesBrute<2>(clusteredPoints<2>(600, w, 4), w, 2.5f, {1, 7, 12}, 1, true);
    const World<3> w3 = makeWorld<3>(b, Vec3{0, -20, 5}, Vec3{40, 40, 20});
    expectKnnMatchesBrute<3>(uniformPoints<3>(800, w3, 5), w3, 2.0f, {1, 7, 30}, 1, true);
    expectKnnMatchesBrute<3>(clusteredPoints<3>(800, w3, 6), w3, 3.0f, {7, 20}, 1, true);
  }
  const World<2> grid = makeWorld<2>(Boundary::Bounce, Vec2{0, 0}, Vec2{20, 20});
  std::vector<Vec2> lattice;  // ties everywhere
  for (int y = 0; y < 20; y += 2)
    for (int x = 0; x < 20; x += 2) lattice.push_back(Vec2{float(x), float(y)});
  for (float cs : {2.0f, 3.0f, 7.0f}) expectKnnMatchesBrute<2>(lattice, grid, cs, {1, 4, 5, 8, 9, 13}, 1, true);
}

// nearestNeighborsAll with hints takes most answers from the agent's cell block (one pass in lanes,
// bounded by the hints); each must be the exact answer, ties included.
TEST(Knn, AllAgentsWithHintsMatchBruteForce) {
  auto check = [](const auto& points, const auto& w, float cellSize, int k) {
    constexpr int D = std::remove_cvref_t<decltype(points[0])>::length();
    UniformGrid<D> g;
    g.build(points, w, cellSize);
    const size_t n = g.size();
    std::vector<uint32_t> lists(n * size_t(k)), hints(n * size_t(k));
    std::vector<std::vector<std::pair<float, uint32_t>>> nearest(n);
    Rng rng(9);
    for (uint32_t i = 0; i < n; ++i) {
      const auto& expected = nearest[i] = bruteOrder(g, i, g.sortedPositions()[i], size_t(k));
      for (int m = 0; m < k; ++m)  // mostly the true neighbours, now and then a random agent
        hints[i * size_t(k) + size_t(m)] =
            rng.below(10) < 8 && size_t(m) < expected.size() ? expected[size_t(m)].second : rng.below(uint32_t(n));
    }
    nearestNeighborsAll<D>(g, k, lists, {}, hints, size_t(k));
    for (uint32_t i = 0; i < n; ++i) {
      const auto& expected = nearest[i];
      for (int m = 0; m < k && size_t(m) < expected.size(); ++m)
        ASSERT_EQ(lists[i * size_t(k) + size_t(m)], expected[size_t(m)].second) << "agent " << i << " k " << k;
    }
  };
  for (Boundary b : {Boundary::Bounce, Boundary::Open}) {
    const World<3> w3 = makeWorld<3>(b, Vec3{0, -20, 5}, Vec3{40, 40, 20});
    for (int k : {1, 7, 20}) {
      check(uniformPoints<3>(1500, w3, 11), w3, 4.0f, k);
      check(clusteredPoints<3>(1500, w3, 12), w3, 3.0f, k);
    }
    const World<2> w2 = makeWorld<2>(b, Vec2{-50, 10}, Vec2{100, 60});
    check(uniformPoints<2>(800, w2, 13), w2, 5.0f, 7);
  }
  const World<2> grid = makeWorld<2>(Boundary::Bounce, Vec2{0, 0}, Vec2{20, 20});
  std::vector<Vec2> lattice;  // ties everywhere
  for (int y = 0; y < 20; y += 2)
    for (int x = 0; x < 20; x += 2) lattice.push_back(Vec2{float(x), float(y)});
  for (int k : {1, 4, 5, 8}) check(lattice, grid, 3.0f, k);
}
