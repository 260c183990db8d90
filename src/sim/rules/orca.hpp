// ORCA: optimal reciprocal collision avoidance in 2D, written from van den Berg, Guy, Lin, Manocha,
// "Reciprocal n-Body Collision Avoidance" (2011).
//
// For a neighbour B, agent A's velocity obstacle VO(tau) is the set of relative velocities
// v = vA - vB that bring the two discs into contact within tau: the cone from the origin over the
// disc D(pB - pA, rA + rB), cut off at the near side by the disc scaled by 1/tau. u is the smallest
// change of the current relative velocity that takes it to the obstacle's boundary and n the
// boundary's outward normal there. A takes half of the change: its permitted velocities are the
// half-plane {v : (v - (vA + u/2)) . n >= 0}. B builds the mirror image, so any pair of choices
// from the two half-planes is collision free for tau.
//
// Each agent then solves a small linear program: the velocity closest to its preferred one, inside
// its max-speed disc and every half-plane. When the half-planes leave nothing, the fallback keeps
// the hard half-planes (walls, and the one-step separation planes described at Crowd) and
// minimises the largest violation of the agent ones.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <vector>
#include "sim/core/grid.hpp"
#include "sim/core/math.hpp"
#include "sim/core/neighbors.hpp"
#include "sim/core/parallel.hpp"

namespace sim::orca {

// Where a half-plane comes from. Walls and Step planes are hard: the fallback never gives them up.
enum class PlaneKind : uint8_t {
  Agent,  // ORCA against a neighbour, horizon tau
  Wall,   // against a static obstacle, horizon tauObst
  Step,   // against a neighbour: do not close more than the gap within the next step (see Crowd)
};

// A permitted half-plane of velocities: {v : dot(normal, v - point) >= 0}.
struct HalfPlane {
  Vec2 point{0.0f};
  Vec2 normal{1.0f, 0.0f};  // unit, pointing into the permitted side
  PlaneKind kind = PlaneKind::Agent;

  bool hard() const { return kind != PlaneKind::Agent; }

  // Along the boundary line, with the permitted side on its left (for drawing).
  Vec2 direction() const { return {normal.y, -normal.x}; }
  float signedDistance(const Vec2& v) const { return glm::dot(normal, v - point); }
};

// A static obstacle: a line segment, or a disc when a == b and the radius is the obstacle's.
struct Segment {
  Vec2 a{0.0f};
  Vec2 b{0.0f};
  float radius = 0.0f;  // thickness added to the agent's radius (0 for a wall)
};

// The half-plane of agent A against neighbour B.
//   offset:      pB - pA
//   ownVelocity: vA, otherVelocity: vB (both current)
//   radius:      rA + rB
//   tieSign:     +1 or -1, opposite for the two agents of a pair (e.g. by index); picks the side
//                when the agents coincide and move alike, where no direction is given by the data.
// Already overlapping: the obstacle is the disc of relative velocities that still overlap after one
// step dt, so the pair separates within the next step.
HalfPlane agentHalfPlane(const Vec2& offset, const Vec2& ownVelocity, const Vec2& otherVelocity, float radius,
                         float tau, float dt, float tieSign = 1.0f);

// The one-step separation plane of agent A against neighbour B (offset = pB - pA, radius = rA + rB):
// ORCA's construction with horizon dt around zero velocity, which reduces to
// "approach B along the line of centres by at most half the gap within dt":
// v . dir(offset) <= (|offset| - radius) / (2 dt). Contains v = 0 unless the two overlap; when both
// agents keep theirs, the pair is not closer than `radius` after the step (nor during it).
HalfPlane stepHalfPlane(const Vec2& offset, float radius, float dt, float tieSign = 1.0f);

// "Keep right" for a blocked agent: the preferred velocity turned to the right (clockwise) by up to
// maxAngle radians, in proportion to how little of it the agent achieved with `velocity` (its last
// velocity). Collision-free ORCA cannot squeeze through a jam the way the classic fallback does, and
// in a symmetric jam (the circle swap, two groups meeting head-on) every agent's best velocity is
// zero; turning all blocked agents the same way lets the jam turn into a roundabout and drain. An
// agent that moves as it prefers keeps its preferred velocity.
Vec2 keepRightWhenBlocked(const Vec2& preferred, const Vec2& velocity, float maxAngle);

// The half-plane of an agent at `position` (radius `agentRadius`) against a static segment.
// No reciprocity: the agent takes the whole change. The segment's end points are round caps.
HalfPlane obstacleHalfPlane(const Vec2& position, float agentRadius, const Segment& segment, float tauObst, float dt);

// Distance from p to the segment's core line (ignoring the segment's radius), and the closest point.
float distanceToSegment(const Vec2& p, const Segment& s, Vec2* closest = nullptr);

struct LpResult {
  Vec2 velocity{0.0f};
  bool feasible = true;        // every half-plane satisfied (the 2D program had a solution)
  float maxViolation = 0.0f;   // largest distance by which the velocity lies outside an agent half-plane (0 when feasible)
};

// The 2D program: the velocity closest to `preferred` inside |v| <= maxSpeed and every half-plane;
// when empty, the fallback described above. The hard planes must come first in `planes` (the
// fallback keeps that leading run hard and starts from the last feasible prefix).
// At most kMaxPlanes planes are used.
LpResult solve(std::span<const HalfPlane> planes, const Vec2& preferred, float maxSpeed);

struct PlaneSet;
// The same for many programs: programs[k] towards preferred[k] into out[k], eight at a time in vector
// lanes (the results are solve()'s, bit for bit).
void solve(std::span<const PlaneSet> programs, std::span<const Vec2> preferred, float maxSpeed,
           std::span<LpResult> out);

// The permitted region inside the max-speed disc (the disc drawn as a polygon with `circleSegments`
// sides), clipped by every half-plane; empty when nothing is permitted. For drawing.
void feasibleRegion(std::span<const HalfPlane> planes, float maxSpeed, std::vector<Vec2>& polygon,
                    int circleSegments = 64);

struct Params {
  float radius = 1.5f;
  float maxSpeed = 2.0f;
  float tau = 10.0f;           // horizon against other agents (s)
  float tauObst = 10.0f;       // horizon against static obstacles (s)
  float neighborDist = 15.0f;  // agents farther than this are ignored
  int maxNeighbors = 10;       // the closest ones are kept
};

constexpr int kMaxNeighbors = 32;
constexpr int kMaxObstaclePlanes = 32;
constexpr int kMaxPlanes = 2 * kMaxNeighbors + kMaxObstaclePlanes;  // an Agent and a Step plane per neighbour

// The closest neighbours seen so far, sorted by distance; fixed capacity, no allocation.
struct NearestNeighbors {
  std::array<uint32_t, kMaxNeighbors> index{};
  std::array<float, kMaxNeighbors> distSq{};
  std::array<Vec2, kMaxNeighbors> offset{};
  int count = 0;
  int capacity = 10;
  uint32_t seen = 0;  // every neighbour offered, kept or not

  void offer(uint32_t j, const Vec2& off, float d2) {
    ++seen;
    // Ties go to the lower index, so the choice does not depend on the visiting order.
    if (count == capacity && (d2 > distSq[count - 1] || (d2 == distSq[count - 1] && j > index[count - 1]))) return;
    int k = count < capacity ? count++ : count - 1;
    while (k > 0 && (distSq[k - 1] > d2 || (distSq[k - 1] == d2 && index[k - 1] > j))) {
      index[k] = index[k - 1];
      distSq[k] = distSq[k - 1];
      offset[k] = offset[k - 1];
      --k;
    }
    index[k] = j;
    distSq[k] = d2;
    offset[k] = off;
  }
};

// Everything the program saw for one agent: for the velocity-space inset.
struct Probe {
  std::vector<HalfPlane> planes;
  std::vector<uint32_t> neighbors;  // index of the agent behind each Agent plane, in order
  std::vector<Vec2> region;         // feasible polygon
  Vec2 preferred{0.0f};
  Vec2 chosen{0.0f};
  bool feasible = true;
  float maxViolation = 0.0f;
};

// Fixed-capacity list of half-planes, hard ones first.
struct PlaneSet {
  std::array<HalfPlane, kMaxPlanes> items;
  int count = 0;
  int wallCount = 0;
  void add(const HalfPlane& h) {
    if (count < kMaxPlanes) items[count++] = h;
  }
  std::span<const HalfPlane> span() const { return {items.data(), static_cast<size_t>(count)}; }
};

// Obstacle half-planes for the segments that can matter within tauObst at max speed.
void addObstaclePlanes(PlaneSet& planes, const Vec2& position, const Params& params, std::span<const Segment> obstacles,
                       float dt);

// How many neighbours an agent's search keeps before choosing: maxNeighbors and room for those
// within one step's reach beyond them.
inline int neighborCapacity(int maxNeighbors) {
  return std::min(kMaxNeighbors, std::clamp(maxNeighbors, 1, kMaxNeighbors) + 8);
}
// The distance within which a pair could touch by the end of the step, centre to centre.
inline float stepReach(const Params& params, float dt) { return 2.0f * params.radius + 2.0f * params.maxSpeed * dt; }
// How many of `count` neighbours sorted nearest first an agent keeps: maxNeighbors, and beyond that
// every one that could touch it within one step (reachSq: stepReach squared, or 0 without Step
// planes), so that no such pair is seen by one side only. distSq(m): the m-th one's squared distance.
template <class DistSq>
int keptNeighbors(int count, int maxNeighbors, float reachSq, DistSq&& distSq) {
  int kept = std::min(count, maxNeighbors);
  while (kept < count && distSq(kept) <= reachSq) ++kept;
  return kept;
}
inline int keptNeighbors(const NearestNeighbors& near, int maxNeighbors, float reachSq) {
  return keptNeighbors(near.count, maxNeighbors, reachSq, [&](int m) { return near.distSq[size_t(m)]; });
}

// One agent's program, the one every ORCA user builds (Crowd, hence the corridor and the circle
// bench; the finale; newVelocity): obstacle planes, then (with stepSafety) a Step plane for each
// neighbour within stepReach, then an Agent plane for each neighbour. `neighbors` are the kept ones,
// nearest first, as indices into `velocities`, with their offsets (neighbour - agent) beside them;
// `self` is the agent's index there (it breaks ties between coincident agents). Replaces what
// `planes` held.
void buildProgram(PlaneSet& planes, uint32_t self, const Vec2& position, const Vec2& velocity,
                  std::span<const uint32_t> neighbors, std::span<const Vec2> offsets,
                  std::span<const Vec2> velocities, std::span<const Segment> obstacles, const Params& params,
                  float dt, bool stepSafety);
// The same for the first `kept` neighbours of a nearest-neighbour list.
inline void buildProgram(PlaneSet& planes, uint32_t self, const Vec2& position, const Vec2& velocity,
                         const NearestNeighbors& near, int kept, std::span<const Vec2> velocities,
                         std::span<const Segment> obstacles, const Params& params, float dt, bool stepSafety) {
  buildProgram(planes, self, position, velocity, std::span<const uint32_t>(near.index.data(), size_t(kept)),
               std::span<const Vec2>(near.offset.data(), size_t(kept)), velocities, obstacles, params, dt, stepSafety);
}

// Eight agents' sides of buildProgram, a lane each, laid out as the batch builder reads them:
// neighbour m of every lane side by side (round m). The caller writes each neighbour once, where
// it finds it (add, then addNeighbor nearest first), and the builder loads a round a register at a
// time instead of gathering eight lanes' inputs one by one, five times a round.
struct ProgramInputs {
  static constexpr int kLanes = 8;
  struct Round {
    alignas(32) float offsetX[kLanes], offsetY[kLanes];      // neighbour - agent
    alignas(32) float velocityX[kLanes], velocityY[kLanes];  // the neighbour's velocity
    alignas(32) uint32_t neighbor[kLanes];                   // its index (ties between coincident agents)
  };
  // Rounds past a lane's count hold an earlier batch's neighbours (or zeros) and are never placed.
  std::array<Round, kMaxNeighbors> rounds{};
  alignas(32) float velocityX[kLanes] = {}, velocityY[kLanes] = {};
  uint32_t self[kLanes] = {};
  int32_t count[kLanes] = {};
  Vec2 position[kLanes] = {};
  std::span<const Segment> obstacles[kLanes];
  int agents = 0;  // lanes in use, the first ones

  // A new agent in the next lane (agents < kLanes), with no neighbours yet; returns its lane.
  int add(uint32_t agent, const Vec2& at, const Vec2& velocity, std::span<const Segment> walls) {
    const int l = agents++;
    self[l] = agent;
    position[l] = at;
    velocityX[l] = velocity.x, velocityY[l] = velocity.y;
    obstacles[l] = walls;
    count[l] = 0;
    return l;
  }
  // Lane l's next neighbour j (nearest first): offset = its position - the agent's. At most
  // kMaxNeighbors are kept.
  void addNeighbor(int l, uint32_t j, const Vec2& offset, const Vec2& velocity) {
    if (count[l] >= kMaxNeighbors) return;
    Round& r = rounds[size_t(count[l]++)];
    r.offsetX[l] = offset.x, r.offsetY[l] = offset.y, r.velocityX[l] = velocity.x, r.velocityY[l] = velocity.y;
    r.neighbor[l] = j;
  }
  // addNeighbor for each of `neighbors` in turn (nearest first), their offsets and velocities read
  // from `positions` and `velocities` by index; `at` is lane l's agent's position. (One count kept in
  // a register: addNeighbor's store of the index may alias the count, which it then reloads.)
  void addNeighbors(int l, std::span<const uint32_t> neighbors, const Vec2* positions, const Vec2* velocities,
                    const Vec2& at) {
    const int first = count[l];
    const int n = std::min(kMaxNeighbors - first, int(neighbors.size()));
    for (int m = 0; m < n; ++m) {
      const uint32_t j = neighbors[size_t(m)];
      const Vec2 offset = positions[j] - at, velocity = velocities[j];
      Round& r = rounds[size_t(first + m)];
      r.offsetX[l] = offset.x, r.offsetY[l] = offset.y, r.velocityX[l] = velocity.x, r.velocityY[l] = velocity.y;
      r.neighbor[l] = j;
    }
    count[l] = first + std::max(n, 0);
  }
  void clear() { agents = 0; }
};

// Eight programs as buildPrograms builds them, a lane each, kept a plane at a time across the lanes:
// the form the vector solver reads. Built and solved in this form (the finale, orca::Crowd), a
// program never goes through a PlaneSet. Row i, lane l: a Wall below wallCount[l], a Step plane below
// hardCount[l], an Agent plane below count[l], in program l's order; or zeros, a row that holds none
// of program l's planes (the rows line up across the lanes, see buildPrograms), which no point
// violates and which bounds no line. The rows past a lane's count hold whatever an earlier batch
// left there and are never read for that lane.
struct ProgramBatch {
  static constexpr int kLanes = 8;
  struct Row {
    alignas(32) float pointX[kLanes], pointY[kLanes], normalX[kLanes], normalY[kLanes];
  };
  std::array<Row, kMaxPlanes> rows{};
  alignas(32) int32_t count[kLanes] = {};
  int32_t wallCount[kLanes] = {}, hardCount[kLanes] = {};
  int programs = 0;  // lanes in use, the first ones

  PlaneKind kind(int lane, int i) const {
    return i < wallCount[lane] ? PlaneKind::Wall : i < hardCount[lane] ? PlaneKind::Step : PlaneKind::Agent;
  }
  // Whether row i holds one of program `lane`'s planes (not zeros).
  bool holds(int lane, int i) const {
    const Row& r = rows[size_t(i)];
    return r.normalX[lane] != 0.0f || r.normalY[lane] != 0.0f;
  }
  HalfPlane plane(int lane, int i) const {
    const Row& r = rows[size_t(i)];
    return {{r.pointX[lane], r.pointY[lane]}, {r.normalX[lane], r.normalY[lane]}, kind(lane, i)};
  }
};
// buildProgram for each agent of `inputs` into the batch, eight agents in vector lanes plane by
// plane: the same planes, bit for bit. (One agent's neighbours fill lanes only as far as it has
// neighbours; eight agents fill them all. One plane at a time, a plane waits on its square roots and
// divisions; eight at a time they overlap.)
void buildPrograms(ProgramBatch& batch, const ProgramInputs& inputs, const Params& params, float dt, bool stepSafety);
// solve for the batch's programs towards preferred[l] into out[l]; the results are solve()'s, bit for bit.
void solve(const ProgramBatch& batch, std::span<const Vec2> preferred, float maxSpeed, std::span<LpResult> out);

// solve's 2D program for the batch's programs towards preferred[l], eight at a time: lane l met its
// first satisfied[l] of count[l] planes, with optimum velocity[l] there.
struct BatchOptima {
  static constexpr int kLanes = ProgramBatch::kLanes;
  Vec2 velocity[kLanes];
  alignas(32) int32_t count[kLanes] = {}, satisfied[kLanes] = {};
  int programs = 0;
  bool solved(int lane) const { return satisfied[lane] >= count[lane]; }
};
void solve2d(const ProgramBatch& batch, std::span<const Vec2> preferred, float maxSpeed, BatchOptima& out);

// Programs whose 2D program failed, gathered from batch to batch. The fallback (a 3D program: per
// program the costliest part of a solve) runs eight programs a lane each, and its loops cost as much
// for one busy lane as for eight; a batch alone has one or two programs that fail (the finale's
// crowd: 18 % of them), so the queue runs it once for eight of them instead of once per batch.
class FallbackQueue {
 public:
  static constexpr int kLanes = ProgramBatch::kLanes;
  struct Solved {
    uint32_t id;
    LpResult result;
  };
  bool full() const { return queued_ == kLanes; }
  bool empty() const { return queued_ == 0; }
  // Lane `lane` of the batch, whose 2D program failed (!optima.solved(lane)), under `id`; not when full().
  void push(const ProgramBatch& batch, const BatchOptima& optima, int lane, uint32_t id);
  // The fallback for every queued program: solve()'s results, bit for bit. The queue is empty after.
  std::span<const Solved> solve(float maxSpeed);

 private:
  // Lane q: the q-th queued program's rows where its batch had them (past its count: anything).
  std::array<ProgramBatch::Row, kMaxPlanes> rows_{};
  alignas(32) int32_t count_[kLanes] = {}, hard_[kLanes] = {}, start_[kLanes] = {}, agentRow_[kLanes] = {};
  alignas(32) float vx_[kLanes] = {}, vy_[kLanes] = {}, violation_[kLanes] = {};
  uint32_t id_[kLanes] = {};
  int queued_ = 0;
  std::array<Solved, kLanes> solved_{};
};

// solve for a batch whose programs are agents ids[l], the ones without a solution queued in
// `fallbacks`: emit(id, LpResult) at once for each program with a solution, and for queued ones as
// the queue fills. The caller emits what is left in the queue (its solve()) once its agents are done.
template <class Emit>
void solve(const ProgramBatch& batch, std::span<const Vec2> preferred, std::span<const uint32_t> ids, float maxSpeed,
           FallbackQueue& fallbacks, Emit&& emit) {
  BatchOptima optima;
  solve2d(batch, preferred.first(std::min(preferred.size(), ids.size())), maxSpeed, optima);
  for (int l = 0; l < optima.programs; ++l) {
    if (optima.solved(l)) {
      emit(ids[size_t(l)], LpResult{optima.velocity[l], true, 0.0f});
      continue;
    }
    if (fallbacks.full())
      for (const FallbackQueue::Solved& s : fallbacks.solve(maxSpeed)) emit(s.id, s.result);
    fallbacks.push(batch, optima, l, ids[size_t(l)]);
  }
}

// What one agent's neighbour query saw, beside the neighbours it kept.
struct QueryStats {
  uint32_t checks = 0;      // distance checks the search made
  uint32_t within = 0;      // agents within the neighbour distance
  uint32_t closePairs = 0;  // neighbours j > self closer than closeDistance (each pair counted once)
  float minDistSq = 3.4e38f;
};

// One agent's new velocity, the program Crowd::step builds (Step planes included), for callers
// with their own loop. `search` follows the contract in neighbors.hpp; `velocities` is indexed like
// the search's agents; `self` is this agent's index there (or any index no agent has).
// `closeDistance` only feeds stats->closePairs. For the Step planes to protect a pair, both of its
// agents must take their velocities from this program in the same step.
template <class Search>
LpResult newVelocity(uint32_t self, const Vec2& position, const Vec2& velocity, const Vec2& preferred,
                     const Search& search, std::span<const Vec2> velocities, std::span<const Segment> obstacles,
                     const Params& params, float dt, Probe* probe = nullptr, QueryStats* stats = nullptr,
                     float closeDistance = 0.0f) {
  const int maxNeighbors = glm::clamp(params.maxNeighbors, 1, kMaxNeighbors);
  NearestNeighbors near;
  near.capacity = neighborCapacity(maxNeighbors);
  QueryStats local;
  const float closeSq = closeDistance * closeDistance;
  local.checks = search.forEachInRadius(self, position, params.neighborDist, [&](uint32_t j, const Vec2& off, float d2) {
    near.offer(j, off, d2);
    ++local.within;
    local.minDistSq = std::min(local.minDistSq, d2);
    if (d2 < closeSq && j > self) ++local.closePairs;
  });
  if (stats) *stats = local;
  const float reach = stepReach(params, dt);
  const int kept = keptNeighbors(near, maxNeighbors, reach * reach);
  PlaneSet planes;
  buildProgram(planes, self, position, velocity, near, kept, velocities, obstacles, params, dt, true);
  LpResult result = solve(planes.span(), preferred, params.maxSpeed);
  if (probe) {
    probe->planes.assign(planes.items.begin(), planes.items.begin() + planes.count);
    probe->neighbors.assign(near.index.begin(), near.index.begin() + kept);
    feasibleRegion(planes.span(), params.maxSpeed, probe->region);
    probe->preferred = preferred;
    probe->chosen = result.velocity;
    probe->feasible = result.feasible;
    probe->maxViolation = result.maxViolation;
  }
  return result;
}

}  // namespace sim::orca
