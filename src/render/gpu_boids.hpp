// The boids flock simulated in OpenGL 4.3 compute shaders (shaders/boids_*.comp): the GPU twin of
// sim::Flock<2> with the grid, same rules and parameters. The agents live in one GPU buffer that the
// renderer draws from directly (AgentBatch::gpu, an indirect draw); nothing comes back per step.
//
//   grid build:  count per cell (atomics) -> prefix sum -> scatter into cell order -> order by id
//   rules:       3x3 cells around each agent, softNormalize fades, integrate, wrap
//
// Needs a current context with 4.3 (see computeSupport()). Every call must come from the GL thread.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>
#include <glm/glm.hpp>
#include "sim/core/world.hpp"
#include "sim/rules/boids.hpp"

namespace render {

// Whether the current context can run compute shaders, and if not, a sentence saying why.
// CROWDLAB_GL=3.3 (any version below 4.3) makes it answer as a 3.3 context would, to test the fallback.
struct ComputeSupport {
  bool available = false;
  std::string reason;
};
ComputeSupport computeSupport();

class GpuBoids {
 public:
  struct Timings {
    double gridMs = 0, rulesMs = 0;  // GPU time from timestamp queries
    bool valid = false;
    double totalMs() const { return gridMs + rulesMs; }
  };

  GpuBoids() = default;
  GpuBoids(const GpuBoids&) = delete;
  GpuBoids& operator=(const GpuBoids&) = delete;
  ~GpuBoids() { shutdown(); }

  // Compiles the passes and makes the query objects. False with a message when it cannot.
  bool init(std::string& error);
  void shutdown();
  bool ready() const { return programs_[0] != 0; }

  // Puts agents on the GPU in the given order; ids travel with them. The grid has the cells
  // sim::UniformGrid makes for `world` (which must wrap) and `cellSize` (at least the search radius).
  void upload(std::span<const glm::vec2> positions, std::span<const glm::vec2> velocities,
              std::span<const uint32_t> ids, const sim::World<2>& world, float cellSize);
  // One step: grid build, rules, integrate. Issues work only; does not wait for it.
  // With `wallClock`, waits for the GPU (glFinish) before, between and after the two halves and
  // writes their wall times there: the benchmark's split on drivers whose timestamps are taken
  // lazily (Mesa's llvmpipe records them at its next flush, which puts the whole step in one half).
  void step(const sim::BoidsParams& params, float dt, Timings* wallClock = nullptr);
  // Reads the state back, in the current (cell) order. Waits for the GPU: for tests, and for
  // handing the agents back to the CPU. Any pointer may be null.
  void download(std::vector<glm::vec2>* positions, std::vector<glm::vec2>* velocities, std::vector<uint32_t>* ids,
                std::vector<uint32_t>* neighborCounts) const;

  // The newest step whose timer queries have finished, without waiting (invalid until one has).
  Timings latestTimings();
  // Waits for the last step to finish and returns its timings (the benchmark).
  Timings finishTimings();

  size_t size() const { return count_; }
  unsigned stateBuffer() const { return buffers_[kState]; }       // vec4 per agent: position.xy, velocity.xy
  unsigned indirectBuffer() const { return buffers_[kIndirect]; }  // DrawArraysIndirectCommand
  glm::ivec2 cellsPerAxis() const { return dims_; }

 private:
  enum Buffer { kState, kSorted, kIds, kSortedIds, kCellCount, kCellStart, kAgentCell, kAgentRank, kBlockSums,
                kNeighbors, kIndirect, kBufferCount };  // the binding points of boids_common.comp
  enum Program { kCount, kScan, kScatter, kStep, kProgramCount };
  static constexpr int kQueryRing = 4;  // steps in flight before a timer query is reused

  void setGridUniforms(unsigned program) const;
  Timings readQueries(int slot);

  unsigned programs_[kProgramCount] = {};
  unsigned buffers_[kBufferCount] = {};
  unsigned queries_[kQueryRing][3] = {};
  bool queryPending_[kQueryRing] = {};
  int nextQuery_ = 0;
  Timings latest_;
  size_t count_ = 0;
  uint32_t cells_ = 0, blocks_ = 0;
  glm::ivec2 dims_{1};
  sim::World<2> world_;
  glm::vec2 invExtent_{1.0f};
};

}  // namespace render
