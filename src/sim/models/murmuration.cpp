#include "sim/models/murmuration.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include "sim/rules/boids.hpp"
#include "sim/core/knn.hpp"
#include "sim/core/metrics.hpp"
#include "sim/core/parallel.hpp"
#include "sim/core/metric.hpp"

namespace sim {

static_assert(Murmuration<3>::kMaxNeighbors <= kMaxNearest, "the grid kNN holds at most kMaxNearest");

namespace {

constexpr float kMinSpeedShare = 0.7f;     // of the cruise speed: birds cannot hover
constexpr float kMaxSpeedShare = 1.3f;
constexpr float kFleeWeight = 2.0f;        // escape steering, on the rules' scale
constexpr float kRoostWeight = 1.5f;       // full turn-back strength, reached a quarter radius past the roost
constexpr float kRoostFlattening = 2.0f;   // 3D roost is an oblate ellipsoid: half as high as wide
constexpr float kLevelling = 0.6f;         // 3D: birds damp their climb rate (1/s), so flight stays mostly level
constexpr float kCohesionFade = 2.5f;      // cohesion grows with the centroid offset up to this many separation distances
constexpr float kFalconMinSpeed = 20.0f;   // m/s
constexpr float kCellOccupancy = 0.7f;     // kNN grid: birds per cell over the flock's bounding box (with the cell blocks 2 takes 12 % fewer instructions with the cell blocks but orders the birds differently, which moves the pinned digest)

constexpr int kLanePadding = 8;  // laneSums reads whole registers (lanes::kLanes floats) past the end

// One bird's neighbours, copied one axis at a time for laneSums. The lanes past the last neighbour
// hold zeros or an earlier bird's neighbours: laneSums masks them off, and finite values stay
// harmless under its masks (an infinity times a zero weight would not).
template <int D>
struct NeighborCopy {
  static constexpr uint32_t kCapacity = 256;  // more neighbours (a metric radius in a dense flock) go in parts
  float position[D][kCapacity + kLanePadding] = {}, velocity[D][kCapacity + kLanePadding] = {};
  uint32_t count = 0;
  CandidateAxes<D> axes() const {
    CandidateAxes<D> a;
    for (int k = 0; k < D; ++k) {
      a.position[k] = position[k];
      a.velocity[k] = velocity[k];
    }
    return a;
  }
};

template <int D>
Vec<D> scaleVertical(Vec<D> v, float factor) {
  if constexpr (D == 3) v.z *= factor;
  return v;
}

// Cells a grid over n birds may use. buildGrid grows the cell size rather than go past it, and
// resizeStorage sizes both grids for it once per N: the flock changes shape every step, and without
// a fixed ceiling the cell arrays would grow (allocate) now and then for ever.
size_t cellBudget(size_t n) { return size_t(4.0f * float(n) / kCellOccupancy) + 64; }

template <int D>
void primeGrid(UniformGrid<D>& grid, size_t n) {
  World<D> line;
  line.boundary = Boundary::Open;
  line.size = Vec<D>(1.0f);
  line.size.x = float(cellBudget(n));
  const Vec<D> one[1] = {Vec<D>(0.5f)};
  grid.build(std::span<const Vec<D>>(one), line, 1.0f);  // budget x 1 (x 1) cells
}

}  // namespace

// ---- set-up ----

template <int D>
void Murmuration<D>::resizeStorage(size_t n) {
  position_.resize(n);
  velocity_.resize(n);
  id_.resize(n);
  fearAge_.resize(n, kCalm);
  fleeDir_.resize(n, Vec<D>(0.0f));
  nextPosition_.resize(n);
  nextVelocity_.resize(n);
  nextFleeDir_.resize(n);
  nextFearAge_.resize(n);
  if (n != primedFor_) {
    primeGrid(grid_, n);
    primeGrid(measureGrid_, n);
    primeGrid(groupScratch_.grid, n);
    primedFor_ = n;
  }
}

// Every per-bird array emptied, then sized for n birds (a new flock, not a resized one).
template <int D>
void Murmuration<D>::emptyStorage(size_t n) {
  position_.clear();
  velocity_.clear();
  id_.clear();
  fearAge_.clear();
  fleeDir_.clear();
  resizeStorage(n);
}

template <int D>
void Murmuration<D>::spawn(size_t n, uint64_t seed) {
  rng_.reseed(seed);
  seed_ = seed;
  stepCount_ = 0;
  time_ = 0.0f;
  falcon_ = Falcon{};
  emptyStorage(n);
  // A bent, flattened ellipsoid (a crescent in 2D) roughly one separation distance apart, long
  // along the way the birds fly: the look of a murmuration from the start, not a ball.
  const float spacing = params.separationDistance;
  const float radius = D == 3 ? spacing * std::cbrt(3.0f * float(n) / (4.0f * 3.14159265f))
                              : spacing * std::sqrt(float(n) / 3.14159265f);
  Vec<D> axes;  // semi-axes over the radius, product 1: the volume of the ball
  if constexpr (D == 3) axes = Vec3(2.0f, 1.0f, 0.5f);
  else axes = Vec2(1.6f, 0.625f);
  const Vec2 forward = rng_.unitVec2();
  const Vec2 left(-forward.y, forward.x);
  Vec<D> heading(0.0f), side(0.0f), bendAxis(0.0f);
  heading.x = forward.x;
  heading.y = forward.y;
  side.x = left.x;
  side.y = left.y;
  bendAxis[D - 1] = 1.0f;  // 3D: the sheet sags; 2D: the crescent bows sideways
  if constexpr (D == 2) bendAxis = side;
  for (size_t i = 0; i < n; ++i) {
    Vec<D> u;
    do u = rng_.inBox<D>(Vec<D>(-1.0f), Vec<D>(1.0f));
    while (glm::dot(u, u) > 1.0f);
    const Vec<D> e = u * axes * radius;
    Vec<D> p = heading * e[0] + side * e[1] + bendAxis * (0.6f * radius * u[0] * u[0]);
    if constexpr (D == 3) p.z += e[2];
    position_[i] = roostCenter + p;
    velocity_[i] = safeNormalize<D>(heading + rng_.unitVec<D>() * 0.35f) * params.speed;
    id_[i] = uint32_t(i);
    fearAge_[i] = kCalm;
    fleeDir_[i] = Vec<D>(0.0f);
  }
}

template <int D>
void Murmuration<D>::setBirds(std::span<const Vec<D>> positions, std::span<const Vec<D>> velocities) {
  const size_t n = std::min(positions.size(), velocities.size());
  emptyStorage(n);
  for (size_t i = 0; i < n; ++i) {
    position_[i] = positions[i];
    velocity_[i] = velocities[i];
    id_[i] = uint32_t(i);
  }
}

template <int D>
void Murmuration<D>::setVelocities(std::span<const Vec<D>> velocities) {
  for (size_t i = 0; i < size() && i < velocities.size(); ++i) velocity_[i] = velocities[i];
}

template <int D>
void Murmuration<D>::resizeKeeping(size_t n) {
  const size_t old = size();
  if (old == 0) {
    spawn(n, seed_);
    return;
  }
  if (n < old) {
    // Keep the birds with ids below n (ids stay 0..n-1), in their current order.
    size_t kept = 0;
    for (size_t i = 0; i < old; ++i) {
      if (id_[i] >= n) continue;
      position_[kept] = position_[i];
      velocity_[kept] = velocity_[i];
      id_[kept] = id_[i];
      fearAge_[kept] = fearAge_[i];
      fleeDir_[kept] = fleeDir_[i];
      ++kept;
    }
  }
  resizeStorage(n);
  // New birds join next to random existing ones, flying with them.
  for (size_t i = old; i < n; ++i) {
    const size_t parent = rng_.below(uint32_t(old));
    position_[i] = position_[parent] + rng_.unitVec<D>() * params.separationDistance;
    velocity_[i] = velocity_[parent];
    id_[i] = uint32_t(i);
    fearAge_[i] = kCalm;
    fleeDir_[i] = Vec<D>(0.0f);
  }
}

// ---- neighbours ----

template <int D>
int Murmuration<D>::effectiveK() const {
  const int others = size() > 0 ? int(std::min<size_t>(size() - 1, kMaxNeighbors)) : 0;
  return std::min(std::clamp(params.k, 1, kMaxNeighbors), others);
}

// An open grid over the birds' bounding box; birds are never outside it, so no seams and no wrap.
// cellSize <= 0: sized for kCellOccupancy birds per cell.
template <int D>
void Murmuration<D>::buildGrid(UniformGrid<D>& grid, std::span<const Vec<D>> points, float cellSize) const {
  World<D> box;
  box.boundary = Boundary::Open;
  Vec<D> lo(0.0f), hi(0.0f);
  if (!points.empty()) lo = hi = points[0];
  for (const Vec<D>& p : points) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  box.min = lo;
  box.size = glm::max(hi - lo, Vec<D>(1e-3f));
  if (!(cellSize > 0.0f)) {
    float volume = 1.0f;
    for (int a = 0; a < D; ++a) volume *= std::max(box.size[a], 1.0f);
    cellSize = std::pow(volume * kCellOccupancy / float(std::max<size_t>(points.size(), 1)), 1.0f / float(D));
  }
  cellSize = std::max(cellSize, 0.05f);
  // Within the budget, counting cells as the grid does (ceil per axis, in double).
  const double budget = double(cellBudget(points.size()));
  for (;;) {
    double cells = 1.0;
    for (int a = 0; a < D; ++a) cells *= std::ceil(double(box.size[a]) / double(cellSize));
    if (cells <= budget) break;
    cellSize *= float(std::max(1.001, std::pow(cells / budget, 1.0 / D)));
  }
  grid.build(points, box, cellSize);
}

template <int D>
void Murmuration<D>::findNearest(const UniformGrid<D>& grid, int k, NeighborLists& out, bool withDistances,
                                 std::span<const uint32_t> hints, size_t hintsPerBird) const {
  const size_t n = grid.size();
  out.k = k;
  out.lists.resize(n * size_t(k));
  out.distSq.resize(withDistances ? n * size_t(k) : 0);
  nearestNeighborsAll<D>(grid, k, out.lists, out.distSq, hints, hintsPerBird);
}

template <int D>
std::span<const uint32_t> Murmuration<D>::lastNeighborsAsHints() {
  const size_t n = size(), k = size_t(neighbors_.k);
  if (k == 0 || grid_.size() != n || neighbors_.lists.size() != n * k) return {};  // none yet, or another N
  const auto order = grid_.order();  // order[now] = the bird's index in the last step
  newIndexOf_.resize(n);
  hints_.resize(n * k);
  parallelFor(n, [&](size_t now) { newIndexOf_[order[now]] = uint32_t(now); }, 4096);
  parallelFor(n, [&](size_t now) {
    const uint32_t* last = neighbors_.lists.data() + size_t(order[now]) * k;
    for (size_t m = 0; m < k; ++m) hints_[now * k + m] = last[m] < n ? newIndexOf_[last[m]] : kNoNeighbor;
  }, 4096);
  return hints_;
}

template <int D>
std::span<const uint32_t> Murmuration<D>::neighborsOf(size_t i) const {
  if (params.metric || (i + 1) * size_t(neighbors_.k) > neighbors_.lists.size()) return {};
  return {neighbors_.lists.data() + i * size_t(neighbors_.k), size_t(neighbors_.k)};
}

// ---- one step ----

template <int D>
float Murmuration<D>::fear(size_t i) const {
  const float f = 1.0f - fearAge_[i] / std::max(params.fearSeconds, 1e-3f);
  return std::clamp(f, 0.0f, 1.0f);
}

template <int D>
void Murmuration<D>::step(float dt) {
  const size_t n = size();
  const MurmurationParams& P = params;
  const bool metric = P.metric;

  // Cell order: neighbours sit close in memory; every per-bird array follows.
  buildGrid(grid_, position_, metric ? P.radius : 0.0f);
  grid_.reorder(position_, scratchVec_);
  grid_.reorder(velocity_, scratchVec_);
  grid_.reorder(fleeDir_, scratchVec_);
  grid_.reorder(fearAge_, scratchFloat_);
  grid_.reorder(id_, scratchId_);
  if (!metric) {
    const std::span<const uint32_t> hints = lastNeighborsAsHints();
    findNearest(grid_, effectiveK(), neighbors_, false, hints, hints.empty() ? 0 : size_t(neighbors_.k));
  }

  const float sep2 = P.separationDistance * P.separationDistance;
  const float minSpeed = kMinSpeedShare * P.speed, maxSpeed = kMaxSpeedShare * P.speed;
  // The rules' fades: alignment at full strength a tenth of the cruise speed off, cohesion a spring over a few spacings.
  const BoidsShape shape{SeparationLaw::InverseDistance, 0.1f * P.speed, kCohesionFade * P.separationDistance};
  const float sight2 = P.sightRadius * P.sightRadius;
  const float fearSeconds = std::max(P.fearSeconds, 1e-3f);
  const float receptiveAge = fearSeconds + P.refractorySeconds;
  const Falcon falcon = falcon_;
  const int k = neighbors_.k;

  // The boids sums over a bird's neighbours (its k nearest, or every bird within the radius) are
  // boids' laneSums over a copy of them: every neighbour counts, the closest push.
  const BoidsBounds bounds{INFINITY, INFINITY, std::nextafter(sep2, 0.0f), INFINITY, INFINITY};
  parallelForRange(n, [&](size_t begin, size_t end) {
  NeighborCopy<D> copy;
  for (size_t i = begin; i < end; ++i) {
    const Vec<D> p = position_[i], v = velocity_[i];
    Vec<D> fleeSum(0.0f);
    int alarming = 0;
    BoidsAccum<D> sums;
    copy.count = 0;
    auto flush = [&] {
      uint32_t checks = 0;
      const CandidateRun<D> run{0, copy.count, Vec<D>(0.0f)};
      const BoidsAccum<D> part = laneSums<D>(p, copy.axes(), std::span<const CandidateRun<D>>(&run, 1), false, Vec<D>(0.0f),
                                             bounds, checks);
      sums.separationSum += part.separationSum;
      sums.velocitySum += part.velocitySum;
      sums.offsetSum += part.offsetSum;
      sums.perceivedCount += part.perceivedCount;
      sums.alignmentCount += part.alignmentCount;
      sums.cohesionCount += part.cohesionCount;
      sums.separationCount += part.separationCount;
      copy.count = 0;
    };
    auto visit = [&](uint32_t j) {
      for (int a = 0; a < D; ++a) {
        copy.position[a][copy.count] = position_[j][a];
        copy.velocity[a][copy.count] = velocity_[j][a];
      }
      if (++copy.count == NeighborCopy<D>::kCapacity) flush();
      // A neighbour alarms others once its reaction delay has passed, for as long as it is startled.
      const float age = fearAge_[j];
      if (age >= P.reactionDelay && age < fearSeconds) {
        ++alarming;
        fleeSum += fleeDir_[j];
      }
    };
    if (metric) {
      grid_.forEachInRadius(uint32_t(i), p, P.radius, [&](uint32_t j, const Vec<D>&, float) { visit(j); });
    } else {
      const uint32_t* list = neighbors_.lists.data() + i * size_t(k);
      for (int m = 0; m < k; ++m) visit(list[m]);
    }
    if (copy.count) flush();
    const int count = sums.perceivedCount;

    // Fear: seeing the falcon startles at once; otherwise enough alarming neighbours do, unless the
    // bird has only just calmed down (without that pause the wave would bounce back and forth forever).
    float age = fearAge_[i];
    Vec<D> flee = fleeDir_[i];
    const Vec<D> fromFalcon = p - falcon.position;
    const bool sees = falcon.active && glm::dot(fromFalcon, fromFalcon) < sight2;
    const int quorum = std::max(1, int(std::ceil(P.fearQuorum * float(count) - 1e-4f)));
    if (sees) {
      age = age >= fearSeconds ? 0.0f : age + dt;
      // Sideways off the falcon's track, not away from its beak: the birds left of its path dodge
      // left, those right of it right (in 3D: off the upright plane through the track), which is
      // how a stoop cuts a flock in two. A hovering falcon, or one diving straight down: radially.
      Vec<D> side(0.0f);
      side.x = -falcon.velocity.y;
      side.y = falcon.velocity.x;
      side = safeNormalize(side);
      const float across = glm::dot(fromFalcon, side);
      Vec<D> away = across != 0.0f ? side * (across > 0.0f ? 1.0f : -1.0f) : Vec<D>(0.0f);
      if (glm::dot(away, away) == 0.0f) away = safeNormalize(fromFalcon);
      flee = glm::dot(away, away) > 0.0f ? away : safeNormalize(falcon.velocity);
    } else if (age >= receptiveAge && alarming >= quorum) {
      age = 0.0f;
      flee = fleeSum / float(alarming);  // escape the way the alarming neighbours escape (weaker where they disagree)
    } else {
      age += dt;
    }
    const float fright = std::clamp(1.0f - age / fearSeconds, 0.0f, 1.0f);

    Vec<D> steer = boidsSteering(sums, v, P.weights, shape);
    steer += kFleeWeight * fright * flee;
    // A little random steering per bird and step (a function of seed, id and step, so any thread
    // count draws the same): without it nothing ever disturbs a flock that starts in order.
    if (P.noise > 0.0f) {
      Rng jitter(seed_ ^ (uint64_t(id_[i]) << 32), stepCount_);
      steer += P.noise * jitter.unitVec<D>();
    }
    // The roost: a gentle pull towards its centre everywhere (the birds circle over their roost, and
    // parts of a split flock meet again there), and past its radius a turn back that grows over a
    // quarter radius.
    const Vec<D> toCenter = scaleVertical<D>(roostCenter - p, kRoostFlattening);
    const float fromCenter = std::sqrt(glm::dot(toCenter, toCenter));
    steer += P.roostPull * std::min(fromCenter / P.roostRadius, 1.0f) * safeNormalize(toCenter);
    const float outside = (fromCenter - P.roostRadius) / (0.25f * P.roostRadius);
    if (outside > 0.0f) steer += kRoostWeight * std::min(outside, 1.0f) * safeNormalize(toCenter);
    const float boost = 1.0f + (P.fleeBoost - 1.0f) * fright;
    Vec<D> acceleration = clampLength(steer * P.maxAcceleration, P.maxAcceleration * boost);
    if constexpr (D == 3) acceleration.z -= kLevelling * v.z;

    Vec<D> nv = clampLength(v + acceleration * dt, maxSpeed * boost);
    const float s2 = glm::dot(nv, nv);
    if (s2 < minSpeed * minSpeed) nv = s2 > 1e-12f ? nv * (minSpeed / std::sqrt(s2)) : safeNormalize(v) * minSpeed;
    nextPosition_[i] = p + nv * dt;
    nextVelocity_[i] = nv;
    nextFearAge_[i] = std::min(age, kCalm);
    nextFleeDir_[i] = flee;
  }
  }, 64);

  position_.swap(nextPosition_);
  velocity_.swap(nextVelocity_);
  fearAge_.swap(nextFearAge_);
  fleeDir_.swap(nextFleeDir_);

  if (falcon_.active) {
    falcon_.position += falcon_.velocity * dt;
    falcon_.timeLeft -= dt;
    if (falcon_.timeLeft <= 0.0f) falcon_ = Falcon{};
  }
  time_ += dt;
  ++stepCount_;
}

// ---- the falcon ----

template <int D>
Vec<D> Murmuration<D>::centroid() const {
  Vec<D> sum(0.0f);
  for (const Vec<D>& p : position_) sum += p;
  return size() ? sum / float(size()) : roostCenter;
}

template <int D>
float Murmuration<D>::rmsRadius(const Vec<D>& center) const {
  double sum = 0.0;
  for (const Vec<D>& p : position_) sum += double(glm::dot(p - center, p - center));
  return size() ? float(std::sqrt(sum / double(size()))) : 0.0f;
}

// Flies straight through `aim` and as far beyond it, in params.falconSeconds; at least through the flock.
template <int D>
void Murmuration<D>::launchFalcon(const Vec<D>& from, const Vec<D>& aim) {
  const float seconds = std::max(params.falconSeconds, 0.1f);
  Vec<D> dir = aim - from;
  float distance = std::sqrt(glm::dot(dir, dir));
  if (distance > 1.0f) {
    dir /= distance;
  } else {
    // Placed in the middle of the flock: head-on against the flock's mean heading.
    Vec<D> mean(0.0f);
    for (const Vec<D>& v : velocity_) mean += v;
    dir = -safeNormalize(mean);
    if (glm::dot(dir, dir) == 0.0f) { dir = Vec<D>(0.0f); dir.x = 1.0f; }
  }
  const float reach = std::max(distance, rmsRadius(aim) * 1.5f + params.sightRadius);
  falcon_.active = true;
  falcon_.position = from;
  falcon_.velocity = dir * std::max(kFalconMinSpeed, 2.0f * reach / seconds);
  falcon_.timeLeft = seconds;
}

template <int D>
void Murmuration<D>::alarm() {
  const Vec<D> c = centroid();
  Vec<D> dir = rng_.unitVec<D>();
  // A shallow stoop from above: through the thin sheet of the flock along a long chord, not a hole.
  if constexpr (D == 3) dir = glm::normalize(Vec3(glm::normalize(Vec2(dir.x, dir.y) + Vec2(1e-6f, 0.0f)), 0.2f + 0.2f * std::abs(dir.z)));
  const float start = std::max(rmsRadius(c) * 1.5f + params.sightRadius, 15.0f);
  launchFalcon(c + dir * start, c);
}

template <int D>
void Murmuration<D>::placeFalcon(const Vec<D>& p) {
  launchFalcon(p, centroid());
}

template <int D>
void Murmuration<D>::placeFalcon(const Vec<D>& p, const Vec<D>& v) {
  falcon_.active = true;
  falcon_.position = p;
  falcon_.velocity = v;
  falcon_.timeLeft = std::max(params.falconSeconds, 0.1f);
}

// ---- metrics ----

template <int D>
typename Murmuration<D>::Metrics Murmuration<D>::measure() {
  Metrics m;
  const size_t n = size();
  m.polarization = polarization<D>(velocity_);
  const Vec<D> c = centroid();
  m.extent = 2.0 * double(rmsRadius(c));
  for (size_t i = 0; i < n; ++i) m.startled += startled(i) ? 1 : 0;
  if (n < 2) {
    m.groups = int(n);
    m.largestGroup = n ? 1.0 : 0.0;
    return m;
  }

  m.velocityFluctuation = velocityFluctuation<D>(position_, velocity_);
  buildGrid(measureGrid_, position_, 0.0f);
  findNearest(measureGrid_, 1, measureNeighbors_, true);
  double nearestSum = 0.0;
  for (size_t i = 0; i < n; ++i) nearestSum += double(std::sqrt(measureNeighbors_.distSq[i]));
  m.meanNearest = nearestSum / double(n);

  // Groups by a fixed link length, on a grid with cells of that length (within the cell budget).
  const float link = params.groupLink * kBodyLength;
  buildGrid(groupScratch_.grid, position_, link);
  const GroupStats groups = linkedGroups<D>(groupScratch_.grid, link, groupScratch_);
  m.groups = groups.groups;
  m.largestGroup = groups.largestShare;
  return m;
}

// Polarization, groups and the nearest-neighbour distance are the flock's (sim/core/metrics.cpp).
constexpr MetricInfo kMurmurationMetrics[] = {
    {"velocity_fluctuation", "velocity fluctuation (share of mean speed)"},
    {"extent", "extent (m, 2 x RMS distance from the centre)", "m"},
    {"startled", "startled birds (count)"},
};
[[maybe_unused]] const bool murmurationDescribed = describeMetrics(kMurmurationMetrics);

template <int D>
void Murmuration<D>::appendMetrics(std::vector<Metric>& out) {
  const Metrics m = measure();
  out.push_back({"polarization", m.polarization});
  out.push_back({"groups", double(m.groups)});
  out.push_back({"largest_group_share", m.largestGroup});
  out.push_back({"velocity_fluctuation", m.velocityFluctuation});
  out.push_back({"extent", m.extent});
  out.push_back({"mean_nn_distance", m.meanNearest});
  out.push_back({"startled", double(m.startled)});
}

template class Murmuration<2>;
template class Murmuration<3>;

}  // namespace sim
