#include "render/renderer.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <glm/gtc/type_ptr.hpp>
#include "render/gl.hpp"

namespace render {

const char* embeddedShader(const char* name);  // generated from shaders/ at build time

namespace {

constexpr int kCircleSegments = 48;

struct MeshVertex { float x, y, z, wing; };

// Agent meshes in mesh space: x forward (nose at +0.5), y left, z up.
std::vector<MeshVertex> arrowMesh() {
  return {{0.5f, 0.0f, 0, 0}, {-0.5f, 0.32f, 0, 0}, {-0.28f, 0.0f, 0, 0},
          {0.5f, 0.0f, 0, 0}, {-0.28f, 0.0f, 0, 0}, {-0.5f, -0.32f, 0, 0}};
}
std::vector<MeshVertex> diskMesh() {
  std::vector<MeshVertex> v;
  const int n = 14;
  for (int i = 0; i < n; ++i) {
    float a0 = 6.2831853f * i / n, a1 = 6.2831853f * (i + 1) / n;
    v.push_back({0, 0, 0, 0});
    v.push_back({0.5f * std::cos(a0), 0.5f * std::sin(a0), 0, 0});
    v.push_back({0.5f * std::cos(a1), 0.5f * std::sin(a1), 0, 0});
  }
  return v;
}
// A starling seen from afar: a slim body, swept wings whose tips flap, a short tail.
std::vector<MeshVertex> birdMesh() {
  return {
      // body (two triangles, a diamond seen from above, and a keel so it reads from the side)
      {0.5f, 0, 0, 0}, {0.0f, 0.07f, 0, 0}, {-0.35f, 0, 0, 0},
      {0.5f, 0, 0, 0}, {-0.35f, 0, 0, 0}, {0.0f, -0.07f, 0, 0},
      {0.45f, 0, 0, 0}, {-0.3f, 0, 0, 0}, {0.0f, 0, -0.06f, 0},
      // left wing: root along the body, tip swept back
      {0.18f, 0.03f, 0, 0}, {-0.12f, 0.03f, 0, 0}, {-0.18f, 0.55f, 0, 1},
      // right wing
      {0.18f, -0.03f, 0, 0}, {-0.18f, -0.55f, 0, 1}, {-0.12f, -0.03f, 0, 0},
      // tail
      {-0.3f, 0, 0, 0}, {-0.5f, 0.1f, 0, 0}, {-0.5f, -0.1f, 0, 0},
  };
}

bool compile(unsigned shader, const char* source, const char* name, std::string& error) {
  glShaderSource(shader, 1, &source, nullptr);
  glCompileShader(shader);
  int ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[2048] = {0};
    glGetShaderInfoLog(shader, sizeof(log), nullptr, log);
    error = std::string("shader ") + name + " did not compile: " + log;
  }
  return ok != 0;
}

void instanceAttribute(unsigned index, int components, unsigned type, bool normalized, size_t offset, size_t stride) {
  glEnableVertexAttribArray(index);
  glVertexAttribPointer(index, components, type, normalized ? GL_TRUE : GL_FALSE, static_cast<GLsizei>(stride),
                        reinterpret_cast<const void*>(offset));
  glVertexAttribDivisor(index, 1);
}

// Grows a dynamic buffer to hold `bytes` (doubling, so growth is rare) and uploads the data.
void upload(unsigned vbo, size_t& capacity, const void* data, size_t bytes) {
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  if (bytes > capacity) {
    capacity = std::max(bytes, capacity * 2);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(capacity), nullptr, GL_DYNAMIC_DRAW);
  }
  if (bytes) glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(bytes), data);
}

}  // namespace

int agentMeshVertexCount(AgentShape shape) {
  switch (shape) {
    case AgentShape::Arrow2D: return int(arrowMesh().size());
    case AgentShape::Disk2D: return int(diskMesh().size());
    case AgentShape::Bird3D: return int(birdMesh().size());
  }
  return 0;
}

unsigned Renderer::program(const char* vertName, const char* fragName, std::string& error) {
  const char* vs = embeddedShader(vertName);
  const char* fs = embeddedShader(fragName);
  if (!vs || !fs) {
    error = std::string("embedded shader missing: ") + (vs ? fragName : vertName);
    return 0;
  }
  unsigned v = glCreateShader(GL_VERTEX_SHADER), f = glCreateShader(GL_FRAGMENT_SHADER);
  if (!compile(v, vs, vertName, error) || !compile(f, fs, fragName, error)) {
    glDeleteShader(v);
    glDeleteShader(f);
    return 0;
  }
  unsigned p = glCreateProgram();
  glAttachShader(p, v);
  glAttachShader(p, f);
  glLinkProgram(p);
  glDeleteShader(v);
  glDeleteShader(f);
  int ok = 0;
  glGetProgramiv(p, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[2048] = {0};
    glGetProgramInfoLog(p, sizeof(log), nullptr, log);
    error = std::string("shader program ") + vertName + " did not link: " + log;
    glDeleteProgram(p);
    return 0;
  }
  return p;
}

bool Renderer::init(std::string& error) {
  agentProgram_ = program("agent.vert", "agent.frag", error);
  debugProgram_ = agentProgram_ ? program("debug.vert", "debug.frag", error) : 0;
  circleProgram_ = debugProgram_ ? program("circle.vert", "debug.frag", error) : 0;
  skyProgram_ = circleProgram_ ? program("sky.vert", "sky.frag", error) : 0;
  lineProgram_ = skyProgram_ ? program("line.vert", "debug.frag", error) : 0;
  ringProgram_ = lineProgram_ ? program("ring.vert", "debug.frag", error) : 0;
  if (!ringProgram_) return false;

  glGenBuffers(1, &instanceVbo_);
  const std::vector<MeshVertex> meshes[3] = {arrowMesh(), diskMesh(), birdMesh()};
  for (int s = 0; s < 3; ++s) {
    glGenVertexArrays(1, &agentVao_[s]);
    glGenBuffers(1, &agentMesh_[s]);
    glBindVertexArray(agentVao_[s]);
    glBindBuffer(GL_ARRAY_BUFFER, agentMesh_[s]);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(meshes[s].size() * sizeof(MeshVertex)), meshes[s].data(), GL_STATIC_DRAW);
    agentMeshVertices_[s] = static_cast<int>(meshes[s].size());
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(MeshVertex), nullptr);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 1, GL_FLOAT, GL_FALSE, sizeof(MeshVertex), reinterpret_cast<const void*>(3 * sizeof(float)));
    glBindBuffer(GL_ARRAY_BUFFER, instanceVbo_);
    const size_t stride = sizeof(AgentInstance);
    instanceAttribute(2, 3, GL_FLOAT, false, offsetof(AgentInstance, position), stride);
    instanceAttribute(3, 3, GL_FLOAT, false, offsetof(AgentInstance, heading), stride);
    instanceAttribute(4, 1, GL_FLOAT, false, offsetof(AgentInstance, scale), stride);
    instanceAttribute(5, 1, GL_FLOAT, false, offsetof(AgentInstance, phase), stride);
    instanceAttribute(6, 4, GL_UNSIGNED_BYTE, true, offsetof(AgentInstance, color), stride);
    // The same mesh without instance arrays: a per-agent draw takes attributes 2-6 as constants.
    glGenVertexArrays(1, &perAgentVao_[s]);
    glBindVertexArray(perAgentVao_[s]);
    glBindBuffer(GL_ARRAY_BUFFER, agentMesh_[s]);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(MeshVertex), nullptr);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 1, GL_FLOAT, GL_FALSE, sizeof(MeshVertex), reinterpret_cast<const void*>(3 * sizeof(float)));
  }
  glGenVertexArrays(1, &gpuAgentVao_);
  glBindVertexArray(gpuAgentVao_);
  glBindBuffer(GL_ARRAY_BUFFER, agentMesh_[0]);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(MeshVertex), nullptr);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 1, GL_FLOAT, GL_FALSE, sizeof(MeshVertex), reinterpret_cast<const void*>(3 * sizeof(float)));
  glGenQueries(kTimerRing, agentTimers_);

  auto vertexVao = [](unsigned& vao, unsigned& vbo) {
    glGenVertexArrays(1, &vao);
    glGenBuffers(1, &vbo);
    glBindVertexArray(vao);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(DebugDraw::Vertex), nullptr);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(DebugDraw::Vertex),
                          reinterpret_cast<const void*>(offsetof(DebugDraw::Vertex, color)));
  };
  vertexVao(triVao_, triVbo_);
  // Lines: each pair of vertices is one instance (ends a and b), expanded to a quad by line.vert.
  glGenVertexArrays(1, &lineVao_);
  glGenBuffers(1, &lineVbo_);
  glBindVertexArray(lineVao_);
  glBindBuffer(GL_ARRAY_BUFFER, lineVbo_);
  const size_t segment = 2 * sizeof(DebugDraw::Vertex);
  instanceAttribute(0, 3, GL_FLOAT, false, offsetof(DebugDraw::Vertex, position), segment);
  instanceAttribute(1, 4, GL_UNSIGNED_BYTE, true, offsetof(DebugDraw::Vertex, color), segment);
  instanceAttribute(2, 3, GL_FLOAT, false, sizeof(DebugDraw::Vertex) + offsetof(DebugDraw::Vertex, position), segment);
  instanceAttribute(3, 4, GL_UNSIGNED_BYTE, true, sizeof(DebugDraw::Vertex) + offsetof(DebugDraw::Vertex, color), segment);

  // Unit circle as a ring strip (outline: z -1 inner edge, +1 outer, widened by ring.vert) and as a
  // triangle fan (disk, z unused).
  std::vector<glm::vec3> ring, fan{{0.0f, 0.0f, 0.0f}};
  for (int i = 0; i <= kCircleSegments; ++i) {
    float a = 6.2831853f * i / kCircleSegments;
    ring.push_back({std::cos(a), std::sin(a), -1.0f});
    ring.push_back({std::cos(a), std::sin(a), 1.0f});
    fan.push_back({std::cos(a), std::sin(a), 0.0f});
  }
  auto circleVao = [](unsigned& vao, unsigned& mesh, unsigned& inst, const std::vector<glm::vec3>& unit) {
    glGenVertexArrays(1, &vao);
    glGenBuffers(1, &mesh);
    glGenBuffers(1, &inst);
    glBindVertexArray(vao);
    glBindBuffer(GL_ARRAY_BUFFER, mesh);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(unit.size() * sizeof(glm::vec3)), unit.data(), GL_STATIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(glm::vec3), nullptr);
    glBindBuffer(GL_ARRAY_BUFFER, inst);
    const size_t stride = sizeof(DebugDraw::CircleInstance);
    instanceAttribute(1, 3, GL_FLOAT, false, offsetof(DebugDraw::CircleInstance, center), stride);
    instanceAttribute(2, 1, GL_FLOAT, false, offsetof(DebugDraw::CircleInstance, radius), stride);
    instanceAttribute(3, 4, GL_UNSIGNED_BYTE, true, offsetof(DebugDraw::CircleInstance, color), stride);
  };
  circleVao(circleVao_, circleMesh_, circleInstVbo_, ring);
  circleVao(diskVao_, diskMesh_, diskInstVbo_, fan);
  glGenVertexArrays(1, &emptyVao_);
  glBindVertexArray(0);
  checkErrors("renderer init");
  return true;
}

void Renderer::shutdown() {
  unsigned programs[] = {agentProgram_, debugProgram_, circleProgram_, skyProgram_, lineProgram_, ringProgram_};
  for (unsigned p : programs) if (p) glDeleteProgram(p);
  unsigned buffers[] = {instanceVbo_, agentMesh_[0], agentMesh_[1], agentMesh_[2], lineVbo_, triVbo_,
                        circleMesh_, diskMesh_, circleInstVbo_, diskInstVbo_};
  glDeleteBuffers(static_cast<GLsizei>(std::size(buffers)), buffers);
  unsigned vaos[] = {agentVao_[0], agentVao_[1], agentVao_[2], lineVao_, triVao_, circleVao_, diskVao_, emptyVao_,
                     perAgentVao_[0], perAgentVao_[1], perAgentVao_[2], gpuAgentVao_};
  glDeleteQueries(kTimerRing, agentTimers_);
  glDeleteVertexArrays(static_cast<GLsizei>(std::size(vaos)), vaos);
  *this = Renderer{};
}

void Renderer::render(const AgentBatch& agents, const DebugDraw& debug, const FrameView& view) {
  stats_ = {};
  stats_.agents = agents.gpu.stateBuffer ? agents.gpu.count : agents.instances.size();

  glClearColor(view.background.x, view.background.y, view.background.z, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glDisable(GL_CULL_FACE);
  glDisable(GL_DEPTH_TEST);

  if (view.sky) {
    glUseProgram(skyProgram_);
    glUniform3fv(glGetUniformLocation(skyProgram_, "uHorizon"), 1, glm::value_ptr(view.horizon));
    glUniform3fv(glGetUniformLocation(skyProgram_, "uZenith"), 1, glm::value_ptr(view.zenith));
    glBindVertexArray(emptyVao_);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    stats_.drawCalls++;
  }
  if (view.is3D) {
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
  }

  const float* vp = glm::value_ptr(view.viewProjection);
  // Filled debug shapes first so agents stay visible on top of obstacles and heat maps.
  for (unsigned program : {agentProgram_, debugProgram_, circleProgram_, lineProgram_, ringProgram_}) {
    glUseProgram(program);
    glUniform1f(glGetUniformLocation(program, "uInk"), view.ink);
  }
  GLint viewport[4] = {0, 0, 1, 1};
  glGetIntegerv(GL_VIEWPORT, viewport);
  const glm::vec2 viewportPx(float(std::max(viewport[2], 1)), float(std::max(viewport[3], 1)));
  for (unsigned program : {lineProgram_, ringProgram_}) {
    glUseProgram(program);
    glUniformMatrix4fv(glGetUniformLocation(program, "uViewProjection"), 1, GL_FALSE, vp);
    glUniform2fv(glGetUniformLocation(program, "uViewportPx"), 1, glm::value_ptr(viewportPx));
    glUniform1f(glGetUniformLocation(program, "uWidthPx"), view.lineWidthPx);
  }
  glUseProgram(circleProgram_);
  glUniformMatrix4fv(glGetUniformLocation(circleProgram_, "uViewProjection"), 1, GL_FALSE, vp);
  if (!debug.disks().empty()) {
    upload(diskInstVbo_, diskCapacity_, debug.disks().data(), debug.disks().size() * sizeof(DebugDraw::CircleInstance));
    glBindVertexArray(diskVao_);
    glDrawArraysInstanced(GL_TRIANGLE_FAN, 0, kCircleSegments + 2, static_cast<GLsizei>(debug.disks().size()));
    stats_.drawCalls++;
  }
  glUseProgram(debugProgram_);
  glUniformMatrix4fv(glGetUniformLocation(debugProgram_, "uViewProjection"), 1, GL_FALSE, vp);
  if (!debug.triangles().empty()) {
    upload(triVbo_, triCapacity_, debug.triangles().data(), debug.triangles().size() * sizeof(DebugDraw::Vertex));
    glBindVertexArray(triVao_);
    glDrawArrays(GL_TRIANGLES, 0, static_cast<GLsizei>(debug.triangles().size()));
    stats_.drawCalls++;
  }

  drawAgents(agents, view);

  // Line-like shapes on top: every segment one instance of a 4-vertex strip, every circle one ring.
  if (!debug.lines().empty()) {
    glUseProgram(lineProgram_);
    upload(lineVbo_, lineCapacity_, debug.lines().data(), debug.lines().size() * sizeof(DebugDraw::Vertex));
    glBindVertexArray(lineVao_);
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, static_cast<GLsizei>(debug.lines().size() / 2));
    stats_.drawCalls++;
  }
  if (!debug.circles().empty()) {
    glUseProgram(ringProgram_);
    upload(circleInstVbo_, circleCapacity_, debug.circles().data(), debug.circles().size() * sizeof(DebugDraw::CircleInstance));
    glBindVertexArray(circleVao_);
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 2 * (kCircleSegments + 1), static_cast<GLsizei>(debug.circles().size()));
    stats_.drawCalls++;
  }
  glBindVertexArray(0);
  glDisable(GL_DEPTH_TEST);
  checkErrors("frame");
}

// All agents: ONE instanced draw call (or, to show what that saves, one per agent). Timed on the
// CPU (submission) and on the GPU (a timer query read back a few frames later, never waited for).
void Renderer::drawAgents(const AgentBatch& agents, const FrameView& view) {
  if (stats_.agents == 0) return;
  readAgentTimer();
  const int slot = nextAgentTimer_;
  const bool timed = !agentTimerPending_[slot];
  if (timed) glBeginQuery(GL_TIME_ELAPSED, agentTimers_[slot]);
  const auto t0 = std::chrono::steady_clock::now();

  const int s = static_cast<int>(agents.shape);
  glUseProgram(agentProgram_);
  glUniformMatrix4fv(glGetUniformLocation(agentProgram_, "uViewProjection"), 1, GL_FALSE, glm::value_ptr(view.viewProjection));
  glUniform1i(glGetUniformLocation(agentProgram_, "uMode"), agents.shape == AgentShape::Bird3D ? 1 : 0);
  glUniform1f(glGetUniformLocation(agentProgram_, "uTime"), view.time);
  glUniform1f(glGetUniformLocation(agentProgram_, "uAgentScale"), view.agentScale);
  glUniform3fv(glGetUniformLocation(agentProgram_, "uEye"), 1, glm::value_ptr(view.eye));
  glm::vec3 fog = view.sky ? view.horizon * 0.8f + view.zenith * 0.2f : view.background;
  glUniform3fv(glGetUniformLocation(agentProgram_, "uFogColor"), 1, glm::value_ptr(fog));
  if (agents.gpu.stateBuffer) drawGpuAgents(agents);
  else if (agents.submission == AgentSubmission::PerAgent) drawAgentsPerAgent(agents);
  else {
    upload(instanceVbo_, instanceCapacity_, agents.instances.data(), agents.instances.size() * sizeof(AgentInstance));
    glBindVertexArray(agentVao_[s]);
    glDrawArraysInstanced(GL_TRIANGLES, 0, agentMeshVertices_[s], static_cast<GLsizei>(agents.instances.size()));
    stats_.drawCalls++;
    stats_.agentDrawCalls++;
  }

  stats_.agentSubmitMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (timed) {
    glEndQuery(GL_TIME_ELAPSED);
    agentTimerPending_[slot] = true;
    nextAgentTimer_ = (slot + 1) % kTimerRing;
  }
  stats_.agentGpuMs = agentGpuMs_;
}

// What a naive engine does: set one object's values, draw it, next object. Same shader, same pixels.
void Renderer::drawAgentsPerAgent(const AgentBatch& agents) {
  const int s = static_cast<int>(agents.shape);
  glBindVertexArray(perAgentVao_[s]);
  for (const AgentInstance& a : agents.instances) {
    glVertexAttrib3f(2, a.position.x, a.position.y, a.position.z);
    glVertexAttrib3f(3, a.heading.x, a.heading.y, a.heading.z);
    glVertexAttrib1f(4, a.scale);
    glVertexAttrib1f(5, a.phase);
    glVertexAttrib4Nub(6, GLubyte(a.color), GLubyte(a.color >> 8), GLubyte(a.color >> 16), GLubyte(a.color >> 24));
    glDrawArrays(GL_TRIANGLES, 0, agentMeshVertices_[s]);
  }
  stats_.drawCalls += static_cast<int>(agents.instances.size());
  stats_.agentDrawCalls += static_cast<int>(agents.instances.size());
}

// Agents in a GPU buffer (OpenGL 4.3 contexts only: the gpu scene sets it after checking).
void Renderer::drawGpuAgents(const AgentBatch& agents) {
  const GpuAgents& g = agents.gpu;
  glBindVertexArray(gpuAgentVao_);
  glBindBuffer(GL_ARRAY_BUFFER, g.stateBuffer);
  instanceAttribute(2, 2, GL_FLOAT, false, 0, 4 * sizeof(float));                  // position.xy (z = 0)
  instanceAttribute(3, 2, GL_FLOAT, false, 2 * sizeof(float), 4 * sizeof(float));  // heading = velocity
  glVertexAttrib1f(4, g.scale);
  glVertexAttrib1f(5, 0.0f);
  glVertexAttrib4Nub(6, GLubyte(g.color), GLubyte(g.color >> 8), GLubyte(g.color >> 16), GLubyte(g.color >> 24));
  const int vertices = agentMeshVertices_[static_cast<int>(AgentShape::Arrow2D)];
  if (agents.submission == AgentSubmission::PerAgent) {
    // One draw per agent, each reading its own instance from the buffer (base instance, 4.2).
    for (size_t i = 0; i < g.count; ++i) glDrawArraysInstancedBaseInstance(GL_TRIANGLES, 0, vertices, 1, GLuint(i));
    stats_.drawCalls += static_cast<int>(g.count);
    stats_.agentDrawCalls += static_cast<int>(g.count);
  } else {
    // The instance count comes from the GPU: nothing about the agents travels back to the CPU.
    glBindBuffer(GL_DRAW_INDIRECT_BUFFER, g.indirectBuffer);
    glDrawArraysIndirect(GL_TRIANGLES, nullptr);
    glBindBuffer(GL_DRAW_INDIRECT_BUFFER, 0);
    stats_.drawCalls++;
    stats_.agentDrawCalls++;
  }
}

void Renderer::readAgentTimer() {
  for (int k = 0; k < kTimerRing; ++k) {
    const int slot = (nextAgentTimer_ + k) % kTimerRing;
    if (!agentTimerPending_[slot]) continue;
    GLint available = 0;
    glGetQueryObjectiv(agentTimers_[slot], GL_QUERY_RESULT_AVAILABLE, &available);
    if (!available) continue;
    GLuint64 ns = 0;
    glGetQueryObjectui64v(agentTimers_[slot], GL_QUERY_RESULT, &ns);
    agentGpuMs_ = double(ns) * 1e-6;
    agentTimerPending_[slot] = false;
  }
}

std::string Renderer::glInfo() {
  auto str = [](GLenum e) {
    const GLubyte* s = glGetString(e);
    return s ? std::string(reinterpret_cast<const char*>(s)) : std::string("?");
  };
  return str(GL_RENDERER) + " (" + str(GL_VENDOR) + "), OpenGL " + str(GL_VERSION);
}

void Renderer::checkErrors(const char* where) {
  for (GLenum e = glGetError(); e != GL_NO_ERROR; e = glGetError()) {
    if (std::find(reportedErrors_.begin(), reportedErrors_.end(), e) != reportedErrors_.end()) continue;
    reportedErrors_.push_back(e);
    char buf[128];
    std::snprintf(buf, sizeof(buf), "OpenGL error 0x%04X during %s (reported once)", e, where);
    std::fprintf(stderr, "crowdlab: %s\n", buf);
  }
}

void readFramebuffer(int width, int height, std::vector<uint8_t>& rgba, int x, int y) {
  rgba.resize(size_t(width) * size_t(height) * 4);
  std::vector<uint8_t> flipped(rgba.size());
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(x, y, width, height, GL_RGBA, GL_UNSIGNED_BYTE, flipped.data());
  const size_t row = size_t(width) * 4;
  for (int y = 0; y < height; ++y)
    std::memcpy(rgba.data() + size_t(y) * row, flipped.data() + size_t(height - 1 - y) * row, row);
  for (size_t i = 3; i < rgba.size(); i += 4) rgba[i] = 255;  // the window has no meaningful alpha
}

}  // namespace render
