#include <algorithm>
#include "scenes/scene.hpp"

namespace scenes {
namespace {
// Function-local so registration from other files' static initialisers is safe in any order.
std::vector<SceneEntry>& entries() {
  static std::vector<SceneEntry> list;
  return list;
}
}  // namespace

bool registerScene(const SceneEntry& entry) {
  entries().push_back(entry);
  return true;
}

std::vector<SceneEntry> registeredScenes() {
  std::vector<SceneEntry> list = entries();
  std::sort(list.begin(), list.end(), [](const SceneEntry& a, const SceneEntry& b) { return a.order < b.order; });
  return list;
}

const SceneEntry* findScene(const std::string& name) {
  for (const SceneEntry& e : entries())
    if (name == e.name) return &e;
  return nullptr;
}

std::string sceneNames() {
  std::string s;
  for (const SceneEntry& e : registeredScenes()) s += (s.empty() ? "" : ", ") + std::string(e.name);
  return s;
}

std::unique_ptr<Scene> declarationsOf(const SceneEntry& entry) {
  static SceneContext unused;  // read by no constructor; a declarations scene never runs
  return entry.create(unused, 1);
}

}  // namespace scenes
