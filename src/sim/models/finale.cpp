#include "sim/models/finale.hpp"
#include "sim/core/metrics.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <numeric>
#include "sim/core/lanes.hpp"
#include "sim/core/nearest_keys.hpp"
#include "sim/core/parallel.hpp"
#include "sim/rules/boids_lanes.hpp"
#include "sim/core/rng.hpp"
#include "sim/core/metric.hpp"

namespace sim {

namespace {

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

constexpr size_t kBlock = 4096;  // agents per reduction block
// The rule and ORCA passes' chunks of agents. Below kOneThreadBelow agents a pass is one chunk, on
// the calling thread: there a oneTBB loop's fork and join costs more than a second thread saves.
constexpr size_t kOneThreadBelow = 200;
size_t agentGrain(size_t n) { return n < kOneThreadBelow ? n : 64; }
constexpr float kReferenceArea = 1280.0f * 720.0f;
constexpr float kAreaPerAgent = 150.0f;  // about 4 agent discs of radius 3.5: a loose crowd

bool finite(const Vec2& v) { return std::isfinite(v.x) && std::isfinite(v.y); }

}  // namespace

World<2> FinaleSim::worldFor(size_t n) {
  World<2> w;
  w.boundary = Boundary::Bounce;
  w.min = Vec2{0.0f};
  w.size = glm::round(worldForDensity(std::max(double(n), double(kReferenceArea / kAreaPerAgent)), kAreaPerAgent));
  return w;
}

// ---- set-up ----

void FinaleSim::spawn(size_t n, uint64_t seed) {
  Rng rng(seed, 11);
  const float r = params.agentRadius;
  const Vec2 size = world.size;
  // Lattice cells with room to spare, so obstacles can take some; jitter that keeps neighbours
  // 2r apart, so the crowd starts without an overlap.
  float spacing = std::sqrt(size.x * size.y / (1.3f * float(std::max<size_t>(n, 1))));
  spacing = std::max(spacing, 2.5f * r);
  const int cols = std::max(1, int(size.x / spacing)), rows = std::max(1, int(size.y / spacing));
  const Vec2 cell{size.x / float(cols), size.y / float(rows)};
  const float jitter = std::max(0.0f, 0.5f * (std::min(cell.x, cell.y) - 2.02f * r));
  std::vector<uint32_t> cells(size_t(cols) * size_t(rows));
  std::iota(cells.begin(), cells.end(), 0u);
  position_.clear();
  auto clearOfObstacles = [&](const Vec2& q) {
    for (const CircleObstacle& o : obstacles_)
      if (lengthSq(q - o.center) < (o.radius + 1.5f * r) * (o.radius + 1.5f * r)) return false;
    return true;
  };
  for (size_t i = 0; i < cells.size() && position_.size() < n; ++i) {
    std::swap(cells[i], cells[i + rng.below(uint32_t(cells.size() - i))]);  // Fisher-Yates, one at a time
    const Vec2 c{float(cells[i] % uint32_t(cols)), float(cells[i] / uint32_t(cols))};
    const Vec2 q = world.min + (c + 0.5f) * cell + Vec2{rng.uniform(-jitter, jitter), rng.uniform(-jitter, jitter)};
    if (clearOfObstacles(q)) position_.push_back(q);
  }
  // A world too small for n: the rest anywhere (they may overlap; ORCA pushes them apart).
  while (position_.size() < n) position_.push_back(rng.inBox(world.min, world.max()));
  velocity_.assign(n, Vec2{0.0f});
  resetAgents();
}

void FinaleSim::setAgents(std::span<const Vec2> positions, std::span<const Vec2> velocities) {
  position_.assign(positions.begin(), positions.end());
  velocity_.assign(velocities.begin(), velocities.end());
  velocity_.resize(position_.size(), Vec2{0.0f});
  resetAgents();
}

void FinaleSim::resetAgents() {
  const size_t n = position_.size();
  id_.resize(n);
  std::iota(id_.begin(), id_.end(), 0u);
  resizeBuffers(n);
  std::fill(preferred_.begin(), preferred_.end(), Vec2{0.0f});
  std::fill(corrected_.begin(), corrected_.end(), Vec2{0.0f});
  std::fill(weights_.begin(), weights_.end(), Vec3{0.0f});
  arrivedAt_.assign(n, -1.0f);
  time_ = 0;
  std::fill(tier_.begin(), tier_.end(), uint8_t(0));
  std::fill(neighbors_.begin(), neighbors_.end(), uint16_t(0));
  metrics_ = {};
  timings_ = {};
  buildObstacleBins();
}

void FinaleSim::resizeBuffers(size_t n) {
  for (auto* v : {&preferred_, &corrected_, &orcaVelocity_}) v->resize(n);
  weights_.resize(n);
  tier_.resize(n);
  neighbors_.resize(n);
  overlaps_.resize(n);
  checks_.resize(n);
  for (auto* v : {&neighborCount_, &feasible_, &inObstacle_, &notFinite_}) v->resize(n);
  for (auto* v : {&posX_, &posY_, &velX_, &velY_}) v->resize(n + kPadding);
  speed_.resize(n);
  neighborCapacity_ = orca::neighborCapacity(params.orcaMaxNeighbors);
  neighborIndex_.resize(n * size_t(neighborCapacity_));
  blockSums_.resize((n + kBlock - 1) / kBlock);
}

int FinaleSim::dropObstacles(int count, uint64_t seed) {
  obstacles_.clear();
  Rng rng(seed, 23);
  const float r = params.agentRadius;
  // Obstacles grow with the world, so they read the same when it is framed; they shrink when they
  // cannot find room.
  const float scale = std::sqrt(std::max(1.0f, world.size.x * world.size.y / kReferenceArea));
  const float largest = 40.0f * scale, smallest = std::min(12.0f, largest);
  const float gap = 4.0f * r;  // room for agents between two obstacles and along the walls
  UniformGrid<2> grid;
  World<2> box = world;
  box.boundary = Boundary::Open;
  grid.build(position_, box, std::max(32.0f, largest));
  constexpr int kAttempts = 600;
  for (int i = 0; i < count; ++i) {
    for (int attempt = 0; attempt < kAttempts; ++attempt) {
      const float shrink = 1.0f - float(attempt) / float(kAttempts);
      const float radius = smallest + (largest - smallest) * shrink * rng.uniform();
      const Vec2 margin{radius + gap};
      if (world.size.x <= 2.0f * margin.x || world.size.y <= 2.0f * margin.y) continue;
      const Vec2 c = rng.inBox(world.min + margin, world.max() - margin);
      bool clear = true;
      for (const CircleObstacle& o : obstacles_)
        if (lengthSq(c - o.center) < (radius + o.radius + gap) * (radius + o.radius + gap)) clear = false;
      if (!clear) continue;
      grid.forEachInRadius(UINT32_MAX, c, radius + 2.0f * r, [&](uint32_t, const Vec2&, float) { clear = false; });
      if (!clear) continue;
      obstacles_.push_back({c, radius});
      break;
    }
  }
  buildObstacleBins();
  return int(obstacles_.size());
}

void FinaleSim::clearObstacles() {
  obstacles_.clear();
  buildObstacleBins();
}

void FinaleSim::setObstacles(std::span<const CircleObstacle> circles) {
  obstacles_.assign(circles.begin(), circles.end());
  buildObstacleBins();
}

// ---- obstacle bins ----

void FinaleSim::buildObstacleBins() {
  const FinaleParams& p = params;
  const Vec2 lo = world.min, hi = world.max();
  // The walls keep ORCA agents inside the world (the others bounce).
  allSegments_.clear();
  for (const CircleObstacle& o : obstacles_) allSegments_.push_back({o.center, o.center, o.radius});
  allSegments_.push_back({{lo.x, lo.y}, {hi.x, lo.y}, 0.0f});
  allSegments_.push_back({{hi.x, lo.y}, {hi.x, hi.y}, 0.0f});
  allSegments_.push_back({{hi.x, hi.y}, {lo.x, hi.y}, 0.0f});
  allSegments_.push_back({{lo.x, hi.y}, {lo.x, lo.y}, 0.0f});

  binSize_ = 64.0f;
  while (double(world.size.x / binSize_ + 1) * double(world.size.y / binSize_ + 1) > 65536.0) binSize_ *= 2.0f;
  binsX_ = std::max(1, int(std::ceil(world.size.x / binSize_)));
  binsY_ = std::max(1, int(std::ceil(world.size.y / binSize_)));
  invBinSize_ = 1.0f / binSize_;  // exact: a power of two
  const size_t bins = size_t(binsX_) * size_t(binsY_);
  // An obstacle matters to an agent within these distances of its surface: ORCA's planes reach as
  // far as max speed * tauObstacle, the steering feeler its length beyond the agent's radius.
  const float orcaReach = p.tauObstacle * p.maxSpeed + p.agentRadius + 1.0f;
  const float steerReach = p.feelerLength + 2.0f * p.agentRadius + 1.0f;

  auto forBins = [&](Vec2 a, Vec2 b, float grow, auto&& visit) {
    const Vec2 mn = glm::min(a, b) - grow - lo, mx = glm::max(a, b) + grow - lo;
    const int x0 = std::clamp(int(std::floor(mn.x / binSize_)), 0, binsX_ - 1);
    const int x1 = std::clamp(int(std::floor(mx.x / binSize_)), 0, binsX_ - 1);
    const int y0 = std::clamp(int(std::floor(mn.y / binSize_)), 0, binsY_ - 1);
    const int y1 = std::clamp(int(std::floor(mx.y / binSize_)), 0, binsY_ - 1);
    for (int y = y0; y <= y1; ++y)
      for (int x = x0; x <= x1; ++x) visit(size_t(y) * size_t(binsX_) + size_t(x));
  };
  // Counting sort into bins, twice: segments, then circles.
  segmentStart_.assign(bins + 1, 0u);
  for (const orca::Segment& s : allSegments_) forBins(s.a, s.b, s.radius + orcaReach, [&](size_t b) { segmentStart_[b + 1]++; });
  std::partial_sum(segmentStart_.begin(), segmentStart_.end(), segmentStart_.begin());
  binSegments_.resize(segmentStart_[bins]);
  circleStart_.assign(bins + 1, 0u);
  for (const CircleObstacle& o : obstacles_)
    forBins(o.center, o.center, o.radius + steerReach, [&](size_t b) { circleStart_[b + 1]++; });
  std::partial_sum(circleStart_.begin(), circleStart_.end(), circleStart_.begin());
  binCircles_.resize(circleStart_[bins]);
  // Fill, reusing the counts of the next bin as cursors; obstacles keep their order within a bin.
  std::vector<uint32_t>& cursor = binCursor_;
  cursor.resize(bins);
  std::copy(segmentStart_.begin(), segmentStart_.begin() + long(bins), cursor.begin());
  for (const orca::Segment& s : allSegments_)
    forBins(s.a, s.b, s.radius + orcaReach, [&](size_t b) { binSegments_[cursor[b]++] = s; });
  std::copy(circleStart_.begin(), circleStart_.begin() + long(bins), cursor.begin());
  for (const CircleObstacle& o : obstacles_)
    forBins(o.center, o.center, o.radius + steerReach, [&](size_t b) { binCircles_[cursor[b]++] = o; });
}

// ---- the step ----

namespace {

// A contiguous run of candidate agents: one row of grid cells, or everybody with the hash off. The
// world does not wrap, so no run is shifted.
using Run = CandidateRun<2>;
constexpr int kMaxRuns = 64;  // rows of cells one query may visit (the cell size is raised to keep it so)

// What one agent's rule pass reads; the arrays hold the state one axis at a time, padded past the end.
struct AxisState {
  const float *x, *y, *vx, *vy;
};

// ---- the lane kernels: one agent's neighbour scans, a register of candidates at a time ----
// The rule sums are boids' laneSums with the finale's linear push (addNeighbor's tests and formula).

// The bounds that make laneSums take addNeighbor's tests: within the perception radius (<=),
// pushed within the separation radius (<), close within 0.99 * 2r (<).
BoidsBounds finaleBounds(const FinaleParams& p) {
  const float perception = p.perceptionRadius * p.perceptionRadius;
  const float close = overlapDistance(p.agentRadius);
  BoidsBounds b{perception, perception, std::nextafter(p.separationRadius * p.separationRadius, 0.0f), perception,
                perception};
  b.law = SeparationLaw::LinearFade;
  b.inverseSeparation = 1.0f / p.separationRadius;
  b.close = std::nextafter(close * close, 0.0f);
  return b;
}

// The learned weight function's number type for a register of agents (finale_learned.hpp).
template <class L>
struct LaneOps {
  using F = typename L::Floats;
  CROWDLAB_LANES_INLINE static F splat(float x) { return L::splat(x); }
  CROWDLAB_LANES_INLINE static F atLeast(F x, float lo) {
    const F l = L::splat(lo);
    return L::choose(x > l, x, l);
  }
  CROWDLAB_LANES_INLINE static F abs(F x) { return L::asFloats(L::asInts(x) & L::splat(int32_t(0x7fffffff))); }
  CROWDLAB_LANES_INLINE static F sqrt(F x) { return L::sqrt(x); }
};

// preferredAndCorrectedLanes, lane for lane; lanes past the batch compute on zeros and are not stored.
template <class L>
CROWDLAB_LANES_INLINE void stagesLanes(const FinaleParams& p, const Vec2& target, const StageInputs& in,
                                       Vec2* preferredOut, Vec2* correctedOut, Vec3* weightsOut) {
  using Floats = typename L::Floats;
  using Ints = typename L::Ints;
  constexpr int kL = lanes::kLanes;
  const size_t count = in.sums.size();
  alignas(32) float px[kL] = {}, py[kL] = {}, vx[kL] = {}, vy[kL] = {}, ax[kL] = {}, ay[kL] = {}, wS[kL] = {},
                    wA[kL] = {}, wC[kL] = {}, n[kL] = {};
  alignas(32) uint32_t avoids[kL] = {}, counted[kL] = {};
  const bool learned = p.weightMode == WeightMode::Learned;
  for (size_t l = 0; l < count; ++l) {
    px[l] = in.position[l].x, py[l] = in.position[l].y;
    vx[l] = in.velocity[l].x, vy[l] = in.velocity[l].y;
    if (in.avoids[l]) ax[l] = in.avoidance[l].x, ay[l] = in.avoidance[l].y, avoids[l] = 1;
    if (!learned) {
      const Vec3 w = ruleWeights(p, in.sums[l], in.position[l], in.velocity[l], target);
      wS[l] = w.x, wA[l] = w.y, wC[l] = w.z;
    }
    n[l] = float(in.sums[l].perceivedCount);
    counted[l] = in.sums[l].perceivedCount != 0;
  }
  const BoidsLaneSums<L, 2> sums = boidsLaneSumsOf<L, 2>(in.sums.data(), uint32_t(count));
  const Floats zero = L::splat(0.0f), maxSpeed = L::splat(p.maxSpeed);
  const Ints none = L::splat(int32_t(0));
  auto clampLanes = [&](Floats& x, Floats& y, Floats limit) CROWDLAB_LANES_INLINE_LAMBDA {
    const Floats l2 = x * x + y * y;
    const Ints over = (l2 > limit * limit) & (l2 > zero);
    const Floats scale = limit / L::sqrt(l2);
    x = L::choose(over, x * scale, x);
    y = L::choose(over, y * scale, y);
  };
  // Stage 1: arriveDesiredVelocity, the avoidance, clampLength.
  const Floats posX = L::load(px), posY = L::load(py);
  const Floats offsetX = L::splat(target.x) - posX, offsetY = L::splat(target.y) - posY;
  const Floats d = L::sqrt(offsetX * offsetX + offsetY * offsetY);
  const Floats slowing = L::splat(p.slowingRadius);
  const Floats speed = p.slowingRadius > 0.0f ? L::choose(d < slowing, maxSpeed * (d / slowing), maxSpeed) : maxSpeed;
  const Ints moving = ~(d < L::splat(1e-6f));  // as the scalar test, NaN included
  Floats desiredX = L::keep(moving, offsetX * (speed / d)), desiredY = L::keep(moving, offsetY * (speed / d));
  const Ints avoiding = L::load(avoids) != none;
  desiredX = L::choose(avoiding, desiredX + L::load(ax), desiredX);
  desiredY = L::choose(avoiding, desiredY + L::load(ay), desiredY);
  clampLanes(desiredX, desiredY, maxSpeed);
  // Stage 2: boidsCorrectedVelocity.
  Floats ws = L::load(wS), wa = L::load(wA), wc = L::load(wC);
  if (learned) {
    // ruleWeights' network, eight agents at a time.
    using Net = LearnedNet<LaneOps<L>>;
    Floats features[Net::kInputs], m[Net::kOutputs];
    Net::features(L::load(n), sums.velocity[0], sums.velocity[1], L::load(vx), L::load(vy), offsetX, offsetY,
                  sums.separation[0], sums.separation[1], p.maxSpeed, p.slowingRadius, features);
    Net::multipliers(p.learned, features, m);
    ws = L::splat(p.weights.separation) * m[0];
    wa = L::splat(p.weights.alignment) * m[1];
    wc = L::splat(p.weights.cohesion) * m[2];
  }
  const Floats velocity[2] = {L::load(vx), L::load(vy)};
  Floats steer[2];
  boidsSteeringLanes<L, 2>(sums, velocity, ws, wa, wc, p.boidsShape(), steer);
  Floats corrX = desiredX + maxSpeed * steer[0];
  Floats corrY = desiredY + maxSpeed * steer[1];
  clampLanes(corrX, corrY, maxSpeed);
  const Ints hasNeighbors = L::load(counted) != none;
  corrX = L::choose(hasNeighbors, corrX, desiredX);
  corrY = L::choose(hasNeighbors, corrY, desiredY);
  for (size_t l = 0; l < count; ++l) {
    preferredOut[l] = Vec2{L::lane(desiredX, int(l)), L::lane(desiredY, int(l))};
    correctedOut[l] = Vec2{L::lane(corrX, int(l)), L::lane(corrY, int(l))};
  }
  if (weightsOut)
    for (size_t l = 0; l < count; ++l)
      weightsOut[l] = Vec3{L::lane(ws, int(l)), L::lane(wa, int(l)), L::lane(wc, int(l))};
}

// The candidates of one query block copied into one contiguous run. A block is several runs (one
// per row of cells), and every run costs a loop exit, a partial register and their mispredicted
// branches; the agents of one cell share their block, so copying it once per cell lets each of
// them scan a single run. Blocks larger than the buffer are scanned in place.
struct CandidateBuffer {
  static constexpr uint32_t kCapacity = 1024;
  static constexpr uint32_t kPadding = 16;  // vector loops read whole registers past the end
  static constexpr uint32_t kChunk = 8;     // floats copied at a time (at most kPadding)
  alignas(64) float x[kCapacity + kPadding], y[kCapacity + kPadding], vx[kCapacity + kPadding], vy[kCapacity + kPadding];
  uint32_t index[kCapacity + kPadding];  // the agent in each slot, for ORCA's neighbour lists
  uint32_t size = 0;

  // False when the runs do not fit. `withIndex`: also name each slot's agent (only ORCA's neighbour
  // lists read it).
  bool gather(const AxisState& a, std::span<const Run> runs, uint32_t candidates, bool withIndex) {
    size = 0;
    if (candidates > kCapacity) return false;
    for (const Run& r : runs) {
      // Whole registers at a time, past the run's end: a row is a few dozen floats, where a library
      // call per array costs as much as the copy. (The source arrays are padded; the next run or
      // the zeros below overwrite what spills.)
      const uint32_t n = r.end - r.begin;
      for (uint32_t k = 0; k < n; k += kChunk) {
        std::memcpy(x + size + k, a.x + r.begin + k, kChunk * sizeof(float));
        std::memcpy(y + size + k, a.y + r.begin + k, kChunk * sizeof(float));
        std::memcpy(vx + size + k, a.vx + r.begin + k, kChunk * sizeof(float));
        std::memcpy(vy + size + k, a.vy + r.begin + k, kChunk * sizeof(float));
      }
      if (withIndex) std::iota(index + size, index + size + n, r.begin);
      size += n;
    }
    // The lanes past the end are masked off, but a masked lane still multiplies its offset by a
    // zero weight, and stale stack bytes may be NaN or infinity, which would survive that.
    for (uint32_t i = size; i < size + kPadding; ++i) {
      x[i] = y[i] = vx[i] = vy[i] = 0.0f;
      index[i] = 0;
    }
    return true;
  }
  AxisState axes() const { return {x, y, vx, vy}; }
};

}  // namespace

void preferredAndCorrectedLanes(const FinaleParams& p, const Vec2& target, const StageInputs& in, Vec2* preferred,
                                Vec2* corrected, Vec3* weights) {
  lanes::dispatchLanes([&](auto kind) CROWDLAB_LANES_INLINE_LAMBDA {
    stagesLanes<typename decltype(kind)::type>(p, target, in, preferred, corrected, weights);
  });
}

void FinaleSim::gatherPhase(float dt) {
  const FinaleParams& p = params;
  const size_t n = size();
  const float radius = p.queryRadius();
  // Neighbours that could touch within one step are kept beyond orcaMaxNeighbors, so the one-step
  // separation planes see every pair that needs one (see orcaPhase).
  const float reach = orca::stepReach(p.orcaParams(), dt);
  const float reachSq = p.stepSafety ? reach * reach : 0.0f;
  const int maxNeighbors = std::clamp(p.orcaMaxNeighbors, 1, orca::kMaxNeighbors);
  const float lodSq = p.lodRadius * p.lodRadius;
  const AxisState axes{posX_.data(), posY_.data(), velX_.data(), velY_.data()};
  const BoidsBounds bounds = finaleBounds(p);
  const float orcaRangeSq = p.orcaNeighborDist * p.orcaNeighborDist;
  // The query block: the agent's cell and the rings of cells the radius needs (the same for all).
  const auto rings = grid_.rings(radius, SearchMode::AutoRings);
  const auto dims = grid_.cellsPerAxis();
  const UniformGrid<2>::CellMapping cells = grid_.mapping(), bins = obstacleBins();
  auto blockOf = [&](const Vec2& pos) {
    UniformGrid<2>::Block b;
    const glm::ivec2 c = cells.coord(pos);
    b.first = glm::max(c - rings, glm::ivec2(0));
    b.last = glm::min(c + rings, dims - 1);
    return b;
  };
  parallelForRange(n, [&](size_t first, size_t last) {
    NearestKeys near;
    std::array<Run, kMaxRuns> runs;
    int runCount = 0, runsCell = -1;
    uint32_t candidates = 0;
    CandidateBuffer gathered;
    bool inBuffer = false;
    std::array<RuleSums, kFinaleLaneBatch> batchSums;
    std::array<Vec2, kFinaleLaneBatch> batchAvoidance;
    std::array<uint8_t, kFinaleLaneBatch> batchAvoids;
    size_t batched = 0;
    for (size_t k = first; k < last; ++k) {
      const Vec2 pos = position_[k], vel = velocity_[k];
      const bool orcaTier = p.orca && (!p.lod || lengthSq(pos - target) <= lodSq);
      if (p.spatialHash) {
        // Agents are in cell order and every agent of a cell has the same block: its runs are
        // found once per cell, not once per agent.
        const int cell = int(cells.index(pos));
        if (cell != runsCell) {
          runsCell = cell;
          runCount = 0;
          candidates = 0;
          grid_.forEachRange(blockOf(pos), [&](uint32_t b, uint32_t e, const Vec2&) {
            if (runCount < kMaxRuns) runs[size_t(runCount++)] = {b, e, Vec2{0.0f}};
            candidates += e - b;
          });
          inBuffer = gathered.gather(axes, std::span<const Run>(runs.data(), size_t(runCount)), candidates, p.orca);
        }
      } else {
        inBuffer = false;
        runCount = 0;
        runs[size_t(runCount++)] = {0u, uint32_t(n), Vec2{0.0f}};
        candidates = uint32_t(n);
      }
      const std::span<const Run> visited(runs.data(), size_t(runCount));
      RuleSums sums;
      uint32_t closeNeighbors = 0;
      // The scan reads the gathered copy of the block where there is one, the rows in place otherwise.
      const Run gatheredRun{0u, gathered.size, Vec2{0.0f}};
      const std::span<const Run> scan = inBuffer ? std::span<const Run>(&gatheredRun, 1) : visited;
      const AxisState scanAxes = inBuffer ? gathered.axes() : axes;
      {
        const CandidateAxes<2> sumAxes{{scanAxes.x, scanAxes.y}, {scanAxes.vx, scanAxes.vy}};
        uint32_t scanned = 0;
        int close = 0;
        // ORCA's neighbours come from the same pass: the nearest within the neighbour distance.
        const NearKeysRequest keys{&near, inBuffer ? gathered.index : nullptr, uint32_t(k), orcaRangeSq,
                                   neighborCapacity_};
        const BoidsAccum<2> acc =
            laneSums<2>(pos, sumAxes, scan, false, world.size, bounds, scanned, &close, orcaTier ? &keys : nullptr);
        sums = acc;
        closeNeighbors = uint32_t(std::max(close - 1, 0));  // the agent itself is among the candidates
      }
      if (!orcaTier) near.kept = 0;
      const int kept =
          orca::keptNeighbors(near.kept, maxNeighbors, reachSq, [&](int m) { return near.keptDistSq(m); });
      std::copy_n(near.keptIndex, kept, &neighborIndex_[k * size_t(neighborCapacity_)]);
      neighborCount_[k] = uint8_t(kept);
      checks_[k] = candidates > 0 ? candidates - 1 : 0;  // every candidate but the agent itself
      overlaps_[k] = closeNeighbors;
      neighbors_[k] = uint16_t(std::min(sums.perceivedCount, 65535));
      tier_[k] = orcaTier ? 1 : 0;
      // Stages 1 and 2 wait for a register of agents (only the obstacle avoidance is per agent).
      const size_t l = batched++;
      batchSums[l] = sums;
      const std::span<const CircleObstacle> circles = orcaTier ? std::span<const CircleObstacle>{} : circlesIn(bins.index(pos));
      batchAvoids[l] = !circles.empty();
      if (batchAvoids[l])
        batchAvoidance[l] = avoidObstacles(pos, vel, p.agentRadius, circles, p.feelerLength, p.maxSpeed).steering;
      if (batched == kFinaleLaneBatch || k + 1 == last) {
        const size_t from = k + 1 - batched;
        const StageInputs in{std::span<const RuleSums>(batchSums.data(), batched), &position_[from], &velocity_[from],
                             batchAvoidance.data(), batchAvoids.data()};
        preferredAndCorrectedLanes(p, target, in, &preferred_[from], &corrected_[from], &weights_[from]);
        batched = 0;
      }
    }
  }, agentGrain(n));
}

// One pass: each agent of the ORCA tier solves its program once (eight programs at a time), the
// program orca::Crowd builds.
// Besides ORCA's planes (horizon tau, which the fallback may violate when they leave nothing), every
// neighbour that could touch within one step gets a hard one-step separation plane
// (orca::stepHalfPlane: close at most half the gap within dt). Those, and the walls', all contain
// v = 0, so the hard part is always feasible and no pair of ORCA agents ends a step closer than 2r;
// they bind only for gaps under 2 * maxSpeed * dt.
void FinaleSim::orcaPhase(float dt) {
  const FinaleParams& p = params;
  const orca::Params orcaParams = p.orcaParams();
  const UniformGrid<2>::CellMapping bins = obstacleBins();
  parallelForRange(size(), [&](size_t first, size_t last) {
    constexpr size_t kBatch = lanes::kLanes;
    // Reused: clearing a program's arrays for every agent would cost more than solving it. Built and
    // solved as rows (orca::ProgramBatch), never as planes.
    orca::ProgramBatch programs;
    orca::ProgramInputs inputs;
    orca::FallbackQueue fallbacks;  // the programs without a solution, from batch to batch
    std::array<Vec2, kBatch> preferred;
    std::array<uint32_t, kBatch> agent;
    size_t batched = 0;
    auto emit = [&](uint32_t k, const orca::LpResult& r) {
      orcaVelocity_[k] = r.velocity;
      feasible_[k] = r.feasible ? 1 : 0;
    };
    auto solveBatch = [&] {
      orca::buildPrograms(programs, inputs, orcaParams, dt, p.stepSafety);
      orca::solve(programs, std::span<const Vec2>(preferred.data(), batched),
                  std::span<const uint32_t>(agent.data(), batched), p.maxSpeed, fallbacks, emit);
      inputs.clear();
      batched = 0;
    };
    for (size_t k = first; k < last; ++k) {
      if (!tier_[k]) continue;
      // Agent k's program: orca::buildProgram's over the neighbours the gather kept.
      const uint32_t* nb = &neighborIndex_[k * size_t(neighborCapacity_)];
      const size_t count = neighborCount_[k];
      const Vec2 pos = position_[k];
      const int lane = inputs.add(uint32_t(k), pos, velocity_[k], segmentsIn(bins.index(pos)));
      inputs.addNeighbors(lane, std::span<const uint32_t>(nb, count), position_.data(), velocity_.data(), pos);
      preferred[batched] = corrected_[k];
      agent[batched++] = uint32_t(k);
      if (batched == kBatch) solveBatch();
    }
    if (batched) solveBatch();
    for (const orca::FallbackQueue::Solved& s : fallbacks.solve(p.maxSpeed)) emit(s.id, s.result);
  }, agentGrain(size()));
}

void FinaleSim::integratePhase(float dt) {
  const FinaleParams& p = params;
  const size_t n = size();
  const float inside = penetrationDistance(p.agentRadius);
  const float arrivalSq = arrivalRadius() * arrivalRadius();
  time_ += dt;
  const float now = float(time_);
  const UniformGrid<2>::CellMapping bins = obstacleBins();
  parallelFor(n, [&](size_t k) {
    const Vec2 pos = position_[k];
    Vec2 v = tier_[k] ? orcaVelocity_[k] : boidsTierVelocity(p, velocity_[k], corrected_[k], dt);
    Vec2 next = pos + v * dt;
    notFinite_[k] = !finite(v) || !finite(next);
    if (notFinite_[k]) {
      // Hold the agent rather than let one NaN spread through its neighbours; nan_count shows it.
      v = Vec2{0.0f};
      next = finite(pos) ? pos : world.center();
    }
    if (!(next.x >= world.min.x && next.y >= world.min.y && next.x <= world.min.x + world.size.x &&
          next.y <= world.min.y + world.size.y))
      world.applyBounds(next, v);
    position_[k] = next;
    velocity_[k] = v;
    speed_[k] = std::sqrt(lengthSq(v));
    uint8_t in = 0;
    for (const CircleObstacle& o : circlesIn(bins.index(next)))
      if (lengthSq(next - o.center) < (o.radius + inside) * (o.radius + inside)) in = 1;
    inObstacle_[k] = in;
    float& arrived = arrivedAt_[id_[k]];  // ids are distinct: one writer per slot
    if (arrived < 0.0f && lengthSq(next - target) <= arrivalSq) arrived = now;
  }, 256);

  // Reductions in fixed blocks, summed in order: the same figures for any thread count.
  parallelFor(blockSums_.size(), [&](size_t b) {
    BlockSums s;
    for (size_t k = b * kBlock, e = std::min(n, k + kBlock); k < e; ++k) {
      s.speed += speed_[k];
      s.neighbors += neighbors_[k];
      s.maxNeighbors = std::max<uint32_t>(s.maxNeighbors, neighbors_[k]);
      s.overlaps += overlaps_[k];
      s.checks += checks_[k];
      s.inObstacle += inObstacle_[k];
      s.notFinite += notFinite_[k];
      s.orcaTier += tier_[k];
      s.infeasible += tier_[k] && !feasible_[k];
      const float arrived = arrivedAt_[id_[k]];
      s.arrived += arrived >= 0.0f;
      s.arrival += arrived >= 0.0f ? arrived : now;
    }
    blockSums_[b] = s;
  }, 1);
  Metrics& m = metrics_;
  m = {};
  double speed = 0, neighbors = 0, arrival = 0;
  uint32_t arrived = 0;
  for (const BlockSums& s : blockSums_) {
    arrival += s.arrival;
    arrived += s.arrived;
    speed += s.speed;
    neighbors += s.neighbors;
    m.maxNeighbors = std::max(m.maxNeighbors, s.maxNeighbors);
    m.overlaps += s.overlaps;  // close neighbours, each pair seen from both sides
    m.checks += s.checks;
    m.inObstacle += s.inObstacle;
    m.nanCount += s.notFinite;
    m.orcaTier += s.orcaTier;
    m.infeasible += s.infeasible;
  }
  m.overlaps /= 2;
  m.boidsTier = uint32_t(n) - m.orcaTier;
  m.meanSpeed = n ? speed / double(n) : 0.0;
  m.meanNeighbors = n ? neighbors / double(n) : 0.0;
  m.arrivedShare = n ? double(arrived) / double(n) : 0.0;
  m.meanArrivalSeconds = n ? arrival / double(n) : 0.0;
}

float FinaleSim::arrivalRadius() const {
  const float spacing = 3.0f * params.agentRadius;
  return std::sqrt(float(size()) * spacing * spacing / 3.14159265f);
}

void FinaleSim::step(float dt) {
  const auto start = Clock::now();
  const size_t n = size();
  params = params.normalized();
  target = glm::clamp(target, world.min + params.agentRadius, world.max() - params.agentRadius);
  resizeBuffers(n);
  buildObstacleBins();

  // Grid build: agents into cell order, every per-agent array with them.
  auto t = Clock::now();
  if (params.spatialHash) {
    // Cells no smaller than a 30th of the query radius: a query then visits at most kMaxRuns rows.
    grid_.build(position_, world, std::max(params.cellSize, params.queryRadius() / 30.0f));
    grid_.reorder(velocity_, vec2Scratch_);
    grid_.reorder(id_, idScratch_);
    const auto sorted = grid_.sortedPositions();
    parallelFor(n, [&](size_t k) { position_[k] = sorted[k]; }, 2048);
  }
  // The same state one axis at a time, for the vector loops of the gather.
  parallelFor(n, [&](size_t k) {
    posX_[k] = position_[k].x;
    posY_[k] = position_[k].y;
    velX_[k] = velocity_[k].x;
    velY_[k] = velocity_[k].y;
  }, 2048);
  timings_.gridMs = msSince(t);

  t = Clock::now();
  gatherPhase(dt);
  timings_.rulesMs = msSince(t);

  t = Clock::now();
  if (params.orca) orcaPhase(dt);
  timings_.orcaMs = msSince(t);

  t = Clock::now();
  integratePhase(dt);
  timings_.integrateMs = msSince(t);
  timings_.stepMs = msSince(start);
}

PipelineVelocities FinaleSim::lastPipeline(size_t k) const {
  PipelineVelocities out;
  if (k >= size()) return out;
  out.preferred = preferred_[k];
  out.boidsCorrected = corrected_[k];
  out.orcaTier = tier_[k] != 0;
  out.orcaInput = out.orcaTier ? corrected_[k] : Vec2{0.0f};
  out.final = velocity_[k];
  out.neighbors = neighbors_[k];
  out.weights = weights_[k];
  return out;
}

// ---- exact checks ----

uint64_t FinaleSim::countOverlaps() const {
  UniformGrid<2> grid;
  World<2> box = world;
  box.boundary = Boundary::Open;
  const float close = overlapDistance(params.agentRadius);
  grid.build(position_, box, std::max(close, 8.0f));
  return sim::countOverlaps(grid, params.agentRadius);
}

uint32_t FinaleSim::countInObstacle() const {
  uint32_t count = 0;
  const float inside = penetrationDistance(params.agentRadius);
  for (const Vec2& q : position_)
    for (const CircleObstacle& o : obstacles_)
      if (lengthSq(q - o.center) < (o.radius + inside) * (o.radius + inside)) {
        ++count;
        break;
      }
  return count;
}

// overlaps_total, mean_speed, checks_per_agent and mean_neighbors mean what the corridor's, the
// steering world's and the flock's do (described there).
constexpr MetricInfo kFinaleMetrics[] = {
    {"in_obstacle", "bodies inside an obstacle"},
    {"nan_count", "agents with a NaN position"},
    {"step_ms", "step time (ms)", "ms"},
    {"max_neighbors", "most neighbours of one agent"},
    {"orca_tier", "agents stepped by ORCA"},
    {"boids_tier", "agents stepped by the boids rules"},
    {"infeasible", "ORCA programs that needed the fallback"},
    {"arrived_share", "arrived (share of agents)", "", 0.0, 1.0},
    {"mean_arrival_s", "mean arrival time (s)", "s"},
};
[[maybe_unused]] const bool finaleDescribed = describeMetrics(kFinaleMetrics);

void FinaleSim::appendMetrics(std::vector<Metric>& out) const {
  const Metrics& m = metrics_;
  out.push_back({"overlaps_total", double(m.overlaps)});
  out.push_back({"in_obstacle", double(m.inObstacle)});
  out.push_back({"mean_speed", m.meanSpeed});
  out.push_back({"nan_count", double(m.nanCount)});
  out.push_back({"step_ms", timings_.stepMs});
  // The neighbour search's work counted, not timed: the same on a busy machine as on a quiet one.
  out.push_back({"checks_per_agent", size() ? double(m.checks) / double(size()) : 0.0});
  out.push_back({"mean_neighbors", m.meanNeighbors});
  out.push_back({"max_neighbors", double(m.maxNeighbors)});
  out.push_back({"orca_tier", double(m.orcaTier)});
  out.push_back({"boids_tier", double(m.boidsTier)});
  out.push_back({"infeasible", double(m.infeasible)});
  out.push_back({"arrived_share", m.arrivedShare});
  out.push_back({"mean_arrival_s", m.meanArrivalSeconds});
}

}  // namespace sim
