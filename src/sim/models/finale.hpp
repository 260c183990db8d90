// The big finale: every layer at once. Agents chase a target point (the cursor); each agent's
// velocity goes through one pipeline, in this order:
//   1. steering: arrive at the target (plus obstacle avoidance for agents ORCA does not handle)
//      gives the preferred velocity;
//   2. boids: separation, alignment and cohesion, weighted (fixed weights, curves looked up against
//      the local neighbour count, or a learned function of the agent's situation), correct it: the
//      boids-corrected preferred velocity;
//   3. ORCA (optional, or only near the target with level of detail) clips that to a velocity that is
//      collision free for its horizon, against neighbours and obstacles;
//   4. clamp and integrate.
// Neighbours come from one uniform grid per step (or brute force with the hash off); the agents are
// kept in the grid's cell order, every phase runs in parallel over agents and writes only its own
// agent's slots, so a step is the same for any thread count. Nothing allocates once the buffers
// have grown to the crowd's size.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <vector>
#include "sim/rules/boids.hpp"
#include "sim/core/grid.hpp"
#include "sim/core/math.hpp"
#include "sim/core/metric.hpp"
#include "sim/core/neighbors.hpp"
#include "sim/rules/orca.hpp"
#include "sim/rules/steering.hpp"
#include "sim/core/world.hpp"
#include "sim/models/finale_learned.hpp"

namespace sim {

// Rule weights against the local neighbour count: a small table, linear between its samples.
// Sample b sits at b * neighborsPerSample neighbours; counts beyond the last sample take the last.
struct DensityWeights {
  static constexpr int kSamples = 8;
  float neighborsPerSample = 3.0f;
  // More separation in a crush, more cohesion in the open.
  std::array<float, kSamples> separation{0.4f, 0.6f, 0.9f, 1.2f, 1.6f, 2.0f, 2.4f, 2.8f};
  std::array<float, kSamples> alignment{0.6f, 0.6f, 0.5f, 0.4f, 0.3f, 0.25f, 0.2f, 0.2f};
  std::array<float, kSamples> cohesion{1.0f, 0.8f, 0.5f, 0.3f, 0.15f, 0.05f, 0.0f, 0.0f};

  // (separation, alignment, cohesion) for `neighbors` neighbours.
  Vec3 at(float neighbors) const {
    float x = neighborsPerSample > 0.0f ? neighbors / neighborsPerSample : 0.0f;
    x = std::fmin(std::fmax(x, 0.0f), float(kSamples - 1));
    const int b = std::min(int(x), kSamples - 2);
    const float t = x - float(b);
    auto lerp = [&](const std::array<float, kSamples>& c) { return c[size_t(b)] + (c[size_t(b) + 1] - c[size_t(b)]) * t; };
    return {lerp(separation), lerp(alignment), lerp(cohesion)};
  }

  bool operator==(const DensityWeights&) const = default;
};

// Where the three rule weights come from.
enum class WeightMode {
  Constant,  // FinaleParams::weights for everyone
  Curves,    // DensityWeights against the local neighbour count (hand-drawn)
  Learned,   // the constant weights times LearnedWeights' multipliers for the agent's situation
};

struct FinaleParams {
  float agentRadius = 3.5f;
  float maxSpeed = 120.0f;       // world units (pixels) per second
  float maxForce = 600.0f;       // how fast an agent outside ORCA may change its velocity (units / s^2)
  float slowingRadius = 80.0f;   // arrive: full speed outside, slowing to a stop on the target inside
  float feelerLength = 40.0f;    // steering obstacle avoidance (agents outside ORCA)
  // Boids corrections: each rule is a vector of length <= 1, its weight a fraction of max speed.
  BoidsWeights weights{1.0f, 0.3f, 0.2f};
  float perceptionRadius = 25.0f;
  float separationRadius = 12.0f;  // at most the perception radius (normalized())
  WeightMode weightMode = WeightMode::Constant;
  DensityWeights density;
  LearnedWeights learned;
  // Neighbour search.
  bool spatialHash = true;         // false: brute force over all agents
  float cellSize = 25.0f;
  // ORCA.
  bool orca = true;
  float tau = 1.0f;                // horizon against agents (s)
  float tauObstacle = 0.5f;        // horizon against obstacles and walls (s); keep >= 2 dt
  float orcaNeighborDist = 20.0f;
  int orcaMaxNeighbors = 10;
  bool stepSafety = true;          // hard one-step separation planes for close pairs (see orcaPhase)
  // Level of detail: ORCA only within lodRadius of the target, boids alone elsewhere.
  bool lod = false;
  float lodRadius = 300.0f;

  bool operator==(const FinaleParams&) const = default;

  // The same with the separation radius at most the perception radius: the rules see no farther.
  FinaleParams normalized() const {
    FinaleParams p = *this;
    p.separationRadius = std::min(p.separationRadius, p.perceptionRadius);
    return p;
  }
  // How the rules shape the sums: the linear push (no jolt when a neighbour crosses the separation
  // radius), alignment at full strength a tenth of max speed off, cohesion a spring over the perception radius.
  BoidsShape boidsShape() const { return {SeparationLaw::LinearFade, 0.1f * maxSpeed, perceptionRadius}; }

  // The radius one neighbour query must cover: the rules, ORCA's neighbours and the overlap count.
  float queryRadius() const {
    float r = std::fmax(perceptionRadius, 2.0f * agentRadius);
    return orca ? std::fmax(r, orcaNeighborDist) : r;
  }
  orca::Params orcaParams() const {
    orca::Params p;
    p.radius = agentRadius;
    p.maxSpeed = maxSpeed;
    p.tau = tau;
    p.tauObst = tauObstacle;
    p.neighborDist = orcaNeighborDist;
    p.maxNeighbors = orcaMaxNeighbors;
    return p;
  }
};

// ---- the pipeline's stages as pure functions ----

// What the rules need from one agent's neighbourhood: boids' sums, with the finale's linear push
// and one radius (perception) for alignment, cohesion and the local density (perceivedCount).
using RuleSums = BoidsAccum<2>;

// Adds one neighbour at `offset` (other - self), distSq = |offset|^2 (laneSums' scalar twin with
// the finale's bounds).
inline void addNeighbor(RuleSums& s, const FinaleParams& p, const Vec2& offset, float distSq, const Vec2& otherVelocity) {
  if (distSq <= 0.0f || distSq > p.perceptionRadius * p.perceptionRadius) return;
  s.velocitySum += otherVelocity;
  s.offsetSum += offset;
  s.perceivedCount++;
  s.alignmentCount++;
  s.cohesionCount++;
  if (distSq < p.separationRadius * p.separationRadius)
    addSeparationPush(s, offset, distSq, SeparationLaw::LinearFade, 1.0f / p.separationRadius);
}

// (separation, alignment, cohesion) weights for an agent at `position` moving at `velocity`, with
// the rule sums `s` of its neighbourhood.
inline Vec3 ruleWeights(const FinaleParams& p, const RuleSums& s, const Vec2& position, const Vec2& velocity,
                        const Vec2& target) {
  const BoidsWeights& w = p.weights;
  if (p.weightMode == WeightMode::Curves) return p.density.at(float(s.perceivedCount));
  if (p.weightMode == WeightMode::Constant) return {w.separation, w.alignment, w.cohesion};
  using Net = LearnedNet<ScalarOps>;
  float in[Net::kInputs], m[Net::kOutputs];
  const Vec2 toTarget = target - position;
  Net::features(float(s.perceivedCount), s.velocitySum.x, s.velocitySum.y, velocity.x, velocity.y, toTarget.x,
                toTarget.y, s.separationSum.x, s.separationSum.y, p.maxSpeed, p.slowingRadius, in);
  Net::multipliers(p.learned, in, m);
  return {w.separation * m[0], w.alignment * m[1], w.cohesion * m[2]};
}

// Stage 1: arrive at the target; with `circles`, also steer around them (agents outside ORCA).
inline Vec2 preferredVelocity(const FinaleParams& p, const Vec2& position, const Vec2& velocity, const Vec2& target,
                              std::span<const CircleObstacle> circles) {
  Vec2 desired = arriveDesiredVelocity(position, target, p.maxSpeed, p.slowingRadius);
  if (!circles.empty())
    desired += avoidObstacles(position, velocity, p.agentRadius, circles, p.feelerLength, p.maxSpeed).steering;
  return clampLength(desired, p.maxSpeed);
}

// Stage 2: the preferred velocity corrected by the rules with weights `w` (ruleWeights), clamped
// to max speed.
inline Vec2 boidsCorrectedVelocity(const FinaleParams& p, const Vec2& preferred, const Vec2& velocity,
                                   const RuleSums& s, const Vec3& w) {
  if (s.perceivedCount == 0) return preferred;
  const BoidsWeights weights{w.x, w.y, w.z};
  return clampLength(preferred + p.maxSpeed * boidsSteering(s, velocity, weights, p.boidsShape()), p.maxSpeed);
}

// Stages 1 and 2 for up to kFinaleLaneBatch (8) agents at once, an agent a lane (finale.cpp): the
// same operations in the same order as preferredVelocity and boidsCorrectedVelocity, so the same
// bits, without their chain of square roots, divisions and branches per agent (the learned weights
// too: ruleWeights' network, a register of agents at once). `avoidance[i]` is avoidObstacles'
// steering for an agent that has circles to avoid (`avoids[i]`), unread otherwise. `weights`, when
// given, receives each agent's rule weights.
inline constexpr size_t kFinaleLaneBatch = 8;
struct StageInputs {
  std::span<const RuleSums> sums;
  const Vec2* position;
  const Vec2* velocity;
  const Vec2* avoidance;
  const uint8_t* avoids;
};
void preferredAndCorrectedLanes(const FinaleParams& p, const Vec2& target, const StageInputs& in, Vec2* preferred,
                                Vec2* corrected, Vec3* weights = nullptr);

// Stage 4 for an agent outside ORCA: turn towards the corrected velocity within the force limit.
inline Vec2 boidsTierVelocity(const FinaleParams& p, const Vec2& velocity, const Vec2& corrected, float dt) {
  return clampLength(velocity + clampLength(corrected - velocity, p.maxForce * dt), p.maxSpeed);
}

// One agent's velocities at every stage.
struct PipelineVelocities {
  Vec2 preferred{0.0f};       // steering
  Vec2 boidsCorrected{0.0f};  // after the boids corrections
  Vec2 orcaInput{0.0f};       // the preferred velocity ORCA was given (agents in the ORCA tier)
  Vec2 final{0.0f};           // what the agent integrates with
  bool orcaTier = false;
  int neighbors = 0;          // within the perception radius
  Vec3 weights{0.0f};         // the rule weights used
};

// The whole pipeline for one agent on a given state, with any search that follows the contract of
// neighbors.hpp (indices into `velocities`). This is the reference the step is tested against: the
// step runs the same stages, in phases over all agents and with its rule sums taken in another order.
template <class Search>
PipelineVelocities agentPipeline(const FinaleParams& p, uint32_t self, const Vec2& position, const Vec2& velocity,
                                 const Vec2& target, const Search& search, std::span<const Vec2> velocities,
                                 std::span<const CircleObstacle> circles, std::span<const orca::Segment> segments,
                                 bool orcaTier, float dt) {
  PipelineVelocities out;
  out.orcaTier = orcaTier;
  RuleSums sums;
  search.forEachInRadius(self, position, p.perceptionRadius,
                         [&](uint32_t j, const Vec2& off, float d2) { addNeighbor(sums, p, off, d2, velocities[j]); });
  out.neighbors = sums.perceivedCount;
  out.preferred = preferredVelocity(p, position, velocity, target, orcaTier ? std::span<const CircleObstacle>{} : circles);
  out.weights = ruleWeights(p, sums, position, velocity, target);
  out.boidsCorrected = boidsCorrectedVelocity(p, out.preferred, velocity, sums, out.weights);
  if (orcaTier) {
    out.orcaInput = out.boidsCorrected;
    out.final = orca::newVelocity(self, position, velocity, out.orcaInput, search, velocities, segments,
                                  p.orcaParams(), dt).velocity;
  } else {
    out.final = boidsTierVelocity(p, velocity, out.boidsCorrected, dt);
  }
  return out;
}

// ---- the crowd ----

class FinaleSim {
 public:
  FinaleParams params;
  World<2> world;          // bounded: the walls are ORCA obstacles, and bounce the others
  Vec2 target{0.0f};       // kept inside the world

  // A world that holds n agents at a comfortable density: at least 1280 x 720, 16:9.
  static World<2> worldFor(size_t n);

  // n agents on a jittered lattice over the world, clear of the obstacles and of each other, at rest.
  void spawn(size_t n, uint64_t seed);
  // Agents exactly where given (tests, presets of a known situation); ids 0..n-1 in that order.
  void setAgents(std::span<const Vec2> positions, std::span<const Vec2> velocities);
  // Replaces the obstacles by `count` random circles that overlap no agent, no other obstacle and
  // leave room for agents between them. Returns how many fitted (fewer when the world is full).
  int dropObstacles(int count, uint64_t seed);
  void clearObstacles();
  void setObstacles(std::span<const CircleObstacle> circles);
  std::span<const CircleObstacle> obstacles() const { return obstacles_; }
  // What ORCA sees as static obstacles in the last step: the circles, then the four walls.
  std::span<const orca::Segment> orcaObstacles() const { return allSegments_; }

  void step(float dt);

  size_t size() const { return position_.size(); }
  // Current state in the agents' current (cell) order; id()[k] names agent k for good.
  std::span<const Vec2> positions() const { return position_; }
  std::span<const Vec2> velocities() const { return velocity_; }
  std::span<const uint32_t> ids() const { return id_; }
  // Per agent, from the last step: in the ORCA tier, neighbours within the perception radius.
  std::span<const uint8_t> orcaTier() const { return tier_; }
  std::span<const uint16_t> neighborCounts() const { return neighbors_; }
  // Agent k's (current order) velocities at every stage of the last step.
  PipelineVelocities lastPipeline(size_t k) const;

  struct Timings {
    double gridMs = 0, rulesMs = 0, orcaMs = 0, integrateMs = 0, stepMs = 0;
  };
  struct Metrics {
    uint64_t overlaps = 0;       // pairs closer than 0.99 * 2r at the start of the last step
    uint32_t inObstacle = 0;     // agents overlapping an obstacle by more than 1% of their radius, after it
    double meanSpeed = 0;
    uint32_t nanCount = 0;       // agents whose new velocity or position was not finite (they were held)
    uint32_t orcaTier = 0, boidsTier = 0;
    double meanNeighbors = 0;    // within the perception radius
    uint32_t maxNeighbors = 0;
    uint32_t infeasible = 0;     // ORCA programs that needed the fallback
    uint64_t checks = 0;         // distance checks of the neighbour search
    double arrivedShare = 0;     // agents that have been within arrivalRadius() of the target since the reset
    double meanArrivalSeconds = 0;  // mean time of that first arrival, agents still out counted at the current time
  };
  const Timings& timings() const { return timings_; }
  const Metrics& metrics() const { return metrics_; }
  // The same and the step's time by name, as the command line and the HUD know them.
  void appendMetrics(std::vector<Metric>& out) const;

  // An agent has reached the target within this distance of it: the disc that holds the whole crowd
  // at about three radii apart, so every agent can get there without overlapping.
  float arrivalRadius() const;
  double time() const { return time_; }  // simulated seconds since the agents were placed

  // Overlapping pairs (closer than 0.99 * 2r) and agents in obstacles on the current state, exact.
  uint64_t countOverlaps() const;
  uint32_t countInObstacle() const;

 private:
  void resetAgents();  // ids and per-agent figures for a fresh position_ / velocity_
  void resizeBuffers(size_t n);
  void buildObstacleBins();
  void gatherPhase(float dt);
  void orcaPhase(float dt);
  void integratePhase(float dt);
  // Which obstacle bin a position is in: a value each phase's loop keeps in registers.
  UniformGrid<2>::CellMapping obstacleBins() const {
    return {world.min, Vec2(invBinSize_), Vec2(float(binsX_ - 1), float(binsY_ - 1)), {binsX_, binsY_}};
  }
  std::span<const orca::Segment> segmentsIn(size_t bin) const {
    return {binSegments_.data() + segmentStart_[bin], segmentStart_[bin + 1] - segmentStart_[bin]};
  }
  std::span<const CircleObstacle> circlesIn(size_t bin) const {
    return {binCircles_.data() + circleStart_[bin], circleStart_[bin + 1] - circleStart_[bin]};
  }

  std::vector<Vec2> position_, velocity_;
  std::vector<uint32_t> id_;
  std::vector<CircleObstacle> obstacles_;
  UniformGrid<2> grid_;
  std::vector<Vec2> vec2Scratch_;
  std::vector<uint32_t> idScratch_;

  // Per agent (current order), written by the phases.
  std::vector<Vec2> preferred_, corrected_, orcaVelocity_;
  std::vector<Vec3> weights_;  // the rule weights each agent used
  std::vector<float> arrivedAt_;  // by id: first time within arrivalRadius() of the target, -1 before
  double time_ = 0;
  std::vector<uint8_t> tier_;
  std::vector<uint16_t> neighbors_;
  std::vector<uint32_t> overlaps_, checks_;
  int neighborCapacity_ = 10;
  std::vector<uint32_t> neighborIndex_;  // neighborCapacity_ per agent: ORCA's neighbours
  std::vector<uint8_t> neighborCount_, feasible_, inObstacle_, notFinite_;
  // Positions and velocities one axis at a time, padded so vector loops may read past the end.
  static constexpr size_t kPadding = 16;
  std::vector<float> posX_, posY_, velX_, velY_;
  std::vector<float> speed_;
  // Deterministic reductions: fixed blocks of agents summed in order, whatever the thread count.
  struct BlockSums {
    double speed = 0, neighbors = 0;
    uint64_t overlaps = 0, checks = 0;
    double arrival = 0;
    uint32_t inObstacle = 0, notFinite = 0, orcaTier = 0, infeasible = 0, maxNeighbors = 0, arrived = 0;
  };
  std::vector<BlockSums> blockSums_;

  // Obstacles binned over the world, so an agent looks only at the few near it: per bin, the
  // segments (circles and walls, for ORCA) and the circles (steering, the in-obstacle count) that
  // can matter to an agent anywhere in the bin.
  float binSize_ = 64.0f, invBinSize_ = 1.0f / 64.0f;
  int binsX_ = 1, binsY_ = 1;
  std::vector<uint32_t> segmentStart_, circleStart_, binCursor_;
  std::vector<orca::Segment> binSegments_;
  std::vector<CircleObstacle> binCircles_;
  std::vector<orca::Segment> allSegments_;

  Timings timings_;
  Metrics metrics_;
};

}  // namespace sim
