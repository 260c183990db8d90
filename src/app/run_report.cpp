#include "app/run_report.hpp"

#include <cstdio>

namespace app {

std::string benchmarkLine(const BenchmarkFigures& f) {
  char line[512];
  std::snprintf(line, sizeof(line),
                "crowdlab benchmark: scene=%s N=%zu median_step_ms=%.3f fps=%.1f steps=%zu gl=\"%s\" cpu=\"%s\" window=%dx%d vsync=%s",
                f.scene.c_str(), f.agents, f.medianStepMs, f.fps, f.steps, f.gl.c_str(), cpuName().c_str(), f.width, f.height,
                f.vsync ? "on" : "off");
  return f.background.empty() ? std::string(line) : std::string(line) + " background=" + f.background;
}

std::string cpuName() {
  std::FILE* f = std::fopen("/proc/cpuinfo", "r");
  if (!f) return "unknown";
  char buf[512];
  std::string name = "unknown";
  while (std::fgets(buf, sizeof(buf), f)) {
    std::string line = buf;
    if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos) {
      name = line.substr(line.find(':') + 2);
      while (!name.empty() && (name.back() == '\n' || name.back() == ' ')) name.pop_back();
      break;
    }
  }
  std::fclose(f);
  return name;
}

}  // namespace app
