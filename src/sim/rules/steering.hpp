// Steering behaviours as small pure functions, written from Reynolds, "Steering Behaviors for
// Autonomous Characters" (GDC 1999).
//
// Every behaviour returns a steering vector in Reynolds' sense: desired velocity minus current
// velocity (world units / s). The caller weights them and turns the sum into an acceleration with
// `steeringToAcceleration` (the velocity change wanted within one step), then spends the max-force
// budget in priority order with `accumulatePrioritized`. Nothing here allocates or keeps state;
// per-agent state (the wander angle, its random stream) lives with the caller.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>
#include "sim/core/math.hpp"
#include "sim/core/rng.hpp"

namespace sim {

// ---- seek, flee, arrive ----

template <int D>
inline Vec<D> seek(const Vec<D>& position, const Vec<D>& velocity, const Vec<D>& target, float maxSpeed) {
  return safeNormalize(target - position) * maxSpeed - velocity;
}

// Full speed away from the threat while it is closer than panicRadius; nothing beyond it.
template <int D>
inline Vec<D> flee(const Vec<D>& position, const Vec<D>& velocity, const Vec<D>& threat, float maxSpeed,
                   float panicRadius = std::numeric_limits<float>::infinity()) {
  Vec<D> away = position - threat;
  if (lengthSq(away) > panicRadius * panicRadius) return Vec<D>(0.0f);
  return safeNormalize(away) * maxSpeed - velocity;
}

// The velocity arrive asks for: full speed outside the slowing radius, proportional to the
// distance inside it, so the agent glides to a stop on the target.
template <int D>
inline Vec<D> arriveDesiredVelocity(const Vec<D>& position, const Vec<D>& target, float maxSpeed,
                                    float slowingRadius) {
  Vec<D> offset = target - position;
  float d = std::sqrt(lengthSq(offset));
  if (d < 1e-6f) return Vec<D>(0.0f);
  // d < slowingRadius, not std::fmin(1, d / slowingRadius): fmin is a library call, and arrive runs
  // for every agent of the finale.
  float speed = slowingRadius > 0.0f && d < slowingRadius ? maxSpeed * (d / slowingRadius) : maxSpeed;
  return offset * (speed / d);
}

template <int D>
inline Vec<D> arrive(const Vec<D>& position, const Vec<D>& velocity, const Vec<D>& target, float maxSpeed,
                     float slowingRadius) {
  return arriveDesiredVelocity(position, target, maxSpeed, slowingRadius) - velocity;
}

// ---- pursue, evade ----

// How far ahead to predict a moving target: the time this agent needs at top speed to cover the
// distance, capped so a far target is not extrapolated off into nowhere.
inline float predictionTime(float distance, float maxSpeed, float maxPredictionTime) {
  if (maxSpeed <= 0.0f) return maxPredictionTime;
  return std::fmin(distance / maxSpeed, maxPredictionTime);
}

template <int D>
inline Vec<D> predictedPosition(const Vec<D>& position, const Vec<D>& targetPosition, const Vec<D>& targetVelocity,
                                float maxSpeed, float maxPredictionTime) {
  float d = std::sqrt(lengthSq(targetPosition - position));
  return targetPosition + targetVelocity * predictionTime(d, maxSpeed, maxPredictionTime);
}

template <int D>
inline Vec<D> pursue(const Vec<D>& position, const Vec<D>& velocity, const Vec<D>& targetPosition,
                     const Vec<D>& targetVelocity, float maxSpeed, float maxPredictionTime) {
  return seek(position, velocity,
              predictedPosition(position, targetPosition, targetVelocity, maxSpeed, maxPredictionTime), maxSpeed);
}

// Flees the threat's predicted position while the threat itself is closer than panicRadius.
template <int D>
inline Vec<D> evade(const Vec<D>& position, const Vec<D>& velocity, const Vec<D>& threatPosition,
                    const Vec<D>& threatVelocity, float maxSpeed, float maxPredictionTime,
                    float panicRadius = std::numeric_limits<float>::infinity()) {
  if (lengthSq(threatPosition - position) > panicRadius * panicRadius) return Vec<D>(0.0f);
  return flee(position, velocity,
              predictedPosition(position, threatPosition, threatVelocity, maxSpeed, maxPredictionTime), maxSpeed);
}

// ---- wander (2D) ----

// Where the wander target sits: a circle `distance` ahead of the agent, the point at `angle` on it,
// the angle measured from the heading so the target stays ahead as the agent turns.
struct WanderGeometry {
  Vec2 center{0.0f};
  float radius = 0.0f;
  Vec2 point{0.0f};
};

inline WanderGeometry wanderGeometry(const Vec2& position, const Vec2& heading, float angle, float radius,
                                     float distance) {
  WanderGeometry g;
  g.center = position + heading * distance;
  g.radius = radius;
  g.point = g.center + radius * (heading * std::cos(angle) + perpLeft(heading) * std::sin(angle));
  return g;
}

// A random walk of the wander angle whose spread after one second is `jitter` radians (standard
// deviation) whatever the step: uniform(-1, 1) has variance 1/3, hence the sqrt(3 dt).
inline float advanceWanderAngle(float angle, float jitter, float dt, Rng& rng) {
  constexpr float kPi = 3.14159265358979f;
  float a = angle + jitter * std::sqrt(3.0f * dt) * rng.uniform(-1.0f, 1.0f);
  if (a > kPi) a -= 2.0f * kPi;  // keep it small so float precision does not decay over a long run
  else if (a < -kPi) a += 2.0f * kPi;
  return a;
}

inline Vec2 wander(const Vec2& position, const Vec2& velocity, float angle, float radius, float distance,
                   float maxSpeed, const Vec2& fallbackHeading = Vec2{1.0f, 0.0f}) {
  WanderGeometry g = wanderGeometry(position, headingOf(velocity, fallbackHeading), angle, radius, distance);
  return seek(position, velocity, g.point, maxSpeed);
}

// ---- obstacle avoidance (2D) ----

struct CircleObstacle {
  Vec2 center{0.0f};
  float radius = 0.0f;
};

// The feeler reaches the agent's own radius at rest and grows with speed by up to `feelerLength`
// at max speed: a faster agent needs to see further to turn in time.
inline float feelerLengthFor(float speed, float maxSpeed, float feelerLength, float agentRadius) {
  float f = maxSpeed > 0.0f ? std::fmin(1.0f, speed / maxSpeed) : 0.0f;
  return agentRadius + feelerLength * f;
}

struct AvoidanceResult {
  Vec2 steering{0.0f};
  int obstacle = -1;  // index of the most threatening obstacle, -1 when the way is clear
};

// Looks along a feeler from the agent's centre in its heading. An obstacle, grown by the agent's
// radius, threatens when the feeler line crosses it before the feeler's end; the most threatening
// is the one crossed first (an obstacle the agent already overlaps beats all). The correction is
// sideways, away from that obstacle's centre, as large as the lateral speed that clears its edge by
// the time the agent gets there. Dead ahead it turns left, so the choice is deterministic.
inline AvoidanceResult avoidObstacles(const Vec2& position, const Vec2& velocity, float agentRadius,
                                      std::span<const CircleObstacle> obstacles, float feelerLength,
                                      float maxSpeed) {
  AvoidanceResult r;
  const float speed = std::sqrt(lengthSq(velocity));
  const Vec2 heading = headingOf(velocity, Vec2{1.0f, 0.0f});
  const Vec2 side = perpLeft(heading);
  const float reach = feelerLengthFor(speed, maxSpeed, feelerLength, agentRadius);
  float bestHit = std::numeric_limits<float>::infinity();
  float bestLateral = 0.0f, bestGrown = 0.0f;
  bool bestInside = false;
  for (size_t k = 0; k < obstacles.size(); ++k) {
    const float grown = obstacles[k].radius + agentRadius;
    const Vec2 local = obstacles[k].center - position;
    const float d2 = lengthSq(local);
    const float ahead = glm::dot(local, heading);
    const float lateral = glm::dot(local, side);
    float hit;  // distance along the feeler to where it enters the grown circle
    bool inside = d2 < grown * grown;
    if (inside) {
      hit = std::sqrt(d2) - grown;  // negative: deeper overlaps first
    } else {
      if (std::fabs(lateral) >= grown) continue;  // the feeler line passes beside it
      float half = std::sqrt(grown * grown - lateral * lateral);
      hit = ahead - half;
      if (hit > reach || ahead + half < 0.0f) continue;  // beyond the feeler, or behind the agent
    }
    if (hit < bestHit) {
      bestHit = hit;
      bestLateral = lateral;
      bestGrown = grown;
      bestInside = inside;
      r.obstacle = static_cast<int>(k);
    }
  }
  if (r.obstacle < 0) return r;
  if (bestInside) {
    // Already overlapping: push straight out, leaving the tangential motion alone.
    Vec2 out = safeNormalize(position - obstacles[size_t(r.obstacle)].center);
    if (lengthSq(out) == 0.0f) out = side;
    r.steering = out * maxSpeed;
    return r;
  }
  const Vec2 away = bestLateral > 0.0f ? -side : side;
  const float clearance = bestGrown - std::fabs(bestLateral);
  const float timeToHit = std::fmax(bestHit, 1e-3f) / std::fmax(speed, 1e-3f);
  r.steering = away * std::fmin(clearance / timeToHit, maxSpeed);
  return r;
}

// ---- containment ----

// Keeps the agent inside [lo, hi] shrunk by `margin`: when the point it will reach after
// `lookAheadTime` lies outside, the velocity component across that wall is asked to point inward
// at full speed, the component along the wall is kept.
template <int D>
inline Vec<D> containWithin(const Vec<D>& position, const Vec<D>& velocity, const Vec<D>& lo, const Vec<D>& hi,
                            float margin, float lookAheadTime, float maxSpeed) {
  const Vec<D> ahead = position + velocity * lookAheadTime;
  Vec<D> desired = velocity;
  bool outside = false;
  for (int k = 0; k < D; ++k) {
    if (ahead[k] < lo[k] + margin) { desired[k] = maxSpeed; outside = true; }
    else if (ahead[k] > hi[k] - margin) { desired[k] = -maxSpeed; outside = true; }
  }
  if (!outside) return Vec<D>(0.0f);
  return clampLength(desired, maxSpeed) - velocity;
}

// ---- formations (2D) ----

enum class FormationShape { Line, Wedge, Column };

// Slot k's offset in the leader's frame: x forward, y to the leader's left, `spacing` apart.
// Line: abreast of the leader, alternating right and left; wedge: a V trailing behind it;
// column: single file behind it.
inline Vec2 formationSlotOffset(FormationShape shape, size_t slot, float spacing) {
  const float rank = static_cast<float>(slot / 2 + 1);
  const float sideSign = (slot % 2 == 0) ? -1.0f : 1.0f;
  switch (shape) {
    case FormationShape::Line: return {0.0f, sideSign * rank * spacing};
    case FormationShape::Wedge: return {-rank * spacing, sideSign * rank * spacing};
    case FormationShape::Column: return {-static_cast<float>(slot + 1) * spacing, 0.0f};
  }
  return {0.0f, 0.0f};
}

inline Vec2 formationSlotPosition(FormationShape shape, size_t slot, float spacing, const Vec2& leaderPosition,
                                  const Vec2& leaderHeading) {
  Vec2 o = formationSlotOffset(shape, slot, spacing);
  return leaderPosition + leaderHeading * o.x + perpLeft(leaderHeading) * o.y;
}

// Arrive at a slot that moves with the leader: the leader's velocity plus arrive's correction, so a
// follower sitting on its slot keeps pace instead of lagging behind it.
template <int D>
inline Vec<D> followSlot(const Vec<D>& position, const Vec<D>& velocity, const Vec<D>& slotPosition,
                         const Vec<D>& leaderVelocity, float maxSpeed, float slowingRadius) {
  Vec<D> desired = leaderVelocity + arriveDesiredVelocity(position, slotPosition, maxSpeed, slowingRadius);
  return clampLength(desired, maxSpeed) - velocity;
}

// Greedy nearest matching of agents to slots: repeatedly pairs the closest remaining agent and
// slot, so nobody walks across the formation to a far slot while a near one goes to someone else.
// Ties go to the lower indices. Keeps its buffers, so after reserve(n) it does not allocate.
class GreedySlotMatcher {
 public:
  void reserve(size_t n);
  // agents.size() == slots.size() == slotOfAgent.size() < 65536; writes slotOfAgent[a].
  void assign(std::span<const Vec2> agents, std::span<const Vec2> slots, std::span<uint32_t> slotOfAgent);

 private:
  std::vector<uint64_t> pairs_;
  std::vector<uint8_t> slotTaken_;
};

// ---- combining ----

// The acceleration that reaches the velocity a weighted steering vector asks for within one step
// (Reynolds' per-tick model); the max-force clamp then decides how much of it is granted.
template <int D>
inline Vec<D> steeringToAcceleration(const Vec<D>& steering, float weight, float dt) {
  return steering * (weight / dt);
}

// Prioritised allocation of the max-force budget: a request takes what it needs of what is left;
// later (lower-priority) requests share only the remainder.
template <int D>
inline void accumulatePrioritized(Vec<D>& total, float& budgetLeft, const Vec<D>& request) {
  if (budgetLeft <= 0.0f) return;
  float m = std::sqrt(lengthSq(request));
  if (m <= budgetLeft) {
    total += request;
    budgetLeft -= m;
  } else {
    total += request * (budgetLeft / m);
    budgetLeft = 0.0f;
  }
}

// Limits how far the velocity's direction may turn in one step (a vehicle's turning circle),
// keeping the new speed. A start from rest, or a stop, is not a turn.
inline Vec2 limitTurn(const Vec2& previous, const Vec2& next, float maxAngle) {
  float pl2 = lengthSq(previous), nl2 = lengthSq(next);
  if (pl2 < 1e-6f || nl2 < 1e-6f) return next;
  float angle = std::atan2(cross2(previous, next), glm::dot(previous, next));
  if (std::fabs(angle) <= maxAngle) return next;
  float a = angle > 0.0f ? maxAngle : -maxAngle;
  Vec2 dir = previous * (1.0f / std::sqrt(pl2));
  Vec2 rotated{dir.x * std::cos(a) - dir.y * std::sin(a), dir.x * std::sin(a) + dir.y * std::cos(a)};
  return rotated * std::sqrt(nl2);
}

}  // namespace sim
