// All agents of a scene, drawn with ONE instanced draw call whatever their number.
#pragma once
#include <cstdint>
#include <vector>
#include <glm/glm.hpp>

namespace render {

// One instance: 36 bytes, uploaded as-is.
struct AgentInstance {
  glm::vec3 position{0.0f};
  glm::vec3 heading{1.0f, 0.0f, 0.0f};  // need not be normalised; 2D uses x, y
  float scale = 6.0f;                   // world units from tail to nose
  float phase = 0.0f;                   // animation phase (wing beat), radians
  uint32_t color = 0xFFFFFFFFu;         // RGBA8, see color.hpp
};
static_assert(sizeof(AgentInstance) == 36, "instance layout is uploaded as-is");

enum class AgentShape { Arrow2D, Disk2D, Bird3D };

// How the agents reach the GPU: one instanced draw (the point of it all), or one draw call per
// agent the way a naive engine submits them, with the same pixels (the gpu scene's comparison).
enum class AgentSubmission { Instanced, PerAgent };

// Agents that already live in a GPU buffer (the gpu scene's compute path): drawn from it directly,
// with an indirect draw whose instance count the GPU wrote; `instances` is ignored then.
struct GpuAgents {
  unsigned stateBuffer = 0;     // vec4 per agent: position.xy, velocity.xy (the heading)
  unsigned indirectBuffer = 0;  // DrawArraysIndirectCommand
  size_t count = 0;             // agents in the buffer, for the HUD and the per-agent loop
  float scale = 6.0f;
  uint32_t color = 0xFFFFFFFFu;
};

struct AgentBatch {
  AgentShape shape = AgentShape::Arrow2D;
  std::vector<AgentInstance> instances;  // scenes resize and fill (in parallel if they like)
  AgentSubmission submission = AgentSubmission::Instanced;
  GpuAgents gpu;                         // stateBuffer 0: draw `instances`

  void clear() {
    instances.clear();
    submission = AgentSubmission::Instanced;
    gpu = {};
  }
};

}  // namespace render
