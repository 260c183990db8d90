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
// the obstacle (wall) half-planes hard and minimises the largest violation of the agent ones.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <vector>
#include "sim/math.hpp"

namespace sim::orca {

// A permitted half-plane of velocities: {v : dot(normal, v - point) >= 0}.
struct HalfPlane {
  Vec2 point{0.0f};
  Vec2 normal{1.0f, 0.0f};  // unit, pointing into the permitted side
  bool wall = false;        // from a static obstacle: stays hard when the program is infeasible

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

// The half-plane of an agent at `position` (radius `agentRadius`) against a static segment.
// No reciprocity: the agent takes the whole change. The segment's end points are round caps.
HalfPlane obstacleHalfPlane(const Vec2& position, float agentRadius, const Segment& segment, float tauObst, float dt);

// Distance from p to the segment's core line (ignoring the segment's radius), and the closest point.
float distanceToSegment(const Vec2& p, const Segment& s, Vec2* closest = nullptr);

struct LpResult {
  Vec2 velocity{0.0f};
  bool feasible = true;        // every half-plane satisfied (the 2D program had a solution)
  float maxViolation = 0.0f;   // largest distance by which the velocity lies outside an agent half-plane
};

// The 2D program: the velocity closest to `preferred` inside |v| <= maxSpeed and every half-plane;
// when empty, the fallback described above. Walls should come first in `planes` (they are
// processed in order, and the fallback starts from the last feasible prefix).
LpResult solve(std::span<const HalfPlane> planes, const Vec2& preferred, float maxSpeed);

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
constexpr int kMaxPlanes = kMaxNeighbors + kMaxObstaclePlanes;

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
    if (count == capacity && d2 >= distSq[count - 1]) return;
    int k = count < capacity ? count++ : count - 1;
    // Ties keep the lower index first, so the choice does not depend on the visiting order.
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
  std::vector<uint32_t> neighbors;  // index of the agent behind each non-wall plane, in order
  std::vector<Vec2> region;         // feasible polygon
  Vec2 preferred{0.0f};
  Vec2 chosen{0.0f};
  bool feasible = true;
  float maxViolation = 0.0f;
};

// Fixed-capacity list of half-planes, walls first.
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

// One agent's new velocity. `search` follows the contract in neighbors.hpp; `velocities` is indexed
// like the search's agents; `self` is this agent's index there (or any index no agent has).
template <class Search>
LpResult newVelocity(uint32_t self, const Vec2& position, const Vec2& velocity, const Vec2& preferred,
                     const Search& search, std::span<const Vec2> velocities, std::span<const Segment> obstacles,
                     const Params& params, float dt, Probe* probe = nullptr, uint32_t* checks = nullptr) {
  NearestNeighbors near;
  near.capacity = glm::clamp(params.maxNeighbors, 1, kMaxNeighbors);
  uint32_t c = search.forEachInRadius(self, position, params.neighborDist,
                                      [&](uint32_t j, const Vec2& off, float d2) { near.offer(j, off, d2); });
  if (checks) *checks = c;
  PlaneSet planes;
  addObstaclePlanes(planes, position, params, obstacles, dt);
  for (int k = 0; k < near.count; ++k) {
    uint32_t j = near.index[k];
    planes.add(agentHalfPlane(near.offset[k], velocity, velocities[j], 2.0f * params.radius, params.tau, dt,
                              self < j ? 1.0f : -1.0f));
  }
  LpResult result = solve(planes.span(), preferred, params.maxSpeed);
  if (probe) {
    probe->planes.assign(planes.items.begin(), planes.items.begin() + planes.count);
    probe->neighbors.assign(near.index.begin(), near.index.begin() + near.count);
    feasibleRegion(planes.span(), params.maxSpeed, probe->region);
    probe->preferred = preferred;
    probe->chosen = result.velocity;
    probe->feasible = result.feasible;
    probe->maxViolation = result.maxViolation;
  }
  return result;
}

}  // namespace sim::orca
