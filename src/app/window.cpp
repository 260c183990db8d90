#include "app/window.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>
#include "app/platform.hpp"
#include "app/run_modes.hpp"
#include "render/gl.hpp"
#include "render/renderer.hpp"

namespace app {

namespace {
const std::string kNoScreen = "On a machine without a screen, run it under a virtual one: xvfb-run -a crowdlab ...";
}  // namespace

SdlContext::~SdlContext() {
  if (gl) SDL_GL_DeleteContext(gl);
  if (window) SDL_DestroyWindow(window);
  SDL_Quit();
}

bool openWindow(SdlContext& sdl, int width, int height, bool fullscreen, bool hidden, std::string& error) {
#ifdef SDL_HINT_QUIT_ON_LAST_WINDOW_CLOSE
  // The close button is a window event the app answers (it asks first while a sweep runs); SDL_QUIT
  // then comes only from a signal, which quits at once.
  SDL_SetHint(SDL_HINT_QUIT_ON_LAST_WINDOW_CLOSE, "0");
#endif
  if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER) != 0) {
    error = std::string("cannot open a display (") + SDL_GetError() +
            "). " + kNoScreen;
    return false;
  }
  // With no window system answering (DISPLAY unset or refused, or an X server resetting as its last
  // client left), SDL falls back to drivers that show nothing (offscreen, through EGL): a window run
  // would go on for good with nothing on any screen. A window someone should see needs a real one;
  // a hidden window (--hidden, the GPU step's GL context) may be offscreen, and so may any driver the
  // user named in SDL_VIDEODRIVER.
  const char* driver = SDL_GetCurrentVideoDriver();
  const bool showsNothing = driver && (std::strcmp(driver, "offscreen") == 0 || std::strcmp(driver, "dummy") == 0);
  const char* named = SDL_getenv("SDL_VIDEODRIVER");
  if (!hidden && showsNothing && !(named && *named)) {
    const char* display = SDL_getenv("DISPLAY");
    error = std::string("cannot open a display (") +
            (display && *display ? "DISPLAY=" + std::string(display) + " did not answer" : "DISPLAY is not set") +
            "). " + kNoScreen + ", or add --hidden --frames N for screenshots only";
    return false;  // ~SdlContext quits SDL
  }
  platform::requestGlContext();
  SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
  SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
  Uint32 flags = SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI;
  if (fullscreen) flags |= SDL_WINDOW_FULLSCREEN_DESKTOP;
  if (hidden) flags |= SDL_WINDOW_HIDDEN;
  sdl.window = SDL_CreateWindow("crowdlab", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, width, height, flags);
  if (!sdl.window) {
    error = std::string("cannot create a window (") + SDL_GetError() + ")";
    return false;
  }
  sdl.gl = SDL_GL_CreateContext(sdl.window);
  if (!sdl.gl) {
    error = std::string("OpenGL 3.3 core is not available on this display (") + SDL_GetError() +
            "). crowdlab needs OpenGL 3.3; under xvfb-run, Mesa's llvmpipe provides it";
    return false;
  }
  SDL_GL_MakeCurrent(sdl.window, sdl.gl);
  return platform::loadGl(error);
}

bool withHiddenGlContext(const std::function<void()>& body, std::string& error) {
  SdlContext sdl;
  if (!openWindow(sdl, 64, 64, false, true, error)) return false;
  body();
  return true;
}

std::string benchReportHeader() {
  SdlContext sdl;
  std::string error;
  if (!openWindow(sdl, 64, 64, false, true, error)) return "GL renderer: unavailable (" + error + ")\n";
  return "GL renderer: " + render::Renderer::glInfo() + "\n";
}

void FullscreenToggle::set(SDL_Window* window, bool on) {
  if (on == isOn(window)) return;
  if (on) {
    Geometry g;
    SDL_GetWindowPosition(window, &g.x, &g.y);
    SDL_GetWindowSize(window, &g.w, &g.h);
    g.maximized = (SDL_GetWindowFlags(window) & SDL_WINDOW_MAXIMIZED) != 0;
    before_ = g;
    restoreFrames_ = 0;
  }
  SDL_SetWindowFullscreen(window, on ? SDL_WINDOW_FULLSCREEN_DESKTOP : 0);
  if (!on && before_) restoreFrames_ = kRestoreFrames;
}

void FullscreenToggle::restoreEachFrame(SDL_Window* window) {
  if (restoreFrames_ <= 0 || !before_ || isOn(window)) return;
  --restoreFrames_;
  const Geometry& g = *before_;
  if (g.maximized) {
    if (!(SDL_GetWindowFlags(window) & SDL_WINDOW_MAXIMIZED)) SDL_MaximizeWindow(window);
    return;
  }
  int x = 0, y = 0, w = 0, h = 0;
  SDL_GetWindowPosition(window, &x, &y);
  SDL_GetWindowSize(window, &w, &h);
  if (w != g.w || h != g.h) SDL_SetWindowSize(window, g.w, g.h);
  if (x != g.x || y != g.y) SDL_SetWindowPosition(window, g.x, g.y);
}

}  // namespace app
