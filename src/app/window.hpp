// The SDL window and its OpenGL 3.3 core context.
#pragma once
#include <SDL.h>
#include <functional>
#include <optional>
#include <string>

namespace app {

struct SdlContext {
  SDL_Window* window = nullptr;
  SDL_GLContext gl = nullptr;
  SdlContext() = default;
  SdlContext(const SdlContext&) = delete;
  SdlContext& operator=(const SdlContext&) = delete;
  ~SdlContext();
};

// Opens a shown or hidden window with a GL 3.3 core context and loads GL; a message and false when impossible.
bool openWindow(SdlContext& sdl, int width, int height, bool fullscreen, bool hidden, std::string& error);
// Runs `body` with a current context in a hidden window (bench --case gpu-boids); a message and
// false when there is no display or no context.
bool withHiddenGlContext(const std::function<void()>& body, std::string& error);

// F11 and back: the window comes back exactly where and as large as it was. A window manager may
// hand back another geometry (the display's size at y = 20, taller than its work area), and answers
// asynchronously, so the old geometry is asked for again over some frames after leaving.
class FullscreenToggle {
 public:
  static bool isOn(SDL_Window* window) { return (SDL_GetWindowFlags(window) & SDL_WINDOW_FULLSCREEN_DESKTOP) != 0; }
  void set(SDL_Window* window, bool on);
  void restoreEachFrame(SDL_Window* window);  // call once a frame

 private:
  struct Geometry {
    int x = 0, y = 0, w = 0, h = 0;
    bool maximized = false;
  };
  static constexpr int kRestoreFrames = 30;
  std::optional<Geometry> before_;  // the window as F11 found it
  int restoreFrames_ = 0;           // frames left to put it back
};

}  // namespace app
