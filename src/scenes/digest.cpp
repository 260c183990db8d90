#include "scenes/digest.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>

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

}  // namespace scenes
