#include "sim/models/steering_world.hpp"

#include <algorithm>
#include <cmath>
#include "sim/core/parallel.hpp"
#include "sim/rules/boids.hpp"
#include "sim/core/metric.hpp"

namespace sim {
namespace {
constexpr float kPi = 3.14159265358979f;
constexpr uint64_t kWanderStreamBase = 1000;  // agent i's wander stream is base + i; the quarry's is 7
constexpr uint64_t kQuarryStream = 7;
}  // namespace

SteeringWorld::SteeringWorld() {
  world.min = Vec2{0.0f, 0.0f};
  world.size = Vec2{1280.0f, 720.0f};
  world.boundary = Boundary::Bounce;
  // Capacity for the largest crowd up front: changing the agent count never allocates, nor does a step.
  const size_t cap = kMaxAgents;
  for (auto* v : {&position_, &velocity_, &desired_, &acceleration_, &nextPosition_, &nextVelocity_,
                  &followerPositions_, &slotPositions_})
    v->reserve(cap);
  wanderAngle_.reserve(cap);
  wanderRng_.reserve(cap);
  slot_.reserve(cap);
  penetrating_.reserve(cap);
  matcher_.reserve(cap - 1);
  reset(1);
}

void SteeringWorld::reset(uint64_t seed) {
  seed_ = seed;
  obstacles_.clear();
  obstacles_.push_back({{420.0f, 300.0f}, 45.0f});
  obstacles_.push_back({{860.0f, 430.0f}, 55.0f});
  obstacles_.push_back({{640.0f, 170.0f}, 40.0f});
  target_ = world.center();
  position_.clear();
  resizeAgents(size_t(std::clamp(params.agents, 1, kMaxAgents)));
  Rng rng(seed, kQuarryStream);
  quarryPosition_ = randomFreePosition(rng);
  quarryVelocity_ = rng.unitVec2() * (params.quarrySpeed * 0.5f);
  quarryWanderAngle_ = 0.0f;
  quarryRng_ = rng;
  leaderHeading_ = headingOf(velocity_[0], Vec2{1.0f, 0.0f});
  assignedHeading_ = leaderHeading_;
  slotsValid_ = false;
  penetrations_ = 0;
}

Vec2 SteeringWorld::randomFreePosition(Rng& rng) const {
  const float margin = 2.0f * params.agentRadius;
  const Vec2 lo = world.min + Vec2(margin), hi = world.max() - Vec2(margin);
  Vec2 p = rng.inBox<2>(lo, hi);
  for (int tries = 0; tries < 64; ++tries) {
    bool free = true;
    for (const CircleObstacle& o : obstacles_) {
      float r = o.radius + margin;
      if (lengthSq(p - o.center) < r * r) { free = false; break; }
    }
    if (free) break;
    p = rng.inBox<2>(lo, hi);
  }
  return p;
}

void SteeringWorld::spawnAgent(size_t i, Rng& rng) {
  position_[i] = randomFreePosition(rng);
  velocity_[i] = rng.unitVec2() * (params.maxSpeed * 0.5f);
  desired_[i] = velocity_[i];
  acceleration_[i] = Vec2(0.0f);
  wanderAngle_[i] = rng.uniform(-kPi, kPi);
  wanderRng_[i] = Rng(seed_, kWanderStreamBase + i);
  slot_[i] = 0;
  penetrating_[i] = 0;
}

void SteeringWorld::resizeAgents(size_t n) {
  const size_t old = size();
  for (auto* v : {&position_, &velocity_, &desired_, &acceleration_, &nextPosition_, &nextVelocity_}) v->resize(n);
  wanderAngle_.resize(n);
  wanderRng_.resize(n);
  slot_.resize(n);
  penetrating_.resize(n);
  // New agents depend on the seed and on how many there were, never on the step they arrive at.
  Rng rng(seed_ ^ (0x9E3779B97F4A7C15ull * (old + 1)));
  for (size_t i = old; i < n; ++i) spawnAgent(i, rng);
  slotsValid_ = false;
}

void SteeringWorld::syncAgentCount() {
  const size_t wanted = size_t(std::clamp(params.agents, 1, kMaxAgents));
  if (wanted != size()) resizeAgents(wanted);
}

void SteeringWorld::placeAgent(size_t i, const Vec2& position, const Vec2& velocity) {
  position_[i] = position;
  velocity_[i] = velocity;
  desired_[i] = velocity;
  acceleration_[i] = Vec2(0.0f);
  if (i == 0) leaderHeading_ = headingOf(velocity, leaderHeading_);
  slotsValid_ = false;
}

size_t SteeringWorld::addObstacle(const Vec2& center, float radius) {
  obstacles_.push_back({center, radius});
  return obstacles_.size() - 1;
}

void SteeringWorld::moveObstacle(size_t i, const Vec2& center) {
  if (i < obstacles_.size()) obstacles_[i].center = center;
}

void SteeringWorld::removeObstacle(size_t i) {
  if (i < obstacles_.size()) obstacles_.erase(obstacles_.begin() + std::ptrdiff_t(i));
}

int SteeringWorld::obstacleAt(const Vec2& p) const {
  for (size_t k = obstacles_.size(); k-- > 0;) {
    if (lengthSq(p - obstacles_[k].center) <= obstacles_[k].radius * obstacles_[k].radius) return int(k);
  }
  return -1;
}

float SteeringWorld::maxSpeedOf(size_t i) const {
  return (params.formation && i == 0) ? params.maxSpeed * kLeaderSpeedFactor : params.maxSpeed;
}

void SteeringWorld::updateFormation() {
  // The leader's heading frames the slots; it only follows the velocity while the leader really
  // moves, so a leader at rest keeps its formation instead of spinning it with every tiny nudge.
  const Vec2 v0 = velocity_[0];
  const float still = 0.02f * maxSpeedOf(0);
  if (lengthSq(v0) > still * still) leaderHeading_ = safeNormalize(v0);
  if (!params.formation) {
    slotsValid_ = false;  // switching formation on assigns slots afresh
    return;
  }
  const size_t followers = size() - 1;
  if (slotsValid_ && glm::dot(leaderHeading_, assignedHeading_) >= 0.0f) return;
  // First assignment, or the leader turned by more than 90 degrees since the last one: the old
  // slots now lie on the far side, so match each follower to a near slot instead of crossing over.
  followerPositions_.resize(followers);
  slotPositions_.resize(followers);
  for (size_t s = 0; s < followers; ++s) {
    followerPositions_[s] = position_[s + 1];
    slotPositions_[s] = formationSlotPosition(params.shape, s, params.formationSpacing, position_[0], leaderHeading_);
  }
  matcher_.assign(followerPositions_, slotPositions_, std::span<uint32_t>(slot_).subspan(1));
  assignedHeading_ = leaderHeading_;
  slotsValid_ = true;
}

Vec2 SteeringWorld::slotPosition(size_t slot) const {
  return formationSlotPosition(params.shape, slot, params.formationSpacing, position_[0], leaderHeading_);
}

Vec2 SteeringWorld::agentAcceleration(size_t i, float dt, float& wanderAngle, Rng& wanderRng, Vec2& desired) const {
  const SteeringParams& P = params;
  const Vec2 p = position_[i], v = velocity_[i];
  const float maxSpeed = maxSpeedOf(i);
  Vec2 wish = v;  // velocity + every weighted steering vector: what the agent would do with unlimited force
  // Smoothing: each behaviour asks to close its velocity gap over the smoothing time instead of in one
  // step, a first-order response that filters jitter. (A low-pass on the acceleration instead lags
  // the braking behind the velocity: with arrive's pull that loop is third order, and it turned
  // arrival into orbiting; the first-order one is stable for any smoothing time.)
  const float response = std::max(dt, P.smoothingTime);
  auto request = [&](const Vec2& steering, float weight) {
    wish += steering * weight;
    return steeringToAcceleration(steering, weight, response);
  };

  // Staying out of walls and obstacles comes first; the others share what force is left.
  Vec2 total(0.0f);
  float budget = P.maxForce;
  if (P.contain)
    accumulatePrioritized(total, budget, request(containWithin<2>(p, v, world.min, world.max(), P.containMargin,
                                                                  kContainLookAhead, maxSpeed), P.wContain));
  if (P.avoid)
    accumulatePrioritized(total, budget, request(avoidObstacles(p, v, P.agentRadius, obstacles_, P.feelerLength,
                                                                maxSpeed).steering, P.wAvoid));
  Vec2 rest(0.0f);
  if (P.separate && P.separationRadius > 0.0f) {
    // Reynolds' separation between agents, so a crowd that arrives does not stack on one point.
    // A velocity push away from each close agent, growing from 0 at the radius to maxSpeed at contact;
    // brute force over the agents is enough for the playground's few hundred. It joins the goal
    // behaviours' sum (one desired velocity), not the force budget ahead of them: served first, its
    // push took the whole budget inside a crowd and left arrive nothing to brake with, so the crowd
    // boiled around the target for ever. In the sum, push and pull balance and the agents stop.
    // The push is boids' linear one (the finale's), summed and clamped to length 1 by its rule.
    BoidsAccum<2> acc;
    const float r2 = P.separationRadius * P.separationRadius;
    for (size_t j = 0; j < size(); ++j) {
      if (j == i) continue;
      const Vec2 offset = position_[j] - p;
      const float d2 = lengthSq(offset);
      if (d2 >= r2) continue;
      if (d2 > 1e-12f) {
        addSeparationPush(acc, offset, d2, SeparationLaw::LinearFade, 1.0f / P.separationRadius);
      } else {
        // Coincident agents split by index, a full push, so it never vanishes.
        acc.separationSum += j < i ? Vec2{1.0f, 0.0f} : Vec2{-1.0f, 0.0f};
        acc.separationCount++;
      }
    }
    rest += request(separationRule(acc, SeparationLaw::LinearFade) * maxSpeed, P.wSeparate);
  }
  if (P.formation && i == 0) {
    rest += request(arrive(p, v, target_, maxSpeed, P.slowingRadius), P.wArrive);
  } else if (P.formation) {
    Vec2 slot = formationSlotPosition(P.shape, slot_[i], P.formationSpacing, position_[0], leaderHeading_);
    rest += request(followSlot(p, v, slot, velocity_[0], maxSpeed, P.slowingRadius), P.wFormation);
  } else {
    if (P.arrive) rest += request(arrive(p, v, target_, maxSpeed, P.slowingRadius), P.wArrive);
    else if (P.seek) rest += request(seek(p, v, target_, maxSpeed), P.wSeek);
    if (P.flee) rest += request(flee(p, v, target_, maxSpeed, P.fleeRadius), P.wFlee);
    if (P.pursue)
      rest += request(pursue(p, v, quarryPosition_, quarryVelocity_, maxSpeed, P.maxPredictionTime), P.wPursue);
    if (P.evade)
      rest += request(evade(p, v, quarryPosition_, quarryVelocity_, maxSpeed, P.maxPredictionTime, P.fleeRadius),
                      P.wEvade);
    if (P.wander) {
      wanderAngle = advanceWanderAngle(wanderAngle, P.wanderJitter, dt, wanderRng);
      rest += request(wander(p, v, wanderAngle, P.wanderRadius, P.wanderDistance, maxSpeed), P.wWander);
    }
  }
  accumulatePrioritized(total, budget, rest);
  desired = wish;
  return total;
}

void SteeringWorld::step(float dt) {
  if (!(dt > 0.0f)) return;
  syncAgentCount();
  updateFormation();

  const SteeringParams& P = params;
  const float penetrationRadiusExtra = 0.5f * P.agentRadius;
  parallelFor(size(), [&](size_t i) {
    // Reads the previous state of everyone; writes only agent i's own entries.
    Vec2 a = agentAcceleration(i, dt, wanderAngle_[i], wanderRng_[i], desired_[i]);
    acceleration_[i] = a;
    const Vec2 v = velocity_[i];
    Vec2 nv = clampLength(v + a * dt, maxSpeedOf(i));
    if (P.maxTurnRate > 0.0f) nv = limitTurn(v, nv, P.maxTurnRate * dt);
    Vec2 np = position_[i] + nv * dt;
    world.applyBounds(np, nv);
    nextPosition_[i] = np;
    nextVelocity_[i] = nv;
    uint8_t inside = 0;
    for (const CircleObstacle& o : obstacles_) {
      float r = o.radius + penetrationRadiusExtra;
      if (lengthSq(np - o.center) < r * r) { inside = 1; break; }
    }
    penetrating_[i] = inside;
  }, 64);
  stepQuarry(dt);
  position_.swap(nextPosition_);
  velocity_.swap(nextVelocity_);
  for (uint8_t pen : penetrating_) penetrations_ += pen;
}

void SteeringWorld::stepQuarry(float dt) {
  // The quarry wanders inside the world around the obstacles, on its own random stream.
  const SteeringParams& P = params;
  const Vec2 p = quarryPosition_, v = quarryVelocity_;
  const float maxSpeed = P.quarrySpeed;
  Vec2 total(0.0f);
  float budget = P.maxForce;
  accumulatePrioritized(total, budget, steeringToAcceleration(containWithin<2>(p, v, world.min, world.max(),
                                                                               P.containMargin, kContainLookAhead,
                                                                               maxSpeed), 1.0f, dt));
  accumulatePrioritized(total, budget, steeringToAcceleration(avoidObstacles(p, v, P.agentRadius, obstacles_,
                                                                             P.feelerLength, maxSpeed).steering,
                                                              1.0f, dt));
  quarryWanderAngle_ = advanceWanderAngle(quarryWanderAngle_, P.wanderJitter, dt, quarryRng_);
  accumulatePrioritized(total, budget, steeringToAcceleration(wander(p, v, quarryWanderAngle_, P.wanderRadius,
                                                                     P.wanderDistance, maxSpeed), 1.0f, dt));
  Vec2 nv = clampLength(v + total * dt, maxSpeed);
  Vec2 np = p + nv * dt;
  world.applyBounds(np, nv);
  quarryPosition_ = np;
  quarryVelocity_ = nv;
}

SteeringWorld::Feeler SteeringWorld::feeler(size_t i) const {
  const Vec2 v = velocity_[i];
  const float reach = feelerLengthFor(std::sqrt(lengthSq(v)), maxSpeedOf(i), params.feelerLength, params.agentRadius);
  return {position_[i], position_[i] + headingOf(v, Vec2{1.0f, 0.0f}) * reach};
}

WanderGeometry SteeringWorld::wanderOf(size_t i) const {
  return wanderGeometry(position_[i], headingOf(velocity_[i], Vec2{1.0f, 0.0f}), wanderAngle_[i], params.wanderRadius,
                        params.wanderDistance);
}

WanderGeometry SteeringWorld::quarryWander() const {
  return wanderGeometry(quarryPosition_, headingOf(quarryVelocity_, Vec2{1.0f, 0.0f}), quarryWanderAngle_,
                        params.wanderRadius, params.wanderDistance);
}

constexpr MetricInfo kSteeringMetrics[] = {
    {"mean_distance_to_target", "distance to the target (world units)"},
    {"mean_speed", "mean speed (world units/s)", "units/s"},
    {"obstacle_penetrations", "bodies inside an obstacle (agent-steps)"},
    {"settled_share", "settled (share of agents)", "", 0.0, 1.0},
};
[[maybe_unused]] const bool steeringDescribed = describeMetrics(kSteeringMetrics);

void SteeringWorld::appendMetrics(std::vector<Metric>& out) const {
  double dist = 0.0, speed = 0.0;
  size_t settled = 0;
  const double settledSpeed = kSettledSpeedShare * double(params.maxSpeed);
  for (size_t i = 0; i < size(); ++i) {
    const double d = std::sqrt(double(lengthSq(position_[i] - target_)));
    const double v = std::sqrt(double(lengthSq(velocity_[i])));
    dist += d;
    speed += v;
    settled += (d <= double(params.slowingRadius) && v < settledSpeed) ? 1 : 0;
  }
  const double n = size() ? double(size()) : 1.0;
  out.push_back({"mean_distance_to_target", dist / n});
  out.push_back({"mean_speed", speed / n});
  out.push_back({"obstacle_penetrations", double(penetrations_)});
  out.push_back({"settled_share", double(settled) / n});
}

}  // namespace sim
