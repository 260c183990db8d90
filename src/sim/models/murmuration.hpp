// Murmuration: starlings that each react to their k nearest neighbours, whatever the distance
// (Ballerini et al. 2008, PNAS: about 6-7, "topological"), or for comparison to every bird within a
// radius ("metric"). Reynolds' three rules over those neighbours, speed limits, a soft roost that
// turns birds back, and a falcon: birds that see it startle and flee, and the fear spreads ONLY
// along the neighbour graph, one hop per reaction delay, so the wave is visible.
//
// 3D (D = 3) by default, 2D for the article's planar version; units are metres and seconds.
// Every step rebuilds a uniform grid and puts the birds in cell order (so indices change: follow a
// bird by `id`); each bird's new state is computed from the previous state only, in parallel, so
// the result is the same for any thread count. No allocation per step once N is reached.
#pragma once
#include <cstdint>
#include <span>
#include <vector>
#include "sim/core/grid.hpp"
#include "sim/core/math.hpp"
#include "sim/core/metric.hpp"
#include "sim/core/metrics.hpp"
#include "sim/core/rng.hpp"
#include "sim/rules/boids.hpp"

namespace sim {

struct MurmurationParams {
  int k = 7;                        // topological neighbours, 1..kMaxNeighbors
  bool metric = false;              // instead: every bird within `radius`
  float radius = 4.0f;              // metric neighbourhood, metres
  BoidsWeights weights{1.5f, 1.0f, 0.5f};
  float separationDistance = 2.0f;  // neighbours closer than this push away (about the flock's spacing)
  float noise = 0.8f;               // random steering, on the rules' scale: keeps the flock lively
  float speed = 12.0f;              // cruise speed (m/s); birds fly between 0.7x and 1.3x of it
  float maxAcceleration = 30.0f;    // steering limit, m/s^2
  float roostRadius = 80.0f;        // past this (from roostCenter) a steering term turns birds back
  float roostPull = 0.3f;           // the steady pull towards the roost centre (at the roost radius), on
                                    // the rules' scale: a hidden global cohesion; 0 leaves only the turn-back
  float falconSeconds = 2.0f;       // how long an alarm's falcon stays
  float sightRadius = 8.0f;         // birds closer to the falcon than this see it
  float reactionDelay = 0.08f;      // a startled bird alarms its neighbours after this (per hop)
  float fearSeconds = 2.5f;         // how long a startle lasts
  float refractorySeconds = 2.0f;   // after calming, neighbours cannot startle a bird again for this long
  float fearQuorum = 0.2f;          // share of a bird's neighbours that must be alarming (at least one)
  float fleeBoost = 1.6f;           // a freshly startled bird's speed and steering limits grow by this
  float groupLink = 10.0f;          // metrics: birds closer than this many body lengths are one group

  bool operator==(const MurmurationParams&) const = default;
};

template <int D>
class Murmuration {
 public:
  static constexpr int kMaxNeighbors = 30;  // largest k
  static constexpr float kCalm = 1e6f;  // fear age of a bird that was never startled
  // The model's bird, for measures in body lengths: the separation distance (2 m) is 4 of them.
  static constexpr float kBodyLength = 0.5f;

  struct Falcon {
    bool active = false;
    Vec<D> position{0.0f}, velocity{0.0f};
    float timeLeft = 0.0f;
  };

  // What the flock looks like now (measure()).
  struct Metrics {
    double polarization = 0;   // |mean unit heading|: 0 disorder, 1 all the same way
    int groups = 0;            // pieces of birds linked by params.groupLink body lengths (never by the k graph)
    double largestGroup = 0;   // share of the birds in the largest of those groups
    double velocityFluctuation = 0;  // RMS |v_i - V| / |V| (Cavagna et al. 2010): the flock's inner motion
    double extent = 0;         // flock diameter: 2 x RMS distance of the birds from their centroid
    double meanNearest = 0;    // mean nearest-neighbour distance
    int startled = 0;          // birds startled now
  };

  MurmurationParams params;
  Vec<D> roostCenter{0.0f};

  // Birds, structure of arrays, in the order of the last step's grid. `ids()` are stable. The
  // model's functions alone change them.
  std::span<const Vec<D>> positions() const { return position_; }
  std::span<const Vec<D>> velocities() const { return velocity_; }
  std::span<const uint32_t> ids() const { return id_; }
  std::span<const float> fearAges() const { return fearAge_; }  // seconds since last startled (kCalm: never)

  size_t size() const { return position_.size(); }

  // Birds exactly where given, calm, ids 0..n-1 in that order (tests, set pieces).
  void setBirds(std::span<const Vec<D>> positions, std::span<const Vec<D>> velocities);
  // New velocities for the birds there are, in their current order.
  void setVelocities(std::span<const Vec<D>> velocities);

  // n birds in a ball around the roost centre, params.separationDistance apart, flying roughly one way.
  void spawn(size_t n, uint64_t seed);
  // Keeps the birds there are; adds new ones near existing ones, or drops the last ones.
  void resizeKeeping(size_t n);

  void step(float dt);

  // The falcon appears at a random spot near the flock (seeded: same seed, same falcon) and dives
  // through the flock's centre for params.falconSeconds.
  void alarm();
  // The falcon appears at p and dives towards the flock's centre for params.falconSeconds.
  void placeFalcon(const Vec<D>& p);
  // The falcon appears at p and flies with this velocity (zero: it hovers) for params.falconSeconds.
  void placeFalcon(const Vec<D>& p, const Vec<D>& velocity);
  const Falcon& falcon() const { return falcon_; }

  bool startled(size_t i) const { return fearAge_[i] < params.fearSeconds; }
  // 0..1: how strongly bird i is startled now (1 just startled, 0 calm).
  float fear(size_t i) const;
  double time() const { return time_; }

  // The neighbours bird i reacted to in the last step, as current indices (topological mode only;
  // metric mode leaves it empty).
  std::span<const uint32_t> neighborsOf(size_t i) const;

  // Exact metrics of the current state (builds its own grids; cost O(N)).
  Metrics measure();
  // The same by name: polarization, groups, largest_group_share, velocity_fluctuation, extent,
  // mean_nn_distance, startled.
  void appendMetrics(std::vector<Metric>& out);

  Vec<D> centroid() const;

 private:
  // The k-neighbour lists of a grid's birds, in its sorted order, nearest first: lists[i * k + m]
  // (k is never above N - 1, so every list is full); distSq alike, when asked for.
  struct NeighborLists {
    std::vector<uint32_t> lists;
    std::vector<float> distSq;
    int k = 0;
  };

  void emptyStorage(size_t n);  // a new flock of n: every per-bird array emptied, then sized
  void resizeStorage(size_t n);
  int effectiveK() const;
  void buildGrid(UniformGrid<D>& grid, std::span<const Vec<D>> points, float cellSize) const;
  void findNearest(const UniformGrid<D>& grid, int k, NeighborLists& out, bool withDistances,
                   std::span<const uint32_t> hints = {}, size_t hintsPerBird = 0) const;
  // Last step's neighbour lists in this step's order (grid_ just reordered the birds), as hints for
  // the k-nearest search: a flock moves little in a step, so they are nearly this step's lists.
  std::span<const uint32_t> lastNeighborsAsHints();
  void launchFalcon(const Vec<D>& from, const Vec<D>& aim);
  float rmsRadius(const Vec<D>& center) const;

  std::vector<Vec<D>> position_, velocity_;
  std::vector<uint32_t> id_;
  std::vector<float> fearAge_;   // seconds since the bird was last startled (kCalm: never)
  std::vector<Vec<D>> fleeDir_;  // escape direction of its last startle (unit)
  size_t primedFor_ = size_t(-1);  // N the grids' cell arrays were last sized for
  float time_ = 0.0f;
  uint64_t seed_ = 1, stepCount_ = 0;
  Rng rng_{1};
  Falcon falcon_;
  UniformGrid<D> grid_, measureGrid_;
  NeighborLists neighbors_, measureNeighbors_;
  std::vector<Vec<D>> nextPosition_, nextVelocity_, nextFleeDir_, scratchVec_;
  std::vector<float> nextFearAge_, scratchFloat_;
  std::vector<uint32_t> scratchId_;
  std::vector<uint32_t> newIndexOf_, hints_;  // lastNeighborsAsHints()
  GroupScratch<D> groupScratch_;
};

extern template class Murmuration<2>;
extern template class Murmuration<3>;

}  // namespace sim
