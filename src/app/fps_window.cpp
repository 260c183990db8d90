#include "app/fps_window.hpp"

#include <cstdio>
#include <string>
#include "app/platform.hpp"
#include "render/gl.hpp"
#include "sim/core/parallel.hpp"

namespace app {

void beginFpsRun(FpsDriver& fps, bool vsync) {
  auto glString = [](GLenum e) {
    const GLubyte* s = glGetString(e);
    return s ? std::string(reinterpret_cast<const char*>(s)) : std::string();
  };
  FpsResult& r = fps.result();
  r.machine = describeMachine(glString(GL_RENDERER), glString(GL_VENDOR), glString(GL_VERSION), sim::hardwareThreads());
  r.platform = platform::hostDescription().empty() ? "desktop" : "browser";
  r.vsync = vsync;
  const bool paced = r.platform == "browser";
  fps.useWorkTime(paced);
  r.frameClock = paced ? "work" : "interval";
}

int reportFpsRun(FpsDriver& fps, glm::ivec2 drawable) {
  fps.finish();
  FpsResult& r = fps.result();
  r.width = drawable.x;
  r.height = drawable.y;
  const std::string line = fpsLine(r), json = fpsJson(r).dump(1);
  std::printf("%s%s\n", fpsTable(r).c_str(), line.c_str());
  int code = 0;
  if (io::OutputFile& out = fps.json(); out.isOpen()) {
    std::string error;
    const std::string path = out.path();
    out.write(json + "\n");
    if (!out.commit(error)) {
      std::fprintf(stderr, "crowdlab: %s\n", error.c_str());
      code = 1;
    } else {
      std::printf("json=%s\n", path.c_str());
    }
  }
  std::fflush(stdout);
  platform::showFpsResult(line, json);
  return code;
}

}  // namespace app
