#include "sim/models/orca_crowd.hpp"
#include "sim/core/metrics.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include "sim/core/lanes.hpp"
#include "sim/core/nearest_keys.hpp"

// ---- Crowd ----
namespace sim::orca {

namespace {

// What one agent's neighbour query in Crowd::step saw, beside its nearest neighbours.
struct CrowdQuery {
  uint32_t checks = 0;      // candidates looked at (self excluded)
  uint32_t closePairs = 0;  // within closeSq and later in cell order (each pair counted once)
  float minDistSq = 3.4e38f;
};

// One agent's query in lanes: eight candidates of a grid row at a time from the cell-ordered
// coordinates, those within `radius` appended to `near` (in increasing index order, so ties keep
// the lower index, the order orca::NearestNeighbors gives), then cut to the nearest `keep`. One
// candidate at a time, the insertion into a sorted list lost a branch about once per candidate.
template <class L>
CROWDLAB_LANES_INLINE CrowdQuery queryNearest(const UniformGrid<2>& grid, const float* xs, const float* ys,
                                              uint32_t self, const Vec2& p, float radius, float closeSq, int keep,
                                              NearestKeys& near) {
  using Floats = typename L::Floats;
  using Ints = typename L::Ints;
  const Floats px = L::splat(p.x), py = L::splat(p.y), r2 = L::splat(radius * radius), c2 = L::splat(closeSq);
  const Ints own = L::splat(int32_t(self));
  Floats minSq = L::splat(3.4e38f);
  Ints checks = L::splat(int32_t(0)), close = L::splat(int32_t(0));
  near.count = 0;
  grid.forEachRange(grid.block(p, radius, SearchMode::AutoRings), [&](uint32_t begin, uint32_t end, const Vec2&) {
    const Ints last = L::splat(int32_t(end));
    for (uint32_t j0 = begin; j0 < end; j0 += uint32_t(lanes::kLanes)) {
      const Ints j = L::laneIndex() + L::splat(int32_t(j0));
      const Ints live = (j < last) & (j != own);
      const Floats dx = L::load(xs + j0) - px, dy = L::load(ys + j0) - py;
      const Floats d2 = dx * dx + dy * dy;
      const Ints in = live & (d2 <= r2);
      checks -= live;  // a true lane is -1
      close -= in & (d2 < c2) & (j > own);  // OverlapPair's test, a lane each
      minSq = L::choose(in & (d2 < minSq), d2, minSq);
      if (const unsigned bits = L::bits(in)) near.append<L>(d2, j, bits, keep);
    }
  });
  near.selectNearest<L>(keep);
  CrowdQuery q;
  q.checks = uint32_t(L::sum(checks));
  q.closePairs = uint32_t(L::sum(close));
  for (int l = 0; l < lanes::kLanes; ++l) q.minDistSq = std::min(q.minDistSq, L::lane(minSq, l));
  return q;
}

constexpr size_t kBatch = lanes::kLanes;  // programs built and solved at once
constexpr size_t kPutBackGrain = 4096;  // agents the loop after a step's region gives a thread

// Agent i's next state from its result. The put-back and a part's copy of the state both take
// this one line, so the copy holds the same bits as the owner's arrays.
inline void applyResult(uint32_t i, Vec2 v, float radius, float dt, Vec2* position, Vec2* velocity, float* queryRadius) {
  velocity[i] = v;
  queryRadius[i] = radius;
  position[i] += v * dt;
}

void buildCrowdGrid(UniformGrid<2>& grid, std::span<const Vec2> positions, float neighborDist) {
  const size_t n = positions.size();
  Vec2 lo{0.0f}, hi{0.0f};
  if (n) lo = hi = positions[0];
  for (const Vec2& p : positions) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  World<2> box;
  box.boundary = Boundary::Open;
  box.min = lo - Vec2{1.0f};
  box.size = hi - lo + Vec2{2.0f};
  // Cells of half the neighbour distance (the first query of a crowded agent is smaller, see
  // solveCells), and at most about eight cells per agent: a sparse crowd spread over a large box (a
  // ring of 10k agents) would otherwise spend its time clearing empty cells.
  const float cell = std::max(0.5f * neighborDist, std::sqrt(box.size.x * box.size.y / (8.0f * float(n) + 1.0f)));
  grid.build(positions, box, cell);
}

// Equal bit for bit, as the put-back wrote them (a NaN equals itself, +0 and -0 differ).
bool sameBits(const std::vector<Vec2>& a, const std::vector<Vec2>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Vec2)) == 0;
}

// Stats::minDistance from the least squared distance seen; none seen stays "none" (3.4e38).
float closestDistance(float minDistSq) { return minDistSq < 3.4e38f ? std::sqrt(minDistSq) : minDistSq; }

// What one thread of Crowd::step reuses from agent to agent: the arrays need no zeroing per agent.
struct CrowdScratch {
  NearestKeys near;
  ProgramBatch programs;  // built and solved as rows, as the finale's (see ProgramBatch)
  ProgramInputs inputs;
  std::array<Vec2, kBatch> preferredOf;
  std::array<uint32_t, kBatch> slot;
  FallbackQueue fallbacks;  // a part's programs without a solution, from chunk to chunk (Crowd::step)
};

}  // namespace

// Owned by the part (one thread runs a part at a time), not kept per thread: a thread_local of this
// size with a destructor broke the one-thread page (the threaded page's objects linked without
// threads: cmake/web.cmake), and a part's own arrays follow the crowd, not whichever threads ran it.
struct Crowd::Scratch : CrowdScratch {};
void Crowd::ScratchDeleter::operator()(Scratch* s) const { delete s; }

void Crowd::resize(size_t n) {
  position_.resize(n);
  velocity_.resize(n);
  preferred_.resize(n);
  queryRadius_.resize(n, 3.4e38f);  // new agents ask with the full neighbour distance first
}

void Crowd::setAgents(std::span<const Vec2> positions, std::span<const Vec2> velocities) {
  const size_t n = std::min(positions.size(), velocities.size());
  resize(n);
  std::copy_n(positions.begin(), n, position_.begin());
  std::copy_n(velocities.begin(), n, velocity_.begin());
  std::fill(preferred_.begin(), preferred_.end(), Vec2{0.0f});
}

std::span<const Segment> Crowd::obstaclesOf(uint32_t agent) const {
  if (obstacleSets.empty() || agent >= obstacleSet.size()) return obstacles;
  const Range& r = obstacleSets[std::min<size_t>(obstacleSet[agent], obstacleSets.size() - 1)];
  const size_t begin = std::min<size_t>(r.begin, obstacles.size());
  return std::span<const Segment>(obstacles).subspan(begin, std::min<size_t>(r.count, obstacles.size() - begin));
}

void Crowd::buildGrid(UniformGrid<2>& grid) const { buildCrowdGrid(grid, position_, params.neighborDist); }

void Crowd::Part::advanceCopy(const Vec2* resultVelocity, const float* resultQueryRadius, float dt) {
  const auto order = grid.order();
  for (size_t k = 0; k < order.size(); ++k)
    applyResult(order[k], resultVelocity[k], resultQueryRadius[k], dt, position.data(), velocity.data(),
                queryRadius.data());
}

void Crowd::Part::index(const Vec2* positions, const Vec2* velocities, float neighborDist) {
  const size_t n = velocityByCell.size();
  buildCrowdGrid(grid, std::span<const Vec2>(positions, n), neighborDist);
  const auto order = grid.order();
  for (size_t k = 0; k < n; ++k) velocityByCell[k] = velocities[order[k]];  // anyone may be a neighbour
}

// The agents of cells [first, last) of `grid`: neighbours, the figures of the state we start from,
// and new velocities, reported to `out` by cell index. A crowded agent's nearest neighbours lie
// well inside the neighbour distance: it first asks within a radius that held its k nearest last
// step (plus what a step can change), and only when that finds fewer than k asks again with the
// full distance. Exact: when a radius holds k agents, the k nearest are among them.
template <class Out>
void Crowd::solveCells(const UniformGrid<2>& grid, const Vec2* velocityByCell, const Vec2* preferredByCell,
                       const float* queryRadiusByCell, size_t first, size_t last, float dt, Scratch& scratch, Out& out) const {
  const int maxNeighbors = glm::clamp(params.maxNeighbors, 1, kMaxNeighbors);
  const OverlapPair overlapping(params.radius);
  const float reach = stepReach(params, dt);
  // The grid's coordinate arrays are padded past the end: a row's last register reads there.
  static_assert(UniformGrid<2>::kAxisPadding >= size_t(lanes::kLanes));
  static_assert(kBatch == size_t(ProgramBatch::kLanes));
  const float* sortedX = grid.sortedAxis(0).data();
  const float* sortedY = grid.sortedAxis(1).data();
  const auto order = grid.order();
  const auto sorted = grid.sortedPositions();
  // Programs are built and solved eight at a time (buildPrograms, solve over programs: the same
  // bits as one at a time); those without a solution wait in the thread's FallbackQueue, which
  // step() empties once the part's chunks are done. An agent with nothing near and no wall has the
  // empty program: its preferred velocity within max speed, at once, so sparse crowds do not
  // half-fill the lanes.
  // Scratch kept per part: setting 12 KB of planes up for every chunk would cost as much as a batch
  // of small programs.
  NearestKeys& near = scratch.near;
  scratch.inputs.clear();
  size_t batched = 0;
  auto solveBatch = [&] {
    buildPrograms(scratch.programs, scratch.inputs, params, dt, stepSafety);
    solve(scratch.programs, std::span<const Vec2>(scratch.preferredOf.data(), batched),
          std::span<const uint32_t>(scratch.slot.data(), batched), params.maxSpeed, scratch.fallbacks,
          [&](uint32_t k, const LpResult& r) { out.velocity(k, r.velocity, r.feasible); });
    scratch.inputs.clear();
    batched = 0;
  };
  for (size_t k = first; k < last; ++k) {
    uint32_t checks = 0;
    CrowdQuery q;
    float radius = std::clamp(queryRadiusByCell[k], std::min(reach, params.neighborDist), params.neighborDist);
    for (;;) {
      lanes::dispatchLanes([&](auto kind) CROWDLAB_LANES_INLINE_LAMBDA {
        q = queryNearest<typename decltype(kind)::type>(grid, sortedX, sortedY, uint32_t(k), sorted[k], radius,
                                                        overlapping.closeSq, capacity_, near);
      });
      checks += q.checks;
      if (near.count >= maxNeighbors || radius >= params.neighborDist) break;
      radius = params.neighborDist;
    }
    const int kept = keptNeighbors(near.count, maxNeighbors, stepSafety ? reach * reach : 0.0f,
                                   [&](int m) { return near.distSq(m); });
    out.figures(k, checks, uint32_t(kept), q.closePairs, q.minDistSq,
                near.count >= maxNeighbors ? 1.1f * (std::sqrt(near.distSq(maxNeighbors - 1)) + 2.0f * params.maxSpeed * dt)
                                           : params.neighborDist);
    const std::span<const Segment> walls = obstaclesOf(order[k]);
    if (kept == 0 && walls.empty()) {
      out.velocity(k, clampLength(preferredByCell[k], params.maxSpeed), true);
      continue;
    }
    const int lane = scratch.inputs.add(uint32_t(k), sorted[k], velocityByCell[k], walls);
    scratch.inputs.addNeighbors(lane, std::span<const uint32_t>(near.index, size_t(kept)), sorted.data(), velocityByCell,
                                sorted[k]);
    scratch.preferredOf[batched] = preferredByCell[k];
    scratch.slot[batched++] = uint32_t(k);
    if (batched == kBatch) solveBatch();
  }
  if (batched) solveBatch();
}

void Crowd::step(float dt) {
  capacity_ = neighborCapacity(glm::clamp(params.maxNeighbors, 1, kMaxNeighbors));
  const size_t n = size();
  if (!work_) work_ = std::make_unique<Work>();  // a crowd moved from, stepped again
  Work& w = *work_;
  // Each thread builds its own grid and its own cell-ordered copies (a Part) and writes its agents'
  // results to slots of their own: nothing a thread reads during the step was written during the
  // step by another core. Shared grids cost a 250-agent step more than the second core gave: each
  // cache line one core writes and the other then reads costs 0.25-0.6 us between this machine's
  // vCPUs, and the step is 40 us.
  const size_t parts = size_t(std::clamp<int>(threadCount(), 1, int(std::max<size_t>(n / 32, 1))));
  const uint64_t step = ++steps_;
  // In a short region each part but the first read every agent's position, velocity and query
  // radius, and then the first part's thread wrote them all back: at 250 agents some 80 cache lines
  // crossed between the cores each way, each crossing 0.1-0.6 us. Such a part now keeps its own copy
  // and brings it up to date from the last step's results (the put-back's own arithmetic, so the
  // same bits), reading only the other parts' results; it reads the arrays afresh when its copy is
  // not the last step's, or when the owner wrote positions or velocities since the last put-back.
  // And a part that ran on a pool helper does that, builds its grid and orders its velocities for
  // the next step as soon as the step is over, on the helper, while the owner sets preferred
  // velocities (Work::prepare): at 250 agents the helper starts the next step's chunks at 1.0-1.2 us
  // instead of 3.9, and two threads step 2,000 agents in 57.4-57.9 ns an agent instead of 60.8-61.6.
  const bool shortRegion = n <= UniformGrid<2>::kGrain;
  const bool pipelined = shortRegion && parts > 1;
  // A helper may still be preparing a part this step does not run (fewer parts, or no region):
  // done before the arrays it reads change.
  w.waitForHelpers(pipelined ? parts : 1);
  if (w.parts.size() < parts || partsSizedFor_ != n) {
    w.waitForHelpers(0);
    // Grown here, on the caller's thread, so that no step allocates later whichever part a thread takes.
    w.parts.resize(std::max(w.parts.size(), parts));
    for (Part& part : w.parts) {
      if (!part.scratch) part.scratch.reset(new Scratch);
      buildGrid(part.grid);
      part.velocityByCell.resize(n);
      part.preferredByCell.resize(n);
      part.queryRadiusByCell.resize(n);
      part.position.resize(n);
      part.velocity.resize(n);
      part.queryRadius.resize(n);
      part.builtAt = 0;
      part.preparedFor = 0;
    }
    if (w.afterIssued.size() != w.parts.size()) {
      w.chunksDone = std::make_unique<Flag[]>(w.parts.size());
      w.afterDone = std::make_unique<Flag[]>(w.parts.size());
      w.afterIssued.assign(w.parts.size(), 0);
    }
    for (int b = 0; b < 2; ++b) {
      w.nextVelocity[b].resize(n);
      w.nextQueryRadius[b].resize(n);
    }
    putPosition_.assign(n, Vec2{0.0f});  // no put-back yet: the next step's check compares only
    putVelocity_.assign(n, Vec2{0.0f});  // what a put-back wrote, and the parts' copies are not yet any step's
    // A claim per part; they hold atomics, so a new vector rather than a resized one.
    if (claims_.size() != w.parts.size()) claims_ = std::vector<ChunkClaim>(w.parts.size());
    partsSizedFor_ = n;
  }
  // Chunks of cell order, a block to each part, taken from its own block first and then from the
  // others': a core the host runs slower (virtual CPUs can differ for minutes at a time) takes
  // fewer. Not one counter for all: each take would fetch its line from the other core, and a
  // thread's chunks would lie all over the crowd, so its cache would hold little of what it
  // reads next.
  const size_t chunk = std::max<size_t>(32, n / (8 * parts)), chunks = (n + chunk - 1) / chunk;
  std::vector<Vec2>& nextVelocity = w.nextVelocity[step & 1];
  std::vector<float>& nextQueryRadius = w.nextQueryRadius[step & 1];
  const Vec2* lastVelocity = w.nextVelocity[~step & 1].data();
  const float* lastQueryRadius = w.nextQueryRadius[~step & 1].data();
  const bool stateAsPut = pipelined && sameBits(position_, putPosition_) && sameBits(velocity_, putVelocity_);
  for (size_t p = 0; p < parts; ++p) {
    claims_[p].next.store(p * chunks / parts, std::memory_order_relaxed);
    claims_[p].end = (p + 1) * chunks / parts;
    claims_[p].waitFor = w.afterIssued[p];
    if (pipelined) w.afterIssued[p] = step;
  }
  auto takeChunk = [&](size_t p) -> size_t {  // chunks when none is left
    for (size_t q = 0; q < parts; ++q) {
      ChunkClaim& claim = claims_[(p + q) % parts];
      if (claim.next.load(std::memory_order_relaxed) >= claim.end) continue;
      const size_t c = claim.next.fetch_add(1, std::memory_order_relaxed);
      if (c < claim.end) return c;
    }
    return chunks;
  };
  auto region = [&](size_t firstPart, size_t lastPart) {
    for (size_t p = firstPart; p < lastPart; ++p) {
      Part& part = w.parts[p];
      while (w.afterDone[p].step.load(std::memory_order_acquire) < claims_[p].waitFor) {
      }
      const bool prepared =
          p > 0 && stateAsPut && part.preparedFor == step && part.last.neighborDist == params.neighborDist;
      part.last = {step, parts, dt, params.neighborDist};
      size_t c = takeChunk(p);
      if (c == chunks && (p > 0 || n == 0)) {  // the others took them all: it adds nothing
        part.stats = {};  // here, on the part's own thread, as every write to a part
        w.chunksDone[p].step.store(step, std::memory_order_release);
        continue;  // not break: a later part in this call still says it is done
      }
      // The first part builds its grid even with no chunk left: the put-back reads it, while the
      // other parts' helpers may already be rebuilding theirs for the next step (Work::prepare).
      const Vec2* position = position_.data();
      const Vec2* velocity = velocity_.data();
      const float* queryRadius = queryRadius_.data();
      if (p > 0 && shortRegion) {
        if (prepared) {
          // Work::prepare brought the copy, the grid and the cell-ordered velocities to this step.
        } else if (stateAsPut && part.builtAt != 0 && part.builtAt + 1 == step && part.preparedFor != step) {
          part.advanceCopy(lastVelocity, lastQueryRadius, lastDt_);
        } else {  // never built, the owner wrote since the last put-back, or another neighbour distance
          std::copy_n(position_.begin(), n, part.position.begin());
          std::copy_n(velocity_.begin(), n, part.velocity.begin());
          std::copy_n(queryRadius_.begin(), n, part.queryRadius.begin());
        }
        position = part.position.data();
        velocity = part.velocity.data();
        queryRadius = part.queryRadius.data();
      }
      // The first part, on the caller, copies the grid and cell-ordered velocities a helper's part
      // prepared for this step between steps, when it is ready: the same bits as building them (the
      // state is as the last put-back wrote it, and the helper's copy was brought to it by the
      // put-back's own arithmetic), in about half the time of building them. Ready means
      // its after-step call is done, checked without waiting; the helper writes that part again only
      // after every part's chunks of this step (Work::prepare), so the copy is never read while written.
      bool copied = false;
      if (p == 0 && stateAsPut) {
        const Part& ready = w.parts[1];
        if (w.afterDone[1].step.load(std::memory_order_acquire) >= claims_[1].waitFor && ready.preparedFor == step &&
            ready.preparedNeighborDist == params.neighborDist) {
          part.grid = ready.grid;  // grows, if at all, as its own build would
          std::copy_n(ready.velocityByCell.begin(), n, part.velocityByCell.begin());
          copied = true;
        }
      }
      const bool builds = !prepared && !copied;
      if (builds) part.index(position, velocity, params.neighborDist);
      part.builtAt = step;
      const auto order = part.grid.order();
      struct Out {  // figures summed here, on this thread's stack, and stored in the part once
        Vec2* nextVelocity;
        float* nextQueryRadius;
        Stats stats{};
        float minDistSq = 3.4e38f;
        void figures(size_t k, uint32_t checks, uint32_t within, uint32_t closePairs, float minDist, float queryRadius) {
          stats.checks += checks;
          stats.neighbors += within;
          stats.overlaps += closePairs;
          minDistSq = std::min(minDistSq, minDist);
          nextQueryRadius[k] = queryRadius;
        }
        void velocity(size_t k, Vec2 v, bool feasible) {
          nextVelocity[k] = v;
          stats.infeasible += feasible ? 0 : 1;
        }
      } out{nextVelocity.data(), nextQueryRadius.data()};
      for (; c < chunks; c = takeChunk(p)) {
        const size_t first = c * chunk, last = std::min(n, first + chunk);
        if (parts > 1) {  // lines the caller read back last step (see prefetchForWrite)
          prefetchForWrite(nextVelocity.data() + first, (last - first) * sizeof(Vec2));
          prefetchForWrite(nextQueryRadius.data() + first, (last - first) * sizeof(float));
        }
        for (size_t k = first; k < last; ++k) {
          part.preferredByCell[k] = preferred_[order[k]];
          part.queryRadiusByCell[k] = queryRadius[order[k]];
        }
        solveCells(part.grid, part.velocityByCell.data(), part.preferredByCell.data(), part.queryRadiusByCell.data(),
                   first, last, dt, *part.scratch, out);
      }
      for (const FallbackQueue::Solved& s : part.scratch->fallbacks.solve(params.maxSpeed))
        out.velocity(s.id, s.result.velocity, s.result.feasible);
      part.stats = out.stats;
      part.stats.gridsBuilt = builds ? 1 : 0;
      // The square root once per part: it is monotonic, so the closest pair is the same, bit for bit.
      part.stats.minDistance = closestDistance(out.minDistSq);
      w.chunksDone[p].step.store(step, std::memory_order_release);
    }
  };
  // Up to the grid's own grain a part's grid build is one loop on its thread and the region lasts
  // tens of microseconds: short enough for the pool's spinning helpers (parallelParts). Above it the
  // region is long, and its grid builds are loops of their own, on oneTBB.
  if (pipelined)
    parallelPartsThen(parts, region, &Work::afterPart, &w);
  else if (shortRegion)
    parallelParts(parts, region);
  else
    parallelForRange(parts, region, 1);
  stats_ = {};
  for (size_t p = 0; p < parts; ++p) stats_.add(w.parts[p].stats);
  if (n == 0) return;
  const auto order = w.parts[0].grid.order();  // the first part's grid, built every step
  if (parts > 1 && n <= kPutBackGrain) {  // one thread puts back lines the other part's thread has read
    prefetchForWrite(position_.data(), n * sizeof(Vec2));
    prefetchForWrite(velocity_.data(), n * sizeof(Vec2));
    prefetchForWrite(queryRadius_.data(), n * sizeof(float));
  }
  parallelFor(n, [&](size_t k) {
    applyResult(order[k], nextVelocity[k], nextQueryRadius[k], dt, position_.data(), velocity_.data(), queryRadius_.data());
  }, kPutBackGrain);
  lastDt_ = dt;
  if (pipelined) {  // what the parts' copies are brought up to date to next step
    std::copy_n(position_.begin(), n, putPosition_.begin());
    std::copy_n(velocity_.begin(), n, putVelocity_.begin());
  }
}

void Crowd::Work::waitForHelpers(size_t firstPart) const {
  for (size_t p = firstPart; p < afterIssued.size(); ++p)
    while (afterDone[p].step.load(std::memory_order_acquire) < afterIssued[p]) {
    }
}

void Crowd::Work::afterPart(void* work, size_t p, bool onHelper) {
  Work& w = *static_cast<Work*>(work);
  if (onHelper && p > 0) w.prepare(p);
  w.afterDone[p].step.store(w.parts[p].last.step, std::memory_order_release);
}

// On part p's helper, once it is out of the step's region: the part's copy of the state brought up
// to the step's results, its grid built and its velocities put in cell order, as the next step
// would do first (it uses them if the owner writes nothing in between: the same check as the copy).
// Never the first part: the put-back reads its grid's order.
void Crowd::Work::prepare(size_t p) {
  Part& part = parts[p];
  const Part::Last& last = part.last;
  if (part.builtAt != last.step) return;  // took no chunk: the copy is not this step's
  for (size_t q = 0; q < last.parts; ++q)  // every part's results of the step are in
    while (chunksDone[q].step.load(std::memory_order_acquire) < last.step) {
    }
  part.advanceCopy(nextVelocity[last.step & 1].data(), nextQueryRadius[last.step & 1].data(), last.dt);
  part.index(part.position.data(), part.velocity.data(), last.neighborDist);
  part.preparedNeighborDist = last.neighborDist;
  part.preparedFor = last.step + 1;
}

Crowd::Stats Crowd::measure() const {
  // Once per run, not per step: one thread and a grid of its own.
  UniformGrid<2> grid;
  buildGrid(grid);
  const auto sorted = grid.sortedPositions();
  const OverlapPair overlapping(params.radius);
  Stats s;
  float minSq = 3.4e38f;
  for (size_t k = 0; k < size(); ++k) {
    s.checks += grid.forEachInRadius(uint32_t(k), sorted[k], params.neighborDist, [&](uint32_t j, const Vec2&, float d2) {
      ++s.neighbors;
      minSq = std::min(minSq, d2);
      if (overlapping(uint32_t(k), j, d2)) ++s.overlaps;
    });
  }
  s.minDistance = closestDistance(minSq);
  return s;
}

void Crowd::probe(size_t i, float dt, Probe& out) const {
  // The program step() builds for agent i, with neighbours found by brute force on the current state.
  const int maxNeighbors = glm::clamp(params.maxNeighbors, 1, kMaxNeighbors);
  NearestNeighbors near;
  near.capacity = neighborCapacity(maxNeighbors);
  const float r2 = params.neighborDist * params.neighborDist;
  for (size_t j = 0; j < size(); ++j) {
    if (j == i) continue;
    const Vec2 off = position_[j] - position_[i];
    const float d2 = glm::dot(off, off);
    if (d2 <= r2) near.offer(uint32_t(j), off, d2);
  }
  const float reach = stepReach(params, dt);
  const int kept = keptNeighbors(near, maxNeighbors, stepSafety ? reach * reach : 0.0f);
  PlaneSet planes;
  buildProgram(planes, uint32_t(i), position_[i], velocity_[i], near, kept, velocity_, obstaclesOf(uint32_t(i)), params,
               dt, stepSafety);
  const LpResult r = solve(planes.span(), preferred_[i], params.maxSpeed);
  out.planes.assign(planes.items.begin(), planes.items.begin() + planes.count);
  out.neighbors.assign(near.index.begin(), near.index.begin() + kept);
  feasibleRegion(planes.span(), params.maxSpeed, out.region);
  out.preferred = preferred_[i];
  out.chosen = r.velocity;
  out.feasible = r.feasible;
  out.maxViolation = r.maxViolation;
}

}  // namespace sim::orca
