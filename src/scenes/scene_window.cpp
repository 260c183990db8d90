#include "scenes/scene_window.hpp"

#include <cstring>
#include <utility>
#include <vector>

namespace scenes {
namespace {
// Function-local so registration from other files' static initialisers is safe in any order.
std::vector<std::pair<const char*, CreateScene>>& windows() {
  static std::vector<std::pair<const char*, CreateScene>> list;
  return list;
}
}  // namespace

bool registerSceneWindow(const char* name, CreateScene create) {
  windows().emplace_back(name, create);
  return true;
}

std::unique_ptr<Scene> createForWindow(const SceneEntry& entry, SceneContext& ctx, uint64_t seed) {
  for (const auto& [name, create] : windows())
    if (std::strcmp(name, entry.name) == 0) return create(ctx, seed);
  return entry.create(ctx, seed);
}

SceneUi* uiOf(Scene& scene) { return dynamic_cast<SceneUi*>(&scene); }

}  // namespace scenes
