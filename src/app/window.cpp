#include "app/window.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>
#include "app/setup.hpp"
#include "render/gl.hpp"
#include "render/renderer.hpp"

namespace app {

namespace {
void GLAPIENTRY onGlDebugMessage(GLenum, GLenum type, GLuint id, GLenum severity, GLsizei, const GLchar* message, const void*) {
  if (severity == GL_DEBUG_SEVERITY_NOTIFICATION) return;
  static std::vector<GLuint> seen;  // each message once, not every frame
  if (std::find(seen.begin(), seen.end(), id) != seen.end() || seen.size() > 64) return;
  seen.push_back(id);
  std::fprintf(stderr, "crowdlab: OpenGL %s: %s\n", type == GL_DEBUG_TYPE_ERROR ? "error" : "warning", message);
}
}  // namespace

SdlContext::~SdlContext() {
  if (gl) SDL_GL_DeleteContext(gl);
  if (window) SDL_DestroyWindow(window);
  SDL_Quit();
}

bool openWindow(SdlContext& sdl, int width, int height, bool fullscreen, bool hidden, std::string& error) {
  if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER) != 0) {
    error = std::string("cannot open a display (") + SDL_GetError() +
            "). On a machine without a screen, run it under a virtual one: xvfb-run -a crowdlab ...";
    return false;
  }
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_FLAGS, SDL_GL_CONTEXT_FORWARD_COMPATIBLE_FLAG);  // macOS needs it
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
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
  int version = gladLoadGL(reinterpret_cast<GLADloadfunc>(SDL_GL_GetProcAddress));
  if (!version || GLAD_VERSION_MAJOR(version) * 10 + GLAD_VERSION_MINOR(version) < 33) {
    error = "OpenGL 3.3 core functions could not be loaded";
    return false;
  }
  return true;
}

void enableGlDebugMessages() {
  if (!GLAD_GL_KHR_debug) return;
  glEnable(GL_DEBUG_OUTPUT);
  glDebugMessageCallback(onGlDebugMessage, nullptr);
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

}  // namespace app
