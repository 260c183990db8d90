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

struct AgentBatch {
  AgentShape shape = AgentShape::Arrow2D;
  std::vector<AgentInstance> instances;  // scenes resize and fill (in parallel if they like)

  void clear() { instances.clear(); }
  AgentInstance& add() { return instances.emplace_back(); }
  // 2D convenience: position and heading in the plane.
  void add2D(glm::vec2 p, glm::vec2 heading, float scale, uint32_t color, float phase = 0.0f) {
    instances.push_back({glm::vec3(p, 0.0f), glm::vec3(heading, 0.0f), scale, phase, color});
  }
};

}  // namespace render
