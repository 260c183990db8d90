// The HUD (timings, draw calls, scene menu), the scene panel, the F1 help overlay.
#pragma once
#include <array>
#include <string>
#include <vector>
#include "app/metrics_log.hpp"
#include "render/renderer.hpp"
#include "scenes/scene.hpp"

namespace app {

struct RingPlot {
  std::array<float, 300> values{};
  int next = 0, count = 0;
  void push(float v) { values[size_t(next)] = v; next = (next + 1) % int(values.size()); count = std::min(count + 1, int(values.size())); }
  float mean() const;
  float max() const;
};

// What the HUD remembers between frames.
struct HudMemory {
  RingPlot frameTimes, stepMs;
  bool showHelp = false;
  std::string message;          // last screenshot / export / error line
  double slowStepSeconds = 0;   // how long the step on the worker has been running
  int plotMetric = 0;
};

struct HudState {
  float fps = 0;
  double stepMs = 0, renderMs = 0;
  render::FrameStats stats;
  bool paused = false, stepRunning = false;
  int stepsDropped = 0;
  uint64_t steps = 0;
  std::string glInfo;
};

struct HudActions {
  bool vsyncChanged = false, togglePause = false, singleStep = false, restart = false, screenshot = false;
  bool exportCsv = false;
  std::string switchTo;
};

HudActions drawHud(HudMemory& hud, const HudState& s, const std::vector<scenes::SceneEntry>& scenes,
                   const std::string& current, float& speed, bool& vsync, const MetricsLog& log);
// The scene's own panel plus its declared parameters; true when a parameter changed.
bool drawScenePanel(scenes::Scene& scene, const std::string& title, bool stepRunning);
void drawHelp(const std::vector<scenes::SceneEntry>& scenes);
void applyTheme(bool dark);

}  // namespace app
