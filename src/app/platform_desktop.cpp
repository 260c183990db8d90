// The desktop side of platform.hpp: OpenGL 3.3 core through glad, a plain loop, files stay where written.
#include "app/platform.hpp"

#include <SDL.h>
#include <algorithm>
#include <cstdio>
#include <vector>
#include "render/gl.hpp"

namespace app::platform {

namespace {
void GLAPIENTRY onGlDebugMessage(GLenum, GLenum type, GLuint id, GLenum severity, GLsizei, const GLchar* message, const void*) {
  if (severity == GL_DEBUG_SEVERITY_NOTIFICATION) return;
  static std::vector<GLuint> seen;  // each message once, not every frame
  if (std::find(seen.begin(), seen.end(), id) != seen.end() || seen.size() > 64) return;
  seen.push_back(id);
  std::fprintf(stderr, "crowdlab: OpenGL %s: %s\n", type == GL_DEBUG_TYPE_ERROR ? "error" : "warning", message);
}
}  // namespace

void requestGlContext() {
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_FLAGS, SDL_GL_CONTEXT_FORWARD_COMPATIBLE_FLAG);  // macOS needs it
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
}

bool loadGl(std::string& error) {
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

const char* imguiGlslVersion() { return "#version 330 core"; }

void runLoop(std::function<bool()> frame, std::function<void()> done) {
  while (frame()) {}
  done();
}

bool canStepInBackground() { return true; }
bool canQuit() { return true; }

bool hasUserFiles() { return true; }
std::string deliverFile(const std::string& path) { return "saved " + path; }
void persistFiles() {}
void onPageHide(std::function<void()>) {}
float defaultUiScale() { return 0.0f; }
void setStateReporter(std::function<std::string()>) {}
std::string pageThreadsNote() { return {}; }
std::string hostDescription() { return {}; }
BrowserMachine browserMachine() { return {}; }
void showFpsResult(const std::string&, const std::string&) {}

}  // namespace app::platform
