// orca::Crowd: a stateful crowd of ORCA agents, a model; the program builder and the solver it
// uses are ORCA's rules (sim/rules/orca.hpp).
#pragma once
#include <algorithm>
#include <atomic>
#include <memory>
#include <span>
#include <vector>
#include "sim/core/grid.hpp"
#include "sim/core/math.hpp"
#include "sim/core/neighbors.hpp"
#include "sim/core/parallel.hpp"
#include "sim/rules/orca.hpp"

namespace sim::orca {

// A crowd of equal ORCA agents (with optional static obstacles): structure of arrays, neighbours
// from a uniform grid rebuilt every step. Its owner sets preferred() before each step.
//
// Why plain ORCA lets agents overlap, and what this class does about it.
// The velocity obstacle is a continuous-time promise: a relative velocity outside VO(tau) keeps the
// pair apart for tau, and since an agent really does move in a straight line during a step, a
// feasible program never lets a pair overlap. But ORCA linearises each pair around the current
// velocities, and in a dense crowd the half-planes often leave nothing (a fifth of all agent-steps
// in the circle of 250). The classic fallback then returns the velocity that violates the agent
// half-planes least -- a relative velocity inside some velocity obstacle. How deep it may go is
// not bounded by anything that knows about the step. And the pairs that matter are touching: the
// program's optimum lies on a half-plane's boundary, so a constrained pair ends every step exactly on
// the edge of its obstacle and, step after step, closes its gap geometrically until it touches
// (distance 2r, no slack). For a touching pair every approaching relative velocity is a collision
// within the next dt, so any violation at all becomes overlap -- in the classic circle of 250,
// pairs at about 0.78 of the contact distance.
// The cure keeps what the fallback may give up away from what a step needs. Every pair that could
// touch within one step (centres closer than 2r + 2 * maxSpeed * dt) gets, in both agents'
// programs, a hard Step plane (see stepHalfPlane: close at most half the gap within dt); farther
// pairs cannot close their gap in one step at max speed, so their Step planes could never bind.
// Step planes of non-overlapping agents all contain v = 0, as do the Wall planes, so the hard part
// of every program is feasible and the fallback only trades among the tau-horizon Agent planes:
// whatever it gives up, no pair ends a step closer than 2r. Agents within that one-step reach are
// always kept as neighbours, beyond maxNeighbors if need be, so no pair is seen by one side only.
// A feasible program is changed only where ORCA's own half-planes would allow a pair to close more
// than its gap in one step -- a velocity already deep inside the pair's velocity obstacle.
class Crowd {
 public:
  Params params;
  std::vector<Segment> obstacles;
  // Optional obstacle subsets: agent i sees obstacles[set.begin .. set.begin + set.count) with
  // set = obstacleSets[obstacleSet[i]]. Both empty: every agent sees every obstacle.
  struct Range {
    uint32_t begin = 0, count = 0;
  };
  std::vector<Range> obstacleSets;
  std::vector<uint8_t> obstacleSet;
  bool stepSafety = true;  // the Step planes described above; false: classic ORCA

  // Figures of the state a step started from (pairs: those within the neighbour distance).
  struct Stats {
    uint64_t checks = 0;
    uint64_t neighbors = 0;       // neighbours each agent's program used, summed over agents
    uint64_t overlaps = 0;        // pairs closer than 0.99 * 2r
    uint64_t infeasible = 0;      // agents whose program needed the fallback
    float minDistance = 3.4e38f;  // closest pair within the neighbour distance
    // Grids the step built while it ran (a part's own; one a helper prepared between steps, or the
    // first part's copy of it, is not counted): how much of the indexing is on the step's clock.
    uint64_t gridsBuilt = 0;
    void add(const Stats& o) {
      gridsBuilt += o.gridsBuilt;
      checks += o.checks;
      neighbors += o.neighbors;
      overlaps += o.overlaps;
      infeasible += o.infeasible;
      minDistance = std::min(minDistance, o.minDistance);
    }
  };

  size_t size() const { return position_.size(); }
  // The agents' arrays change size only here (new agents at the origin, still), so step() needs no
  // guard against an array resized behind its back; their values are the owner's to write.
  void resize(size_t n);
  void setAgents(std::span<const Vec2> positions, std::span<const Vec2> velocities);  // preferred: zero
  std::span<Vec2> positions() { return position_; }
  std::span<Vec2> velocities() { return velocity_; }
  std::span<Vec2> preferred() { return preferred_; }
  std::span<const Vec2> positions() const { return position_; }
  std::span<const Vec2> velocities() const { return velocity_; }
  std::span<const Vec2> preferred() const { return preferred_; }
  // New velocities from the current state (in parallel, each agent writing its own slot), then
  // position += velocity * dt.
  void step(float dt);
  const Stats& lastStats() const { return stats_; }
  // The same figures for the current state, without stepping.
  Stats measure() const;
  // Agent i's program on the current state, for drawing.
  void probe(size_t i, float dt, Probe& out) const;

 private:
  // A part's arrays reused from agent to agent (orca_crowd.cpp), made at its first step.
  struct Scratch;
  struct ScratchDeleter {
    void operator()(Scratch* s) const;
  };
  // One thread's share of a step: its own grid and cell-ordered copies (see step()).
  struct alignas(64) Part {  // on cache lines of its own: each is written by its own thread
    std::unique_ptr<Scratch, ScratchDeleter> scratch;
    UniformGrid<2> grid;
    std::vector<Vec2> velocityByCell, preferredByCell;
    std::vector<float> queryRadiusByCell;
    // In a short region, a part but the first keeps its own copy of the agents' state, brought up
    // to date from the last step's results instead of read again from the arrays the first part's
    // thread wrote back (see step()).
    std::vector<Vec2> position, velocity;
    std::vector<float> queryRadius;
    uint64_t builtAt = 0;  // the step its grid and its copy are from (0: none); this step's if it took chunks
    Stats stats;
    // Set by the part's helper between steps (see Work::prepare): the step its copy, grid and
    // cell-ordered velocities are ready for (0: none); its grid's neighbour distance is last's.
    uint64_t preparedFor = 0;
    float preparedNeighborDist = 0.0f;  // the neighbour distance of that grid (written with preparedFor)
    // What that needs of the step just run, written by the thread that ran the part.
    struct Last {
      uint64_t step = 0;
      size_t parts = 0;
      float dt = 0.0f, neighborDist = 0.0f;
    } last;
    // The copy brought up to a step's results (cell order of this part's grid, as the put-back).
    void advanceCopy(const Vec2* resultVelocity, const float* resultQueryRadius, float dt);
    // The grid built on `position` and the velocities put in its cell order.
    void index(const Vec2* position, const Vec2* velocity, float neighborDist);
  };
  struct alignas(64) Flag {  // a step number on a cache line of its own
    std::atomic<uint64_t> step{0};
  };
  // Everything a part's helper touches between steps, on the heap: it stays put when the crowd is
  // moved, and its destructor waits for helpers still at work on it.
  struct Work {
    std::vector<Part> parts;
    // Per part: the last step whose chunks it has finished, and the last step whose after-step call
    // it has had (see step()); and, the caller's own, the last step whose region may have left it a
    // helper's work.
    std::unique_ptr<Flag[]> chunksDone, afterDone;
    std::vector<uint64_t> afterIssued;
    // In cell order, each chunk's slots written by the thread that solved it. Two of each, this
    // step's and the last step's (by the step's parity): the parts' copies are brought up to date
    // from the last step's while this step's are being written.
    std::vector<Vec2> nextVelocity[2];
    std::vector<float> nextQueryRadius[2];
    Work() = default;
    Work(const Work&) = delete;
    Work& operator=(const Work&) = delete;
    ~Work() { waitForHelpers(0); }
    void waitForHelpers(size_t firstPart) const;
    void prepare(size_t p);  // on part p's helper, after a step (see step())
    static void afterPart(void* work, size_t p, bool onHelper);
  };
  void buildGrid(UniformGrid<2>& grid) const;  // on the agents' positions
  template <class Out>
  void solveCells(const UniformGrid<2>& grid, const Vec2* velocityByCell, const Vec2* preferredByCell,
                  const float* queryRadiusByCell, size_t first, size_t last, float dt, Scratch& scratch, Out& out) const;
  std::span<const Segment> obstaclesOf(uint32_t agent) const;

  std::vector<Vec2> position_, velocity_, preferred_;
  std::vector<float> queryRadius_;  // per agent: a radius that held its k nearest last step (see solveCells)
  std::unique_ptr<Work> work_ = std::make_unique<Work>();
  // What the last put-back of a short region on several parts wrote: an owner who has written
  // positions or velocities since shows as a difference, and the parts read their copies afresh.
  std::vector<Vec2> putPosition_, putVelocity_;
  uint64_t steps_ = 0;
  float lastDt_ = 0.0f;
  struct alignas(64) ChunkClaim {  // a part's block of chunks: the next to take, and its end
    std::atomic<size_t> next{0};
    size_t end = 0;
    uint64_t waitFor = 0;  // the step whose after-step work on this part must be done first
  };
  std::vector<ChunkClaim> claims_;
  size_t partsSizedFor_ = 0;  // the crowd size the parts' arrays were last sized for
  int capacity_ = 10;
  Stats stats_;
};

}  // namespace sim::orca
