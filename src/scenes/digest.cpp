#include "scenes/digest.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include "render/debug_draw.hpp"
#include "scenes/params.hpp"
#include "scenes/scene.hpp"

namespace scenes {

std::string agentsDigest(const render::AgentBatch& agents) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (const render::AgentInstance& a : agents.instances) {
    const float values[6] = {a.position.x, a.position.y, a.position.z, a.heading.x, a.heading.y, a.heading.z};
    for (float v : values) {
      uint32_t bits = 0;
      std::memcpy(&bits, &v, sizeof bits);
      for (int b = 0; b < 4; ++b) hash = (hash ^ ((bits >> (8 * b)) & 0xffu)) * 0x100000001b3ull;
    }
  }
  char text[24];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

std::string digestAfterSteps(const std::string& scene, uint64_t seed, int steps,
                             const std::vector<std::string>& assignments, std::string& error) {
  const SceneEntry* entry = findScene(scene);
  if (!entry) {
    error = "unknown scene " + scene;
    return {};
  }
  SceneContext ctx;
  const std::unique_ptr<Scene> s = entry->create();
  s->ctx = &ctx;
  s->seed = seed;
  for (const std::string& a : assignments)
    if (!setParamAssignment(s->params(), a, error)) return {};
  s->paramsChanged();
  s->reset();
  for (int i = 0; i < steps; ++i) {
    s->step(1.0f / 60.0f);
    s->sampleMetrics();
  }
  render::AgentBatch batch;
  render::DebugDraw debug;
  s->draw(batch, debug);
  return agentsDigest(batch);
}

}  // namespace scenes
