// The steering playground's whole simulation: agents steered by Reynolds' behaviours around circle
// obstacles towards a target, a wandering quarry to pursue or evade, and a leader with formation
// slots. The scene only draws it and forwards input, so every behaviour is testable headless.
#pragma once
#include <cstdint>
#include <span>
#include <vector>
#include "sim/core/math.hpp"
#include "sim/core/metric.hpp"
#include "sim/core/rng.hpp"
#include "sim/rules/steering.hpp"
#include "sim/core/world.hpp"

namespace sim {

// Defaults give the classic "seek + arrive stops cleanly" with avoidance; the comment after each
// field is its range (the scene's slider range). Lengths are world units (pixels at 100 % zoom).
struct SteeringParams {
  int agents = 30;                 // 1 .. 500
  bool seek = true;                // towards the target; with arrive on, arrive replaces it
  bool arrive = true;              // slow down inside the slowing radius and stop on the target
  bool wander = false;
  bool avoid = true;               // circle obstacles
  bool flee = false;               // from the target, within fleeRadius
  bool pursue = false;             // the quarry
  bool evade = false;              // the quarry, within fleeRadius
  bool formation = false;          // agent 0 leads to the target, the others take slots
  FormationShape shape = FormationShape::Wedge;
  bool contain = true;             // steer away from the world's edges (which also bounce)
  bool separate = false;           // push away from other agents closer than separationRadius

  float maxSpeed = 150.0f;         // 10 .. 500 units/s
  float maxForce = 400.0f;         // 10 .. 2000 units/s^2
  float slowingRadius = 120.0f;    // 1 .. 500
  float wanderRadius = 40.0f;      // 0 .. 200
  float wanderDistance = 80.0f;    // 0 .. 300
  float wanderJitter = 3.0f;       // 0 .. 20 rad: spread of the wander angle after 1 s
  float feelerLength = 100.0f;     // 0 .. 400, reached at max speed
  float fleeRadius = 200.0f;       // 10 .. 1500: panic distance of flee and evade
  float maxPredictionTime = 2.0f;  // 0 .. 5 s: pursue / evade look-ahead cap
  float formationSpacing = 35.0f;  // 10 .. 150
  float containMargin = 40.0f;     // 0 .. 200
  float agentRadius = 8.0f;        // 1 .. 40
  float maxTurnRate = 0.0f;        // 0 .. 20 rad/s; 0 = unlimited (classic)
  float smoothingTime = 0.0f;      // 0 .. 1 s: steering closes velocity gaps over this time (a low-pass); 0 = one step (classic)
  float quarrySpeed = 90.0f;       // 10 .. 500 units/s
  float separationRadius = 24.0f;  // 2 .. 200: agents closer than this push each other apart

  // Behaviour weights, 0 .. 5 each.
  float wSeek = 1.0f;
  float wArrive = 1.0f;
  float wWander = 1.0f;
  float wAvoid = 1.0f;
  float wFlee = 1.0f;
  float wPursue = 1.0f;
  float wEvade = 1.0f;
  float wFormation = 1.0f;
  float wContain = 1.0f;
  float wSeparate = 1.0f;

  bool operator==(const SteeringParams&) const = default;
};

class SteeringWorld {
 public:
  static constexpr int kMaxAgents = 500;
  // A formation leader cruises below the others' top speed so followers can catch up with their slots.
  static constexpr float kLeaderSpeedFactor = 0.6f;
  // Containment looks this far ahead in time.
  static constexpr float kContainLookAhead = 0.5f;

  struct Feeler {
    Vec2 from{0.0f}, to{0.0f};
  };

  SteeringParams params;
  World<2> world;  // 1280 x 720, bounce at the edges

  SteeringWorld();

  // Agents at random places (outside obstacles) with random headings at half speed, the target at
  // the centre, the quarry at a random place, the default obstacle layout. Same seed, same run.
  void reset(uint64_t seed);
  // One fixed step: every agent's new state from the previous state, in parallel, bitwise identical
  // for any thread count; then the quarry. Applies a changed params.agents first.
  void step(float dt);
  // Applies params.agents (clamped to 1 .. kMaxAgents) now, keeping existing agents; step() does it
  // too, so this is only for showing a new count while paused.
  void syncAgentCount();

  // ---- agents ----
  size_t size() const { return position_.size(); }
  std::span<const Vec2> positions() const { return position_; }
  std::span<const Vec2> velocities() const { return velocity_; }
  // What each agent asked for in the last step before the force clamp: velocity + weighted steering.
  std::span<const Vec2> desiredVelocities() const { return desired_; }
  void placeAgent(size_t i, const Vec2& position, const Vec2& velocity);

  // ---- target and quarry ----
  Vec2 target() const { return target_; }
  void setTarget(const Vec2& p) { target_ = p; }
  Vec2 quarryPosition() const { return quarryPosition_; }
  Vec2 quarryVelocity() const { return quarryVelocity_; }

  // ---- obstacles ----
  std::span<const CircleObstacle> obstacles() const { return obstacles_; }
  size_t addObstacle(const Vec2& center, float radius);  // returns its index
  void moveObstacle(size_t i, const Vec2& center);
  void removeObstacle(size_t i);                          // later indices shift down by one
  void clearObstacles() { obstacles_.clear(); }
  // The obstacle under a point (the last added wins where they overlap), -1 if none: mouse picking.
  int obstacleAt(const Vec2& p) const;

  // ---- debug geometry, computed from the current state ----
  Feeler feeler(size_t i) const;
  WanderGeometry wanderOf(size_t i) const;
  WanderGeometry quarryWander() const;
  // Formation: slot s (0 .. size()-2) belongs to follower agent a with slotOf(a) == s (a >= 1).
  size_t slotCount() const { return size() > 0 ? size() - 1 : 0; }
  Vec2 slotPosition(size_t slot) const;
  uint32_t slotOf(size_t agent) const { return agent == 0 ? ~0u : slot_[agent]; }
  Vec2 leaderHeading() const { return leaderHeading_; }

  // ---- metrics ----
  // mean_distance_to_target, mean_speed, obstacle_penetrations: agent-steps since reset that ended
  // with the agent's centre closer to an obstacle's centre than its radius + agentRadius / 2;
  // settled_share: agents within the slowing (arrival) radius and below 5 % of max speed, 0..1.
  void appendMetrics(std::vector<Metric>& out) const;
  static constexpr float kSettledSpeedShare = 0.05f;
  uint64_t obstaclePenetrations() const { return penetrations_; }

 private:
  void resizeAgents(size_t n);
  Vec2 randomFreePosition(Rng& rng) const;
  void spawnAgent(size_t i, Rng& rng);
  float maxSpeedOf(size_t i) const;
  void updateFormation();
  Vec2 agentAcceleration(size_t i, float dt, float& wanderAngle, Rng& wanderRng, Vec2& desired) const;
  void stepQuarry(float dt);

  uint64_t seed_ = 1;
  std::vector<Vec2> position_, velocity_, desired_, acceleration_;
  std::vector<Vec2> nextPosition_, nextVelocity_;
  std::vector<float> wanderAngle_;
  std::vector<Rng> wanderRng_;
  std::vector<uint32_t> slot_;         // slot of each follower; entry 0 (the leader) unused
  std::vector<uint8_t> penetrating_;   // per agent, this step
  std::vector<CircleObstacle> obstacles_;
  Vec2 target_{0.0f};
  Vec2 quarryPosition_{0.0f}, quarryVelocity_{0.0f};
  float quarryWanderAngle_ = 0.0f;
  Rng quarryRng_;
  Vec2 leaderHeading_{1.0f, 0.0f};
  Vec2 assignedHeading_{1.0f, 0.0f};   // leader heading when slots were last assigned
  bool slotsValid_ = false;
  GreedySlotMatcher matcher_;
  std::vector<Vec2> followerPositions_, slotPositions_;  // matcher input, kept to avoid allocation
  uint64_t penetrations_ = 0;
};

}  // namespace sim
