// A scene's window side: its ImGui panel, its mouse and its keys. A scene with controls of its own has
// a window class, derived from its simulation class (which builds without ImGui or GL) and from
// SceneUi, in its own file (boids_playground_window.cpp beside boids_playground.cpp), registered under
// the scene's name with one line:
//   static bool registered = scenes::registerSceneWindow("boids", &scenes::makeWindow<BoidsWindow>);
// The app makes scenes through createForWindow; headless runs, claims and the scene tests make the
// simulation class alone (SceneEntry::create).
#pragma once
#include <cstdint>
#include <memory>
#include <glm/glm.hpp>
#include "scenes/scene.hpp"

namespace scenes {

struct MouseEvent {
  enum Kind { Down, Up, Move, Wheel } kind = Move;
  int button = 0;                // 1 left, 2 middle, 3 right
  glm::vec2 screen{0.0f};        // framebuffer pixels
  glm::vec2 world{0.0f};         // 2D world units
  bool shift = false, ctrl = false;
  float wheel = 0.0f;
};

class SceneUi {
 public:
  virtual ~SceneUi() = default;
  // Scene-specific ImGui controls (buttons, readouts, plots). Declared parameters get sliders from the app.
  virtual void panel() {}
  // Returns true when the scene used the event (the camera then leaves it alone).
  virtual bool onMouse(const MouseEvent&) { return false; }
  virtual bool onKey(int /*sdlKeycode*/, bool /*shift*/) { return false; }
};

using CreateScene = std::unique_ptr<Scene> (*)(SceneContext& ctx, uint64_t seed);
bool registerSceneWindow(const char* name, CreateScene create);
template <class Window>
std::unique_ptr<Scene> makeWindow(SceneContext& ctx, uint64_t seed) {
  return std::make_unique<Window>(ctx, seed);
}
// The scene as a window shows it: its window class where it has one, else its simulation alone.
std::unique_ptr<Scene> createForWindow(const SceneEntry& entry, SceneContext& ctx, uint64_t seed);
// The scene's window side; nullptr for a scene without one.
SceneUi* uiOf(Scene& scene);

}  // namespace scenes
