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

namespace render {

struct FrameStats {
  int drawCalls = 0;       // every glDraw* this frame
  int agentDrawCalls = 0;  // draws of the agent batch: 1 whenever agents are shown, N per-agent
  double agentSubmitMs = 0;  // CPU time spent issuing the agent draws
  double agentGpuMs = -1;    // GPU time of the agent draws (a timer query a few frames old; -1: none yet)
  size_t agents = 0;
};

struct FrameView {
  bool is3D = false;
  glm::mat4 viewProjection{1.0f};
  glm::vec3 eye{0.0f};
  float time = 0.0f;                  // seconds, drives wing beats
  glm::vec3 background{0.07f, 0.08f, 0.10f};
  bool sky = false;                   // dusk gradient instead of a flat background
  // Dusk whose luminance stays within 0.2 - 0.25 from the horizon to the zenith: the dark birds
  // are silhouettes (>= 3:1) and startled pale-yellow ones stand out (>= 3:1) anywhere on it.
  glm::vec3 horizon{0.78f, 0.44f, 0.30f};
  glm::vec3 zenith{0.40f, 0.50f, 0.72f};
  float ink = 1.0f;                   // every agent and debug colour times this (light theme: dark ink)
  float agentScale = 1.0f;            // every agent glyph drawn this many times larger (a scene's agentScale)
  float lineWidthPx = 1.5f;           // debug lines and circle outlines, framebuffer pixels (the app: times the UI scale)
  // The light (projector) theme for the world: a pale background and sky, dark agents and lines.
  void useLightTheme() {
    background = {0.96f, 0.96f, 0.94f};
    horizon = {1.00f, 0.91f, 0.80f};
    zenith = {0.74f, 0.84f, 0.96f};
    ink = 0.42f;
  }
};

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
