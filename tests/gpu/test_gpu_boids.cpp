// The compute-shader flock (render::GpuBoids) against the CPU flock (sim::Flock<2> with the grid):
// from the same positions and velocities, one step gives the same neighbour counts per agent and
// velocities within a float-summation tolerance. Needs a display (ctest runs under xvfb-run; Mesa's
// llvmpipe offers OpenGL 4.5 with compute shaders).
#include <gtest/gtest.h>

#include <SDL.h>
#include <algorithm>
#include <cmath>
#include "render/agent_batch.hpp"
#include "render/gl.hpp"
#include "render/gpu_boids.hpp"
#include "render/renderer.hpp"
#include "sim/models/flock.hpp"

namespace {

constexpr float kDt = 1.0f / 60.0f;

// A hidden window with a core context, for the whole test program.
class GlContext : public ::testing::Environment {
 public:
  void SetUp() override {
    if (SDL_Init(SDL_INIT_VIDEO) != 0) return;
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
    window = SDL_CreateWindow("gpu test", 0, 0, 64, 64, SDL_WINDOW_OPENGL | SDL_WINDOW_HIDDEN);
    if (window) context = SDL_GL_CreateContext(window);
    if (context) loaded = gladLoadGL(reinterpret_cast<GLADloadfunc>(SDL_GL_GetProcAddress)) != 0;
  }
  void TearDown() override {
    if (context) SDL_GL_DeleteContext(context);
    if (window) SDL_DestroyWindow(window);
    SDL_Quit();
  }
  SDL_Window* window = nullptr;
  SDL_GLContext context = nullptr;
  bool loaded = false;
};
GlContext* gl = static_cast<GlContext*>(::testing::AddGlobalTestEnvironment(new GlContext));

// Fails (not skips) without a 4.3 context: on the CI machine Mesa always provides one.
#define REQUIRE_COMPUTE()                                                                                     \
  ASSERT_TRUE(gl->loaded) << "no OpenGL context: run under xvfb-run -a";                                      \
  {                                                                                                           \
    render::ComputeSupport support = render::computeSupport();                                                \
    ASSERT_TRUE(support.available) << support.reason;                                                         \
  }

sim::Flock<2> makeFlock(size_t n, sim::Vec2 worldSize, float radius, uint64_t seed) {
  sim::Flock<2> f;
  f.world.size = worldSize;
  f.world.boundary = sim::Boundary::Wrap;
  f.method = sim::NeighborMethod::Grid;
  f.params.perceptionRadius = radius;
  f.params.separationRadius = radius * 0.4f;
  f.cellSize = radius;
  f.spawn(n, seed);
  return f;
}

struct GpuResult {
  std::vector<glm::vec2> position, velocity;
  std::vector<uint32_t> id, neighbors;
};

GpuResult gpuStep(const sim::Flock<2>& f, int steps = 1) {
  render::GpuBoids gpu;
  std::string error;
  EXPECT_TRUE(gpu.init(error)) << error;
  gpu.upload(f.positions(), f.velocities(), f.ids(), f.world, f.cellSize);
  for (int s = 0; s < steps; ++s) gpu.step(f.params, kDt);
  GpuResult r;
  gpu.download(&r.position, &r.velocity, &r.id, &r.neighbors);
  return r;
}

// One step on both from the same state; compares agent by agent (matched by id).
void expectAgreement(sim::Flock<2> f) {
  const GpuResult g = gpuStep(f);
  f.step(kDt);
  ASSERT_EQ(g.id.size(), f.size());
  std::vector<size_t> cpuIndex(f.size(), f.size());
  for (size_t k = 0; k < f.size(); ++k) cpuIndex[f.ids()[k]] = k;
  size_t countMismatches = 0, velocityMismatches = 0, idProblems = 0;
  double worstRelative = 0;
  const auto cpuCounts = f.lastNeighborCounts();
  std::vector<bool> seen(f.size(), false);
  for (size_t k = 0; k < g.id.size(); ++k) {
    const uint32_t id = g.id[k];
    if (id >= f.size() || seen[id]) { ++idProblems; continue; }
    seen[id] = true;
    const size_t c = cpuIndex[id];
    countMismatches += g.neighbors[k] != cpuCounts[c];
    // Relative to the speed: both sides sum the same terms in a different order (lanes vs. one by one).
    const double relative = double(glm::length(g.velocity[k] - f.velocities()[c])) /
                            std::max(1.0, double(glm::length(f.velocities()[c])));
    worstRelative = std::max(worstRelative, relative);
    velocityMismatches += relative > 1e-4;
  }
  EXPECT_EQ(idProblems, 0u) << "the GPU step lost or duplicated agents";
  EXPECT_EQ(countMismatches, 0u) << "agents whose neighbour count differs from the CPU grid's";
  EXPECT_EQ(velocityMismatches, 0u) << "worst relative velocity difference " << worstRelative;
  ::testing::Test::RecordProperty("worst_relative_velocity_difference", std::to_string(worstRelative));
}

TEST(GpuBoids, OneStepAgreesWithTheCpuGridOnAUniformFlock) {
  REQUIRE_COMPUTE();
  // 20,000 agents, about 10 neighbours each (the gpu scene's density).
  expectAgreement(makeFlock(20000, {2800.0f, 2800.0f}, 50.0f, 7));
}

TEST(GpuBoids, OneStepAgreesAfterTheFlockHasFormedClumps) {
  REQUIRE_COMPUTE();
  sim::Flock<2> f = makeFlock(8000, {1600.0f, 1000.0f}, 50.0f, 11);
  for (int s = 0; s < 120; ++s) f.step(kDt);  // dense groups, agents across the seams
  expectAgreement(f);
}

TEST(GpuBoids, PrefixSumOverMoreThanAMillionCellsKeepsEveryAgent) {
  REQUIRE_COMPUTE();
  // 1200 x 1200 cells: the scan's second phase takes its 1024 blocks at a time, twice.
  sim::Flock<2> f = makeFlock(60000, {12000.0f, 12000.0f}, 10.0f, 5);
  sim::UniformGrid<2> layout;
  layout.build({}, f.world, f.cellSize);
  ASSERT_GT(layout.numCells(), 1024u * 1024u);
  expectAgreement(f);
}

TEST(GpuBoids, RepeatsBitForBitDespiteAtomicSlots) {
  REQUIRE_COMPUTE();
  sim::Flock<2> f = makeFlock(20000, {2800.0f, 2800.0f}, 50.0f, 3);
  const GpuResult a = gpuStep(f, 5), b = gpuStep(f, 5);
  EXPECT_EQ(a.id, b.id);
  ASSERT_EQ(a.velocity.size(), b.velocity.size());
  EXPECT_TRUE(std::equal(a.velocity.begin(), a.velocity.end(), b.velocity.begin()));
  EXPECT_TRUE(std::equal(a.position.begin(), a.position.end(), b.position.begin()));
}

TEST(GpuBoids, TheIndirectDrawCountsEveryAgentWithoutTheCpu) {
  REQUIRE_COMPUTE();
  sim::Flock<2> f = makeFlock(3000, {1280.0f, 720.0f}, 50.0f, 1);
  render::GpuBoids gpu;
  std::string error;
  ASSERT_TRUE(gpu.init(error)) << error;
  gpu.upload(f.positions(), f.velocities(), f.ids(), f.world, f.cellSize);
  // Upload writes a placeholder instance count; the step must overwrite it on the GPU.
  const uint32_t stale[4] = {0, 0, 0, 0};
  glBindBuffer(GL_DRAW_INDIRECT_BUFFER, gpu.indirectBuffer());
  glBufferSubData(GL_DRAW_INDIRECT_BUFFER, 4, 4, &stale[1]);
  gpu.step(f.params, kDt);
  uint32_t command[4] = {};
  glGetBufferSubData(GL_DRAW_INDIRECT_BUFFER, 0, sizeof command, command);
  glBindBuffer(GL_DRAW_INDIRECT_BUFFER, 0);
  EXPECT_EQ(command[0], uint32_t(render::agentMeshVertexCount(render::AgentShape::Arrow2D)));
  EXPECT_EQ(command[1], 3000u);
  const render::GpuBoids::Timings t = gpu.finishTimings();
  EXPECT_TRUE(t.valid);
  EXPECT_GE(t.gridMs, 0.0);
  EXPECT_GT(t.totalMs(), 0.0);
}

TEST(GpuBoids, CappedVersionReportsWhy) {
  ASSERT_TRUE(gl->loaded);
  setenv("CROWDLAB_GL", "3.3", 1);
  render::ComputeSupport s = render::computeSupport();
  unsetenv("CROWDLAB_GL");
  EXPECT_FALSE(s.available);
  EXPECT_NE(s.reason.find("4.3"), std::string::npos) << s.reason;
  EXPECT_NE(s.reason.find("3.3"), std::string::npos) << s.reason;
}

}  // namespace
