// Pedestrians in SI units (metres, seconds), measured the way pedestrian experiments measure people:
//  - Corridor: a periodic corridor (x wraps) at a set density, everyone walking east. Mean speed,
//    density and specific flow are taken in a measurement area 2 m long in the middle, after a
//    transient, and compared with Weidmann's fundamental diagram.
//  - Bottleneck: a room of N people emptying through a door of width w; flow through the door, its
//    specific flow (per metre of width) and the time for everyone to leave.
//  - CounterFlow: the periodic corridor with half walking each way; the lanes are measured, not
//    drawn: a band order parameter (whether the agents in one's lateral band walk one's way) and the
//    lanes counted across the width.
// Methods: separation (boids' push apart), ORCA, ORCA with lanes (keep to the right-hand half in
// counter-flow, turn right when blocked), and the social force model (sim/rules/social_force.hpp).
// Every method reads the previous state and writes each agent's own slot, in parallel over agents
// on the same grid: the results do not depend on the thread count.
//
// Coordinates: x along the corridor (east), y across it, y up; the corridor is centred on the
// origin. Bottleneck: the room is x in [-depth, 0], the door in the wall x = 0 at |y| < w / 2.
#pragma once
#include <cstdint>
#include <span>
#include <vector>
#include "sim/core/grid.hpp"
#include "sim/core/math.hpp"
#include "sim/core/metric.hpp"
#include "sim/core/world.hpp"
#include "sim/rules/orca.hpp"
#include "sim/rules/social_force.hpp"

namespace sim {

enum class PedSetup : int { Corridor = 0, Bottleneck = 1, CounterFlow = 2 };
enum class PedMethod : int { Separation = 0, Orca = 1, OrcaLanes = 2, SocialForce = 3 };

// Weidmann (1993): walking speed against density, v0 (1 - exp(-gamma (1/rho - 1/rhoMax))), with
// v0 = 1.34 m/s, gamma = 1.913 /m^2, rhoMax = 5.4 /m^2; 0 at and beyond rhoMax.
double weidmannSpeed(double density);
// The experiments' band of specific flow through a bottleneck, persons per metre per second
// (Seyfried et al. 2009, Kretz et al. 2006, widths 0.8-2.5 m).
inline constexpr double kBottleneckFlowLow = 1.6, kBottleneckFlowHigh = 2.2;

struct PedestrianParams {
  PedSetup setup = PedSetup::Corridor;
  PedMethod method = PedMethod::SocialForce;
  float density = 2.0f;          // persons per m^2 (corridor and counter-flow)
  float corridorLength = 16.0f;  // m (periodic)
  float corridorWidth = 3.0f;    // m
  int people = 100;              // bottleneck: people in the room
  float doorWidth = 1.2f;        // m
  float radius = 0.2f;           // m, every body
  float meanSpeed = 1.34f;       // m/s: preferred speeds drawn around it ...
  float speedSpread = 0.26f;     // ... with this standard deviation (cut at 0.3 and 2.3)
  float maxSpeed = 2.5f;         // m/s
  float warmup = 10.0f;          // s before the measurement opens (the transient)
  float orcaTau = 1.5f;          // s: ORCA's horizon against agents
  int substeps = 2;              // social force: integration steps per step (it is stiff on contact)
  sfm::Params social{};
  uint64_t seed = 1;

  bool operator==(const PedestrianParams&) const = default;
};

struct PedestrianMetrics {
  // Corridor set-ups, in the measurement area, from the warm-up on (running means).
  double density = 0, meanSpeed = 0, specificFlow = 0;
  double weidmann = 0, weidmannError = 0;  // Weidmann's speed at the measured density; |v / that - 1|
  double densityNow = 0, speedNow = 0;     // the area now
  double overlapShare = 0;                 // share of agents in the area touching another (closer than 0.99 * 2r)
  double laneOrder = 0, lanes = 0;         // counter-flow: band order (0 mixed, 1 lanes), lanes across the width
  // Bottleneck.
  int exited = 0;
  double flow = 0;            // persons per second between the 10th and the 90th percentile of leaving
  double evacuationTime = 0;  // s until the last one left (0 while anyone is inside)
  double flowNow = 0;         // persons per second over the last 2 s
};

class PedestrianSim {
 public:
  explicit PedestrianSim(const PedestrianParams& params = {});
  void reset(const PedestrianParams& params);
  void reset() { reset(params_); }
  void step(float dt);

  const PedestrianParams& params() const { return params_; }
  PedestrianParams& params() { return params_; }  // edit in place, then reset()
  size_t size() const { return pos_.size(); }      // bottleneck: those still in (those out are removed)
  double time() const { return time_; }

  std::span<const Vec2> positions() const { return pos_; }
  std::span<const Vec2> velocities() const { return vel_; }
  std::span<const int8_t> directions() const { return dir_; }  // +1 walks east, -1 west
  std::span<const orca::Segment> walls() const { return walls_; }
  std::span<const double> exitTimes() const { return exitTimes_; }  // bottleneck: when each walker passed the door
  // The measurement area (corridor set-ups): x in [-1, 1], the corridor's width.
  static constexpr float kAreaHalfLength = 1.0f;
  float halfLength() const { return 0.5f * params_.corridorLength; }
  float halfWidth() const { return 0.5f * params_.corridorWidth; }
  float roomDepth() const { return roomDepth_; }
  float roomHalfHeight() const { return roomHalfHeight_; }
  bool periodic() const { return params_.setup != PedSetup::Bottleneck; }

  const PedestrianMetrics& metrics() const { return metrics_; }
  void appendMetrics(std::vector<Metric>& out) const;

 private:
  void buildGeometry();
  void spawn();
  void buildGrid(float cellSize);
  Vec2 desired(size_t i) const;  // preferred velocity
  void socialForceStep(float h);
  void velocityStep(float dt);   // separation and ORCA
  void afterMove(float dt);
  void measure(float dt);

  PedestrianParams params_;
  std::vector<Vec2> pos_, vel_, newVel_, velByCell_;
  std::vector<float> velAxis_[2];  // velByCell_ one axis at a time, padded for whole registers
  std::vector<float> speed0_;
  std::vector<int8_t> dir_;
  std::vector<orca::Segment> walls_;
  std::vector<double> exitTimes_;
  UniformGrid<2> grid_;
  World<2> box_;
  float roomDepth_ = 0, roomHalfHeight_ = 0;
  double time_ = 0;
  // Running sums of the measurement.
  double samples_ = 0, countSum_ = 0, speedSum_ = 0;
  std::vector<float> laneBins_;
  double laneOrderSum_ = 0, lanesSum_ = 0, laneSamples_ = 0;
  PedestrianMetrics metrics_;
};

const char* pedMethodName(PedMethod m);

}  // namespace sim
