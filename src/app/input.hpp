// Input: SDL events -> ImGui first -> the app's keys (returned as commands) -> the scene (targets,
// dragging) -> the camera (pan, orbit, zoom). Touch (a phone, a tablet, a touch screen): SDL turns
// the first finger into the mouse, so a tap sets a target or selects; a finger dragging where the
// scene takes nothing pans in 2D and orbits in 3D; two fingers pinch to zoom. The pointer position comes from SDL's motion events,
// not from polling, so synthetic input (VNC, xdotool) hovers and drags like a real mouse.
#pragma once
#include <SDL.h>
#include <vector>
#include <glm/glm.hpp>
#include "scenes/scene.hpp"

namespace app {

struct Command {
  enum Kind {
    Quit,         // Ctrl+Q or the window's close button (number 1: ask first while work runs), or a signal
    Escape,       // the app decides: close a menu, the help, fullscreen; it never quits
    TogglePause, SingleStep, Restart, ToggleUi, ToggleHelp, ToggleHud, Fullscreen, Screenshot, Home,
    LargerUi, SmallerUi, ToggleTheme,
    NextAgent, ToggleFollow,  // N, F: select the next agent, follow the selected one with the camera
    SwitchScene,  // `number`: 1-9, the registry's teaching order
    LessonNext, LessonPrevious, BlackScreen,  // a presentation clicker: PageDown / PageUp (Right / Left in a lesson), B
  } kind;
  int number = 0;
};

class Input {
 public:
  // Drains SDL's queue. The scene is offered events only when `sceneIdle` (no step in flight on the
  // worker: the scene belongs to it then); the camera still moves.
  std::vector<Command> poll(scenes::Scene& scene, scenes::SceneContext& ctx, bool sceneIdle);
  // Call after ImGui_ImplSDL2_NewFrame: ImGui sees the pointer SDL last reported by event. The
  // backend polls it only while the window has keyboard focus, which synthetic input may never give.
  void feedImGuiPointer() const;
  void cancelDrag() { dragging_ = 0; }
  // While a lesson runs, Right / Left walk it (a clicker may send them) instead of single-stepping.
  void setLessonKeys(bool on) { lessonKeys_ = on; }
  // The world's part of the window (points): scenes get pointer positions relative to its corner,
  // and the pointer counts as "in view" only inside it.
  void setWorldArea(glm::vec2 origin, glm::vec2 size) { worldOrigin_ = origin; worldSize_ = size; }

 private:
  void onKey(const SDL_Keysym& k, scenes::Scene& scene, bool sceneIdle, std::vector<Command>& out);
  void onButton(const SDL_MouseButtonEvent& b, bool down, scenes::Scene& scene, scenes::SceneContext& ctx, bool sceneIdle);
  void onMotion(const SDL_MouseMotionEvent& m, scenes::Scene& scene, scenes::SceneContext& ctx, bool sceneIdle);
  void onFinger(const SDL_TouchFingerEvent& f, Uint32 type, scenes::Scene& scene, scenes::SceneContext& ctx);

  struct Finger {
    SDL_FingerID id;
    glm::vec2 at;  // window points
  };
  std::vector<Finger> fingers_;

  bool overWorld() const;
  glm::vec2 inWorld() const { return pointer_ - worldOrigin_; }

  glm::vec2 pointer_{-1.0f};
  glm::vec2 worldOrigin_{0.0f}, worldSize_{1.0f};
  bool pointerInWindow_ = false;
  int dragging_ = 0;  // mouse button dragging the camera, 0: none
  bool lessonKeys_ = false;
};

}  // namespace app
