// Case knn3d: the 7 nearest neighbours of every point, uniform in a 3D box. Our grid (build + all
// queries) against nanoflann's k-d tree (build + all queries) on the same points, with the same
// threads for the queries; both timed in turn, and their neighbour sets compared.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>
#include "bench/bench.hpp"
#include "sim/core/knn.hpp"
#include "sim/core/rng.hpp"
#ifdef CROWDLAB_HAVE_NANOFLANN
#include <nanoflann.hpp>
#endif

namespace {

constexpr int kK = 7;
constexpr uint64_t kSeed = 77;
// Points per cell on average: big enough that one shell of cells (27) usually settles the query,
// small enough that it does not hold many more candidates than needed.
constexpr double kPointsPerCell = 2.0;

#ifdef CROWDLAB_HAVE_NANOFLANN
struct Cloud {
  const std::vector<sim::Vec3>* points;
  size_t kdtree_get_point_count() const { return points->size(); }
  float kdtree_get_pt(size_t i, size_t axis) const { return (*points)[i][int(axis)]; }
  template <class Box>
  bool kdtree_get_bbox(Box&) const { return false; }
};
using Tree = nanoflann::KDTreeSingleIndexAdaptor<nanoflann::L2_Simple_Adaptor<float, Cloud>, Cloud, 3, uint32_t>;
#endif

void runKnn3d(const bench::Options& o, std::vector<bench::Row>& rows) {
  const std::vector<size_t> ns = o.n.empty() ? std::vector<size_t>{10000, 100000} : o.n;
  for (size_t n : ns) {
    // Unit density: a box of n unit volumes.
    sim::World<3> box;
    box.boundary = sim::Boundary::Bounce;
    box.size = sim::Vec3(float(std::cbrt(double(n))));
    std::vector<sim::Vec3> points(n);
    sim::Rng rng(kSeed);
    for (auto& p : points) p = rng.inBox<3>(box.min, box.max());
    const float cellSize = float(std::cbrt(kPointsPerCell));

    for (int threads : bench::threadCounts(o)) {
      bench::startRow(threads);
      sim::UniformGrid<3> grid;
      std::vector<uint32_t> found(n * kK);
      uint64_t checks = 0;
      auto gridStep = [&] {
        grid.build(points, box, cellSize);
        checks = sim::nearestNeighborsAll(grid, kK, found);
      };
#ifdef CROWDLAB_HAVE_NANOFLANN
      Cloud cloud{&points};
      std::vector<uint32_t> treeFound(n * kK);
      auto treeStep = [&] {
        Tree tree(3, cloud, nanoflann::KDTreeSingleIndexAdaptorParams(10));
        sim::parallelForRange(n, [&](size_t begin, size_t end) {
          uint32_t index[kK + 1];
          float d2[kK + 1];
          for (size_t i = begin; i < end; ++i) {
            const size_t got = tree.knnSearch(&points[i].x, kK + 1, index, d2);
            // Drop the point itself (or, should duplicates hide it, the farthest).
            size_t m = 0;
            bool skipped = false;
            for (size_t t = 0; t < got && m < kK; ++t) {
              if (!skipped && index[t] == i) {
                skipped = true;
                continue;
              }
              treeFound[i * kK + m++] = index[t];
            }
            for (; m < kK; ++m) treeFound[i * kK + m] = sim::kNoNeighbor;
          }
        }, 256);
      };
#else
      auto treeStep = [] {};
#endif
      // Turn about, so both see the same machine (a busy one slows both alike).
      std::vector<double> gridTimes, treeTimes;
      auto timed = [](auto&& f) {
        auto t0 = std::chrono::steady_clock::now();
        f();
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      };
      char label[64];
      std::snprintf(label, sizeof label, "knn3d n=%zu threads=%d", n, threads);
      bench::timeSteps(o, [&](bool measured) {
        const double g = timed(gridStep), t = timed(treeStep);
        if (!measured) return;
        gridTimes.push_back(g);
        treeTimes.push_back(t);
      }, label);
      const double gridMs = bench::medianMs(gridTimes);
      bench::Row r;
      r.caseName = "knn3d";
      r.n = n;
      r.mode = "grid";
      r.threads = threads;
      r.steps = o.steps;
      r.medianMsPerStep = gridMs;
      r.checksPerAgent = double(checks) / double(n);
      r.neighborsPerAgent = double(std::min<size_t>(kK, n - 1));
#ifdef CROWDLAB_HAVE_NANOFLANN
      const double treeMs = bench::medianMs(treeTimes);
      // Same neighbours: as sets of original indices, or (where distances tie at the k-th) as distances.
      bool same = true;
      const auto order = grid.order();
      const auto sorted = grid.sortedPositions();
      std::vector<uint32_t> a(kK), b(kK);
      std::vector<float> da(kK), db(kK);
      for (uint32_t k = 0; k < n && same; ++k) {
        const uint32_t i = order[k];
        for (int m = 0; m < kK; ++m) {
          const uint32_t g = found[size_t(k) * kK + m];
          a[m] = g == sim::kNoNeighbor ? g : order[g];
          b[m] = treeFound[size_t(i) * kK + m];
          da[m] = g == sim::kNoNeighbor ? INFINITY : glm::dot(sorted[g] - sorted[k], sorted[g] - sorted[k]);
          db[m] = b[m] == sim::kNoNeighbor ? INFINITY : glm::dot(points[b[m]] - points[i], points[b[m]] - points[i]);
        }
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        if (a == b) continue;
        std::sort(da.begin(), da.end());
        std::sort(db.begin(), db.end());
        same = da == db;
      }
      char extra[128];
      std::snprintf(extra, sizeof extra, "nanoflann_ms=%.3f;speedup=%.2f;same_sets=%d", treeMs, treeMs / gridMs, same ? 1 : 0);
      r.extra = extra;
#else
      r.extra = "nanoflann=unavailable";
#endif
      rows.push_back(r);
    }
  }
}

const bool registered = bench::registerCase(
    {"knn3d", "7 nearest neighbours of every point in a 3D box: grid vs nanoflann k-d tree", &runKnn3d, 128});

}  // namespace
