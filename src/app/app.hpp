// The window app: one class, App, whose work is split over units by job; this header is theirs alone.
//   app.cpp          the frame loop, scene switching, the commands keys and menus send
//   app_start.cpp    start-up: the flags checked, the outputs and the window opened and placed (runWindow)
//   app_frame.cpp    one frame's drawing: the world, the panels, screenshots and recorded frames
//   app_controls.cpp a presenter's controls: the lesson's steps, Esc and quit, agent selection and follow
//   app_measure.cpp  the in-app benchmark and the frames of `crowdlab fps`
//   app_state.cpp    what the run reports and keeps: --state-out (layout, probe), the user's settings
// The jobs with state of their own live in their own classes (stepper, input, recorder, world view,
// world overlay, panels, lesson, probe); App ties them together.
#pragma once
#include <imgui.h>
#include <nlohmann/json.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <deque>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>
#include "app/scene_benchmark.hpp"
#include "app/fps_window.hpp"
#include "app/hud.hpp"
#include "app/scene_panel.hpp"
#include "app/input.hpp"
#include "app/layout.hpp"
#include "app/lesson.hpp"
#include "app/ui_style.hpp"
#include "app/metrics_log.hpp"
#include "app/platform.hpp"
#include "app/probe.hpp"
#include "app/recording.hpp"
#include "app/agent_selection.hpp"
#include "app/settings.hpp"
#include "app/run_modes.hpp"
#include "app/stepper.hpp"
#include "app/user_dirs.hpp"
#include "app/window.hpp"
#include "app/world_overlay.hpp"
#include "app/world_view.hpp"
#include "experiments/objectives.hpp"
#include "io/atomic_file.hpp"
#include "io/user_files.hpp"
#include "render/gl.hpp"
#include "render/gpu_boids.hpp"
#include "render/renderer.hpp"
#include "scenes/digest.hpp"
#include "scenes/experiment.hpp"
#include "sim/core/metrics.hpp"
#include "sim/core/parallel.hpp"

namespace app {

using Clock = std::chrono::steady_clock;
inline double secondsSince(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Debug lines and circle outlines at UI scale 1, in window points (1 px lines vanish on a projector).
inline constexpr float kLineWidthPoints = 1.5f;
// The least length a 2D agent is drawn at when the view is fitted, window points: seen from the back
// of a hall even in the part of a 720 p window beside the panel.
inline constexpr float kLeastGlyphPoints = 8.0f;

// --state-out: SIGUSR1 asks for the state file now as well as at the end, so a script can read the
// window's layout at any moment of a run (after a key, a resize, a scene switch); with --screenshot,
// the picture of that frame too (written before the state, so a state seen means its picture is there).
extern volatile std::sig_atomic_t stateWanted;
extern "C" void askForState(int);

class App {
 public:
  App(const Options& o, SdlContext& sdl, Settings& settings, MetricsCsvStream& csv, WindowOutputs& outputs)
      : options_(o), sdl_(sdl), settings_(settings), csv_(csv), outputs_(outputs),
        stepper_([](float) {},  // switchScene() gives it the scene to step
                 platform::canStepInBackground() ? Stepper::kAsyncAfterMs : std::numeric_limits<double>::infinity()) {
    stepper_.onStepped = [this] { afterStep(); };
  }

  void showMessage(const std::string& text) { hud_.message = text; }

  int run();

  // One frame: events, steps, drawing. False when the run is over.
  bool frame();
  int finish();

  // What the page's hook reports: the scene's parameters (as a preset holds them), its metrics,
  // the steps taken, and the median time of the steps in the last ten seconds.
  std::string stateJson();

  // The probe (probe.hpp): the last frame's widget places and measurements, and the run's own.
  nlohmann::json probeJson();

 private:
  // The agents as the scene draws them now (scenes::agentsDigest). While a step is in flight the
  // scene is not read, and the last frame's agents are used.
  std::string agentsDigest();

  // The window as last drawn: the free rectangle the world is fitted into, the agents' box in it, and
  // every panel or floating window (the HUD, the scene panel, an inset, the help).
  ScreenLayout currentLayout() const;

  // --max-fps: the frame waits out the rest of its share of a second before it starts, unless the run
  // counts frames (those go as fast as they can) or nothing caps it.
  void holdFrameRate(Clock::time_point& now);
  // Scripted runs and recordings take exactly one step per frame, never on the worker.
  bool lockstep() const { return options_.frames || recorder_.active() || untilVerdict() || options_.fps; }
  // --claim ID --screenshot FILE without --frames: run until the claim's verdict shows (its baseline
  // first where it has one), then the screenshot, and quit: the picture at the end of its window.
  // --claim ID --hidden without --frames does the same, for its state (`crowdlab claims`' window claims).
  bool untilVerdict() const;
  static constexpr std::chrono::milliseconds kBackgroundWorkWait{150};  // a quit waits this at most for them
  static constexpr int kMostFramesUntilVerdict = 60 * 60 * 10;  // ten simulated minutes: a registry bug, not a wait

  float pixelsPerPoint() const { return std::max(1.0f, float(drawableSize_.x) / windowSize_.x); }

  // The one way to a new scene: the factory (preset and --set from the command line only for the
  // first), then the app's own state for it starts over.
  bool switchScene(const std::string& name, const Options* commandLine, std::string& error);
  void switchToNumber(int number);
  void afterSceneCreated();

  // The window's title: the scene, and the background work under way (a sweep's points, a search's
  // generations), for the taskbar while another window is in front. ASCII only: SDL sets X11 titles
  // through Xlib's locale, which is "C" in a program that never calls setlocale, and a title with
  // an em dash left _NET_WM_NAME at "crowdlab" and WM_NAME in mojibake.
  void updateTitle();

  // R: a running experiment starts again from the claim's start (a plain reset would lose it, e.g.
  // the formed flock or the falcon's dive); otherwise the scene resets with its current parameters.
  void restartScene();
  const scenes::Claim* runningClaim() const;

  // The one way into an experiment, for its button, R while it runs and --claim: the scene restarts
  // into the claim, then the step counter, the clock and the metrics log start again from 0.
  bool startClaim(const scenes::Claim& claim);
  std::string sceneTitle() const;
  void updateViewport();

  // Home, a new scene, a new theme: the world framed in the free viewport again.
  void fitView();

  // ---- commands from keys and menus ----
  void feedScriptedKey();
  void onCommand(const Command& c);

  // Commands that read or reset the simulation's state.
  static bool readsScene(Command::Kind k);

  // ---- the lesson (lesson.hpp): each step a full restart into its set-up ----
  void startLesson(Lesson lesson);
  void lessonMove(bool forward);
  void enterLessonStep();
  void onLessonMenu(const LessonMenuAction& act);

  // N: the scene's next agent (OpenSteerDemo's "select next vehicle"); false where a scene has none.
  bool selectNextAgent();
  void noAgentToSelect();

  // The follow camera: the selected agent at the centre of the world viewport, in 2D and 3D. Called
  // after the scene drew, from the same state, so the agent and the camera never disagree by a step.
  void followSelected();

  // Where the selected agent is drawn, in window points from the world viewport's centre (for the
  // tests: the follow camera keeps it 0); nullopt without a selection.
  std::optional<float> selectedOffsetFromCentre(const render::FrameView& view);

  // Esc closes what is open, one thing a press: the quit question, a menu, the help, the full HUD,
  // fullscreen. It never quits: a presenter presses it by accident (Ctrl+Q or the window's close
  // button quit).
  void onEscape();

  // Ctrl+Q and the window's close button (`ask`) quit at once unless work would be lost: then a small
  // question first, and the same key again (or its Quit button) quits. A signal quits at once.
  void onQuit(bool ask);
  // What quitting now would cut short ("" nothing).
  std::string workUnderWay();
  void drawQuitQuestion();

  bool fullscreen() const { return FullscreenToggle::isOn(sdl_.window); }
  void setFullscreen(bool on) { fullscreenToggle_.set(sdl_.window, on); }

  // On the UI thread after each step: the scene's own sampling, timed apart from the step.
  void afterStep();

  // The HUD's honest numbers: medians over the last 2 s, and "slower than real time" only when the
  // simulated clock really fell behind the wall clock.
  static constexpr double kHudSeconds = 2.0;
  double fpsOver(double seconds) const;

  // "Benchmark this scene (10 s)": one line to paste (scene, N, median ms/step, FPS, GL, CPU).
  BenchmarkWatch benchmarkWatch() { return {sceneName_, sceneRuns_, paramWrites_, stepper_.paused, backgroundWork()}; }
  // What runs beside the live scene on the other cores now: a sweep, a search, both, or nothing.
  std::string backgroundWork();
  void finishBenchmark();

  // During "Benchmark this scene" nothing follows the real mouse (the button sits under it, and where
  // it rests would decide the run): a 2D scene's cursor, the finale's target, travels a fixed slow
  // loop over the middle of the view instead, the path the finale's own wander takes.
  void scriptCursor();

  // ---- `crowdlab fps`: the standard cases, one after another (fps_run.hpp) ----
  // Opens the next case when the last one is done; false once every case has run.
  bool openFpsCase();
  void fpsFrameDone();
  int finishFps();
  void recordMetrics();

  // ---- drawing ----
  void renderFrame();

  WorldViewport world() const { return {worldOrigin_, worldSize_}; }
  // A 2D agent's glyph length on screen, window points (0 in 3D).
  float glyphPoints(float agentScale) const;
  static void drawUiLists(ImDrawData* all, int first, int count);

  PixelRect windowPixels() const { return {0, 0, drawableSize_.x, drawableSize_.y}; }
  PixelRect worldPixels() const;

  // F12's screenshot and the recording's next frame, of `rect`, once a frame (the first call wins).
  void captureRequested(const PixelRect& rect);
  static std::string frontWindow();
  void fail(const std::string& message, bool& flag);

  // --screenshot, into the file opened before the window (once: it is closed after).
  bool screenshot(const PixelRect& rect);

  // From the HUD or --record without --record-dir: a folder of its own, never an earlier run's.
  void startNewRecording(int frames);
  void startRecording(int frames, const std::string& dir);
  void drawUi(bool sceneIdle);

  // ---- settings: only a person's session is remembered, never a scripted run's ----
  bool scriptedRun() const { return options_.frames || !options_.screenshot.empty() || options_.hidden || options_.fps; }

  void saveUserSettings();

  const Options& options_;
  SdlContext& sdl_;
  Settings& settings_;
  MetricsCsvStream& csv_;  // --metrics-csv, opened before the window; not open without the flag
  WindowOutputs& outputs_;  // --state-out and --screenshot, opened before the window; closed without the flags
  render::Renderer renderer_;
  render::AgentBatch batch_;
  render::DebugDraw debug_;
  render::FrameStats lastStats_;
  std::vector<scenes::SceneEntry> scenes_;
  // The scene. The UI thread reaches it only through scene(), which waits for a step in flight first
  // (the stepper's rule, impossible to forget); the step reaches it directly, on the worker.
  std::unique_ptr<scenes::Scene> scene_;
  scenes::Scene& scene();
  // For code that reads no simulation state, or checks stepper_.idle() itself: declarations (view,
  // keys, sizes), parameters (no step writes them), input and the panel (idle-aware).
  scenes::Scene& sceneUnguarded() { return *scene_; }
  // scene() as a callable, for the handlers in agent_selection.hpp.
  struct SceneThroughGuard {
    App* app;
    scenes::Scene& operator()() const { return app->scene(); }
  };
  SceneThroughGuard guardedScene() { return {this}; }
  std::vector<Command> deferred_;  // scene-reading commands pressed during a step
  bool abandoned_ = false;         // finish() left a step in flight: the scene is the worker's for good
  std::string sceneName_, glInfo_;
  std::string title_;  // the window's title as last set
  scenes::SceneContext ctx_;
  Stepper stepper_;  // after scene_: it is destroyed first, waiting for a step in flight
  Input input_;
  Recorder recorder_;
  LookChoice look_, pendingLook_;
  std::vector<sim::Metric> metrics_;
  MetricsLog log_;
  HudMemory hud_;
  PanelMemory panel_;
  ExperimentState experiment_;  // the running claim and its banner (experiment_banner.hpp)
  ViewFit viewFit_;
  std::map<std::string, nlohmann::json> tuned_;  // scene name -> its parameters when last left
  std::deque<SDL_Keysym> scriptedKeys_;
  bool quitAsked_ = false;  // the quit question is shown
  FullscreenToggle fullscreenToggle_;
  LessonRun lesson_;
  bool blackScreen_ = false;
  AppBenchmark benchmark_;
  uint64_t sceneRuns_ = 0, paramWrites_ = 0;  // what a benchmark run watches (BenchmarkWatch)
  RecentSamples frameMs_, metricsMs_;
  glm::vec2 windowSize_{1280, 720}, worldOrigin_{0, 0}, worldSize_{1280, 720};
  Clock::time_point start_, last_, frameStart_;
  glm::ivec2 drawableSize_{1280, 720};
  double renderMs_ = 0;
  float drawnAgentScale_ = 1.0f;  // the agents' scale as last drawn (the scene's, raised to kLeastGlyphPoints)
  AgentsOnScreen agentsOnScreen_;  // the agents as last drawn: how many outside the world, the box around the rest
  int frame_ = 0;
  int verdictFrames_ = 0;     // frames the claim's verdict has shown (--claim with --screenshot and no --frames)
  bool quit_ = false, uiVisible_ = true, vsync_ = true, following_ = false;
  int followedFrames_ = 0;       // frames drawn following a selected agent
  float followMaxOffset_ = 0.0f;  // the most it was off the viewport's centre then, window points
  bool screenshotRequested_ = false, screenshotFailed_ = false, recordFailed_ = false;
  bool snapshotThisFrame_ = false;  // SIGUSR1 asked for the state (and picture) of this frame
  bool recordedThisFrame_ = false;
  float panelOverflowMax_ = 0.0f, panelOverflowMaxAtScale_ = 0.0f;  // the most over the run, and at which UI scale
  int framesAtLook_ = 0;             // frames drawn since the look (UI scale, theme) last changed
  std::set<int> overflowScales_;     // UI scales (percent) the overflow was measured at
};

}  // namespace app
