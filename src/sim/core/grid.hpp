// Uniform grid for neighbour search, rebuilt every step by counting sort.
//
// Cells are numbered row-major (x fastest), so the cells of one row of a query block are one
// contiguous range of agents: a scan reads memory in order. The grid keeps its own copy of the
// positions in cell order (sortedPositions()); queries return these sorted indices, and callers put
// their other per-agent arrays in the same order with reorder(). order()[k] is the original index of
// sorted agent k.
//
// Wrap worlds: cells per axis = max(1, floor(size / cellSize)), so cells tile the torus exactly and
// are never smaller than asked for. Bounce and Open worlds: ceil(size / cellSize) cells of the asked
// size; agents outside the box fall into the border cells, which keeps every query exact.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>
#include "sim/core/math.hpp"
#include "sim/core/parallel.hpp"
#include "sim/core/world.hpp"

namespace sim {

// A contiguous run of candidates (one row of a UniformGrid's search block) and the seam shift added to
// their offsets.
template <int D>
struct CandidateRun {
  uint32_t begin, end;
  Vec<D> shift;
};

// Candidates one axis at a time, each array readable a register (lanes::kLanes floats) past its end.
template <int D>
struct CandidateAxes {
  const float* position[D];
  const float* velocity[D];
};

// AutoRings visits ceil(r / cellSize) rings of cells around the query cell: exact for any cell size.
// Classic3x3 always visits one ring (3x3, or 27 cells in 3D): the textbook grid, which loses
// neighbours when cells are smaller than the radius.
enum class SearchMode { AutoRings, Classic3x3 };

struct OccupancyStats {
  uint32_t cells = 0;            // cells in the grid
  uint32_t nonEmptyCells = 0;
  uint32_t maxPerCell = 0;
  double meanPerNonEmptyCell = 0;
};

template <int D>
class UniformGrid {
 public:
  using Coord = glm::vec<D, int, glm::defaultp>;
  static constexpr uint32_t kMaxCells = 4194304;  // 2^22; a larger grid grows its cell size instead
  static constexpr size_t kGrain = 2048;  // agents a build's per-agent loops give a thread; up to it, one thread

  // The cells a query visits, in unwrapped cell coordinates: first..last per axis. On a wrapping
  // axis the block may run past either end (those cells are taken modulo the cell count); `whole`
  // marks a wrapping axis the block covers entirely, visited once, cell by cell.
  struct Block {
    Coord first{0};
    Coord last{0};
    glm::vec<D, bool, glm::defaultp> whole{false};
    bool anyWhole() const {
      for (int k = 0; k < D; ++k)
        if (whole[k]) return true;
      return false;
    }
  };

  void build(std::span<const Vec<D>> positions, const World<D>& world, float cellSize) {
    configure(world, cellSize);
    const size_t n = positions.size();
    count_ = static_cast<uint32_t>(n);
    cellOfAgent_.resize(n);
    order_.resize(n);
    sorted_.resize(n);
    for (auto& axis : sortedAxis_) axis.resize(n + kAxisPadding, 0.0f);
    cellStart_.resize(size_t(numCells_) + 1);

    {
      // The mapping in locals: the stores to cellOfAgent_ could alias the grid's members, and the
      // compiler would load them again for every agent.
      const CellMapping map = mapping();
      uint32_t* cellOfAgent = cellOfAgent_.data();
      parallelFor(n, [&](size_t i) { cellOfAgent[i] = map.index(inside(positions[i])); }, kGrain);
    }

    // Counting sort; stable, so agents keep their relative order inside a cell. With several
    // threads each takes a contiguous slice of agents with its own counts, and the slices are
    // placed one after another inside each cell: the same order as one thread makes.
    const size_t slices = std::min<size_t>(size_t(threadCount()), std::max<size_t>(n / 8192, 1));
    if (slices > 1 && size_t(numCells_) * slices <= 4 * n) {
      sliceCount_.resize(slices * numCells_);
      auto sliceBegin = [&](size_t t) { return n * t / slices; };
      parallelFor(slices, [&](size_t t) {
        uint32_t* counts = sliceCount_.data() + t * numCells_;
        std::fill(counts, counts + numCells_, 0u);
        for (size_t i = sliceBegin(t); i < sliceBegin(t + 1); ++i) counts[cellOfAgent_[i]]++;
      }, 1);
      uint32_t sum = 0;
      for (uint32_t c = 0; c < numCells_; ++c) {
        cellStart_[c] = sum;
        for (size_t t = 0; t < slices; ++t) {  // each slice's count becomes its first slot in the cell
          const uint32_t m = sliceCount_[t * numCells_ + c];
          sliceCount_[t * numCells_ + c] = sum;
          sum += m;
        }
      }
      cellStart_[numCells_] = sum;
      parallelFor(slices, [&](size_t t) {
        uint32_t* next = sliceCount_.data() + t * numCells_;
        for (size_t i = sliceBegin(t); i < sliceBegin(t + 1); ++i) order_[next[cellOfAgent_[i]]++] = uint32_t(i);
      }, 1);
    } else {
      // Counts, their running sum (each cell's end) and then the agents placed from the last one
      // back, each at its cell's end moved down by one: a cell's agents keep their order, and each
      // entry ends at its cell's start. One array of cells, cleared once.
      const uint32_t cells = numCells_;
      uint32_t* start = cellStart_.data();
      const uint32_t* cellOf = cellOfAgent_.data();
      std::fill(start, start + cells + 1, 0u);
      for (size_t i = 0; i < n; ++i) start[cellOf[i]]++;
      uint32_t sum = 0;
      for (uint32_t c = 0; c < cells; ++c) start[c] = sum += start[c];
      start[cells] = uint32_t(n);
      uint32_t* order = order_.data();
      for (size_t i = n; i-- > 0;) order[--start[cellOf[i]]] = static_cast<uint32_t>(i);
    }
    parallelFor(n, [&](size_t k) {
      const Vec<D> p = inside(positions[order_[k]]);
      sorted_[k] = p;
      for (int a = 0; a < D; ++a) sortedAxis_[a][k] = p[a];
    }, kGrain);
  }

  // Puts a per-agent array in cell order (data[k] = old data[order[k]]). `scratch` keeps its
  // capacity between calls, so no allocation once it has grown.
  template <class T>
  void reorder(std::vector<T>& data, std::vector<T>& scratch) const {
    scratch.resize(data.size());
    parallelFor(count_, [&](size_t k) { scratch[k] = data[order_[k]]; }, kGrain);
    data.swap(scratch);
  }

  // Calls visit(j, offset, distSq) for every sorted index j != self with distSq <= radius^2, where
  // offset = sortedPositions()[j] - p (across the seam on a wrapping world). Returns the distance
  // checks made: every agent in the visited cells except self.
  template <class Visit>
  uint32_t forEachInRadius(uint32_t self, const Vec<D>& p, float radius, Visit&& visit,
                           SearchMode mode = SearchMode::AutoRings) const {
    const float r2 = radius * radius;
    uint32_t checks = 0;
    forEachRange(block(p, radius, mode), [&](uint32_t begin, uint32_t end, const Vec<D>&) {
      for (uint32_t j = begin; j < end; ++j) {
        if (j == self) continue;
        ++checks;
        Vec<D> d = world_.delta(p, sorted_[j]);
        float d2 = glm::dot(d, d);
        if (d2 <= r2) visit(j, d, d2);
      }
    });
    return checks;
  }

  // Rings of cells a radius needs on each axis.
  Coord rings(float radius, SearchMode mode) const {
    Coord r;
    for (int k = 0; k < D; ++k) {
      if (mode == SearchMode::Classic3x3) { r[k] = 1; continue; }
      float q = std::ceil(radius / extent_[k]);
      r[k] = q >= float(dims_[k]) ? dims_[k] : (q > 0.0f ? int(q) : 0);  // NaN gives 0
    }
    return r;
  }

  Block block(const Vec<D>& p, float radius, SearchMode mode) const {
    return block(cellOf(inside(p)), rings(radius, mode));
  }
  // The block of `r` rings around cell c.
  Block block(const Coord& c, const Coord& r) const {
    Block b;
    for (int k = 0; k < D; ++k) {
      if (world_.boundary == Boundary::Wrap) {
        b.whole[k] = 2 * r[k] + 1 >= dims_[k];
        b.first[k] = b.whole[k] ? 0 : c[k] - r[k];
        b.last[k] = b.whole[k] ? dims_[k] - 1 : c[k] + r[k];
      } else {
        b.first[k] = std::max(0, c[k] - r[k]);
        b.last[k] = std::min(dims_[k] - 1, c[k] + r[k]);
      }
    }
    return b;
  }

  // Calls range(begin, end, shift) for each contiguous run of sorted agents inside the block: one per
  // row of cells, two where the row crosses the seam. `shift` is what to add to (q - p) for an agent
  // q of that run to get its offset from p across the seam; it is 0 on a `whole` axis, where callers
  // take the minimum image per agent instead.
  template <class Range>
  void forEachRange(const Block& b, Range&& range) const {
    if (count_ == 0) return;
    if constexpr (D == 2) {
      for (int y = b.first.y; y <= b.last.y; ++y) rowRanges(b, Coord(0, y), range);
    } else {
      for (int z = b.first.z; z <= b.last.z; ++z)
        for (int y = b.first.y; y <= b.last.y; ++y) rowRanges(b, Coord(0, y, z), range);
    }
  }

  // Calls cell(coord) for every cell of the block, coordinates wrapped into the grid: for drawing.
  template <class Cell>
  void forEachCell(const Block& b, Cell&& cell) const {
    Coord n = b.last - b.first + 1;
    int total = 1;
    for (int k = 0; k < D; ++k) total *= n[k];
    for (int i = 0; i < total; ++i) {
      Coord c;
      int rest = i;
      for (int k = 0; k < D; ++k) {
        c[k] = wrapCell(b.first[k] + rest % n[k], k);
        rest /= n[k];
      }
      cell(c);
    }
  }

  // How positions map to cells, as values: a loop over agents holds one in registers.
  struct CellMapping {
    Vec<D> min, invExtent, top;  // top: the last cell on each axis
    Coord dims;
    // Truncation is floor on the only values it keeps (x >= 0); below the box (and NaN) the first
    // cell, past it the last. Comparisons, not floor or fmin / fmax: in the x86-64 baseline build
    // those are library calls or emulated.
    int axis(const Vec<D>& p, int k) const {
      const float x = (p[k] - min[k]) * invExtent[k];
      return int(x > 0.0f ? (x < top[k] ? x : top[k]) : 0.0f);
    }
    Coord coord(const Vec<D>& p) const {
      Coord c;
      for (int k = 0; k < D; ++k) c[k] = axis(p, k);
      return c;
    }
    uint32_t index(const Vec<D>& p) const {
      uint32_t i = uint32_t(axis(p, D - 1));
      for (int k = D - 2; k >= 0; --k) i = i * uint32_t(dims[k]) + uint32_t(axis(p, k));
      return i;
    }
  };
  CellMapping mapping() const { return {world_.min, invExtent_, Vec<D>(dims_ - 1), dims_}; }

  // The cell a position falls in (outside the box: the border cell, or the wrapped one on a torus).
  Coord cellOf(const Vec<D>& p) const { return mapping().coord(p); }
  Coord cellCoord(uint32_t index) const {
    Coord c;
    for (int k = 0; k < D; ++k) {
      c[k] = int(index % uint32_t(dims_[k]));
      index /= uint32_t(dims_[k]);
    }
    return c;
  }
  uint32_t cellIndex(const Coord& c) const {
    uint32_t index = uint32_t(c[D - 1]);
    for (int k = D - 2; k >= 0; --k) index = index * uint32_t(dims_[k]) + uint32_t(c[k]);
    return index;
  }
  // World-space corner of a cell, for drawing.
  Vec<D> cellMin(const Coord& c) const { return world_.min + Vec<D>(c) * extent_; }

  // On a wrapping world, a position outside the box moved inside the same way World::applyBounds
  // does; elsewhere the position itself.
  Vec<D> inside(Vec<D> p) const {
    if (world_.boundary != Boundary::Wrap) return p;
    for (int k = 0; k < D; ++k) {
      if (p[k] >= world_.min[k] && p[k] < world_.min[k] + world_.size[k]) continue;  // the usual case
      float t = (p[k] - world_.min[k]) / world_.size[k];
      if (t < 0.0f || t >= 1.0f) {
        p[k] = world_.min[k] + (t - std::floor(t)) * world_.size[k];
        if (p[k] >= world_.min[k] + world_.size[k]) p[k] = world_.min[k];
      }
    }
    return p;
  }

  OccupancyStats occupancy(std::span<uint32_t> histogramOut = {}) const {
    // Histogram bin b counts the cells holding b agents; the last bin also takes every fuller cell.
    std::fill(histogramOut.begin(), histogramOut.end(), 0u);
    OccupancyStats s;
    s.cells = numCells_;
    for (uint32_t c = 0; c < numCells_; ++c) {
      uint32_t m = cellCount(c);
      if (m) s.nonEmptyCells++;
      s.maxPerCell = std::max(s.maxPerCell, m);
      if (!histogramOut.empty()) histogramOut[std::min<size_t>(m, histogramOut.size() - 1)]++;
    }
    s.meanPerNonEmptyCell = s.nonEmptyCells ? double(count_) / double(s.nonEmptyCells) : 0.0;
    return s;
  }

  uint32_t size() const { return count_; }
  const World<D>& world() const { return world_; }
  std::span<const Vec<D>> sortedPositions() const { return {sorted_.data(), count_}; }
  // The same positions one axis at a time (structure of arrays), for vector loops. Each array is
  // followed by kAxisPadding readable floats, so a loop may load whole vectors past its last agent.
  static constexpr size_t kAxisPadding = 16;
  std::span<const float> sortedAxis(int axis) const { return {sortedAxis_[axis].data(), count_}; }
  std::span<const uint32_t> order() const { return {order_.data(), count_}; }
  // cellStart has numCells() + 1 entries: cell c holds sorted agents cellStart[c] .. cellStart[c + 1] - 1.
  std::span<const uint32_t> cellStart() const { return {cellStart_.data(), size_t(numCells_) + 1}; }
  uint32_t cellCount(uint32_t c) const { return cellStart_[c + 1] - cellStart_[c]; }
  uint32_t numCells() const { return numCells_; }
  Coord cellsPerAxis() const { return dims_; }
  // Cell extent per axis; on a wrapping world stretched so whole cells tile the torus.
  Vec<D> cellExtent() const { return extent_; }
  // The cell size actually used: the one asked for, or larger when the grid would have been absurd.
  float effectiveCellSize() const { return cellSize_; }
  float requestedCellSize() const { return requestedCellSize_; }
  bool cellSizeWasClamped() const { return clamped_; }

 private:
  void configure(const World<D>& world, float cellSize) {
    world_ = world;
    requestedCellSize_ = cellSize;
    float largest = 0.0f;
    for (int k = 0; k < D; ++k) largest = std::fmax(largest, world.size[k]);
    if (!(largest > 0.0f) || !std::isfinite(largest)) largest = 1.0f;
    // A non-positive or NaN cell size is absurd too: one cell per axis.
    clamped_ = !(cellSize > 0.0f) || !std::isfinite(cellSize);
    double cs = clamped_ ? double(largest) : double(cellSize);
    for (;;) {
      double total = 1.0;
      for (int k = 0; k < D; ++k) {
        double cells = axisCells(world.size[k], cs);
        dims_[k] = int(cells);
        total *= cells;
      }
      if (total <= double(kMaxCells)) break;
      clamped_ = true;
      cs *= std::max(1.0001, std::pow(total / double(kMaxCells), 1.0 / D));
    }
    cellSize_ = float(cs);
    numCells_ = 1;
    for (int k = 0; k < D; ++k) {
      float s = world.size[k] > 0.0f ? world.size[k] : 1.0f;
      extent_[k] = world.boundary == Boundary::Wrap ? s / float(dims_[k]) : float(cs);
      invExtent_[k] = 1.0f / extent_[k];
      numCells_ *= uint32_t(dims_[k]);
    }
  }

  double axisCells(float size, double cs) const {
    if (!(size > 0.0f) || !std::isfinite(size)) return 1.0;
    double q = double(size) / cs;
    q = world_.boundary == Boundary::Wrap ? std::floor(q) : std::ceil(q);
    return std::clamp(q, 1.0, double(kMaxCells) + 1.0);
  }

  int wrapCell(int c, int k) const {
    if (world_.boundary != Boundary::Wrap) return c;
    return c < 0 ? c + dims_[k] : (c >= dims_[k] ? c - dims_[k] : c);
  }

  // The runs of one row (fixed y, z) of the block; row.x is ignored.
  template <class Range>
  void rowRanges(const Block& b, Coord row, Range& range) const {
    Vec<D> shift(0.0f);
    for (int k = 1; k < D; ++k) {
      if (row[k] < 0) { row[k] += dims_[k]; shift[k] = -world_.size[k]; }
      else if (row[k] >= dims_[k]) { row[k] -= dims_[k]; shift[k] = world_.size[k]; }
    }
    row.x = 0;
    const uint32_t base = cellIndex(row);
    auto run = [&](int x0, int x1, float sx) {
      uint32_t begin = cellStart_[base + uint32_t(x0)], end = cellStart_[base + uint32_t(x1) + 1];
      if (begin == end) return;
      Vec<D> s = shift;
      s.x = sx;
      range(begin, end, s);
    };
    const int nx = dims_.x;
    if (b.first.x < 0) {
      run(b.first.x + nx, nx - 1, -world_.size.x);
      run(0, b.last.x, 0.0f);
    } else if (b.last.x >= nx) {
      run(b.first.x, nx - 1, 0.0f);
      run(0, b.last.x - nx, world_.size.x);
    } else {
      run(b.first.x, b.last.x, 0.0f);
    }
  }

  World<D> world_;
  Coord dims_{1};
  Vec<D> extent_{1.0f}, invExtent_{1.0f};
  float cellSize_ = 1.0f, requestedCellSize_ = 1.0f;
  bool clamped_ = false;
  uint32_t numCells_ = 1;
  uint32_t count_ = 0;
  std::vector<uint32_t> cellOfAgent_, order_, cellStart_;
  std::vector<uint32_t> sliceCount_;  // per slice of agents and cell: counts, then next free slot
  std::vector<Vec<D>> sorted_;
  std::vector<float> sortedAxis_[D];
};

}  // namespace sim
