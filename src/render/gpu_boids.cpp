#include "render/gpu_boids.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include "render/agent_batch.hpp"
#include "render/gl.hpp"
#include "render/renderer.hpp"
#include "sim/core/grid.hpp"

namespace render {

const char* embeddedShader(const char* name);  // generated from shaders/ at build time

ComputeSupport computeSupport() {
  ComputeSupport s;
  if (!glad_glGetIntegerv) {  // no loader run: a scene drawn without a window (scene tests)
    s.reason = "no OpenGL context";
    return s;
  }
  int major = 0, minor = 0;
  glGetIntegerv(GL_MAJOR_VERSION, &major);
  glGetIntegerv(GL_MINOR_VERSION, &minor);
  // CROWDLAB_GL=3.3 caps what the program believes, to show and test the fallback on any machine.
  if (const char* cap = std::getenv("CROWDLAB_GL")) {
    int capMajor = 0, capMinor = 0;
    if (std::sscanf(cap, "%d.%d", &capMajor, &capMinor) >= 1 && capMajor * 10 + capMinor < major * 10 + minor) {
      major = capMajor;
      minor = capMinor;
    }
  }
  const int version = major * 10 + minor;
  if (version < 43 || !GLAD_GL_VERSION_4_3) {
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "needs OpenGL 4.3 compute shaders; this context offers %d.%d%s (macOS stops at 4.1). "
                  "The CPU simulation runs instead.",
                  major, minor, std::getenv("CROWDLAB_GL") ? " (capped by CROWDLAB_GL)" : "");
    s.reason = buf;
    return s;
  }
  s.available = true;
  return s;
}

namespace {

unsigned computeProgram(const char* name, std::string& error) {
  const char* common = embeddedShader("boids_common.comp");
  const char* body = embeddedShader(name);
  if (!common || !body) {
    error = std::string("embedded shader missing: ") + name;
    return 0;
  }
  const char* sources[] = {common, "\n#line 1\n", body};
  unsigned shader = glCreateShader(GL_COMPUTE_SHADER);
  glShaderSource(shader, 3, sources, nullptr);
  glCompileShader(shader);
  int ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[2048] = {0};
    glGetShaderInfoLog(shader, sizeof log, nullptr, log);
    error = std::string("compute shader ") + name + " did not compile: " + log;
    glDeleteShader(shader);
    return 0;
  }
  unsigned program = glCreateProgram();
  glAttachShader(program, shader);
  glLinkProgram(program);
  glDeleteShader(shader);
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[2048] = {0};
    glGetProgramInfoLog(program, sizeof log, nullptr, log);
    error = std::string("compute program ") + name + " did not link: " + log;
    glDeleteProgram(program);
    return 0;
  }
  return program;
}

GLuint groups(size_t items, size_t size) { return GLuint((items + size - 1) / size); }

void storage(unsigned buffer, size_t bytes, const void* data = nullptr) {
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
  glBufferData(GL_SHADER_STORAGE_BUFFER, GLsizeiptr(bytes ? bytes : 16), data, GL_DYNAMIC_COPY);
}

int uniform(unsigned program, const char* name) { return glGetUniformLocation(program, name); }

}  // namespace

bool GpuBoids::init(std::string& error) {
  if (ready()) return true;
  const char* names[kProgramCount] = {"boids_count.comp", "boids_scan.comp", "boids_scatter.comp", "boids_step.comp"};
  for (int p = 0; p < kProgramCount; ++p) {
    programs_[p] = computeProgram(names[p], error);
    if (!programs_[p]) {
      shutdown();
      return false;
    }
  }
  glGenBuffers(kBufferCount, buffers_);
  for (auto& slot : queries_) glGenQueries(3, slot);
  return true;
}

void GpuBoids::shutdown() {
  if (!ready()) return;
  for (unsigned& p : programs_) {
    if (p) glDeleteProgram(p);
    p = 0;
  }
  glDeleteBuffers(kBufferCount, buffers_);
  for (auto& slot : queries_) glDeleteQueries(3, slot);
  std::memset(buffers_, 0, sizeof buffers_);
  std::memset(queries_, 0, sizeof queries_);
  std::memset(queryPending_, 0, sizeof queryPending_);
  count_ = 0;
}

void GpuBoids::upload(std::span<const glm::vec2> positions, std::span<const glm::vec2> velocities,
                      std::span<const uint32_t> ids, const sim::World<2>& world, float cellSize) {
  if (!ready()) return;
  count_ = positions.size();
  world_ = world;
  // The CPU grid's own layout (cell count per axis, cells stretched to tile the torus).
  sim::UniformGrid<2> layout;
  layout.build({}, world, cellSize);
  dims_ = layout.cellsPerAxis();
  invExtent_ = glm::vec2(1.0f) / layout.cellExtent();
  cells_ = layout.numCells();
  blocks_ = uint32_t(groups(cells_, 1024));

  std::vector<glm::vec4> state(count_);
  for (size_t i = 0; i < count_; ++i) state[i] = glm::vec4(positions[i], velocities[i]);
  storage(buffers_[kState], count_ * sizeof(glm::vec4), state.data());
  storage(buffers_[kSorted], count_ * sizeof(glm::vec4));
  storage(buffers_[kIds], count_ * sizeof(uint32_t), ids.data());
  storage(buffers_[kSortedIds], count_ * sizeof(uint32_t));
  storage(buffers_[kCellCount], cells_ * sizeof(uint32_t));
  storage(buffers_[kCellStart], (cells_ + 1) * sizeof(uint32_t));
  storage(buffers_[kAgentCell], count_ * sizeof(uint32_t));
  storage(buffers_[kAgentRank], count_ * sizeof(uint32_t));
  storage(buffers_[kBlockSums], blocks_ * sizeof(uint32_t));
  storage(buffers_[kNeighbors], count_ * sizeof(uint32_t));
  // The vertex count is the mesh's; the instance count is written by the step on the GPU.
  const uint32_t command[4] = {uint32_t(agentMeshVertexCount(AgentShape::Arrow2D)), uint32_t(count_), 0, 0};
  storage(buffers_[kIndirect], sizeof command, command);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
}

void GpuBoids::setGridUniforms(unsigned program) const {
  glUseProgram(program);
  glUniform1ui(uniform(program, "uCount"), GLuint(count_));
  glUniform1ui(uniform(program, "uCells"), cells_);
  glUniform2f(uniform(program, "uWorldMin"), world_.min.x, world_.min.y);
  glUniform2f(uniform(program, "uWorldSize"), world_.size.x, world_.size.y);
  glUniform2f(uniform(program, "uInvExtent"), invExtent_.x, invExtent_.y);
  glUniform2i(uniform(program, "uDims"), dims_.x, dims_.y);
}

void GpuBoids::step(const sim::BoidsParams& p, float dt, Timings* wallClock) {
  if (!ready() || count_ == 0) return;
  for (int b = 0; b < kBufferCount; ++b) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, GLuint(b), buffers_[b]);
  using Clock = std::chrono::steady_clock;
  auto t0 = Clock::now();
  auto finishedMs = [&] {  // only with wallClock: waits for the GPU, then the wall time since t0
    glFinish();
    const auto now = Clock::now();
    const double ms = std::chrono::duration<double, std::milli>(now - t0).count();
    t0 = now;
    return ms;
  };
  if (wallClock) finishedMs();
  const int slot = nextQuery_;
  nextQuery_ = (nextQuery_ + 1) % kQueryRing;
  glQueryCounter(queries_[slot][0], GL_TIMESTAMP);

  // Grid build.
  const GLuint zero = 0;
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffers_[kCellCount]);
  glClearBufferData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  setGridUniforms(programs_[kCount]);
  glDispatchCompute(groups(count_, 256), 1, 1);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  const unsigned scan = programs_[kScan];
  setGridUniforms(scan);
  glUniform1ui(uniform(scan, "uBlocks"), blocks_);
  const GLuint scanGroups[3] = {blocks_, 1, blocks_};
  for (int phase = 0; phase < 3; ++phase) {
    glUniform1i(uniform(scan, "uPhase"), phase);
    glDispatchCompute(scanGroups[phase], 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  }
  const unsigned scatter = programs_[kScatter];
  setGridUniforms(scatter);
  glUniform1i(uniform(scatter, "uPhase"), 0);
  glDispatchCompute(groups(count_, 256), 1, 1);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  glUniform1i(uniform(scatter, "uPhase"), 1);
  glDispatchCompute(groups(cells_, 256), 1, 1);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  glQueryCounter(queries_[slot][1], GL_TIMESTAMP);
  if (wallClock) wallClock->gridMs = finishedMs();

  // Rules, integrate, wrap.
  const unsigned rules = programs_[kStep];
  setGridUniforms(rules);
  glUniform1f(uniform(rules, "uDt"), dt);
  glUniform1f(uniform(rules, "uWeightSeparation"), p.weights.separation);
  glUniform1f(uniform(rules, "uWeightAlignment"), p.weights.alignment);
  glUniform1f(uniform(rules, "uWeightCohesion"), p.weights.cohesion);
  glUniform1f(uniform(rules, "uMinSpeed"), p.minSpeed);
  glUniform1f(uniform(rules, "uMaxSpeed"), p.maxSpeed);
  glUniform1f(uniform(rules, "uMaxForce"), p.maxForce);
  glUniform1f(uniform(rules, "uAlignmentFade"), sim::boidsShape(p).alignmentFade);
  glUniform1f(uniform(rules, "uCohesionFade"), sim::boidsShape(p).cohesionFade);
  // The CPU's distance tests as squared bounds; one radius for perception, alignment and cohesion
  // (the GPU path has no separate radii or field of view).
  const sim::BoidsBounds bounds = sim::BoidsBounds::of(p);
  glUniform1f(uniform(rules, "uSearch2"), bounds.search);
  glUniform1f(uniform(rules, "uPerceived2"), bounds.perceived);
  glUniform1f(uniform(rules, "uSeparation2"), bounds.separation);
  glDispatchCompute(groups(count_, 256), 1, 1);
  // The renderer reads the state as instance attributes and the command as an indirect draw.
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT | GL_COMMAND_BARRIER_BIT |
                  GL_BUFFER_UPDATE_BARRIER_BIT);
  glQueryCounter(queries_[slot][2], GL_TIMESTAMP);
  queryPending_[slot] = true;
  glUseProgram(0);
  if (wallClock) {
    wallClock->rulesMs = finishedMs();
    wallClock->valid = true;
  }
}

GpuBoids::Timings GpuBoids::readQueries(int slot) {
  GLuint64 t[3] = {0, 0, 0};
  for (int q = 0; q < 3; ++q) glGetQueryObjectui64v(queries_[slot][q], GL_QUERY_RESULT, &t[q]);
  queryPending_[slot] = false;
  Timings timings;
  timings.gridMs = double(t[1] - t[0]) * 1e-6;
  timings.rulesMs = double(t[2] - t[1]) * 1e-6;
  timings.valid = true;
  return timings;
}

GpuBoids::Timings GpuBoids::latestTimings() {
  // Oldest to newest, so latest_ ends on the newest finished step.
  for (int k = 0; k < kQueryRing; ++k) {
    const int slot = (nextQuery_ + k) % kQueryRing;
    if (!queryPending_[slot]) continue;
    GLint available = 0;
    glGetQueryObjectiv(queries_[slot][2], GL_QUERY_RESULT_AVAILABLE, &available);
    if (available) latest_ = readQueries(slot);
  }
  return latest_;
}

GpuBoids::Timings GpuBoids::finishTimings() {
  for (int k = 0; k < kQueryRing; ++k) {
    const int slot = (nextQuery_ + k) % kQueryRing;
    if (queryPending_[slot]) latest_ = readQueries(slot);  // waits where the GPU has not finished
  }
  return latest_;
}

void GpuBoids::download(std::vector<glm::vec2>* positions, std::vector<glm::vec2>* velocities,
                        std::vector<uint32_t>* ids, std::vector<uint32_t>* neighborCounts) const {
  if (!ready()) return;
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  if (positions || velocities) {
    std::vector<glm::vec4> state(count_);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffers_[kState]);
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, GLsizeiptr(count_ * sizeof(glm::vec4)), state.data());
    if (positions) positions->resize(count_);
    if (velocities) velocities->resize(count_);
    for (size_t i = 0; i < count_; ++i) {
      if (positions) (*positions)[i] = glm::vec2(state[i].x, state[i].y);
      if (velocities) (*velocities)[i] = glm::vec2(state[i].z, state[i].w);
    }
  }
  auto read = [&](std::vector<uint32_t>* out, unsigned buffer) {
    if (!out) return;
    out->resize(count_);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, GLsizeiptr(count_ * sizeof(uint32_t)), out->data());
  };
  read(ids, buffers_[kIds]);
  read(neighborCounts, buffers_[kNeighbors]);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
}

}  // namespace render
