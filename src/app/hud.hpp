// The HUD (timings, draw calls, scene menu), the scene panel, the F1 help overlay.
#pragma once
#include <string>
#include <vector>
#include "app/metrics_log.hpp"
#include "app/layout.hpp"
#include "render/renderer.hpp"
#include "scenes/param_ui.hpp"
#include "scenes/plot_history.hpp"
#include "scenes/scene.hpp"

namespace app {

// The panels: the HUD's one line in the menu bar (FPS, agents, sim ms), the full HUD at the top left
// when opened (F2, or a click on that line), the scene panel on the right, under the menu bar. The
// world is fitted into the rectangle they leave free (layout.hpp), never laid under them. Their widths
// grow with the UI scale (in font heights) up to a share of the window, together at most half of it,
// so the world keeps at least half the window's width at any UI scale; their text wraps and they scroll.
struct DockLayout {
  static constexpr float kHudEm = 17.0f, kPanelEm = 24.0f;
  // The most of the window's width the scene panel takes: alone, half (its text then wraps but no
  // widget is cut at 3x in a 1280 px window); beside the opened HUD, less; both together half.
  static constexpr float kPanelShare = 0.5f, kPanelShareBesideHud = 0.32f;
  static constexpr float kTogetherShare = 0.5f;
  static inline bool hudOpen = false;  // the full HUD is shown (HudMemory::open, set as it is drawn)
  static constexpr float kBackgroundAlpha = 0.8f;   // the text stays readable on any theme (tests measure it)
  // The panels stay below every floating window (an inset such as the corridor's velocity space, the
  // F1 help): a click in a panel focuses it but never raises it over them.
  static constexpr int kPanelFlags = ImGuiWindowFlags_NoBringToFrontOnFocus;
  static float em();
  static float hudWidth();
  static float panelWidth();
  static float menuBarHeight();
  static float titleBarHeight();  // a panel folded to its title
};

// What the HUD remembers between frames.
struct HudMemory {
  scenes::PlotHistory frameTimes;
  bool showHelp = false;
  bool open = false;            // the full HUD is shown; closed, the menu bar holds its one line
  bool collapsed = false;       // the full HUD folded to its title bar
  float height = 0.0f;          // the full HUD's height as last drawn (0: not yet), window points
  std::string message;          // last screenshot / export / error line
  int recordFrames = 300;
  bool captureWorldOnly = true;  // F12 and "Record frames" take the world without the panels
  float uiScaleEdit = 1.0f;
  bool editingScale = false;
};

struct HudState {
  float fps = 0;
  double stepMs = 0, renderMs = 0;  // step: median over the last 2 s; fps likewise
  double metricsMs = 0;             // the scene's metric sampling, timed apart from its step
  bool behindRealTime = false;      // the simulated clock fell behind the wall clock
  double realTimeShare = 1;         // simulated seconds per wall second / speed
  double benchmarkSecondsLeft = 0;  // > 0 while "Benchmark this scene" runs
  render::FrameStats stats;
  bool paused = false, stepRunning = false;
  double slowStepSeconds = 0;   // how long the step on the worker has been running
  int stepsDropped = 0;
  uint64_t steps = 0;
  std::string glInfo;
  float uiScale = 1.0f;
  bool darkTheme = true, recording = false;
  int recordedFrames = 0, recordTotal = 0;
};

struct HudActions {
  bool vsyncChanged = false, togglePause = false, singleStep = false, restart = false, screenshot = false;
  bool exportCsv = false, toggleTheme = false, stopRecording = false, benchmark = false;
  float uiScale = 0;       // > 0: new scale requested
  int recordFrames = 0;    // > 0: start recording this many frames
  std::string switchTo;
};

// Where the HUD and the scene panel will be drawn this frame (window points), from what they
// remember of the last (the panel folded or not; the banner's strip below it): the world is fitted
// beside them. None while the UI is hidden (Tab).
std::vector<Box> dockedPanels(const HudMemory& hud, bool panelCollapsed, float reservedBottom, glm::vec2 window);

// The warning the HUD shows when the simulated clock falls behind the wall clock: what is wrong and
// what to do about it.
std::string behindRealTimeWarning(double realTimeShare);

using scenes::panelTooltip;
using scenes::sameLineIfFits;  // rows of widgets wrap instead of running past a panel's edge

HudActions drawHud(HudMemory& hud, const HudState& s, const std::vector<scenes::SceneEntry>& scenes,
                   const std::string& current, float& speed, bool& vsync, const MetricsLog& log);
// The keys, the scene's own keys and its whole "About" text (lede and the rest).
void drawHelp(const std::vector<scenes::SceneEntry>& scenes, const std::string& sceneTitle, std::span<const scenes::KeyAction> sceneKeys,
              const scenes::Scene& scene);

}  // namespace app
