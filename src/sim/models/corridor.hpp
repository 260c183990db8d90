// The ORCA corridor: two rooms joined by a horizontal corridor; a group starts in each room and
// walks through the corridor into the other room. When every agent has crossed (left the corridor
// on the far side), both groups respawn and a round counter goes up.
//
// Coordinates: world units (pixels at 100 % zoom), y up, the corridor centred on the origin along x.
// Group 0 starts in the left room and walks east; group 1 starts in the right room and walks west.
//
// Lanes ("keep right", on by default). Plain ORCA has no notion of a passing side: two files that
// meet head-on in a corridor one or two files wide block each other, and the reference fixes
// (rotating preferred velocities, a merge rule) still fail at 2.5-3 diameters, where groups
// arrive two abreast and meet the oncoming group side by side. crowdlab's lanes are built so that
// the head-on meeting cannot happen at all, and so that merging cannot lock up:
//  - guides: a lane line along the corridor's centre line through both rooms, and in each start
//    room a funnel arm from the outer corner of the group's half of the mouth to the side wall at
//    45 degrees. An agent wholly on the inner side of a guide treats it as a wall (an ORCA
//    obstacle, hard even in the fallback). Each direction owns the right-hand half of the corridor,
//    at least one body wide at every width >= 2 diameters, so the two streams never face each
//    other; the funnel narrows a group to its half of the mouth like a hopper, instead of letting
//    it press against the front wall beside the mouth, where a body wedged next to the opening
//    holds up the one in line;
//  - lane targets: an agent steers for the band of its half (keeping its height inside it), pure
//    pursuit along horizontal lines at no more than 45 degrees; in the start room an agent still
//    off the band aims at the band's line two radii before the mouth, not at the mouth;
//  - merging into one file: an agent slows (to a stop at contact) for a same-direction agent with
//    more progress that is just ahead of it, or beside it while it is still merging. Progress is a
//    strict order (ties by index), so the first in line never waits. An agent that stands in the
//    way of one with more progress -- less than a body off the line that one last wanted to move
//    along -- steps aside; since that line includes stepping aside, a step aside passes down a
//    chain of blocked agents until one has room;
//  - groups start in the right-hand half of their room, and arrivals walk on to slots in the
//    right-hand half of the far room, away from the mouth, so the two groups' ways never cross.
// Without lanes agents steer straight through the corridor and then to the mirror image of their
// start slot, which is what the classic reference does.
#pragma once
#include <cstdint>
#include <span>
#include <utility>
#include <vector>
#include "sim/core/grid.hpp"
#include "sim/core/math.hpp"
#include "sim/core/metric.hpp"
#include "sim/models/orca_crowd.hpp"

namespace sim {

enum class AvoidanceMethod : int {
  Separation = 0,  // boids separation: pushes away from close neighbours, positions only
  OrcaLike = 1,    // time to collision; a sideways push before contact, half the effort each
  Orca = 2,        // optimal reciprocal collision avoidance
};

struct CorridorParams {
  int groupSize = 20;               // agents per side, 5-200
  float widthDiameters = 4.0f;      // corridor width in agent diameters, 1.5-10
  float corridorLength = 400.0f;    // world units
  AvoidanceMethod method = AvoidanceMethod::Orca;
  float tau = 2.0f;                 // ORCA horizon against agents (s)
  float tauObst = 0.5f;             // ORCA horizon against walls (s)
  float neighborDist = 150.0f;
  int maxNeighbors = 10;
  float radius = 10.0f;
  float maxSpeed = 90.0f;
  float preferredSpeed = 60.0f;
  bool lanes = true;
  uint64_t seed = 1;

  bool operator==(const CorridorParams&) const = default;
};

struct CorridorMetrics {
  int arrived = 0;                 // agents that crossed in this round
  uint64_t crossedTotal = 0;       // since the start
  int rounds = 0;                  // completed rounds
  double throughputPerMin = 0;     // crossings per minute of simulated time
  double meanCrossTime = 0;        // seconds from the round's start to crossing, over all crossings
  uint64_t overlapsTotal = 0;      // pair-steps closer than 0.99 * 2r
  double minDistanceRatio = 0;     // closest pair ever / 2r (large when nobody came near)
  uint64_t wallPenetrations = 0;   // agent-steps closer than 0.99 r to a wall
  int jammed = 0;                  // agents not yet crossed, slower than 10 % of preferred for > 2 s
};

class CorridorSim {
 public:
  explicit CorridorSim(const CorridorParams& params = {});

  // New parameters: rebuilds the geometry, respawns both groups, clears the metrics.
  void reset(const CorridorParams& params);
  void reset() { reset(params_); }
  void step(float dt);

  const CorridorParams& params() const { return params_; }
  // For editing in place (a scene's sliders point here); reset() then starts a run with them.
  CorridorParams& params() { return params_; }
  size_t size() const { return crowd_.size(); }
  double time() const { return time_; }

  // For drawing.
  std::span<const Vec2> positions() const { return crowd_.positions(); }
  std::span<const Vec2> velocities() const { return crowd_.velocities(); }
  std::span<const uint8_t> groups() const { return group_; }        // 0 walks east, 1 west
  std::span<const uint8_t> crossedFlags() const { return crossed_; }  // crossed in this round
  std::span<const orca::Segment> walls() const { return std::span<const orca::Segment>(crowd_.obstacles).first(wallCount_); }
  // The lane guides when lanes are on (empty otherwise): the lane line along the centre, then the
  // funnel arm in front of each start room's mouth (group 0's, group 1's).
  std::span<const orca::Segment> laneGuides() const { return guides_; }
  std::span<const Vec2> laneTargets() const { return target_; }  // what each agent steers for
  std::span<const uint8_t> yielding() const { return yielding_; }  // slowing for the agent ahead
  // Agent i's ORCA half-planes, feasible region and chosen velocity on the current state.
  void probe(size_t i, orca::Probe& out) const;

  // Geometry: corridor |x| <= halfLength, |y| <= halfWidth; rooms roomDepth deep, |y| <= roomHalfHeight.
  float halfLength() const { return halfLength_; }
  float halfWidth() const { return halfWidth_; }
  float roomDepth() const { return roomDepth_; }
  float roomHalfHeight() const { return roomHalfHeight_; }

  const CorridorMetrics& metrics() const { return metrics_; }
  // The same by name, as the command line and the HUD know them.
  void appendMetrics(std::vector<Metric>& out) const;

 private:
  void buildGeometry();
  void spawn();
  Vec2 laneBand() const;  // (lowest, highest) height of the band, in the group's own frame
  float progress(size_t i) const;  // how far along the way agent i is: who goes first when merging
  // Lane following (or walking on to the goal once crossed), before anyone else is considered.
  Vec2 wayVelocity(size_t i, Vec2& aimOut) const;
  // With lanes: the way velocity slowed for agents that go first, plus a step aside out of their way.
  Vec2 mergeVelocity(size_t i, const UniformGrid<2>& grid) const;
  void lesserVelocities(float dt);
  void afterMove(float dt);

  CorridorParams params_;
  orca::Crowd crowd_;
  size_t wallCount_ = 0;
  std::vector<orca::Segment> guides_;
  float halfLength_ = 0, halfWidth_ = 0, roomDepth_ = 0, roomHalfHeight_ = 0;
  std::vector<uint8_t> group_, crossed_, yielding_;
  std::vector<Vec2> goal_, target_, way_, lastPreferred_, nextVelocity_;
  std::vector<float> slowTime_;
  std::vector<uint32_t> overlapCount_, rank_;
  std::vector<std::pair<float, uint32_t>> keys_;
  std::vector<float> nearestSq_;
  UniformGrid<2> grid_;
  World<2> box_;
  double time_ = 0, roundStart_ = 0, crossTimeSum_ = 0;
  float lastDt_ = 1.0f / 60.0f;
  CorridorMetrics metrics_;
};

const char* methodName(AvoidanceMethod m);

}  // namespace sim
