// The SDL window and its OpenGL 3.3 core context.
#pragma once
#include <SDL.h>
#include <functional>
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

}  // namespace app
