// Owns the GL objects and draws one frame: background, filled debug shapes, the agents (one
// instanced call), then line-like debug shapes on top, as screen-space quads of a set width (one
// instanced call for all lines, one for all circle outlines). Counts every draw call it makes.
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include <glm/glm.hpp>
#include "render/agent_batch.hpp"
#include "render/debug_draw.hpp"
#include "render/frame.hpp"

namespace render {

class Renderer {
 public:
  // Compiles the embedded shaders and makes the buffers. Needs a current GL 3.3 core context.
  bool init(std::string& error);
  void shutdown();

  void render(const AgentBatch& agents, const DebugDraw& debug, const FrameView& view);
  const FrameStats& stats() const { return stats_; }

  // "GL_RENDERER (GL_VENDOR), GL_VERSION"
  static std::string glInfo();
  // Checks glGetError; each distinct error is reported once (to stderr), not every frame.
  void checkErrors(const char* where);

 private:
  unsigned program(const char* vert, const char* frag, std::string& error);
  void drawAgents(const AgentBatch& agents, const FrameView& view);
  void drawAgentsPerAgent(const AgentBatch& agents);
  void drawGpuAgents(const AgentBatch& agents);
  void readAgentTimer();

  unsigned agentProgram_ = 0, debugProgram_ = 0, circleProgram_ = 0, skyProgram_ = 0, lineProgram_ = 0, ringProgram_ = 0;
  unsigned agentVao_[3] = {0, 0, 0}, agentMesh_[3] = {0, 0, 0};
  int agentMeshVertices_[3] = {0, 0, 0};
  unsigned instanceVbo_ = 0;
  size_t instanceCapacity_ = 0;
  unsigned lineVao_ = 0, lineVbo_ = 0, triVao_ = 0, triVbo_ = 0;
  size_t lineCapacity_ = 0, triCapacity_ = 0;
  unsigned circleVao_ = 0, diskVao_ = 0, circleMesh_ = 0, diskMesh_ = 0, circleInstVbo_ = 0, diskInstVbo_ = 0;
  size_t circleCapacity_ = 0, diskCapacity_ = 0;
  unsigned emptyVao_ = 0;
  unsigned perAgentVao_[3] = {0, 0, 0};  // the mesh only: per-agent values are set before each draw
  unsigned gpuAgentVao_ = 0;             // the arrow mesh plus instance attributes from a GpuAgents buffer
  static constexpr int kTimerRing = 4;
  unsigned agentTimers_[kTimerRing] = {};
  bool agentTimerPending_[kTimerRing] = {};
  int nextAgentTimer_ = 0;
  double agentGpuMs_ = -1;
  FrameStats stats_;
  std::vector<unsigned> reportedErrors_;
};

// Vertices of an agent mesh: the vertex count of an indirect draw command.
int agentMeshVertexCount(AgentShape shape);

// Reads the current framebuffer (top row first) as RGBA8.
void readFramebuffer(int width, int height, std::vector<uint8_t>& rgba, int x = 0, int y = 0);  // x, y: GL's, from the bottom left

}  // namespace render
