// Exact k nearest neighbours (topological neighbours) on the uniform grid, 2D and 3D.
//
// The search visits shells of cells around the query's cell: shell s holds the cells at Chebyshev
// distance s (in cells). After each shell it stops once k candidates are held and the k-th is
// strictly closer than anything an unvisited cell could hold (the distance from the query to the
// faces of the visited block), or when every cell has been visited. Distances are World::delta's,
// so a wrapping world finds neighbours across the seam.
//
// Order: nearest first; equal distances by sorted index, smaller first. Indices are the grid's
// sorted indices (grid.order() maps them back). No allocation: results live in a fixed buffer.
#pragma once
#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <span>
#include "sim/grid.hpp"
#include "sim/parallel.hpp"

namespace sim {

constexpr int kMaxNearest = 32;              // largest k
constexpr uint32_t kNoNeighbor = 0xFFFFFFFFu;  // fills the slots of a flat list beyond the neighbours found

struct Nearest {
  int count = 0;        // min(k, agents other than self)
  uint32_t checks = 0;  // distance checks made
  std::array<uint32_t, kMaxNearest> index{};
  std::array<float, kMaxNearest> distSq{};

  // Keeps the `keep` best (distance, index) pairs, nearest first.
  void offer(uint32_t j, float d2, int keep) {
    int m = count;
    if (m == keep) {
      if (d2 > distSq[m - 1] || (d2 == distSq[m - 1] && j > index[m - 1])) return;
      --m;  // the last one drops out
    } else {
      ++count;
    }
    while (m > 0 && (d2 < distSq[m - 1] || (d2 == distSq[m - 1] && j < index[m - 1]))) {
      distSq[m] = distSq[m - 1];
      index[m] = index[m - 1];
      --m;
    }
    distSq[m] = d2;
    index[m] = j;
  }
};

// The k nearest agents to p, leaving out sorted index `self` (kNoNeighbor: leave out none).
// k is clamped to 0..kMaxNearest; with fewer agents than k, all of them.
template <int D>
void nearestNeighbors(const UniformGrid<D>& grid, uint32_t self, const Vec<D>& p, int k, Nearest& out) {
  using Coord = typename UniformGrid<D>::Coord;
  out.count = 0;
  out.checks = 0;
  const uint32_t n = grid.size();
  const int others = int(std::min<uint32_t>(n - (self < n ? 1u : 0u), uint32_t(kMaxNearest)));
  const int want = std::min(std::clamp(k, 0, kMaxNearest), others);
  if (want <= 0) return;

  const World<D>& world = grid.world();
  const bool wrap = world.boundary == Boundary::Wrap;
  const Coord dims = grid.cellsPerAxis();
  const Vec<D> ext = grid.cellExtent();
  const Vec<D> q = grid.inside(p);
  const Coord c = grid.cellOf(q);
  // Shell s covers cells c - min(s, below) .. c + min(s, above) on each axis: clipped at the edges
  // of a box; on a torus split so the block never wraps onto itself.
  Coord below, above;
  int lastShell = 0;
  for (int a = 0; a < D; ++a) {
    below[a] = wrap ? (dims[a] - 1) / 2 : c[a];
    above[a] = wrap ? dims[a] - 1 - below[a] : dims[a] - 1 - c[a];
    lastShell = std::max(lastShell, std::max(below[a], above[a]));
  }
  auto lo = [&](int s, int a) { return c[a] - std::min(s, below[a]); };
  auto hi = [&](int s, int a) { return c[a] + std::min(s, above[a]); };
  const auto start = grid.cellStart();
  const auto sorted = grid.sortedPositions();

  // Cells first..last (unwrapped) of the row `row` (x ignored): one or two runs of agents.
  auto visitRow = [&](Coord row, int first, int last) {
    if (first > last) return;
    for (int a = 1; a < D; ++a) row[a] = (row[a] % dims[a] + dims[a]) % dims[a];
    auto run = [&](int x0, int x1) {
      row.x = x0;
      const uint32_t begin = start[grid.cellIndex(row)];
      row.x = x1;
      const uint32_t end = start[grid.cellIndex(row) + 1];
      for (uint32_t j = begin; j < end; ++j) {
        if (j == self) continue;
        ++out.checks;
        const Vec<D> d = world.delta(q, sorted[j]);
        out.offer(j, glm::dot(d, d), want);
      }
    };
    const int nx = dims.x;
    if (last < 0) {  // wholly past the seam (an end of a wrapping shell)
      first += nx;
      last += nx;
    } else if (first >= nx) {
      first -= nx;
      last -= nx;
    }
    if (first < 0) {
      run(first + nx, nx - 1);
      run(0, last);
    } else if (last >= nx) {
      run(first, nx - 1);
      run(0, last - nx);
    } else {
      run(first, last);
    }
  };

  for (int s = 0; s <= lastShell; ++s) {
    // The cells of shell s: rows of the new block; a row inside the previous block only adds its ends.
    auto visitShellRow = [&](const Coord& row) {
      bool inner = s > 0;
      for (int a = 1; a < D; ++a) inner = inner && row[a] >= lo(s - 1, a) && row[a] <= hi(s - 1, a);
      if (inner) {
        visitRow(row, lo(s, 0), lo(s - 1, 0) - 1);
        visitRow(row, hi(s - 1, 0) + 1, hi(s, 0));
      } else {
        visitRow(row, lo(s, 0), hi(s, 0));
      }
    };
    if constexpr (D == 2) {
      for (int y = lo(s, 1); y <= hi(s, 1); ++y) visitShellRow(Coord(0, y));
    } else {
      for (int z = lo(s, 2); z <= hi(s, 2); ++z)
        for (int y = lo(s, 1); y <= hi(s, 1); ++y) visitShellRow(Coord(0, y, z));
    }
    if (out.count < want) continue;
    // Nothing unvisited is nearer than the faces of the visited block (on axes not yet covered).
    // The margin keeps the test on the safe side of rounding.
    float bound = INFINITY;
    for (int a = 0; a < D; ++a) {
      if (s >= below[a] && s >= above[a]) continue;
      const float margin = 1e-5f * ext[a] + 4e-7f * (std::abs(world.min[a]) + std::abs(world.size[a]));
      if (wrap || s < below[a]) bound = std::fmin(bound, q[a] - (world.min[a] + float(lo(s, a)) * ext[a]) - margin);
      if (wrap || s < above[a]) bound = std::fmin(bound, world.min[a] + float(hi(s, a) + 1) * ext[a] - q[a] - margin);
    }
    if (bound > 0.0f && out.distSq[want - 1] < bound * bound) break;
  }
}

// Every agent's k nearest, in parallel: neighbors[i * k + m] is sorted agent i's m-th nearest
// (sorted indices), kNoNeighbor past the last one found; distSq the same way when given.
// Returns the distance checks made.
template <int D>
uint64_t nearestNeighborsAll(const UniformGrid<D>& grid, int k, std::span<uint32_t> neighbors,
                             std::span<float> distSq = {}) {
  k = std::clamp(k, 0, kMaxNearest);
  const size_t n = grid.size();
  if (k == 0 || n == 0) return 0;
  std::atomic<uint64_t> checks{0};
  parallelForRange(n, [&](size_t begin, size_t end) {
    Nearest found;
    uint64_t local = 0;
    for (size_t i = begin; i < end; ++i) {
      nearestNeighbors(grid, uint32_t(i), grid.sortedPositions()[i], k, found);
      local += found.checks;
      for (int m = 0; m < k; ++m) {
        neighbors[i * size_t(k) + size_t(m)] = m < found.count ? found.index[m] : kNoNeighbor;
        if (!distSq.empty()) distSq[i * size_t(k) + size_t(m)] = m < found.count ? found.distSq[m] : INFINITY;
      }
    }
    checks.fetch_add(local, std::memory_order_relaxed);
  }, 64);
  return checks.load();
}

}  // namespace sim
