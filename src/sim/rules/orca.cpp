#include "sim/rules/orca.hpp"
#include "sim/core/metrics.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <memory>
#include "sim/core/lanes.hpp"

namespace sim::orca {

HalfPlane agentHalfPlane(const Vec2& offset, const Vec2& ownVelocity, const Vec2& otherVelocity, float radius,
                         float tau, float dt, float tieSign) {
  const Vec2 relVel = ownVelocity - otherVelocity;
  const float dist2 = glm::dot(offset, offset);
  const float r2 = radius * radius;
  Vec2 n;        // outward normal of the velocity obstacle at the point closest to relVel
  float change;  // u = change * n

  if (dist2 > r2) {
    // w: from the centre of the cut-off disc D(offset / tau, radius / tau) to the relative velocity.
    const Vec2 w = relVel - offset / tau;
    const float w2 = glm::dot(w, w);
    const float wDotOffset = glm::dot(w, offset);
    // The closest boundary point is on the cut-off arc when w points back towards the origin by more
    // than the cone's half-angle a (sin a = radius / |offset|):  -w.offset > |w| * radius.
    if (wDotOffset < 0.0f && wDotOffset * wDotOffset > r2 * w2) {
      const float wLen = std::sqrt(w2);  // > 0 here, since w.offset < 0
      n = w / wLen;
      change = radius / tau - wLen;
    } else {
      // Closest point on one of the cone's legs: the tangents from the origin to D(offset, radius).
      // The leg is offset rotated by +-a; the side is where relVel lies relative to offset.
      const float legLen = std::sqrt(dist2 - r2);
      // The left leg (+1: the cone lies to its right) or the right one (-1), without a branch: the
      // side is a coin toss per neighbour, which a branch predictor loses half the time.
      const float sign = cross2(offset, relVel) > 0.0f ? 1.0f : -1.0f;
      const Vec2 leg = (offset * legLen + perpLeft(offset) * (radius * sign)) / dist2;
      n = perpLeft(leg) * sign;
      // The leg passes through the origin, so the projection of relVel onto it is relVel - (relVel.n) n.
      change = -glm::dot(relVel, n);
    }
  } else {
    // Overlapping: every relative velocity collides at once, so aim to be apart after one step:
    // the obstacle is the disc D(offset / dt, radius / dt).
    const Vec2 w = relVel - offset / dt;
    const float w2 = glm::dot(w, w);
    if (w2 > 1e-12f) {
      const float wLen = std::sqrt(w2);
      n = w / wLen;
      change = radius / dt - wLen;
    } else {
      // relVel == offset / dt: no direction from the velocities; push straight apart, or, for
      // coincident agents, along an axis picked by the tie-break (opposite for the two of a pair).
      n = dist2 > 1e-12f ? -offset / std::sqrt(dist2) : Vec2{tieSign, 0.0f};
      change = radius / dt;
    }
  }
  return {ownVelocity + n * (0.5f * change), n, PlaneKind::Agent};
}

Vec2 keepRightWhenBlocked(const Vec2& preferred, const Vec2& velocity, float maxAngle) {
  const float p2 = glm::dot(preferred, preferred);
  if (p2 < 1e-12f) return preferred;
  const float progress = glm::clamp(glm::dot(velocity, preferred) / p2, 0.0f, 1.0f);
  const float angle = maxAngle * (1.0f - progress);
  const float c = std::cos(angle), s = std::sin(angle);
  return {c * preferred.x + s * preferred.y, -s * preferred.x + c * preferred.y};  // clockwise: to the right
}

HalfPlane stepHalfPlane(const Vec2& offset, float radius, float dt, float tieSign) {
  const float dist = glm::length(offset);
  const Vec2 dir = dist > 1e-6f ? offset / dist : Vec2{tieSign, 0.0f};
  return {dir * ((dist - radius) / (2.0f * dt)), -dir, PlaneKind::Step};
}

float distanceToSegment(const Vec2& p, const Segment& s, Vec2* closest) {
  const Vec2 ab = s.b - s.a;
  const float len2 = glm::dot(ab, ab);
  const float t = len2 > 0.0f ? glm::clamp(glm::dot(p - s.a, ab) / len2, 0.0f, 1.0f) : 0.0f;
  const Vec2 q = s.a + ab * t;
  if (closest) *closest = q;
  return glm::length(q - p);
}

HalfPlane obstacleHalfPlane(const Vec2& position, float agentRadius, const Segment& segment, float tauObst,
                            float dt) {
  // The velocity obstacle of a static capsule C (the segment grown by both radii, relative to the
  // agent) is the union of s*C for s >= 1/tau. Against a static obstacle the agent keeps nothing
  // of its current velocity to share, so the half-plane is taken at the obstacle's point nearest
  // the zero velocity: q / tau shortened by clearance / tau, where q is the nearest point of the
  // segment. The tangent there supports the whole (convex) obstacle, and v = 0 always stays
  // permitted. In words: approach the segment no faster than the gap closes in tau.
  Vec2 q;
  const float d = distanceToSegment(position, segment, &q);
  const float clearance = agentRadius + segment.radius;
  Vec2 toward;
  if (d > 1e-6f) {
    toward = (q - position) / d;
  } else {
    // The centre sits on the segment: no side is known; take the segment's left normal.
    const Vec2 ab = segment.b - segment.a;
    const float l2 = glm::dot(ab, ab);
    toward = l2 > 0.0f ? -perpLeft(ab) / std::sqrt(l2) : Vec2{1.0f, 0.0f};
  }
  // Already inside: leave within one step.
  const float horizon = d > clearance ? tauObst : dt;
  return {toward * ((d - clearance) / horizon), -toward, PlaneKind::Wall};
}

namespace {
// The obstacle planes of an agent, at most kMaxObstaclePlanes, each through add(plane).
template <class Add>
void forObstaclePlanes(const Vec2& position, const Params& params, std::span<const Segment> obstacles, float dt,
                       Add&& add) {
  const float reach = params.tauObst * params.maxSpeed;
  int walls = 0;
  for (const Segment& s : obstacles) {
    if (walls >= kMaxObstaclePlanes) break;
    // Farther than max speed * tauObst beyond contact, the half-plane cannot cut the speed disc.
    if (distanceToSegment(position, s) - params.radius - s.radius >= reach) continue;
    add(obstacleHalfPlane(position, params.radius, s, params.tauObst, dt));
    ++walls;
  }
}
}  // namespace

void addObstaclePlanes(PlaneSet& planes, const Vec2& position, const Params& params,
                       std::span<const Segment> obstacles, float dt) {
  forObstaclePlanes(position, params, obstacles, dt, [&](const HalfPlane& h) {
    planes.add(h);
    planes.wallCount = planes.count;
  });
}

void buildProgram(PlaneSet& planes, uint32_t self, const Vec2& position, const Vec2& velocity,
                  std::span<const uint32_t> neighbors, std::span<const Vec2> offsets,
                  std::span<const Vec2> velocities, std::span<const Segment> obstacles, const Params& params,
                  float dt, bool stepSafety) {
  planes.count = planes.wallCount = 0;
  addObstaclePlanes(planes, position, params, obstacles, dt);
  const float radius = 2.0f * params.radius;
  if (stepSafety) {
    const float reach = stepReach(params, dt);
    for (size_t m = 0; m < neighbors.size(); ++m)
      if (lengthSq(offsets[m]) <= reach * reach)
        planes.add(stepHalfPlane(offsets[m], radius, dt, self < neighbors[m] ? 1.0f : -1.0f));
  }
  for (size_t m = 0; m < neighbors.size(); ++m) {
    const uint32_t j = neighbors[m];
    planes.add(agentHalfPlane(offsets[m], velocity, velocities[j], radius, params.tau, dt, self < j ? 1.0f : -1.0f));
  }
}

namespace {

// buildPrograms' kernel: the Step and Agent planes of up to eight agents, one per lane, stepHalfPlane's
// and agentHalfPlane's operations in the same order, every branch of agentHalfPlane that some lane
// takes computed for all and each lane's own chosen. Neighbour m's Step plane goes to row
// stepRow + m (zeros in the lanes whose neighbour m is out of reach or missing), its Agent plane to
// row agentRow + m: a register store a row, not a store a lane.
template <class L>
CROWDLAB_LANES_INLINE void buildLanes(const ProgramInputs& in, const int32_t* counts, int rounds, int stepRounds,
                                      int stepRow, int agentRow, const Params& params, float dt, bool stepSafety,
                                      ProgramBatch::Row* rows) {
  using Floats = typename L::Floats;
  using Ints = typename L::Ints;
  const float radius = 2.0f * params.radius, r2 = radius * radius, reach = stepReach(params, dt);
  const Floats zero = L::splat(0.0f), tiny = L::splat(1e-12f), gap = L::splat(radius), radSq = L::splat(r2),
               reachSq = L::splat(reach * reach), twoDt = L::splat(2.0f * dt), tau = L::splat(params.tau),
               step = L::splat(dt), arcChange = L::splat(radius / params.tau), overlapChange = L::splat(radius / dt),
               half = L::splat(0.5f), ownX = L::load(in.velocityX), ownY = L::load(in.velocityY);
  auto store = [](ProgramBatch::Row& r, Floats px, Floats py, Floats nx, Floats ny) CROWDLAB_LANES_INLINE_LAMBDA {
    std::memcpy(r.pointX, &px, sizeof px);
    std::memcpy(r.pointY, &py, sizeof py);
    std::memcpy(r.normalX, &nx, sizeof nx);
    std::memcpy(r.normalY, &ny, sizeof ny);
  };
  const Ints selfIndex = L::load(in.self), laneCounts = L::load(reinterpret_cast<const uint32_t*>(counts));
  for (int m = 0; m < rounds; ++m) {
    // Neighbour m of every lane; a lane past its count computes on what the round holds and keeps nothing.
    const ProgramInputs::Round& r = in.rounds[size_t(m)];
    const Floats ox = L::load(r.offsetX), oy = L::load(r.offsetY);
    const Floats otherX = L::load(r.velocityX), otherY = L::load(r.velocityY);
    // (Indices compare as signed integers: all are below 2^31.)
    const Ints other = L::load(r.neighbor);
    const Floats tie = L::choose(selfIndex < other, L::splat(1.0f), L::splat(-1.0f));
    const Ints live = L::splat(int32_t(m)) < laneCounts;
    const Floats dist2 = ox * ox + oy * oy;
    const Floats dist = L::sqrt(dist2);
    if (stepSafety && m < stepRounds) {
      // stepHalfPlane, for the lanes whose neighbour is within one step's reach.
      const Ints apart = dist > L::splat(1e-6f), placed = live & (dist2 <= reachSq);
      const Floats dirX = L::choose(apart, ox / dist, tie), dirY = L::keep(apart, oy / dist);
      const Floats along = (dist - gap) / twoDt;
      store(rows[size_t(stepRow + m)], L::keep(placed, dirX * along), L::keep(placed, dirY * along),
            L::keep(placed, -dirX), L::keep(placed, -dirY));
    }
    // agentHalfPlane. Apart, on a leg of the cone (the left one or the right one).
    const Floats relX = ownX - otherX, relY = ownY - otherY;
    const Floats wx = relX - ox / tau, wy = relY - oy / tau;
    const Floats w2 = wx * wx + wy * wy, wDotOffset = wx * ox + wy * oy;
    const Floats legLen = L::sqrt(dist2 - radSq);
    const Ints leftLeg = (ox * relY - oy * relX) > zero;
    const Floats sideX = -oy * gap, sideY = ox * gap;
    const Floats legX = L::choose(leftLeg, ox * legLen + sideX, ox * legLen - sideX) / dist2;
    const Floats legY = L::choose(leftLeg, oy * legLen + sideY, oy * legLen - sideY) / dist2;
    Floats nx = L::choose(leftLeg, -legY, legY), ny = L::choose(leftLeg, legX, -legX);
    Floats change = -(relX * nx + relY * ny);
    // Closing fast enough that the cut-off arc is nearest.
    const unsigned liveBits = L::bits(live);
    const Ints onArc = (wDotOffset < zero) & (wDotOffset * wDotOffset > radSq * w2);
    if (L::bits(onArc) & liveBits) {
      const Floats wLen = L::sqrt(w2);
      nx = L::choose(onArc, wx / wLen, nx);
      ny = L::choose(onArc, wy / wLen, ny);
      change = L::choose(onArc, arcChange - wLen, change);
    }
    // Overlapping: apart after one step.
    const Ints outside = dist2 > radSq;
    if (~L::bits(outside) & liveBits) {
      const Floats ux = relX - ox / step, uy = relY - oy / step;
      const Floats u2 = ux * ux + uy * uy, uLen = L::sqrt(u2);
      const Ints directed = u2 > tiny, separate = dist2 > tiny;
      const Floats pushX = L::choose(separate, -ox / dist, tie), pushY = L::keep(separate, -oy / dist);
      nx = L::choose(outside, nx, L::choose(directed, ux / uLen, pushX));
      ny = L::choose(outside, ny, L::choose(directed, uy / uLen, pushY));
      change = L::choose(outside, change, L::choose(directed, overlapChange - uLen, overlapChange));
    }
    const Floats shift = half * change;
    // Lanes past their count write rows past it, which are never read for them.
    store(rows[size_t(agentRow + m)], ownX + nx * shift, ownY + ny * shift, nx, ny);
  }
}

// How many rounds hold a neighbour within one step's reach in some lane: the rounds with Step rows.
template <class L>
CROWDLAB_LANES_INLINE int countStepRounds(const ProgramInputs& in, const int32_t* counts, int rounds, float reachSq) {
  using Ints = typename L::Ints;
  const Ints laneCounts = L::load(reinterpret_cast<const uint32_t*>(counts));
  const auto bound = L::splat(reachSq);
  int stepRounds = 0;
  for (int m = 0; m < rounds; ++m) {
    const ProgramInputs::Round& r = in.rounds[size_t(m)];
    const auto ox = L::load(r.offsetX), oy = L::load(r.offsetY);
    // (lengthSq's order, as buildProgram's test)
    if (L::bits((L::splat(int32_t(m)) < laneCounts) & (ox * ox + oy * oy <= bound))) stepRounds = m + 1;
  }
  return stepRounds;
}

}  // namespace

static_assert(ProgramBatch::kLanes == lanes::kLanes && ProgramInputs::kLanes == lanes::kLanes);

// The rows of a batch line up across its lanes: walls from row 0, Step planes from row W (the most
// walls of any lane), Agent planes from row H (W and the rounds with Step planes), so the kernel
// stores a row a register at a time. A lane's rows that hold none of its planes (below W past its
// walls, Step rows whose neighbour is out of reach) are zeros: no point violates such a row and it
// bounds no line, so each lane's program solves as buildProgram's does, bit for bit (solve() below).
// Nearest first, a lane's Step planes come first too, and H exceeds its hard planes by the spread of
// the lanes' counts of them.
void buildPrograms(ProgramBatch& batch, const ProgramInputs& in, const Params& params, float dt, bool stepSafety) {
  constexpr int kL = lanes::kLanes;
  const int agents = std::clamp(in.agents, 0, kL);
  alignas(32) int32_t counts[kL] = {};
  int rounds = 0;
  for (int l = 0; l < agents; ++l) {
    counts[l] = std::clamp(int(in.count[l]), 0, kMaxNeighbors);
    rounds = std::max(rounds, int(counts[l]));
  }
  const float reach = stepReach(params, dt);
  int stepRounds = 0;
  if (stepSafety)
    lanes::dispatchLanes([&](auto kind) CROWDLAB_LANES_INLINE_LAMBDA {
      stepRounds = countStepRounds<typename decltype(kind)::type>(in, counts, rounds, reach * reach);
    });
  int walls[kL] = {}, wallRows = 0;
  for (int l = 0; l < agents; ++l) {
    forObstaclePlanes(in.position[l], params, in.obstacles[l], dt, [&](const HalfPlane& h) {
      ProgramBatch::Row& r = batch.rows[size_t(walls[l]++)];
      r.pointX[l] = h.point.x, r.pointY[l] = h.point.y, r.normalX[l] = h.normal.x, r.normalY[l] = h.normal.y;
    });
    wallRows = std::max(wallRows, walls[l]);
  }
  for (int l = 0; l < kL; ++l)
    for (int i = walls[l]; i < wallRows; ++i) {
      ProgramBatch::Row& r = batch.rows[size_t(i)];
      r.pointX[l] = r.pointY[l] = r.normalX[l] = r.normalY[l] = 0.0f;
    }
  const int agentRow = wallRows + stepRounds;  // at most kMaxObstaclePlanes + kMaxNeighbors
  batch.programs = agents;
  for (int l = 0; l < kL; ++l) {
    const bool used = l < agents;
    batch.count[l] = used ? agentRow + counts[l] : 0;
    batch.wallCount[l] = used ? wallRows : 0;
    batch.hardCount[l] = used ? agentRow : 0;
  }
  lanes::dispatchLanes([&](auto kind) CROWDLAB_LANES_INLINE_LAMBDA {
    buildLanes<typename decltype(kind)::type>(in, counts, rounds, stepRounds, wallRows, agentRow, params, dt,
                                              stepSafety, batch.rows.data());
  });
}

// ---- the linear programs ----
namespace {

// What the program optimises: the point closest to `target`, or (`towards`) the point farthest
// along the unit vector `target`.
struct Objective {
  Vec2 target;
  bool towards;
};

constexpr float kParallel = 1e-6f;

// Optimum on the boundary line of planes[i], inside the disc and planes[0..i). False when that is
// empty. `current` breaks the tie when the objective is flat along the line.
bool solveOnLine(std::span<const HalfPlane> planes, size_t i, float maxSpeed, const Objective& obj,
                 const Vec2& current, Vec2& result) {
  const HalfPlane& h = planes[i];
  const Vec2 d = h.direction();
  // Points h.point + t d inside the disc: t^2 + 2 t (point.d) + |point|^2 - R^2 <= 0.
  const float pd = glm::dot(h.point, d);
  const float disc = pd * pd - (glm::dot(h.point, h.point) - maxSpeed * maxSpeed);
  if (disc < 0.0f) return false;
  const float root = std::sqrt(disc);
  float lo = -pd - root, hi = -pd + root;
  // Rounding slack, so that a repeated line or three lines through one point do not read as empty.
  const float slack = 1e-5f * maxSpeed;
  for (size_t j = 0; j < i; ++j) {
    // planes[j]'s signed distance along the line: at + t * rate >= 0.
    const float rate = glm::dot(planes[j].normal, d);
    const float at = planes[j].signedDistance(h.point);
    if (std::fabs(rate) < kParallel) {
      if (at < -slack) return false;  // parallel and entirely outside
      continue;
    }
    const float t = -at / rate;
    if (rate > 0.0f) lo = std::max(lo, t);
    else hi = std::min(hi, t);
    if (lo > hi + slack) return false;
  }
  if (lo > hi) lo = hi = 0.5f * (lo + hi);
  float t;
  if (obj.towards) {
    const float slope = glm::dot(obj.target, d);
    if (slope > kParallel) t = hi;
    else if (slope < -kParallel) t = lo;
    else t = glm::clamp(glm::dot(current - h.point, d), lo, hi);
  } else {
    t = glm::clamp(glm::dot(obj.target - h.point, d), lo, hi);
  }
  result = h.point + d * t;
  return true;
}

// Incremental 2D program (Seidel's argument: if the optimum of the first i constraints violates
// constraint i, the new optimum lies on constraint i's line). Returns how many planes it satisfied;
// `result` is the optimum of that prefix.
size_t solve2d(std::span<const HalfPlane> planes, float maxSpeed, const Objective& obj, Vec2& result) {
  result = obj.towards ? obj.target * maxSpeed : clampLength(obj.target, maxSpeed);
  for (size_t i = 0; i < planes.size(); ++i) {
    if (planes[i].signedDistance(result) >= 0.0f) continue;
    Vec2 onLine;
    if (!solveOnLine(planes, i, maxSpeed, obj, result, onLine)) return i;
    result = onLine;
  }
  return planes.size();
}

// The fallback, a 3D program in (v, delta): minimise delta subject to every soft plane's signed
// distance >= -delta, the hard prefix (the walls) >= 0 and |v| <= maxSpeed. Incremental again: when
// soft plane i is violated by more than the current delta, the new optimum has plane i as (one of)
// the most violated, so it maximises plane i's signed distance subject to the walls and, for each
// earlier soft plane j, dist_j(v) >= dist_i(v) -- itself a 2D program with a direction objective.
Vec2 fallback(std::span<const HalfPlane> planes, size_t hardCount, size_t start, float maxSpeed, Vec2 result) {
  float worst = 0.0f;
  // Not std::array<HalfPlane, N>: that would set every plane's defaults, 2 KB, on every call.
  union Projected {
    Projected() {}
    HalfPlane items[kMaxPlanes];
  } projectedPlanes;
  HalfPlane* projected = projectedPlanes.items;
  // The hard planes lead every projected program unchanged.
  std::copy(planes.begin(), planes.begin() + long(hardCount), projected);
  for (size_t i = start; i < planes.size(); ++i) {
    const HalfPlane& hi = planes[i];
    if (-hi.signedDistance(result) <= worst) continue;
    size_t count = hardCount;
    for (size_t j = hardCount; j < i; ++j) {
      // dist_j(v) - dist_i(v) >= 0 is the half-plane (n_j - n_i).v >= n_j.p_j - n_i.p_i.
      const HalfPlane& hj = planes[j];
      const Vec2 m = hj.normal - hi.normal;
      const float len = glm::length(m);
      // Parallel and alike: the difference is a constant, never negative here (j is violated no
      // more than the current worst, i more), so the constraint holds everywhere.
      if (len < kParallel) continue;
      const float c = glm::dot(hj.normal, hj.point) - glm::dot(hi.normal, hi.point);
      projected[count++] = {m * (c / (len * len)), m / len, PlaneKind::Agent};
    }
    Vec2 candidate;
    const std::span<const HalfPlane> sub(projected, count);
    // Only float trouble can make this fail (the previous result satisfies all of it); keep the old.
    if (solve2d(sub, maxSpeed, {hi.normal, true}, candidate) == count) result = candidate;
    worst = std::max(worst, -hi.signedDistance(result));
  }
  return result;
}

}  // namespace

namespace {

// What solve() does once the program has no solution: the fallback from the optimum of the first
// `satisfied` planes, `v`.
LpResult infeasible(std::span<const HalfPlane> planes, size_t satisfied, Vec2 v, float maxSpeed) {
  LpResult out;
  out.feasible = false;
  size_t hard = 0;
  while (hard < planes.size() && planes[hard].hard()) ++hard;
  // The hard planes alone cannot fail unless the agent overlaps something (v = 0 satisfies every
  // Wall and Step plane of an agent clear of walls and neighbours); then everything is soft.
  if (satisfied < hard) hard = 0;
  out.velocity = fallback(planes, hard, satisfied, maxSpeed, v);
  // (A feasible program violates nothing but by rounding: 0 there, without a pass over the planes.)
  for (const HalfPlane& h : planes)
    if (!h.hard()) out.maxViolation = std::max(out.maxViolation, -h.signedDistance(out.velocity));
  return out;
}

}  // namespace

LpResult solve(std::span<const HalfPlane> planes, const Vec2& preferred, float maxSpeed) {
  if (planes.size() > size_t(kMaxPlanes)) planes = planes.first(kMaxPlanes);
  Vec2 v;
  const size_t satisfied = solve2d(planes, maxSpeed, {preferred, false}, v);
  if (satisfied < planes.size()) return infeasible(planes, satisfied, v, maxSpeed);
  return {v, true, 0.0f};
}

namespace {

// solve2d towards the preferred velocity for eight programs at once, one per lane: the same
// operations in the same order in each lane, so the same bits. A plane's test and its line run in
// every lane that has the plane; where a lane's plane is satisfied (or it has fewer planes, or it has
// failed) the lane keeps its result. One program at a time, each plane's test is a branch the
// predictor loses about as often as the plane binds, and each line waits on a square root and a
// division; eight at a time the lanes share them.
using Columns = ProgramBatch::Row;

// solve2d over programs held a plane at a time, lane l's program in the first counts[l] rows of
// `columns` (0 for a lane to leave alone; what the other rows hold is never used for the lane);
// rows = the largest count. From (rx, ry), each lane's optimum into (rx, ry) and how many planes it
// satisfied into failedAt. The objective is Objective{(tx, ty), Towards}: the point closest to the
// target, or farthest along it (the fallback's programs), as solveOnLine picks it.
template <class L, bool Towards>
CROWDLAB_LANES_INLINE void solveRows(const Columns* columns, typename L::Ints counts, int rows, typename L::Floats tx,
                                     typename L::Floats ty, float maxSpeed, typename L::Floats& rx,
                                     typename L::Floats& ry, typename L::Ints& failedAt) {
  using Floats = typename L::Floats;
  using Ints = typename L::Ints;
  const Floats zero = L::splat(0.0f), half = L::splat(0.5f), parallelBound = L::splat(kParallel),
               slack = L::splat(1e-5f * maxSpeed), radiusSq = L::splat(maxSpeed * maxSpeed);
  Ints failed = L::splat(int32_t(0));
  failedAt = counts;  // where each lane's program first failed
  for (int i = 0; i < rows; ++i) {
    const Columns& c = columns[size_t(i)];
    const Floats px = L::load(c.pointX), py = L::load(c.pointY), nx = L::load(c.normalX), ny = L::load(c.normalY);
    const Ints row = L::splat(int32_t(i));
    const Ints violated = (row < counts) & ~failed & ~(nx * (rx - px) + ny * (ry - py) >= zero);
    if (!L::bits(violated)) continue;
    // solveOnLine, lane by lane.
    const Floats dx = ny, dy = -nx;
    const Floats pd = px * dx + py * dy;
    const Floats disc = pd * pd - ((px * px + py * py) - radiusSq);
    Ints fail = disc < zero;
    const Floats root = L::sqrt(disc);
    Floats lo = -pd - root, hi = -pd + root;
    for (int j = 0; j < i; ++j) {
      const Columns& e = columns[size_t(j)];
      const Floats ex = L::load(e.normalX), ey = L::load(e.normalY);
      const Floats rate = ex * dx + ey * dy;
      const Floats at = ex * (px - L::load(e.pointX)) + ey * (py - L::load(e.pointY));
      const Ints parallel = (rate < parallelBound) & (rate > -parallelBound);
      fail = fail | (parallel & (at < -slack));
      const Floats t = -at / rate;
      const Ints rising = rate > zero;
      lo = L::choose(~parallel & rising & (lo < t), t, lo);   // std::max(lo, t)
      hi = L::choose(~parallel & ~rising & (t < hi), t, hi);  // std::min(hi, t)
    }
    // lo only grows and hi only shrinks: one test at the end finds what solveOnLine's test after
    // every plane finds.
    fail = fail | (lo > hi + slack);
    const Ints crossed = lo > hi;
    const Floats middle = half * (lo + hi);
    lo = L::choose(crossed, middle, lo);
    hi = L::choose(crossed, middle, hi);
    // The target's place on the line (Towards: the current point's), clamped to the segment.
    const Floats along = Towards ? (rx - px) * dx + (ry - py) * dy : (tx - px) * dx + (ty - py) * dy;
    const Floats atLeastLo = L::choose(along < lo, lo, along);  // glm::clamp: min(max(x, lo), hi)
    Floats t = L::choose(hi < atLeastLo, hi, atLeastLo);
    if constexpr (Towards) {
      // The end of the segment the target points along; across it, the clamped point.
      const Floats slope = tx * dx + ty * dy;
      t = L::choose(slope > parallelBound, hi, L::choose(slope < -parallelBound, lo, t));
    }
    const Ints moved = violated & ~fail;
    rx = L::choose(moved, px + dx * t, rx);
    ry = L::choose(moved, py + dy * t, ry);
    const Ints newlyFailed = violated & fail;
    failedAt = L::asInts(L::choose(newlyFailed, L::asFloats(row), L::asFloats(failedAt)));
    failed = failed | newlyFailed;
  }
}

// solveRows towards the preferred velocities, from each one clamped to the speed disc: agents lanes,
// lane l's program count[l] rows. Each lane's 2D result to result[l], how many planes it satisfied
// to satisfied[l].
template <class L>
CROWDLAB_LANES_INLINE void solveColumns(const Columns* columns, const int32_t* count, int rows, int agents,
                                        const Vec2* preferred, float maxSpeed, Vec2* result, int32_t* satisfied) {
  using Floats = typename L::Floats;
  using Ints = typename L::Ints;
  constexpr int kL = lanes::kLanes;
  alignas(32) float startX[kL] = {}, startY[kL] = {}, targetX[kL] = {}, targetY[kL] = {};
  for (int l = 0; l < agents; ++l) {
    const Vec2 start = clampLength(preferred[l], maxSpeed);
    startX[l] = start.x, startY[l] = start.y;
    targetX[l] = preferred[l].x, targetY[l] = preferred[l].y;
  }
  Floats rx = L::load(startX), ry = L::load(startY);
  Ints failedAt;
  solveRows<L, false>(columns, L::load(reinterpret_cast<const uint32_t*>(count)), rows, L::load(targetX),
                      L::load(targetY), maxSpeed, rx, ry, failedAt);
  alignas(32) float resultX[kL], resultY[kL];
  std::memcpy(resultX, &rx, sizeof rx);
  std::memcpy(resultY, &ry, sizeof ry);
  std::memcpy(satisfied, &failedAt, sizeof failedAt);
  for (int l = 0; l < agents; ++l) result[l] = Vec2{resultX[l], resultY[l]};
}

// fallback() and infeasible()'s violation for the lanes of a batch whose 2D program failed, at once:
// lane l from the optimum (vx[l], vy[l]) of its first start[l] planes, its first hard[l] planes
// hard, its Agent planes from row agentRow[l]; count[l] = 0 leaves a lane alone. The same operations
// as fallback's, lane by lane, so the same bits: a plane of the projected program that fallback
// leaves out (parallel to plane i) is a row of zeros here, which no point violates and which bounds
// no line. Each lane's velocity back into (vx, vy), its largest violation into violation.
template <class L>
CROWDLAB_LANES_INLINE void fallbackRows(const Columns* columns, const int32_t* count, const int32_t* hard,
                                        const int32_t* start, const int32_t* agentRow, float maxSpeed, float* vx,
                                        float* vy, float* violation) {
  using Floats = typename L::Floats;
  using Ints = typename L::Ints;
  constexpr int kL = lanes::kLanes;
  int first = kMaxPlanes, last = 0, agentsFrom = kMaxPlanes, hardInAll = kMaxPlanes;
  for (int l = 0; l < kL; ++l) {
    if (count[l] <= 0) continue;
    first = std::min(first, int(start[l]));
    last = std::max(last, int(count[l]));
    agentsFrom = std::min(agentsFrom, int(agentRow[l]));
    hardInAll = std::min(hardInAll, int(hard[l]));
  }
  hardInAll = std::min(hardInAll, last);
  auto ints = [](const int32_t* p) CROWDLAB_LANES_INLINE_LAMBDA { return L::load(reinterpret_cast<const uint32_t*>(p)); };
  const Ints counts = ints(count), hards = ints(hard), starts = ints(start), agentRows = ints(agentRow);
  const Floats zero = L::splat(0.0f), parallelBound = L::splat(kParallel), speed = L::splat(maxSpeed);
  Floats rx = L::load(vx), ry = L::load(vy), worst = zero;
  std::array<Columns, kMaxPlanes> projected;  // rows [0, i) of plane i's program (not cleared: all written first)
  // A hard plane leads every projected program unchanged: the rows that are hard in every lane are
  // copied once, not projected (and thrown away) for each plane i.
  std::copy_n(columns, size_t(hardInAll), projected.begin());
  for (int i = first; i < last; ++i) {
    const Columns& c = columns[size_t(i)];
    const Floats px = L::load(c.pointX), py = L::load(c.pointY), nx = L::load(c.normalX), ny = L::load(c.normalY);
    const Ints row = L::splat(int32_t(i));
    const Ints active = ~(row < starts) & (row < counts) & ~(-(nx * (rx - px) + ny * (ry - py)) <= worst);
    if (!L::bits(active)) continue;
    // Plane i as (one of) the most violated: the hard planes, and dist_j(v) - dist_i(v) >= 0 for each
    // earlier soft plane j, the half-plane (n_j - n_i).v >= n_j.p_j - n_i.p_i.
    const Floats own = nx * px + ny * py;
    for (int j = std::min(hardInAll, i); j < i; ++j) {
      const Columns& e = columns[size_t(j)];
      const Floats ex = L::load(e.normalX), ey = L::load(e.normalY), epx = L::load(e.pointX), epy = L::load(e.pointY);
      const Floats mx = ex - nx, my = ey - ny;
      const Floats len = L::sqrt(mx * mx + my * my);
      // Left out (zeros) as fallback() leaves it: parallel to plane i; also a row that holds none of
      // the lane's planes (zeros, see buildPrograms), which would project to a plane when soft.
      const Ints kept = ~(len < parallelBound) & ~((ex == zero) & (ey == zero)), isHard = L::splat(int32_t(j)) < hards;
      const Floats scale = ((ex * epx + ey * epy) - own) / (len * len);
      const Floats outPx = L::choose(isHard, epx, L::keep(kept, mx * scale));
      const Floats outPy = L::choose(isHard, epy, L::keep(kept, my * scale));
      const Floats outNx = L::choose(isHard, ex, L::keep(kept, mx / len));
      const Floats outNy = L::choose(isHard, ey, L::keep(kept, my / len));
      Columns& out = projected[size_t(j)];
      std::memcpy(out.pointX, &outPx, sizeof outPx);
      std::memcpy(out.pointY, &outPy, sizeof outPy);
      std::memcpy(out.normalX, &outNx, sizeof outNx);
      std::memcpy(out.normalY, &outNy, sizeof outNy);
    }
    Floats cx = nx * speed, cy = ny * speed;
    Ints satisfied;
    const Ints rows = L::asInts(L::keep(active, L::asFloats(row)));
    solveRows<L, true>(projected.data(), rows, i, nx, ny, maxSpeed, cx, cy, satisfied);
    // Only float trouble can make it fail (the previous result satisfies all of it); keep the old.
    const Ints solved = active & (satisfied == row);
    rx = L::choose(solved, cx, rx);
    ry = L::choose(solved, cy, ry);
    const Floats after = -(nx * (rx - px) + ny * (ry - py));
    worst = L::choose(active & (worst < after), after, worst);  // std::max(worst, after)
  }
  // The largest violation of an Agent plane.
  Floats most = zero;
  for (int i = agentsFrom; i < last; ++i) {
    const Columns& c = columns[size_t(i)];
    const Floats px = L::load(c.pointX), py = L::load(c.pointY), nx = L::load(c.normalX), ny = L::load(c.normalY);
    const Ints row = L::splat(int32_t(i));
    const Floats by = -(nx * (rx - px) + ny * (ry - py));
    most = L::choose(~(row < agentRows) & (row < counts) & (most < by), by, most);
  }
  std::memcpy(vx, &rx, sizeof rx);
  std::memcpy(vy, &ry, sizeof ry);
  std::memcpy(violation, &most, sizeof most);
}

// solve2d towards the preferred velocity for eight programs at once: the programs turned into rows,
// then solveColumns.
template <class L>
CROWDLAB_LANES_INLINE void solveLanes(const PlaneSet* programs, int agents, const Vec2* preferred, float maxSpeed,
                                      LpResult* out) {
  constexpr int kL = lanes::kLanes;
  // The programs one plane at a time, a lane each (planes a lane lacks are zeros, never used).
  std::array<Columns, kMaxPlanes> columns;
  alignas(32) int32_t count[kL] = {}, satisfied[kL] = {};
  int rows = 0;
  for (int l = 0; l < agents; ++l) {
    count[l] = std::min(programs[l].count, kMaxPlanes);
    rows = std::max(rows, int(count[l]));
  }
  for (int l = 0; l < kL; ++l) {
    int i = 0;
    for (; i < count[l]; ++i) {
      const HalfPlane& h = programs[l].items[size_t(i)];
      Columns& c = columns[size_t(i)];
      c.pointX[l] = h.point.x, c.pointY[l] = h.point.y, c.normalX[l] = h.normal.x, c.normalY[l] = h.normal.y;
    }
    for (; i < rows; ++i) {
      Columns& c = columns[size_t(i)];
      c.pointX[l] = c.pointY[l] = c.normalX[l] = c.normalY[l] = 0.0f;
    }
  }
  Vec2 v[kL];
  solveColumns<L>(columns.data(), count, rows, agents, preferred, maxSpeed, v, satisfied);
  for (int l = 0; l < agents; ++l)
    out[l] = satisfied[l] < count[l]
                 ? infeasible(programs[l].span().first(size_t(count[l])), size_t(satisfied[l]), v[l], maxSpeed)
                 : LpResult{v[l], true, 0.0f};
}

}  // namespace

void solve(std::span<const PlaneSet> programs, std::span<const Vec2> preferred, float maxSpeed,
           std::span<LpResult> out) {
  const size_t n = std::min({programs.size(), preferred.size(), out.size()});
  lanes::dispatchLanes([&](auto kind) CROWDLAB_LANES_INLINE_LAMBDA {
    for (size_t first = 0; first < n; first += lanes::kLanes)
      solveLanes<typename decltype(kind)::type>(programs.data() + first, int(std::min<size_t>(lanes::kLanes, n - first)),
                                                preferred.data() + first, maxSpeed, out.data() + first);
  });
}

void solve2d(const ProgramBatch& batch, std::span<const Vec2> preferred, float maxSpeed, BatchOptima& out) {
  const int agents = int(std::min(size_t(std::clamp(batch.programs, 0, lanes::kLanes)), preferred.size()));
  out.programs = agents;
  int rows = 0;
  for (int l = 0; l < lanes::kLanes; ++l) {
    out.count[l] = l < agents ? std::min(batch.count[l], int32_t(kMaxPlanes)) : 0;
    rows = std::max(rows, int(out.count[l]));
  }
  lanes::dispatchLanes([&](auto kind) CROWDLAB_LANES_INLINE_LAMBDA {
    solveColumns<typename decltype(kind)::type>(batch.rows.data(), out.count, rows, agents, preferred.data(), maxSpeed,
                                                out.velocity, out.satisfied);
  });
}

void FallbackQueue::push(const ProgramBatch& batch, const BatchOptima& optima, int lane, uint32_t id) {
  const int q = queued_++;
  const int count = optima.count[lane];
  for (int i = 0; i < count; ++i) {
    const ProgramBatch::Row& from = batch.rows[size_t(i)];
    ProgramBatch::Row& to = rows_[size_t(i)];
    to.pointX[q] = from.pointX[lane], to.pointY[q] = from.pointY[lane];
    to.normalX[q] = from.normalX[lane], to.normalY[q] = from.normalY[lane];
  }
  count_[q] = count;
  start_[q] = optima.satisfied[lane];
  agentRow_[q] = std::min(batch.hardCount[lane], count);
  // As infeasible(): the hard planes alone fail only for an agent that overlaps something; then
  // every plane is soft.
  hard_[q] = optima.satisfied[lane] < agentRow_[q] ? 0 : agentRow_[q];
  vx_[q] = optima.velocity[lane].x, vy_[q] = optima.velocity[lane].y;
  id_[q] = id;
}

std::span<const FallbackQueue::Solved> FallbackQueue::solve(float maxSpeed) {
  const int queued = queued_;
  if (queued == 0) return {};
  lanes::dispatchLanes([&](auto kind) CROWDLAB_LANES_INLINE_LAMBDA {
    fallbackRows<typename decltype(kind)::type>(rows_.data(), count_, hard_, start_, agentRow_, maxSpeed, vx_, vy_,
                                                violation_);
  });
  for (int q = 0; q < queued; ++q) {
    solved_[size_t(q)] = Solved{id_[q], LpResult{{vx_[q], vy_[q]}, false, violation_[q]}};
    count_[q] = 0;  // the lane is free (fallbackRows leaves a lane of count 0 alone)
  }
  queued_ = 0;
  return std::span<const Solved>(solved_.data(), size_t(queued));
}

void solve(const ProgramBatch& batch, std::span<const Vec2> preferred, float maxSpeed, std::span<LpResult> out) {
  static constexpr uint32_t kIds[lanes::kLanes] = {0, 1, 2, 3, 4, 5, 6, 7};
  const size_t agents = std::min({preferred.size(), out.size(), size_t(lanes::kLanes)});
  auto emit = [&](uint32_t l, const LpResult& r) { out[l] = r; };
  // A queue of its own: the batch's failing programs (at most eight) go through the fallback together.
  const auto fallbacks = std::make_unique<FallbackQueue>();
  solve(batch, preferred.first(agents), std::span<const uint32_t>(kIds, agents), maxSpeed, *fallbacks, emit);
  for (const FallbackQueue::Solved& s : fallbacks->solve(maxSpeed)) emit(s.id, s.result);
}

void feasibleRegion(std::span<const HalfPlane> planes, float maxSpeed, std::vector<Vec2>& polygon,
                    int circleSegments) {
  polygon.clear();
  const int n = std::max(3, circleSegments);
  for (int k = 0; k < n; ++k) {
    const float a = 6.28318530718f * float(k) / float(n);
    polygon.push_back({maxSpeed * std::cos(a), maxSpeed * std::sin(a)});
  }
  std::vector<Vec2> clipped;
  for (const HalfPlane& h : planes) {
    // Sutherland-Hodgman against one half-plane.
    clipped.clear();
    for (size_t k = 0; k < polygon.size(); ++k) {
      const Vec2& a = polygon[k];
      const Vec2& b = polygon[(k + 1) % polygon.size()];
      const float da = h.signedDistance(a), db = h.signedDistance(b);
      if (da >= 0.0f) clipped.push_back(a);
      if ((da >= 0.0f) != (db >= 0.0f)) clipped.push_back(a + (b - a) * (da / (da - db)));
    }
    polygon.swap(clipped);
    if (polygon.empty()) return;
  }
}

}  // namespace sim::orca
