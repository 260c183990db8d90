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
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include "sim/core/grid.hpp"
#include "sim/core/lanes.hpp"
#include "sim/core/nearest_keys.hpp"
#include "sim/core/parallel.hpp"

namespace sim {

constexpr int kMaxNearest = 32;              // largest k
constexpr uint32_t kNoNeighbor = 0xFFFFFFFFu;  // fills the slots of a flat list beyond the neighbours found

struct Nearest {
  int count = 0;        // min(k, agents other than self)
  uint32_t checks = 0;  // distance checks made
  std::array<uint32_t, kMaxNearest> index{};
  std::array<float, kMaxNearest> distSq{};
};

// The k nearest agents to p, leaving out sorted index `self` (kNoNeighbor: leave out none).
// k is clamped to 0..kMaxNearest; with fewer agents than k, all of them. `hints`: sorted indices
// of agents likely among them (last step's neighbours of a flock that moves little): taken first,
// they make the k-th distance small from the start, so the search rejects most candidates at once
// and prunes more cells. The result is the same with any hints or none.
template <int D>
void nearestNeighbors(const UniformGrid<D>& grid, uint32_t self, const Vec<D>& p, int k, Nearest& out,
                      std::span<const uint32_t> hints = {}) {
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
  const auto start = grid.cellStart();
  const float* axis[D];
  for (int a = 0; a < D; ++a) axis[a] = grid.sortedAxis(a).data();
  // The best so far as keys (distance bits, index): for distances >= 0 the float's bits order like
  // the float, so one integer comparison orders by distance, then by index. Sorted, nearest first.
  uint64_t best[kMaxNearest];
  std::fill(best, best + want, ~uint64_t(0));
  float worst = INFINITY;  // squared distance of the k-th held, once k are held

  // Candidate j at squared distance d2. With hints an agent may come twice: its key is held once.
  bool hintsTaken = false;
  auto offer = [&](uint32_t j, float d2) {
    uint32_t bits;
    std::memcpy(&bits, &d2, sizeof bits);
    uint64_t key = uint64_t(bits) << 32 | j;
    if (key >= best[want - 1] || j == self) return;
    if (hintsTaken)
      for (int m = 0; m < want; ++m)
        if (best[m] == key) return;
    // Insert and drop the last, without branches: min / max down the list.
    for (int m = 0; m < want; ++m) {
      const uint64_t held = best[m];
      best[m] = held < key ? held : key;
      key = held < key ? key : held;
    }
    if (best[want - 1] != ~uint64_t(0)) {
      const uint32_t worstBits = uint32_t(best[want - 1] >> 32);
      std::memcpy(&worst, &worstBits, sizeof worst);
    }
  };
  using L = lanes::Baseline;
  // Agent j's squared distance as World::delta and glm::dot take it, bit for bit (and as the lanes
  // below take it in a world that does not wrap).
  auto distSqTo = [&](uint32_t j) {
    float d2 = 0.0f;
    for (int a = 0; a < D; ++a) {
      float d = axis[a][j] - q[a];
      if (wrap) {
        const float h = world.size[a] * 0.5f;
        d = d > h ? d - world.size[a] : (d < -h ? d + world.size[a] : d);
      }
      d2 = a == 0 ? d * d : d2 + d * d;
    }
    return d2;
  };
  if (hints.size() <= size_t(kMaxNearest)) {
    // A handful of keys: sorted and held at once, not inserted one by one.
    uint64_t keys[kMaxNearest];
    int held = 0;
    for (uint32_t j : hints) {
      if (j >= n || j == self) continue;
      const float d2 = distSqTo(j);
      uint32_t bits;
      std::memcpy(&bits, &d2, sizeof bits);
      keys[held++] = uint64_t(bits) << 32 | j;
    }
    std::sort(keys, keys + held);
    held = int(std::unique(keys, keys + held) - keys);
    std::copy_n(keys, std::min(held, want), best);
    if (held >= want) {
      const uint32_t worstBits = uint32_t(best[want - 1] >> 32);
      std::memcpy(&worst, &worstBits, sizeof worst);
    }
    hintsTaken = held > 0;
  } else {
    hintsTaken = true;
    for (uint32_t j : hints)
      if (j < n) offer(j, distSqTo(j));
  }
  // Agents begin..end-1.
  auto scan = [&](uint32_t begin, uint32_t end) {
    out.checks += end - begin;
    if (wrap) {
      for (uint32_t j = begin; j < end; ++j) offer(j, distSqTo(j));
    } else {
      // A register of candidates at a time (the axes are padded past the end); only those not
      // farther than the k-th held (NaN included) go on to the exact test, most of them none.
      for (uint32_t j = begin; j < end; j += lanes::kLanes) {
        typename L::Floats d2;
        for (int a = 0; a < D; ++a) {
          const typename L::Floats d = L::load(axis[a] + j) - L::splat(q[a]);
          d2 = a == 0 ? d * d : d2 + d * d;
        }
        const auto live = j + lanes::kLanes <= end ? L::allLanes() : L::firstLanes(end - j);
        for (unsigned bits = L::bits(live & ~(d2 > L::splat(worst))); bits; bits &= bits - 1) {
          const int l = std::countr_zero(bits);
          offer(j + uint32_t(l), L::lane(d2, l));
        }
      }
    }
    if (self >= begin && self < end) --out.checks;  // the agent itself is no check
  };
  // How far q is from cells first..last (unwrapped) along axis a, less a rounding margin; 0 inside.
  // On a torus the nearest image of those cells counts, which may lie a period away.
  Vec<D> margin;
  for (int a = 0; a < D; ++a)
    margin[a] = 1e-5f * ext[a] + 4e-7f * (std::abs(world.min[a]) + std::abs(world.size[a]));
  auto gap = [&](int a, int first, int last) {
    auto gapTo = [&](int f, int l) {
      const float toLow = world.min[a] + float(f) * ext[a] - q[a];
      const float toHigh = q[a] - (world.min[a] + float(l + 1) * ext[a]);
      return std::max(toLow, toHigh);
    };
    float g = gapTo(first, last);
    if (wrap) g = std::min(g, std::min(gapTo(first - dims[a], last - dims[a]), gapTo(first + dims[a], last + dims[a])));
    return std::max(0.0f, g - margin[a]);
  };
  float rowGapSq = 0.0f;  // of the row being visited

  // Cells first..last (unwrapped) of the row `row` (x ignored): one or two runs of agents.
  auto visitRow = [&](Coord row, int first, int last) {
    if (first > last) return;
    if (worst < INFINITY) {
      const float gx = gap(0, first, last);
      if (rowGapSq + gx * gx > worst) return;  // nothing in them can be among the k nearest
    }
    for (int a = 1; a < D; ++a) row[a] += row[a] < 0 ? dims[a] : (row[a] >= dims[a] ? -dims[a] : 0);
    row.x = 0;
    const uint32_t base = grid.cellIndex(row);
    const int nx = dims.x;
    if (last < 0) {  // wholly past the seam (an end of a wrapping shell)
      first += nx;
      last += nx;
    } else if (first >= nx) {
      first -= nx;
      last -= nx;
    }
    if (first < 0) {
      scan(start[base + uint32_t(first + nx)], start[base + uint32_t(nx)]);
      first = 0;
    } else if (last >= nx) {
      scan(start[base], start[base + uint32_t(last - nx) + 1]);
      last = nx - 1;
    }
    scan(start[base + uint32_t(first)], start[base + uint32_t(last) + 1]);
  };

  // With k held already (from the hints, in a world that does not wrap) the k nearest lie within
  // the ball of the k-th held: every cell it touches, a row at a time, each row one run, and no
  // shells. (cellOf is monotone along an axis, so the cells of the ball's extent hold all of it.)
  bool ballDone = false;
  if (!wrap && worst < INFINITY) {
    // The cell along axis a holding coordinate x, clamped to the grid (up to rounding, which the
    // margins cover, cellOf's).
    auto cellAlong = [&](int a, float x) {
      const float t = (x - world.min[a]) / ext[a];
      const int top = dims[a] - 1;
      return t > 0.0f ? (t < float(top) ? int(t) : top) : 0;  // int() is floor here; NaN gives 0
    };
    const float r = std::sqrt(worst);
    Coord ballLo = c, ballHi = c;
    for (int a = 0; a < D; ++a) {
      ballLo[a] = cellAlong(a, q[a] - r - margin[a]);
      ballHi[a] = cellAlong(a, q[a] + r + margin[a]);
    }
    // The squared gaps of the ball's rows along y and z, once per query (a ball spans a few cells;
    // a wider one, from far hints, computes them as it goes).
    constexpr int kGapCache = 16;
    float gapSqAlong[D][kGapCache];
    for (int a = 1; a < D; ++a)
      for (int i = 0; i < kGapCache && ballLo[a] + i <= ballHi[a]; ++i) {
        const float g = gap(a, ballLo[a] + i, ballLo[a] + i);
        gapSqAlong[a][i] = g * g;
      }
    auto ballRow = [&](Coord row) {
      float gapSq = 0.0f;
      for (int a = 1; a < D; ++a) {
        const int i = row[a] - ballLo[a];
        float g2;
        if (i < kGapCache) {
          g2 = gapSqAlong[a][i];
        } else {
          const float g = gap(a, row[a], row[a]);
          g2 = g * g;
        }
        gapSq += g2;
      }
      if (gapSq > worst) return;
      const float rx = std::sqrt(worst - gapSq) + margin[0];
      const int first = std::max(ballLo.x, cellAlong(0, q.x - rx)), last = std::min(ballHi.x, cellAlong(0, q.x + rx));
      row.x = 0;
      const uint32_t base = grid.cellIndex(row);
      scan(start[base + uint32_t(first)], start[base + uint32_t(last) + 1]);
    };
    if constexpr (D == 2) {
      for (int y = ballLo.y; y <= ballHi.y; ++y) ballRow(Coord(0, y));
    } else {
      for (int z = ballLo.z; z <= ballHi.z; ++z)
        for (int y = ballLo.y; y <= ballHi.y; ++y) ballRow(Coord(0, y, z));
    }
    ballDone = true;
  }

  // Shell 0 alone (one cell) rarely holds k agents, and visited first it splits the rows of shell 1
  // through it in three runs: the search starts with the block of shells 0 and 1 in whole rows.
  const int firstShell = std::min(1, lastShell);
  Coord lo = c, hi = c, prevLo = c, prevHi = c;
  for (int s = firstShell; !ballDone && s <= lastShell; ++s) {
    for (int a = 0; a < D; ++a) {
      lo[a] = c[a] - std::min(s, below[a]);
      hi[a] = c[a] + std::min(s, above[a]);
    }
    // The cells of shell s: rows of the new block; a row inside the previous block only adds its ends.
    auto visitShellRow = [&](const Coord& row) {
      rowGapSq = 0.0f;
      if (worst < INFINITY) {
        for (int a = 1; a < D; ++a) {
          const float g = gap(a, row[a], row[a]);
          rowGapSq += g * g;
        }
        if (rowGapSq > worst) return;
      }
      bool inner = s > firstShell;
      for (int a = 1; a < D; ++a) inner = inner && row[a] >= prevLo[a] && row[a] <= prevHi[a];
      if (inner) {
        visitRow(row, lo.x, prevLo.x - 1);
        visitRow(row, prevHi.x + 1, hi.x);
      } else {
        visitRow(row, lo.x, hi.x);
      }
    };
    if constexpr (D == 2) {
      for (int y = lo.y; y <= hi.y; ++y) visitShellRow(Coord(0, y));
    } else {
      for (int z = lo.z; z <= hi.z; ++z)
        for (int y = lo.y; y <= hi.y; ++y) visitShellRow(Coord(0, y, z));
    }
    prevLo = lo;
    prevHi = hi;
    if (worst == INFINITY) continue;  // fewer than k held yet
    // Nothing unvisited is nearer than the faces of the visited block (on axes not yet covered).
    // The margin keeps the test on the safe side of rounding.
    float bound = INFINITY;
    for (int a = 0; a < D; ++a) {
      if (s >= below[a] && s >= above[a]) continue;
      if (wrap || s < below[a]) bound = std::fmin(bound, q[a] - (world.min[a] + float(lo[a]) * ext[a]) - margin[a]);
      if (wrap || s < above[a]) bound = std::fmin(bound, world.min[a] + float(hi[a] + 1) * ext[a] - q[a] - margin[a]);
    }
    if (bound > 0.0f && worst < bound * bound) break;
  }
  while (out.count < want && best[out.count] != ~uint64_t(0)) {
    const uint32_t bits = uint32_t(best[out.count] >> 32);
    std::memcpy(&out.distSq[out.count], &bits, sizeof bits);
    out.index[out.count] = uint32_t(best[out.count]);
    ++out.count;
  }
}

namespace detail {

// The agents of one cell's block (the cell and its neighbours on every axis, clipped at the grid's
// edges), copied once into one run per coordinate: the agents of a cell share it.
template <int D>
struct CellBlock {
  static constexpr uint32_t kCapacity = 1024;
  alignas(32) float axis[D][kCapacity + lanes::kLanes];
  alignas(32) uint32_t index[kCapacity + lanes::kLanes];
  uint32_t size = 0;
  uint32_t cell = ~0u;  // the cell whose block this is
  bool fits = false;    // false: more agents than kCapacity, not copied
  Vec<D> lo{0.0f}, hi{0.0f};
  bool openBelow[D] = {}, openAbove[D] = {};  // the block reaches the grid's edge: no agent lies beyond

  void gather(const UniformGrid<D>& grid, const typename UniformGrid<D>::Coord& c, uint32_t cellIndex) {
    using Coord = typename UniformGrid<D>::Coord;
    cell = cellIndex;
    size = 0;
    const Coord dims = grid.cellsPerAxis();
    const Vec<D> ext = grid.cellExtent();
    const World<D>& w = grid.world();
    Coord first, last;
    for (int a = 0; a < D; ++a) {
      first[a] = std::max(0, c[a] - 1);
      last[a] = std::min(dims[a] - 1, c[a] + 1);
      lo[a] = w.min[a] + float(first[a]) * ext[a];
      hi[a] = w.min[a] + float(last[a] + 1) * ext[a];
      openBelow[a] = first[a] == 0;
      openAbove[a] = last[a] == dims[a] - 1;
    }
    const auto start = grid.cellStart();
    const float* src[D];
    for (int a = 0; a < D; ++a) src[a] = grid.sortedAxis(a).data();
    fits = true;
    auto row = [&](Coord r) {
      r.x = 0;
      const uint32_t base = grid.cellIndex(r);
      const uint32_t begin = start[base + uint32_t(first.x)], end = start[base + uint32_t(last.x) + 1];
      if (!fits || size + (end - begin) > kCapacity) {
        fits = false;
        return;
      }
      for (int a = 0; a < D; ++a) std::memcpy(axis[a] + size, src[a] + begin, (end - begin) * sizeof(float));
      for (uint32_t j = begin; j < end; ++j) index[size++] = j;
    };
    if constexpr (D == 2) {
      for (int y = first.y; y <= last.y; ++y) row(Coord(0, y));
    } else {
      for (int z = first.z; z <= last.z; ++z)
        for (int y = first.y; y <= last.y; ++y) row(Coord(0, y, z));
    }
    for (int a = 0; a < D; ++a) std::fill(axis[a] + size, axis[a] + size + lanes::kLanes, 0.0f);
    std::fill(index + size, index + size + lanes::kLanes, 0u);
  }
};

// nearestNeighbors for agent `self` (a box or open world) from its cell's block, when the hints
// bound the answer inside it: `want` distinct hints put the want-th nearest within their farthest,
// r, and when the ball of radius r lies inside the block (or reaches past it only where no agent
// is), every one of the want nearest is in the block. Then one pass over the block in lanes, the
// candidates within r ranked (NearestKeys: by distance, ties to the lower index, as
// nearestNeighbors orders them). False: not bounded so; the caller searches the usual way.
template <class L, int D>
CROWDLAB_LANES_INLINE bool nearestInBlock(const UniformGrid<D>& grid, const CellBlock<D>& block, uint32_t self,
                                          const Vec<D>& q, int want, std::span<const uint32_t> hints,
                                          NearestKeys& near, Nearest& out) {
  using Floats = typename L::Floats;
  using Ints = typename L::Ints;
  if (!block.fits || want <= 0 || want > NearestKeys::kMaxKeep || hints.size() > size_t(kMaxNearest)) return false;
  const uint32_t n = grid.size();
  uint64_t keys[kMaxNearest];
  int held = 0;
  for (uint32_t j : hints) {
    if (j >= n || j == self) continue;
    float d2 = 0.0f;
    for (int a = 0; a < D; ++a) {
      const float d = grid.sortedAxis(a)[j] - q[a];
      d2 = a == 0 ? d * d : d2 + d * d;
    }
    uint32_t bits;
    std::memcpy(&bits, &d2, sizeof bits);
    keys[held++] = uint64_t(bits) << 32 | j;
  }
  std::sort(keys, keys + held);
  held = int(std::unique(keys, keys + held) - keys);
  if (held < want) return false;
  const uint32_t boundBits = uint32_t(keys[want - 1] >> 32);
  float bound;
  std::memcpy(&bound, &boundBits, sizeof bound);
  const float r = std::sqrt(bound);
  const World<D>& w = grid.world();
  const Vec<D> ext = grid.cellExtent();
  for (int a = 0; a < D; ++a) {
    // The same rounding margin as nearestNeighbors' pruning.
    const float margin = 1e-5f * ext[a] + 4e-7f * (std::abs(w.min[a]) + std::abs(w.size[a]));
    if (!block.openBelow[a] && q[a] - r - margin < block.lo[a]) return false;
    if (!block.openAbove[a] && q[a] + r + margin > block.hi[a]) return false;
  }
  near.count = 0;
  const Floats limit = L::splat(bound);
  const Ints own = L::splat(int32_t(self));
  Floats qa[D];
  for (int a = 0; a < D; ++a) qa[a] = L::splat(q[a]);
  for (uint32_t j0 = 0; j0 < block.size; j0 += uint32_t(lanes::kLanes)) {
    Floats d2;
    for (int a = 0; a < D; ++a) {
      const Floats d = L::load(block.axis[a] + j0) - qa[a];
      d2 = a == 0 ? d * d : d2 + d * d;
    }
    const Ints j = L::load(block.index + j0);
    const Ints live = L::firstLanes(std::min<uint32_t>(block.size - j0, uint32_t(lanes::kLanes))) & (j != own);
    if (const unsigned bits = L::bits(live & (d2 <= limit))) near.append<L>(d2, j, bits, want);
  }
  near.selectNearest<L>(want);
  out.count = near.count;
  out.checks = block.size - 1;  // the agent itself is in its own cell, no check
  for (int m = 0; m < near.count; ++m) {
    out.index[size_t(m)] = near.index[m];
    out.distSq[size_t(m)] = near.distSq(m);
  }
  return true;
}

}  // namespace detail

// Every agent's k nearest, in parallel: neighbors[i * k + m] is sorted agent i's m-th nearest
// (sorted indices), kNoNeighbor past the last one found; distSq the same way when given. `hints`,
// when given: `hintsPerAgent` for each sorted agent, as nearestNeighbors takes them. With hints in
// a world that does not wrap, an agent whose hints bound its answer inside its cell's block takes
// it from there (detail::nearestInBlock, the same result); the others search as nearestNeighbors.
// Returns the distance checks made.
template <int D>
uint64_t nearestNeighborsAll(const UniformGrid<D>& grid, int k, std::span<uint32_t> neighbors,
                             std::span<float> distSq = {}, std::span<const uint32_t> hints = {},
                             size_t hintsPerAgent = 0) {
  k = std::clamp(k, 0, kMaxNearest);
  const size_t n = grid.size();
  if (k == 0 || n == 0) return 0;
  const bool blocks = hintsPerAgent > 0 && grid.world().boundary != Boundary::Wrap;
  const int want = int(std::min<size_t>(size_t(k), n - 1));
  std::atomic<uint64_t> checks{0};
  parallelForRange(n, [&](size_t begin, size_t end) {
    lanes::dispatchLanes([&](auto kind) CROWDLAB_LANES_INLINE_LAMBDA {
      using L = typename decltype(kind)::type;
      Nearest found;
      NearestKeys near;
      detail::CellBlock<D> block;
      uint64_t local = 0;
      for (size_t i = begin; i < end; ++i) {
        const bool hinted = hintsPerAgent > 0 && hints.size() >= (i + 1) * hintsPerAgent;
        const std::span<const uint32_t> mine =
            hinted ? hints.subspan(i * hintsPerAgent, hintsPerAgent) : std::span<const uint32_t>{};
        const Vec<D> q = grid.sortedPositions()[i];
        bool done = false;
        if (blocks && hinted) {
          const auto c = grid.cellOf(q);
          const uint32_t cell = grid.cellIndex(c);
          if (cell != block.cell) block.gather(grid, c, cell);
          done = detail::nearestInBlock<L, D>(grid, block, uint32_t(i), q, want, mine, near, found);
        }
        if (!done) nearestNeighbors(grid, uint32_t(i), q, k, found, mine);
        local += found.checks;
        for (int m = 0; m < k; ++m) {
          neighbors[i * size_t(k) + size_t(m)] = m < found.count ? found.index[m] : kNoNeighbor;
          if (!distSq.empty()) distSq[i * size_t(k) + size_t(m)] = m < found.count ? found.distSq[m] : INFINITY;
        }
      }
      checks.fetch_add(local, std::memory_order_relaxed);
    });
  }, 64);
  return checks.load();
}

}  // namespace sim
