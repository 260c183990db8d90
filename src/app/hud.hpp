// The HUD (timings, draw calls, scene menu), the scene panel, the F1 help overlay.
#pragma once
#include <string>
#include <vector>
#include <map>
#include "app/tune_panel.hpp"
#include "app/metrics_log.hpp"
#include "app/sweep_panel.hpp"
#include "app/layout.hpp"
#include "render/renderer.hpp"
#include "scenes/claims.hpp"
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

struct PanelMemory;
// Where the HUD and the scene panel will be drawn this frame (window points), from what they
// remember of the last: the world is fitted beside them. None while the UI is hidden (Tab).
std::vector<Box> dockedPanels(const HudMemory& hud, const PanelMemory& panel, glm::vec2 window);

// The warning the HUD shows when the simulated clock falls behind the wall clock: what is wrong and
// what to do about it.
std::string behindRealTimeWarning(double realTimeShare);

using scenes::panelTooltip;
using scenes::sameLineIfFits;  // rows of widgets wrap instead of running past a panel's edge

HudActions drawHud(HudMemory& hud, const HudState& s, const std::vector<scenes::SceneEntry>& scenes,
                   const std::string& current, float& speed, bool& vsync, const MetricsLog& log);
// What the scene panel remembers: text fields and the last message.
struct PanelMemory {
  char saveName[64] = "my-preset";
  std::string replacePending;  // Save found this preset file there: it asks before replacing it
  char loadPath[512] = "";
  std::string renaming, deleting;  // the user preset being renamed / asked about deleting ("" none)
  char newName[64] = "";
  std::string message;
  bool messageIsError = false;
  bool collapsed = false;  // folded to its title bar
  bool aboutMore = false;  // the scene's text beyond its lede is shown
  bool resetScroll = true; // a new scene's panel opens at the top
  // Window points kept free below the world (world_view.hpp): the claim banner's strip sets its
  // height here each frame it is drawn, 0 otherwise; the world is fitted above it.
  float reservedBottom = 0.0f;
  // The running experiment (a claim): its banner and live verdict.
  scenes::ClaimTracker experiment;
  std::string experimentScene;
  std::string banner;                       // the banner's line as last drawn ("" none)
  bool bannerVerdict = false;               // the banner shows the verdict (the window has passed)
  const scenes::Claim* requested = nullptr; // an experiment button was pressed: the app starts it
  const scenes::Claim* after = nullptr;     // a baseline runs now; this claim (measured against it) follows
  float worldLeft = -1.0f, worldRight = -1.0f;  // the world's view across the window, points (set by the app)
  // A running lesson's step (set by the app; "" none): its sentence takes the banner's first line,
  // and "step 4 of 18" stands small in the strip's corner.
  std::string lessonSay, lessonProgress;
  std::map<std::string, double> measured;   // claim id -> last window value here (baselines of ratio claims)
  SweepSection sweep;                       // the Sweep section's sweep (sweep_panel.hpp)
  float contentHeight = 0.0f;  // the panel's content last frame (kept while a step runs on the worker)
  // The experiment buttons' block as last drawn (window points; empty: none), and the panel's visible
  // bottom: the block must end above it without scrolling.
  Box experiments;
  float panelVisibleBottom = 0.0f;
  double noticeUntil = 0.0;  // ImGui time until which the message also stands by the cursor (an experiment ended by hand)
  // The Tune section (tune_panel.hpp); shared so that a panel reset for a new scene stops its search.
  std::shared_ptr<TunePanel> tune = std::make_shared<TunePanel>();
};
// About + experiments, the scene's own panel, its declared parameters and presets; true when a parameter changed.
// An experiment button sets memory.requested (the app starts it: startExperimentRun) and the claim's banner is drawn.
bool drawScenePanel(scenes::Scene& scene, const std::string& sceneName, const std::string& title, bool stepRunning,
                    PanelMemory& memory);
// The scene restarted into the claim's experiment (scenes::startExperiment), with its banner from the
// start; the caller then books the restart (step counter and clock back to 0). False with the panel's
// error line when the registry is wrong.
bool startExperimentRun(scenes::Scene& scene, const std::string& sceneName, const scenes::Claim& claim,
                        PanelMemory& memory);
// The running experiment's share of each step (after the step, with its metrics): the claim's window
// is reduced over every step, as `crowdlab claims` reduces it, however many steps a frame takes.
// Returns the steps a frame from now on (experimentFastForward).
int sampleExperimentStep(PanelMemory& memory, const std::string& sceneName, double simTime,
                          std::span<const sim::Metric> metrics);
// Steps a frame for the running experiment (scenes::fastForward); 1 without one.
int experimentFastForward(const PanelMemory& memory, const std::string& sceneName, double simTime);
// The keys, the scene's own keys and its whole "About" text (lede and the rest).
void drawHelp(const std::vector<scenes::SceneEntry>& scenes, const std::string& sceneTitle, std::span<const scenes::KeyAction> sceneKeys,
              const scenes::Scene& scene);

}  // namespace app
