#include "scenes/digest.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include "render/debug_draw.hpp"
#include "scenes/driver.hpp"

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
  SceneDriver driver;
  if (!driver.prepare({scene, "", assignments, "", ""}, seed, error)) return {};
  driver.advance(steps);
  render::AgentBatch batch;
  render::DebugDraw debug;
  driver.scene().draw(batch, debug);
  return agentsDigest(batch);
}

}  // namespace scenes
