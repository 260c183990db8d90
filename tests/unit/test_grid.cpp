// The uniform grid: radius queries against brute force, the classic 3x3 failure, hand-counted
// checks, clamping, occupancy, reordering and allocation-free rebuilds.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <vector>
#include "alloc_counter.hpp"
#include "sim/core/grid.hpp"
#include "sim/core/neighbors.hpp"
#include "sim/core/rng.hpp"
#include "worlds.hpp"

using namespace sim;

namespace {

// Random positions; on non-wrapping worlds some fall outside the box (agents of an Open world do).
template <int D>
std::vector<Vec<D>> randomPositions(size_t n, const World<D>& w, uint64_t seed) {
  Rng rng(seed);
  std::vector<Vec<D>> p(n);
  Vec<D> margin = w.boundary == Boundary::Wrap ? Vec<D>(0.0f) : w.size * 0.1f;
  for (auto& x : p) x = rng.inBox<D>(w.min - margin, w.max() + margin);
  return p;
}

// For each agent (original index): the sorted original indices of its neighbours within r.
template <int D>
std::vector<std::vector<uint32_t>> bruteSets(const std::vector<Vec<D>>& p, const World<D>& w, float r) {
  BruteForceSearch<D> brute{std::span<const Vec<D>>(p), &w};
  std::vector<std::vector<uint32_t>> sets(p.size());
  for (uint32_t i = 0; i < p.size(); ++i) {
    brute.forEachInRadius(i, p[i], r, [&](uint32_t j, const Vec<D>&, float) { sets[i].push_back(j); });
    std::sort(sets[i].begin(), sets[i].end());
  }
  return sets;
}

// The same from the grid, mapped back to original indices; also fails on a neighbour seen twice.
template <int D>
std::vector<std::vector<uint32_t>> gridSets(const UniformGrid<D>& g, float r, SearchMode mode) {
  std::vector<std::vector<uint32_t>> sets(g.size());
  for (uint32_t k = 0; k < g.size(); ++k) {
    auto& s = sets[g.order()[k]];
    g.forEachInRadius(k, g.sortedPositions()[k], r, [&](uint32_t j, const Vec<D>&, float) { s.push_back(g.order()[j]); },
                      mode);
    std::sort(s.begin(), s.end());
    EXPECT_TRUE(std::adjacent_find(s.begin(), s.end()) == s.end()) << "a neighbour visited twice";
  }
  return sets;
}

template <int D>
void expectGridMatchesBrute(const World<D>& w, size_t n, float r, float cellSize, uint64_t seed) {
  std::vector<Vec<D>> p = randomPositions(n, w, seed);
  UniformGrid<D> g;
  g.build(p, w, cellSize);
  auto expected = bruteSets(p, w, r);
  auto actual = gridSets(g, r, SearchMode::AutoRings);
  size_t pairs = 0;
  for (size_t i = 0; i < n; ++i) {
    ASSERT_EQ(actual[i], expected[i]) << "agent " << i << " cellSize " << cellSize;
    pairs += expected[i].size();
  }
  EXPECT_GT(pairs, n) << "layout too sparse to test anything";
}

}  // namespace

TEST(GridRadius, MatchesBruteForce2D) {
  const float r = 30.0f;
  for (Boundary b : {Boundary::Wrap, Boundary::Bounce, Boundary::Open}) {
    World<2> w = makeWorld<2>(b, Vec2{-150, 20}, Vec2{400, 260});
    for (float cs : {75.0f, 30.0f, 22.0f, 13.0f, 6.0f}) expectGridMatchesBrute(w, 500, r, cs, 11 + uint64_t(cs));
  }
}

TEST(GridRadius, MatchesBruteForce3D) {
  const float r = 12.0f;
  for (Boundary b : {Boundary::Wrap, Boundary::Bounce}) {
    World<3> w = makeWorld<3>(b, Vec3{5, -40, 0}, Vec3{90, 70, 60});
    for (float cs : {20.0f, 12.0f, 5.0f}) expectGridMatchesBrute(w, 600, r, cs, 5 + uint64_t(cs));
  }
}

// Few cells per axis: the query block covers a whole wrapping axis; each cell must be visited once.
TEST(GridRadius, BlockCoveringTheWholeTorusVisitsEachCellOnce) {
  World<2> w = makeWorld<2>(Boundary::Wrap, Vec2{0, 0}, Vec2{100, 100});
  expectGridMatchesBrute(w, 120, 45.0f, 30.0f, 3);   // 3 cells per axis, 2 rings needed
  expectGridMatchesBrute(w, 120, 45.0f, 100.0f, 4);  // a single cell
  World<3> w3 = makeWorld<3>(Boundary::Wrap, Vec3{0, 0, 0}, Vec3{100, 40, 100});
  expectGridMatchesBrute(w3, 150, 18.0f, 15.0f, 5);  // y: 2 cells
}

TEST(GridRadius, Classic3x3MissesNeighboursWhenCellsAreSmallerThanTheRadius) {
  World<2> w = makeWorld<2>(Boundary::Wrap, Vec2{0, 0}, Vec2{400, 400});
  std::vector<Vec2> p = randomPositions(800, w, 21);
  const float r = 40.0f;
  UniformGrid<2> g;
  g.build(p, w, 10.0f);
  auto expected = bruteSets(p, w, r);
  auto classic = gridSets(g, r, SearchMode::Classic3x3);
  size_t found = 0, total = 0;
  for (size_t i = 0; i < p.size(); ++i) {
    EXPECT_TRUE(std::includes(expected[i].begin(), expected[i].end(), classic[i].begin(), classic[i].end()));
    found += classic[i].size();
    total += expected[i].size();
  }
  // 3x3 cells of 10 reach 10..20 from the agent; a radius of 40 holds far more.
  EXPECT_LT(found * 2, total);
  EXPECT_GT(found, 0u);
}

// Cells of 10 on a 100 x 100 box; agents placed in known cells, checks counted by hand.
TEST(GridRadius, CheckCounterMatchesHandCount) {
  World<2> w = makeWorld<2>(Boundary::Bounce, Vec2{0, 0}, Vec2{100, 100});
  std::vector<Vec2> p = {
      {55, 55}, {52, 58}, {57, 51},  // cell (5,5): the query agent and two more
      {45, 45},                      // (4,4)
      {65, 65}, {61, 69},            // (6,6)
      {55, 75}, {52, 72}, {58, 78}, {51, 71},  // (5,7): two rings away
      {5, 5},                        // (0,0)
  };
  UniformGrid<2> g;
  g.build(p, w, 10.0f);
  uint32_t self = 0;
  while (g.order()[self] != 0) ++self;
  auto none = [](uint32_t, const Vec2&, float) {};
  EXPECT_EQ(g.forEachInRadius(self, p[0], 10.0f, none), 5u);  // 3x3 block: 3 + 1 + 2 agents, minus self
  EXPECT_EQ(g.forEachInRadius(self, p[0], 15.0f, none), 9u);  // 5x5 block adds the 4 in (5,7)
  EXPECT_EQ(g.forEachInRadius(self, p[0], 15.0f, none, SearchMode::Classic3x3), 5u);
  int accepted = 0;
  g.forEachInRadius(self, p[0], 15.0f, [&](uint32_t, const Vec2&, float) { ++accepted; });
  // (52,58), (57,51), (45,45) and (65,65); (61,69) is 15.2 away and the (5,7) cell holds none within 15.
  EXPECT_EQ(accepted, 4);
  // A corner agent: the block is clipped to the box.
  uint32_t corner = 0;
  while (g.order()[corner] != 10) ++corner;
  EXPECT_EQ(g.forEachInRadius(corner, p[10], 10.0f, none), 0u);
}

TEST(GridRadius, CheckCounterAcrossTheSeam) {
  World<2> w = makeWorld<2>(Boundary::Wrap, Vec2{0, 0}, Vec2{100, 100});
  std::vector<Vec2> p = {{1, 1}, {99, 99}, {95, 5}, {5, 95}, {15, 15}, {50, 50}, {25, 5}};
  UniformGrid<2> g;
  g.build(p, w, 10.0f);
  uint32_t self = 0;
  while (g.order()[self] != 0) ++self;
  std::vector<uint32_t> seen;
  uint32_t checks = g.forEachInRadius(self, p[0], 10.0f, [&](uint32_t j, const Vec2& off, float) {
    seen.push_back(g.order()[j]);
    EXPECT_LT(glm::length(off), 10.0f);
  });
  // Cells (9,9), (9,0), (0,9) and (1,1) are in the 3x3 block around (0,0); (2,0) and (5,5) are not.
  EXPECT_EQ(checks, 4u);
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, (std::vector<uint32_t>{1, 2, 3}));  // (15,15) is 19.8 away
}

TEST(GridBuild, SortsStablyByCellAndReorders) {
  World<2> w = makeWorld<2>(Boundary::Wrap, Vec2{0, 0}, Vec2{200, 100});
  std::vector<Vec2> p = randomPositions(300, w, 8);
  UniformGrid<2> g;
  g.build(p, w, 20.0f);
  ASSERT_EQ(g.numCells(), 50u);
  std::vector<uint32_t> seen(p.size(), 0);
  for (uint32_t c = 0; c < g.numCells(); ++c) {
    for (uint32_t k = g.cellStart()[c]; k < g.cellStart()[c + 1]; ++k) {
      EXPECT_EQ(g.cellIndex(g.cellOf(g.sortedPositions()[k])), c);
      if (k > g.cellStart()[c]) { EXPECT_LT(g.order()[k - 1], g.order()[k]); }  // stable
      seen[g.order()[k]]++;
    }
  }
  EXPECT_EQ(g.cellStart()[g.numCells()], p.size());
  EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](uint32_t s) { return s == 1; }));
  std::vector<Vec2> data = p, scratch;
  g.reorder(data, scratch);
  for (uint32_t k = 0; k < g.size(); ++k) {
    EXPECT_EQ(data[k], p[g.order()[k]]);
    EXPECT_EQ(g.sortedPositions()[k], p[g.order()[k]]);
  }
}

// Large enough for the counting sort to run in slices on several threads: the same order as one.
TEST(GridBuild, SameOrderForAnyThreadCount) {
  World<2> w = makeWorld<2>(Boundary::Wrap, Vec2{0, 0}, Vec2{2000, 2000});
  std::vector<Vec2> p = randomPositions(40000, w, 9);
  UniformGrid<2> one, two;
  setThreadCount(1);
  one.build(p, w, 25.0f);
  setThreadCount(2);
  two.build(p, w, 25.0f);
  setThreadCount(0);
  EXPECT_TRUE(std::equal(one.order().begin(), one.order().end(), two.order().begin(), two.order().end()));
  EXPECT_TRUE(std::equal(one.cellStart().begin(), one.cellStart().end(), two.cellStart().begin(), two.cellStart().end()));
  for (uint32_t c = 0; c < two.numCells(); ++c)
    for (uint32_t k = two.cellStart()[c] + 1; k < two.cellStart()[c + 1]; ++k) ASSERT_LT(two.order()[k - 1], two.order()[k]);
}

TEST(GridBuild, WrapCellsTileTheTorus) {
  World<2> w = makeWorld<2>(Boundary::Wrap, Vec2{0, 0}, Vec2{1000, 470});
  UniformGrid<2> g;
  std::vector<Vec2> p = {{999.99f, 469.99f}, {1000.0f, 0.0f}};  // the second one sits on the seam
  g.build(p, w, 300.0f);
  EXPECT_EQ(g.cellsPerAxis(), (glm::ivec2{3, 1}));
  EXPECT_NEAR(g.cellExtent().x, 1000.0f / 3.0f, 1e-3f);
  EXPECT_FLOAT_EQ(g.cellExtent().y, 470.0f);
  EXPECT_FALSE(g.cellSizeWasClamped());
  EXPECT_EQ(g.cellOf(p[0]), (glm::ivec2{2, 0}));
  EXPECT_EQ(g.cellOf(g.inside(p[1])), (glm::ivec2{0, 0}));
}

TEST(GridBuild, AbsurdCellCountsAreClamped) {
  World<2> w = makeWorld<2>(Boundary::Bounce, Vec2{0, 0}, Vec2{1e6f, 1e6f});
  std::vector<Vec2> p = randomPositions(400, w, 2);
  UniformGrid<2> g;
  g.build(p, w, 1.0f);  // 10^12 cells asked for
  EXPECT_TRUE(g.cellSizeWasClamped());
  EXPECT_LE(g.numCells(), UniformGrid<2>::kMaxCells);
  EXPECT_GT(g.numCells(), UniformGrid<2>::kMaxCells / 2);  // grown just enough, not to one cell
  EXPECT_GE(g.effectiveCellSize(), 1e6f / 2048.0f);
  EXPECT_FLOAT_EQ(g.requestedCellSize(), 1.0f);
  // Still exact.
  auto expected = bruteSets(p, w, 1e5f);
  auto actual = gridSets(g, 1e5f, SearchMode::AutoRings);
  for (size_t i = 0; i < p.size(); ++i) ASSERT_EQ(actual[i], expected[i]);

  g.build(p, w, 0.0f);
  EXPECT_TRUE(g.cellSizeWasClamped());
  EXPECT_EQ(g.numCells(), 1u);
  g.build(p, w, 5e4f);
  EXPECT_FALSE(g.cellSizeWasClamped());
  EXPECT_EQ(g.numCells(), 400u);

  World<3> w3 = makeWorld<3>(Boundary::Wrap, Vec3{0, 0, 0}, Vec3{1e4f, 1e4f, 1e4f});
  UniformGrid<3> g3;
  std::vector<Vec3> p3 = {{1, 2, 3}};
  g3.build(p3, w3, 1.0f);
  EXPECT_TRUE(g3.cellSizeWasClamped());
  EXPECT_LE(g3.numCells(), UniformGrid<3>::kMaxCells);
  EXPECT_GT(g3.numCells(), 1000000u);
}

TEST(GridBuild, OccupancyStatistics) {
  World<2> w = makeWorld<2>(Boundary::Bounce, Vec2{0, 0}, Vec2{40, 20});
  std::vector<Vec2> p = {{1, 1}, {2, 2}, {3, 3}, {15, 5}, {35, 15}, {36, 16}};  // cells 0: 3, 1: 1, 7: 2
  UniformGrid<2> g;
  g.build(p, w, 10.0f);
  std::vector<uint32_t> hist(3, 99);
  OccupancyStats s = g.occupancy(hist);
  EXPECT_EQ(s.cells, 8u);
  EXPECT_EQ(s.nonEmptyCells, 3u);
  EXPECT_EQ(s.maxPerCell, 3u);
  EXPECT_DOUBLE_EQ(s.meanPerNonEmptyCell, 2.0);
  EXPECT_EQ(hist, (std::vector<uint32_t>{5, 1, 2}));  // the last bin takes the cells with 2 and with 3
}

TEST(GridBuild, NoAllocationOnceCapacityIsReached) {
  World<3> w = makeWorld<3>(Boundary::Wrap, Vec3{0, 0, 0}, Vec3{100, 100, 100});
  std::vector<Vec3> p = randomPositions(5000, w, 6), data = p, scratch;
  UniformGrid<3> g;
  g.build(p, w, 10.0f);
  g.reorder(data, scratch);
  uint64_t before = allocationCount();
  for (int s = 0; s < 3; ++s) {
    for (auto& x : p) x = g.inside(x + Vec3(0.7f, -0.3f, 0.2f));
    g.build(p, w, 10.0f);
    g.reorder(data, scratch);
  }
  uint32_t checks = 0;
  for (uint32_t k = 0; k < g.size(); k += 50)
    checks += g.forEachInRadius(k, g.sortedPositions()[k], 15.0f, [](uint32_t, const Vec3&, float) {});
  EXPECT_GT(checks, 0u);
  EXPECT_EQ(allocationCount() - before, 0u);
}

// ---- The flock on the grid ----
#include "sim/models/flock.hpp"

namespace {
template <int D>
Flock<D> gridFlock(size_t n, Vec<D> size, uint64_t seed) {
  Flock<D> f;
  f.world.size = size;
  f.spawn(n, seed);
  f.method = NeighborMethod::Grid;
  return f;
}

// Per id: neighbours and checks of the last step.
template <int D>
std::vector<uint32_t> byId(const Flock<D>& f, std::span<const uint32_t> perAgent) {
  std::vector<uint32_t> out(f.size());
  for (size_t i = 0; i < f.size(); ++i) out[f.ids()[i]] = perAgent[i];
  return out;
}

// Neighbours per agent (by id) straight from the rules' own test, over every pair: the reference.
template <int D>
std::vector<uint32_t> referenceNeighbourCounts(const Flock<D>& f) {
  BruteForceSearch<D> brute{std::span<const Vec<D>>(f.positions()), &f.world};
  const float fovCos = fieldOfViewCos(f.params);
  std::vector<uint32_t> counts(f.size());
  for (uint32_t i = 0; i < f.size(); ++i) {
    BoidsAccum<D> acc;
    const Vec<D> heading = safeNormalize(f.velocities()[i]);
    brute.forEachInRadius(i, f.positions()[i], f.params.searchRadius(), [&](uint32_t j, const Vec<D>& off, float d2) {
      accumulateNeighbor(acc, f.params, fovCos, heading, off, d2, f.velocities()[j]);
    });
    counts[f.ids()[i]] = uint32_t(acc.perceivedCount);
  }
  return counts;
}

template <int D>
void expectSameNeighboursAsBruteForce(Flock<D> grid, bool fewerChecks = true) {
  const std::vector<uint32_t> reference = referenceNeighbourCounts(grid);
  Flock<D> brute = grid;
  brute.method = NeighborMethod::BruteForce;
  grid.step(1.0f / 60);
  brute.step(1.0f / 60);
  EXPECT_EQ(byId(grid, grid.lastNeighborCounts()), reference);
  EXPECT_EQ(byId(brute, brute.lastNeighborCounts()), reference);
  EXPECT_GT(grid.meanNeighbors(), 3.0);
  if (fewerChecks) { EXPECT_LT(grid.lastChecks() * 2, brute.lastChecks()); }
  // The same rules on the same neighbours: the same motion up to summation order.
  for (size_t i = 0; i < grid.size(); ++i) {
    size_t b = grid.ids()[i];
    ASSERT_EQ(brute.ids()[b], b);
    for (int k = 0; k < D; ++k) EXPECT_NEAR(grid.velocities()[i][k], brute.velocities()[b][k], 1e-2f);
  }
}
}  // namespace

TEST(GridFlock, SameNeighbourCountsAsBruteForce) {
  Flock<2> f = gridFlock<2>(800, Vec2{510, 370}, 4);
  expectSameNeighboursAsBruteForce(f);
  f.cellSize = 13.0f;  // cells smaller than the radius: more rings
  expectSameNeighboursAsBruteForce(f);
  f.cellSize = 400.0f;  // fewer cells than a block: minimum image per agent
  expectSameNeighboursAsBruteForce(f, false);
  f.cellSize = 50.0f;
  f.params.separateRadii = true;
  f.params.alignmentRadius = 30.0f;
  f.params.cohesionRadius = 65.0f;
  expectSameNeighboursAsBruteForce(f);
  f.params.separateRadii = false;
  f.params.useFieldOfView = true;
  f.params.fieldOfViewDegrees = 200.0f;
  expectSameNeighboursAsBruteForce(f);
  f.params.useFieldOfView = false;
  f.world.boundary = Boundary::Bounce;
  expectSameNeighboursAsBruteForce(f);

  Flock<3> f3 = gridFlock<3>(700, Vec3{170, 125, 150}, 9);
  f3.params.perceptionRadius = 25.0f;
  f3.params.separationRadius = 10.0f;
  f3.cellSize = 25.0f;
  expectSameNeighboursAsBruteForce(f3);
}

TEST(GridFlock, OneThreadEqualsTwoThreads) {
  Flock<2> a = gridFlock<2>(2000, Vec2{600, 600}, 7), b = a;
  setThreadCount(1);
  for (int s = 0; s < 60; ++s) a.step(1.0f / 60);
  setThreadCount(2);
  for (int s = 0; s < 60; ++s) b.step(1.0f / 60);
  setThreadCount(0);
  auto same = [](auto x, auto y) { return std::equal(x.begin(), x.end(), y.begin(), y.end()); };
  EXPECT_TRUE(same(a.positions(), b.positions()) && same(a.velocities(), b.velocities()) && same(a.ids(), b.ids()));
}

TEST(GridFlock, MissedNeighboursCountedAgainstBruteForce) {
  Flock<2> f = gridFlock<2>(900, Vec2{460, 460}, 12);
  for (int s = 0; s < 10; ++s) f.step(1.0f / 60);
  EXPECT_EQ(f.countMissedNeighbors(1), 0u);
  f.cellSize = 10.0f;
  EXPECT_EQ(f.countMissedNeighbors(1), 0u);  // auto rings stay exact
  f.searchMode = SearchMode::Classic3x3;
  uint64_t missed = f.countMissedNeighbors(1);
  // What one step finds with each search, computed by the step's own (vectorised) path.
  Flock<2> brute = f;
  brute.method = NeighborMethod::BruteForce;
  brute.step(1.0f / 60);
  f.step(1.0f / 60);
  EXPECT_GT(missed, brute.lastNeighbors() / 2);
  EXPECT_EQ(missed, brute.lastNeighbors() - f.lastNeighbors());
  uint64_t sampled = f.countMissedNeighbors(7);
  EXPECT_GT(sampled, 0u);
  EXPECT_LT(sampled, missed);
}

TEST(GridFlock, ProbeListsTheNeighboursTheStepUses) {
  Flock<2> f = gridFlock<2>(800, Vec2{400, 400}, 13);
  f.step(1.0f / 60);
  Flock<2> brute = f;
  brute.method = NeighborMethod::BruteForce;
  for (size_t i : {size_t(0), size_t(17), size_t(555)}) {
    Flock<2>::Probe a, b;
    f.probe(i, a);
    brute.probe(i, b);
    std::vector<uint32_t> ida, idb;
    for (uint32_t j : a.neighbors) ida.push_back(f.ids()[j]);
    for (uint32_t j : b.neighbors) idb.push_back(brute.ids()[j]);
    std::sort(ida.begin(), ida.end());
    std::sort(idb.begin(), idb.end());
    EXPECT_EQ(ida, idb);
    EXPECT_FALSE(ida.empty());
  }
  size_t i = f.indexOfId(123);
  ASSERT_LT(i, f.size());
  EXPECT_EQ(f.ids()[i], 123u);
  EXPECT_EQ(f.indexOfId(99999), f.size());
}

TEST(GridFlock, NoAllocationPerStepAfterWarmUp) {
  Flock<2> f = gridFlock<2>(3000, Vec2{800, 800}, 14);
  for (int s = 0; s < 3; ++s) f.step(1.0f / 60);
  uint64_t before = allocationCount();
  for (int s = 0; s < 5; ++s) f.step(1.0f / 60);
  EXPECT_EQ(allocationCount() - before, 0u);
}
