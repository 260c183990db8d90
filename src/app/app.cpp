// The window app: the main loop and the scene switcher, tying together the units that each do one
// job: input (input.hpp), stepping (stepper.hpp), recording (recording.hpp), the look (look.hpp),
// settings (settings.hpp), the HUD and panels (hud.hpp).
#include <imgui.h>
#include <imgui_internal.h>  // ClosePopupToLevel: Esc closes an open menu
#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <set>
#include <string>
#include <thread>
#include <vector>
#include "app/app_bench.hpp"
#include "app/fps_window.hpp"
#include "app/hud.hpp"
#include "app/input.hpp"
#include "app/layout.hpp"
#include "app/lesson.hpp"
#include <limits>
#include <nlohmann/json.hpp>
#include "app/look.hpp"
#include "app/platform.hpp"
#include "app/probe.hpp"
#include "app/world_overlay.hpp"
#include "app/metrics_log.hpp"
#include "app/recording.hpp"
#include "app/settings.hpp"
#include "app/scene_keys.hpp"
#include "app/setup.hpp"
#include "app/stepper.hpp"
#include "app/window.hpp"
#include "experiments/objectives.hpp"
#include "app/user_dirs.hpp"
#include "app/world_view.hpp"
#include "io/atomic_file.hpp"
#include "render/gl.hpp"
#include "io/user_files.hpp"
#include "render/renderer.hpp"
#include "render/gpu_boids.hpp"
#include "scenes/digest.hpp"
#include "scenes/experiment.hpp"
#include "sim/core/metrics.hpp"
#include "sim/core/parallel.hpp"

namespace app {
namespace {

using Clock = std::chrono::steady_clock;

// --state-out: SIGUSR1 asks for the state file now as well as at the end, so a script can read the
// window's layout at any moment of a run (after a key, a resize, a scene switch).
volatile std::sig_atomic_t stateWanted = 0;
extern "C" void askForState(int) { stateWanted = 1; }
double secondsSince(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Debug lines and circle outlines at UI scale 1, in window points (1 px lines vanish on a projector).
constexpr float kLineWidthPoints = 1.5f;
// The least length a 2D agent is drawn at when the view is fitted, window points: seen from the back
// of a hall even in the part of a 720 p window beside the panel.
constexpr float kLeastGlyphPoints = 8.0f;

// "--keys" entries as SDL key events: "Tab", "F1", "ctrl+q", "shift+a". False on an unknown name.
bool parseKeys(const std::vector<std::string>& names, std::vector<SDL_Keysym>& out, std::string& error) {
  for (const std::string& entry : names) {
    SDL_Keysym k{};
    std::string name = entry;
    for (auto [prefix, mod] : {std::pair{"ctrl+", KMOD_LCTRL}, std::pair{"shift+", KMOD_LSHIFT}}) {
      if (name.size() > std::string(prefix).size() && SDL_strncasecmp(name.c_str(), prefix, std::string(prefix).size()) == 0) {
        k.mod = Uint16(k.mod | mod);
        name = name.substr(std::string(prefix).size());
      }
    }
    k.sym = SDL_GetKeyFromName(name.c_str());
    if (k.sym == SDLK_UNKNOWN) {
      error = "--keys: unknown key '" + entry + "' (SDL key names: Tab, Escape, F1, Home, a, 1, ctrl+q)";
      return false;
    }
    k.scancode = SDL_GetScancodeFromKey(k.sym);
    out.push_back(k);
  }
  return true;
}

class App {
 public:
  App(const Options& o, SdlContext& sdl, Settings& settings, MetricsCsvStream& csv, WindowOutputs& outputs)
      : options_(o), sdl_(sdl), settings_(settings), csv_(csv), outputs_(outputs),
        stepper_([](float) {},  // switchScene() gives it the scene to step
                 platform::canStepInBackground() ? Stepper::kAsyncAfterMs : std::numeric_limits<double>::infinity()) {
    stepper_.onStepped = [this] { afterStep(); };
  }

  void showMessage(const std::string& text) { hud_.message = text; }

  int run() {
    std::string error;
    std::vector<SDL_Keysym> keys;
    if (!parseKeys(options_.keys, keys, error)) {
      std::fprintf(stderr, "crowdlab: %s\n", error.c_str());
      return 2;
    }
    scriptedKeys_.assign(keys.begin(), keys.end());
    if (!renderer_.init(error)) {
      std::fprintf(stderr, "crowdlab: %s\n", error.c_str());
      return 1;
    }
    platform::enableGlDebugMessages();
    vsync_ = options_.vsync.value_or(settings_.vsync);
    // A saved scale wins; a first run picks one the display can be read at (look.hpp).
    SDL_DisplayMode display{};
    const bool displayKnown = SDL_GetCurrentDisplayMode(std::max(0, SDL_GetWindowDisplayIndex(sdl_.window)), &display) == 0;
    const float platformScale = platform::defaultUiScale();  // the browser's, from devicePixelRatio
    const float scale = settings_.uiScale > 0  ? settings_.uiScale
                        : platformScale > 0    ? platformScale
                                               : firstRunUiScale(displayKnown ? display.h : 0);
    look_ = pendingLook_ = {scale, settings_.darkTheme};
    updateViewport();
    applyLook(look_, pixelsPerPoint());
    updateViewport();  // the docked panels' widths follow the font just built
    if (options_.fps) {
      vsync_ = false;     // frames as fast as the machine draws them, never the display's rate
      uiVisible_ = false;  // the world alone: the panels would be measured too
    }
    SDL_GL_SetSwapInterval(vsync_ ? 1 : 0);
    glInfo_ = render::Renderer::glInfo();
    if (options_.fps) beginFpsRun(*options_.fps, vsync_);

    scenes_ = scenes::registeredScenes();
    std::string first = !options_.scene.empty() ? options_.scene : !settings_.lastScene.empty() ? settings_.lastScene : kDefaultScene;
    if (!scenes::findScene(first) && !scenes_.empty()) first = scenes_.front().name;
    if (!switchScene(first, &options_, error)) {
      std::fprintf(stderr, "crowdlab: %s\n%s", error.c_str(), usage().c_str());
      return 2;
    }
    if (!options_.claim.empty() && !startClaim(*scenes::findClaim(options_.claim))) {  // parseOptions checked the id
      std::fprintf(stderr, "crowdlab: %s\n", panel_.message.c_str());
      return 1;
    }
    if (!options_.lesson.empty()) {
      Lesson lesson;  // runWindow checked it before the window opened
      if (!loadLesson(options_.lesson, lesson, error)) {
        std::fprintf(stderr, "crowdlab: %s\n", error.c_str());
        return 2;
      }
      startLesson(std::move(lesson));
    }
    if (!options_.tune.empty()) {
      if (!experiments::findObjective(sceneName_, options_.tune)) {
        std::fprintf(stderr, "crowdlab: scene %s has no objective %s (crowdlab tune --list)\n", sceneName_.c_str(),
                     io::quoteText(options_.tune).c_str());
        return 2;
      }
      panel_.tune->open(options_.tune);
    }
    if (options_.recordFrames) {
      if (options_.recordDir.empty()) startNewRecording(options_.recordFrames);
      else startRecording(options_.recordFrames, options_.recordDir);
    }

    platform::setStateReporter([this] { return stateJson(); });
#ifdef SIGUSR1
    if (outputs_.state.isOpen()) std::signal(SIGUSR1, askForState);
#endif
    platform::onPageHide([this] { saveUserSettings(); });
    start_ = last_ = Clock::now();
    return 0;
  }

  // One frame: events, steps, drawing. False when the run is over.
  bool frame() {
    {
      auto now = Clock::now();
      holdFrameRate(now);
      const double frameSeconds = std::chrono::duration<double>(now - last_).count();
      last_ = now;
      ctx_.realTime = secondsSince(start_);
      hud_.frameTimes.push(float(frameSeconds * 1000.0));
      frameMs_.push(frameSeconds * 1000.0);
      feedScriptedKey();
      frameStart_ = now;
      if (options_.fps && !openFpsCase()) return false;
      // Commands that read the scene wait, without blocking, for the step in flight.
      if (!deferred_.empty() && stepper_.idle())
        for (const Command& c : std::exchange(deferred_, {})) onCommand(c);
      for (const Command& c : input_.poll(sceneUnguarded(), ctx_, stepper_.idle())) onCommand(c);
      if (benchmark_.running()) scriptCursor();
      if (!(pendingLook_ == look_)) {
        look_ = pendingLook_;
        framesAtLook_ = 0;
        applyLook(look_, pixelsPerPoint());  // between frames: the font atlas cannot change inside one
        if (!ctx_.userView && !following_) fitView();  // a theme keeps the viewport; the view is framed again all the same
      }
      fullscreenToggle_.restoreEachFrame(sdl_.window);
      updateViewport();
      ctx_.paused = stepper_.paused;
      stepper_.fastForward = experimentFastForward(panel_, sceneName_, stepper_.simTime());
      if (!quit_) stepper_.advance(frameSeconds, lockstep());  // quitting starts no step
      csv_.flushIfDue();  // rows of the last second reach the file even while paused
      probe::beginFrame();
      renderFrame();
      if (stateWanted && outputs_.state.isOpen()) {
        stateWanted = 0;
        if (std::string error; !outputs_.state.rewrite(stateJson() + "\n", error)) hud_.message = error;
      }
      if (options_.fps) fpsFrameDone();
      if (benchmark_.running())
        if (const std::optional<std::string> stopped = benchmark_.stopIfChanged(benchmarkWatch())) hud_.message = *stopped;
      if (benchmark_.due()) finishBenchmark();
      if ((options_.frames || untilVerdict()) && ++frame_ >= options_.frames && options_.frames) return false;
    }
    return !quit_;
  }

  int finish() {
    if (options_.fps) return finishFps();
    // Background work (every scene's sweep and search) is asked to stop now, so that it winds down
    // while the files below are written; it is waited for only briefly below.
    cancelSweeps(panel_.sweep);
    panel_.tune->cancel();
    // A step in flight is abandoned, not waited for (a slow one takes a minute): the outputs below
    // come from the last booked step, and the process ends without freeing the scene it runs on.
    abandoned_ = stepper_.abandon();
    recorder_.stop();
    saveUserSettings();
    bool csvFailed = false, stateFailed = false;
    if (std::string error; !csv_.close(error)) fail(error, csvFailed);
    if (outputs_.state.isOpen()) {
      outputs_.state.write(stateJson() + "\n");
      if (std::string error; !outputs_.state.commit(error)) fail(error, stateFailed);
    }
    renderer_.shutdown();
    const int code = screenshotFailed_ || recordFailed_ || csvFailed || stateFailed ? 1 : 0;
    // A sweep's or search's job stops at its next step, which at large N is seconds away: a moment is
    // given for the usual case, never the step. Results not yet in are lost either way.
    const auto ended = [this] { return sweepsEnded(panel_.sweep) && !panel_.tune->running(); };
    for (const Clock::time_point until = Clock::now() + kBackgroundWorkWait; !ended() && Clock::now() < until;)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (abandoned_ || stepper_.abandonedRunning() || !ended()) {
      // A worker still runs an abandoned step (this scene's, or one left by a switch), or a sweep's or
      // search's job, on a scene and the thread pool: no destructor may run under it (the panels'
      // would join it). Everything the run owes is written above.
      std::fflush(nullptr);
      std::_Exit(code);
    }
    return code;
  }

  // What the page's hook reports: the scene's parameters (as a preset holds them), its metrics,
  // the steps taken, and the median time of the steps in the last ten seconds.
  std::string stateJson() {
    nlohmann::json j = scenes::paramsToJson(sceneUnguarded().params(), sceneName_);  // parameters: no step writes them
    j["steps"] = stepper_.steps();
    j["sim_time"] = stepper_.simTime();
    j["agents_digest"] = agentsDigest();
    const scenes::Claim* claim = runningClaim();
    j["experiment"] = {{"claim", claim ? claim->id : ""}, {"banner", panel_.banner}, {"verdict_shown", panel_.bannerVerdict},
                       {"banner_strip", panel_.reservedBottom}};
    if (claim && panel_.experiment.done()) {  // the window's values, as `crowdlab claims` reads them back
      nlohmann::json also = nlohmann::json::array();
      for (size_t i = 0; i < claim->also.size(); ++i) also.push_back(panel_.experiment.alsoValue(i));
      j["experiment"]["value"] = panel_.experiment.value();
      j["experiment"]["also"] = also;
    }
    if (lesson_.active()) j["lesson"] = lesson_.state();
    j["black_screen"] = blackScreen_;
    panel_.tune->writeState(j);
    j["step_ms_median"] = sim::median(stepper_.recentStepMs(AppBenchmark::kSeconds));
    j["threads"] = sim::hardwareThreads();  // the page's loops: 1 on the one-thread page
    j["agents"] = lastStats_.agents;
    nlohmann::json metrics = nlohmann::json::object();
    for (const sim::Metric& m : metrics_) metrics[m.name] = m.value;
    j["metrics"] = metrics;
    const render::Camera2D& c2 = ctx_.camera2D;
    const render::OrbitCamera& c3 = ctx_.camera3D;
    j["camera"] = {{"zoom", c2.zoom}, {"center", {c2.center.x, c2.center.y}}, {"distance", c3.distance}, {"yaw", c3.yaw}};
    j["layout"] = layoutJson(currentLayout());
    j["layout"]["ui_scale"] = look_.uiScale;
    j["layout"]["hud_open"] = hud_.open;
    j["quit_asked"] = quitAsked_;
    j["probe"] = probeJson();
    return j.dump();
  }

  // The probe (probe.hpp): the last frame's widget places and measurements, and the run's own.
  nlohmann::json probeJson() {
    writeSweepProbe(panel_.sweep);
    nlohmann::json p = probe::marks();
    const auto area = [](glm::vec2 at, glm::vec2 size) { return probe::area(at.x, at.y, size.x, size.y); };
    p.update({{"scene", sceneName_}, {"frames", frame_}, {"steps", stepper_.steps()}, {"agents", lastStats_.agents},
              {"draw_calls", lastStats_.drawCalls}, {"agent_draw_calls", lastStats_.agentDrawCalls},
              {"ui_visible", uiVisible_}, {"help_open", hud_.showHelp},
              {"step_ms_median", sim::median(stepper_.recentStepMs(kHudSeconds))}, {"ui_scale", look_.uiScale},
              {"theme", look_.darkTheme ? "dark" : "light"}, {"style", styleSizes()},
              {"world_area", area(worldOrigin_, worldSize_)}, {"agents_outside_view", agentsOutsideView_},
              {"text_contrast", panelTextContrast()}, {"speed", stepper_.speed}, {"user_view", ctx_.userView},
              {"zoom", ctx_.camera2D.zoom}, {"agents_box", area({agentsBox_.x, agentsBox_.y}, {agentsBox_.z, agentsBox_.w})},
              {"window", {std::lround(windowSize_.x), std::lround(windowSize_.y)}},
              {"glyph_px", glyphPoints(drawnAgentScale_)}, {"panel_overflow_max", std::lround(panelOverflowMax_)},
              {"panel_overflow_max_at_ui", panelOverflowMaxAtScale_}, {"panel_overflow_scales", overflowScales_.size()},
              {"front_window", frontWindow()}, {"hud_right", std::lround(hud_.open ? DockLayout::hudWidth() : 0.0f)},
              {"panel_left", std::lround(windowSize_.x - DockLayout::panelWidth())}, {"reserved_bottom", std::lround(panel_.reservedBottom)},
              {"following", following_}, {"followed_frames", followedFrames_}, {"follow_max_offset", followMaxOffset_},
              {"preset_name", panel_.saveName}, {"panel_message", panel_.message},
              {"replace_pending", !panel_.replacePending.empty()},
              {"frame_ms_median", sim::median(frameMs_.last(AppBenchmark::kSeconds))}});
    const std::optional<glm::vec3> selected = abandoned_ || !stepper_.idle() ? std::nullopt : scene().selectedAgent();
    p["selected"] = selected ? nlohmann::json{selected->x, selected->y, selected->z} : nlohmann::json();
    return p;
  }

 private:
  // The agents as the scene draws them now (scenes::agentsDigest). While a step is in flight the
  // scene is not read, and the last frame's agents are used.
  std::string agentsDigest() {
    render::AgentBatch now;
    render::DebugDraw unused;
    const bool idle = !abandoned_ && stepper_.idle();
    if (idle) scene().draw(now, unused);
    return scenes::agentsDigest(idle ? now : batch_);
  }

  // The window as last drawn: the free rectangle the world is fitted into, the agents' box in it, and
  // every panel or floating window (the HUD, the scene panel, an inset, the help).
  ScreenLayout currentLayout() const {
    ScreenLayout l;
    l.window = windowSize_;
    l.free = {worldOrigin_.x, worldOrigin_.y, worldSize_.x, worldSize_.y};
    l.agents = {agentsBox_.x, agentsBox_.y, agentsBox_.z, agentsBox_.w};
    if (uiVisible_ && !panel_.collapsed) {
      l.experiments = panel_.experiments;
      l.panelBottom = panel_.panelVisibleBottom;
    }
    const ImGuiContext& g = *ImGui::GetCurrentContext();
    for (const ImGuiWindow* w : g.Windows) {
      constexpr int kNotAPanel = ImGuiWindowFlags_Tooltip | ImGuiWindowFlags_ChildWindow | ImGuiWindowFlags_Popup |
                                 ImGuiWindowFlags_ChildMenu | ImGuiWindowFlags_MenuBar;
      if (!w->WasActive || w->Hidden || (w->Flags & kNotAPanel) || !uiVisible_) continue;
      // Marks on the world (the Fit control) and ImGui's own fallback window are not panels.
      if (std::strncmp(w->Name, "##", 2) == 0 || std::strstr(w->Name, "##Default")) continue;
      l.panels.push_back({w->Pos.x, w->Pos.y, w->Size.x, w->Size.y});
    }
    return l;
  }

  // --max-fps: the frame waits out the rest of its share of a second before it starts, unless the run
  // counts frames (those go as fast as they can) or nothing caps it.
  void holdFrameRate(Clock::time_point& now) {
    if (options_.maxFps <= 0 || lockstep()) return;
    const auto due = last_ + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(1.0 / options_.maxFps));
    if (now >= due) return;
    std::this_thread::sleep_until(due);
    now = Clock::now();
  }
  // Scripted runs and recordings take exactly one step per frame, never on the worker.
  bool lockstep() const { return options_.frames || recorder_.active() || untilVerdict() || options_.fps; }
  // --claim ID --screenshot FILE without --frames: run until the claim's verdict shows (its baseline
  // first where it has one), then the screenshot, and quit: the picture at the end of its window.
  // --claim ID --hidden without --frames does the same, for its state (`crowdlab claims`' window claims).
  bool untilVerdict() const {
    return !options_.claim.empty() && (!options_.screenshot.empty() || options_.hidden) && !options_.frames;
  }
  static constexpr std::chrono::milliseconds kBackgroundWorkWait{150};  // a quit waits this at most for them
  static constexpr int kMostFramesUntilVerdict = 60 * 60 * 10;  // ten simulated minutes: a registry bug, not a wait

  float pixelsPerPoint() const { return std::max(1.0f, float(drawableSize_.x) / windowSize_.x); }

  // The one way to a new scene: the factory (preset and --set from the command line only for the
  // first), then the app's own state for it starts over.
  bool switchScene(const std::string& name, const Options* commandLine, std::string& error) {
    // A step in flight on the scene left is abandoned below, as on quitting: the window never waits
    // for it (a slow one takes a minute). Its thread pool stays with it, so that making the new scene
    // and its steps never queue behind the old step's long chunks.
    const bool stepInFlight = scene_ && !stepper_.idle();
    if (stepInFlight) sim::leaveArenasToAbandonedWork();
    Options recipe;
    recipe.seed = options_.seed;
    if (commandLine) recipe = *commandLine;
    auto scene = makeScene(name, recipe, ctx_, error);
    if (!scene) return false;
    // Tuning is kept for the session: the scene left keeps its parameters, and one come back to gets
    // them again ("Reset to defaults" in its panel is the way back to the defaults).
    if (scene_) tuned_[sceneName_] = scenes::paramsToJson(scene_->params(), sceneName_);
    if (auto kept = tuned_.find(name); kept != tuned_.end() && !commandLine) {
      std::string keptError;
      if (scenes::paramsFromJson(scene->params(), kept->second, name, keptError)) {
        scene->paramsChanged();
        scene->reset();
      } else {
        hud_.message = "kept parameters not restored: " + keptError;
      }
    }
    // The scene left lives on until its step ends, unread; nothing is booked from that step.
    if (stepInFlight) stepper_.abandon(std::shared_ptr<scenes::Scene>(std::move(scene_)));
    scene_ = std::move(scene);
    stepper_.setStep([stepped = scene_.get()](float dt) { stepped->step(dt); });
    sceneName_ = name;
    following_ = false;  // the new scene has no selection yet
    const bool panelCollapsed = panel_.collapsed;
    // Each scene's sweep and search stay, running or done (sweep_panel.hpp, tune_panel.hpp).
    SweepSection sweeps = std::move(panel_.sweep);
    std::shared_ptr<TunePanel> searches = panel_.tune;
    panel_ = PanelMemory{};  // the new scene's panel: scrolled to the top, default preset name, no old status line
    panel_.collapsed = panelCollapsed;
    panel_.sweep = std::move(sweeps);
    panel_.tune = std::move(searches);
    afterSceneCreated();
    return true;
  }

  void switchToNumber(int number) {
    if (number < 1 || number > int(scenes_.size())) return;
    std::string error;
    const std::string name = scenes_[size_t(number - 1)].name;
    if (name != sceneName_ && !switchScene(name, nullptr, error)) hud_.message = error;
  }

  void afterSceneCreated() {
    ++sceneRuns_;
    stepper_.restart();
    log_.clear();
    csv_.restart();  // --metrics-csv holds the current scene's run from step 0, as the log does
    ctx_.simTime = 0;
    input_.cancelDrag();
    updateViewport();
    viewFit_.fit(scene(), ctx_);  // Home reads agent positions: through the guard
    recordMetrics();
    updateTitle();
  }

  // The window's title: the scene, and the background work under way (a sweep's points, a search's
  // generations), for the taskbar while another window is in front. ASCII only: SDL sets X11 titles
  // through Xlib's locale, which is "C" in a program that never calls setlocale, and a title with
  // an em dash left _NET_WM_NAME at "crowdlab" and WM_NAME in mojibake.
  void updateTitle() {
    std::string title = "crowdlab - " + sceneTitle();
    for (const std::string& work : {sweepProgress(panel_.sweep), panel_.tune->progress()})
      if (!work.empty()) title += " - " + work;
    if (title == title_) return;
    title_ = title;
    SDL_SetWindowTitle(sdl_.window, title.c_str());
  }

  // R: a running experiment starts again from the claim's start (a plain reset would lose it, e.g.
  // the formed flock or the falcon's dive); otherwise the scene resets with its current parameters.
  void restartScene() {
    if (const scenes::Claim* claim = runningClaim()) return void(startClaim(*claim));
    scene().reset();
    afterSceneCreated();
  }

  const scenes::Claim* runningClaim() const {
    return panel_.experimentScene == sceneName_ ? panel_.experiment.claim() : nullptr;
  }

  // The one way into an experiment, for its button, R while it runs and --claim: the scene restarts
  // into the claim, then the step counter, the clock and the metrics log start again from 0.
  bool startClaim(const scenes::Claim& claim) {
    stepper_.waitIdle();
    if (!startExperimentRun(scene(), sceneName_, claim, panel_)) return false;
    afterSceneCreated();
    return true;
  }

  std::string sceneTitle() const {
    for (const auto& e : scenes_)
      if (sceneName_ == e.name) return e.title;
    return sceneName_;
  }

  void updateViewport() {
    int w = 0, h = 0, pw = 0, ph = 0;
    SDL_GetWindowSize(sdl_.window, &w, &h);
    SDL_GL_GetDrawableSize(sdl_.window, &pw, &ph);
    windowSize_ = {float(std::max(w, 1)), float(std::max(h, 1))};
    drawableSize_ = {std::max(pw, 1), std::max(ph, 1)};
    ImGui::GetIO().DisplaySize = ImVec2(windowSize_.x, windowSize_.y);  // what the panels will be laid out in
    // The world gets the part of the window below the menu bar, above the banner's strip and beside
    // the panels (world_view.hpp, layout.hpp): none of it lies under a panel.
    ViewportReservations reserved;
    reserved.top = uiVisible_ ? DockLayout::menuBarHeight() : 0.0f;
    reserved.bottom = panel_.reservedBottom;
    if (uiVisible_) reserved.panels = dockedPanels(hud_, panel_, windowSize_);
    const WorldViewport viewport = freeWorldViewport(windowSize_, reserved);
    worldOrigin_ = viewport.origin;
    worldSize_ = viewport.size;
    panel_.worldLeft = worldOrigin_.x;  // the banner spans the world
    panel_.worldRight = worldOrigin_.x + worldSize_.x;
    input_.setWorldArea(worldOrigin_, worldSize_);
    ctx_.viewOrigin = worldOrigin_;
    if (!scene_) return;
    if (!(viewport == viewFit_.viewport())) stepper_.waitIdle();  // a fit may read agents (the 3D flock's centre)
    viewFit_.update(viewport, *scene_, ctx_);  // world units = window points at 100 %
  }

  // Home, a new scene, a new theme: the world framed in the free viewport again.
  void fitView() {
    following_ = false;
    viewFit_.fit(scene(), ctx_);  // Home reads agent positions: through the guard
  }

  // ---- commands from keys and menus ----
  void feedScriptedKey() {
    if (scriptedKeys_.empty()) return;
    // One key a frame, as a person would type them: each sees the frame the previous one made.
    const SDL_Keysym k = scriptedKeys_.front();
    scriptedKeys_.pop_front();
    for (Uint32 type : {Uint32(SDL_KEYDOWN), Uint32(SDL_KEYUP)}) {
      SDL_Event e{};
      e.type = type;
      e.key.windowID = SDL_GetWindowID(sdl_.window);
      e.key.state = type == SDL_KEYDOWN ? SDL_PRESSED : SDL_RELEASED;
      e.key.keysym = k;
      SDL_PushEvent(&e);
    }
  }

  void onCommand(const Command& c) {
    if (readsScene(c.kind) && !stepper_.idle()) {
      deferred_.push_back(c);  // done once the step in flight is booked: the window never waits for it
      return;
    }
    switch (c.kind) {
      case Command::Quit: onQuit(c.number != 0); break;
      case Command::Escape: onEscape(); break;
      case Command::TogglePause: stepper_.paused = !stepper_.paused; break;
      case Command::SingleStep: stepper_.requestSingleStep(); break;
      case Command::Restart: restartScene(); break;
      case Command::ToggleUi: uiVisible_ = !uiVisible_; break;
      case Command::ToggleHelp: hud_.showHelp = !hud_.showHelp; break;
      case Command::ToggleHud: hud_.open = !hud_.open; break;
      case Command::Fullscreen: setFullscreen(!fullscreen()); break;
      case Command::Screenshot: screenshotRequested_ = true; break;
      case Command::Home: fitView(); break;
      case Command::NextAgent: selectNextAgent(); break;
      case Command::ToggleFollow: following_ = toggleFollow(guardedScene(), following_, [this] { noAgentToSelect(); }); break;
      case Command::LargerUi: pendingLook_.uiScale = std::min(3.0f, pendingLook_.uiScale + 0.25f); break;
      case Command::SmallerUi: pendingLook_.uiScale = std::max(1.0f, pendingLook_.uiScale - 0.25f); break;
      case Command::ToggleTheme: pendingLook_.darkTheme = !pendingLook_.darkTheme; break;
      case Command::SwitchScene: switchToNumber(c.number); break;
      case Command::LessonNext: lessonMove(true); break;
      case Command::LessonPrevious: lessonMove(false); break;
      case Command::BlackScreen: blackScreen_ = !blackScreen_; break;
    }
  }

  // Commands that read or reset the simulation's state.
  static bool readsScene(Command::Kind k) {
    return k == Command::Restart || k == Command::Home || k == Command::NextAgent || k == Command::ToggleFollow ||
           k == Command::LessonNext || k == Command::LessonPrevious;
  }

  // ---- the lesson (lesson.hpp): each step a full restart into its set-up ----
  void startLesson(Lesson lesson) {
    lesson_.start(std::move(lesson));
    input_.setLessonKeys(lesson_.active());
    if (lesson_.active()) enterLessonStep();
  }
  void lessonMove(bool forward) {
    if (!lesson_.active()) {
      hud_.message = "No lesson runs: start one from the Lesson menu or with --lesson NAME";
      return;
    }
    if (forward ? lesson_.next() : lesson_.previous()) enterLessonStep();
  }
  void enterLessonStep() {
    const LessonStep& s = lesson_.step();
    std::string error;
    if (s.scene != sceneName_ && !switchScene(s.scene, nullptr, error)) {
      hud_.message = error;
      return;
    }
    if (!s.claim.empty()) {
      startClaim(*scenes::findClaim(s.claim));  // loadLesson checked the id
      return;
    }
    stepper_.waitIdle();
    panel_.experiment = scenes::ClaimTracker();  // a claim of the step before ends here
    panel_.after = nullptr;
    if (!scenes::startSetup(scene(), {s.scene, s.preset, {}, s.start}, error)) hud_.message = error;
    afterSceneCreated();
  }
  void onLessonMenu(const LessonMenuAction& act) {
    if (act.next) onCommand(Command{Command::LessonNext});
    if (act.previous) onCommand(Command{Command::LessonPrevious});
    if (act.black) blackScreen_ = !blackScreen_;
    if (act.end) {
      lesson_.stop();
      input_.setLessonKeys(false);
    }
    if (!act.start.empty()) {
      Lesson lesson;
      std::string error;
      if (loadLesson(act.start, lesson, error)) startLesson(std::move(lesson));
      else hud_.message = error;
    }
  }

  // N: the scene's next agent (OpenSteerDemo's "select next vehicle"); false where a scene has none.
  bool selectNextAgent() {
    if (app::selectNextAgent(guardedScene())) return true;  // reads agents: through the guard
    noAgentToSelect();
    return false;
  }
  void noAgentToSelect() {
    hud_.message = sceneTitle() + " has no agent to select (N and F work in the scenes you can click an agent in)";
  }

  // The follow camera: the selected agent at the centre of the world viewport, in 2D and 3D. Called
  // after the scene drew, from the same state, so the agent and the camera never disagree by a step.
  void followSelected() {
    const std::optional<glm::vec3> at = followedPosition(guardedScene());
    if (!at) return;
    if (scene().view == scenes::View::ThreeD) ctx_.camera3D.target = *at;
    else ctx_.camera2D.center = glm::vec2(*at);
  }

  // Where the selected agent is drawn, in window points from the world viewport's centre (for the
  // tests: the follow camera keeps it 0); nullopt without a selection.
  std::optional<float> selectedOffsetFromCentre(const render::FrameView& view) {
    const std::optional<glm::vec3> at = scene().selectedAgent();
    if (!at) return std::nullopt;
    const glm::vec4 clip = view.viewProjection * glm::vec4(*at, 1.0f);
    if (clip.w <= 0) return std::numeric_limits<float>::infinity();
    return glm::length(glm::vec2(clip) / clip.w * worldSize_ * 0.5f);
  }

  // Esc closes what is open, one thing a press: the quit question, a menu, the help, the full HUD,
  // fullscreen. It never quits: a presenter presses it by accident (Ctrl+Q or the window's close
  // button quit).
  void onEscape() {
    if (quitAsked_) {
      quitAsked_ = false;
    } else if (ImGui::IsPopupOpen(nullptr, ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel)) {
      ImGui::ClosePopupToLevel(0, true);
    } else if (hud_.showHelp) {
      hud_.showHelp = false;
    } else if (fullscreen()) {
      setFullscreen(false);
    } else if (hud_.open) {
      hud_.open = false;
    }
  }

  // Ctrl+Q and the window's close button (`ask`) quit at once unless work would be lost: then a small
  // question first, and the same key again (or its Quit button) quits. A signal quits at once.
  void onQuit(bool ask) {
    if (!platform::canQuit()) return;
    if (ask && !quitAsked_ && !workUnderWay().empty()) {
      quitAsked_ = true;
      return;
    }
    quit_ = true;
  }
  // What quitting now would cut short ("" nothing).
  std::string workUnderWay() {
    std::string work = backgroundWork();
    if (recorder_.active()) work += work.empty() ? "recording" : "+recording";
    return work;
  }
  void drawQuitQuestion() {
    if (!quitAsked_) return;
    const ImGuiIO& io = ImGui::GetIO();
    ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowBgAlpha(0.95f);
    ImGui::Begin("Quit?###quit", nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings);
    ImGui::BringWindowToDisplayFront(ImGui::GetCurrentWindow());
    const std::string work = workUnderWay();
    ImGui::Text("A %s is running; quitting ends it.", work.empty() ? "task" : work.c_str());
    if (ImGui::Button("Quit")) quit_ = true;
    ImGui::SameLine();
    if (ImGui::Button("Keep running (Esc)")) quitAsked_ = false;
    ImGui::End();
  }

  bool fullscreen() const { return FullscreenToggle::isOn(sdl_.window); }
  void setFullscreen(bool on) { fullscreenToggle_.set(sdl_.window, on); }

  // On the UI thread after each step: the scene's own sampling, timed apart from the step.
  void afterStep() {
    const auto t0 = Clock::now();
    scene().sampleMetrics();
    metricsMs_.push(secondsSince(t0) * 1000.0);
    recordMetrics();
    stepper_.fastForward = sampleExperimentStep(panel_, sceneName_, stepper_.simTime(), metrics_);
  }

  // The HUD's honest numbers: medians over the last 2 s, and "slower than real time" only when the
  // simulated clock really fell behind the wall clock.
  static constexpr double kHudSeconds = 2.0;
  double fpsOver(double seconds) const {
    const std::vector<double> frames = frameMs_.last(seconds);
    double total = 0;
    for (double ms : frames) total += ms;
    return total > 0 ? 1000.0 * double(frames.size()) / total : 0.0;
  }

  // "Benchmark this scene (10 s)": one line to paste (scene, N, median ms/step, FPS, GL, CPU).
  BenchmarkWatch benchmarkWatch() { return {sceneName_, sceneRuns_, paramWrites_, stepper_.paused, backgroundWork()}; }
  // What runs beside the live scene on the other cores now: a sweep, a search, both, or nothing.
  std::string backgroundWork() {
    const bool sweep = sweepRunning(panel_.sweep), tuning = panel_.tune->running();
    return sweep && tuning ? "sweep+tuning" : sweep ? "sweep" : tuning ? "tuning" : "";
  }
  void finishBenchmark() {
    const std::vector<double> stepMs = stepper_.recentStepMs(AppBenchmark::kSeconds);
    hud_.message = benchmark_.finish({sceneName_, scene().agentCount(), sim::median(stepMs), fpsOver(AppBenchmark::kSeconds),
                                      stepMs.size(), glInfo_, backgroundWork(), drawableSize_.x, drawableSize_.y, vsync_});
  }

  // During "Benchmark this scene" nothing follows the real mouse (the button sits under it, and where
  // it rests would decide the run): a 2D scene's cursor, the finale's target, travels a fixed slow
  // loop over the middle of the view instead, the path the finale's own wander takes.
  void scriptCursor() {
    if (sceneUnguarded().view != scenes::View::TwoD) return;
    const float t = float(stepper_.simTime());
    const glm::vec2 half = 0.35f * worldSize_ / std::max(1e-6f, ctx_.camera2D.zoom);
    ctx_.mouseWorld = ctx_.camera2D.center + glm::vec2(half.x * std::sin(0.21f * t), half.y * std::sin(0.33f * t + 1.0f));
    ctx_.mouseInView = true;
  }

  // ---- `crowdlab fps`: the standard cases, one after another (fps_run.hpp) ----
  // Opens the next case when the last one is done; false once every case has run.
  bool openFpsCase() {
    FpsDriver& fps = *options_.fps;
    while (const FpsCase* c = fps.caseToOpen()) {
      if (c->needsCompute) {
        const render::ComputeSupport support = render::computeSupport();
        if (!support.available) {
          fps.skip(support.reason.empty() ? "no OpenGL 4.3 compute shaders" : support.reason);
          continue;
        }
      }
      Options recipe;
      recipe.scene = c->scene;
      recipe.seed = 1;
      recipe.sets = c->sets;
      std::string error;
      if (!switchScene(c->scene, &recipe, error)) {
        fps.skip(error);
        continue;
      }
      stepper_.paused = false;
      fps.opened(scene().agentCount());
    }
    return !fps.finished();
  }

  void fpsFrameDone() {
    FpsDriver& fps = *options_.fps;
    if (fps.result().frameClock == "work") glFinish();
    fps.frameDone(secondsSince(frameStart_) * 1000.0, stepper_.lastStepMs(), renderMs_, lastStats_.drawCalls,
                  sceneUnguarded().agentCount());  // lockstep: no step is in flight
  }

  int finishFps() {
    const int code = reportFpsRun(*options_.fps, drawableSize_);
    renderer_.shutdown();
    return code;
  }

  void recordMetrics() {
    metrics_.clear();
    scene().metrics(metrics_);
    log_.record(stepper_.steps(), stepper_.simTime(), metrics_);
    csv_.write(stepper_.steps(), stepper_.simTime(), metrics_);
    ctx_.simTime = stepper_.simTime();
  }

  // ---- drawing ----
  void renderFrame() {
    const auto t0 = Clock::now();
    recordedThisFrame_ = false;
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplSDL2_NewFrame();
    input_.feedImGuiPointer();
    ImGui::NewFrame();

    // The scene is read only when no step is in flight; otherwise the last frame's batch is drawn again.
    const bool sceneIdle = stepper_.idle();
    if (sceneIdle) {
      batch_.clear();
      debug_.clear();
      scene().draw(batch_, debug_);
      if (following_) followSelected();
    }
    render::FrameView view;
    view.time = float(ctx_.realTime);
    if (!look_.darkTheme) view.useLightTheme();
    // Declarations, not simulation state; raised where the world, fitted beside the panels, would draw
    // the agents smaller than a hall can see.
    view.agentScale = sceneUnguarded().drawSizes.agentScale;
    if (const float glyph = glyphPoints(view.agentScale); glyph > 0.0f && glyph < kLeastGlyphPoints)
      view.agentScale *= kLeastGlyphPoints / glyph;
    drawnAgentScale_ = view.agentScale;
    ctx_.lightTheme = !look_.darkTheme;
    view.lineWidthPx = kLineWidthPoints * look_.uiScale * pixelsPerPoint();  // follows the UI scale, like the text
    if (sceneUnguarded().view == scenes::View::ThreeD) {
      view.is3D = true;
      view.viewProjection = ctx_.camera3D.viewProjection();
      view.eye = ctx_.camera3D.eye();
      view.sky = true;
    } else {
      view.viewProjection = ctx_.camera2D.viewProjection();
    }
    drawWorldLabels(debug_, view, world(), DockLayout::hudWidth(),
                    uiVisible_ ? windowSize_.x - DockLayout::panelWidth() : std::numeric_limits<float>::max());
    if (uiVisible_) drawUi(sceneIdle);
    updateTitle();
    if (drawWorldMarks(world(), stepper_.paused, ctx_.userView)) fitView();
    if (hud_.showHelp) drawHelp(scenes_, sceneTitle(), sceneUnguarded().keys, sceneUnguarded());
    drawQuitQuestion();
    if (blackScreen_)  // B: the room looks at the lecturer; everything else goes on behind it
      ImGui::GetForegroundDrawList()->AddRectFilled(ImVec2(0, 0), ImVec2(windowSize_.x, windowSize_.y), IM_COL32(0, 0, 0, 255));
    ImGui::Render();

    const float ppp = pixelsPerPoint();
    glViewport(int(worldOrigin_.x * ppp), int((windowSize_.y - worldOrigin_.y - worldSize_.y) * ppp), int(worldSize_.x * ppp),
               int(worldSize_.y * ppp));
    renderer_.render(batch_, debug_, view);
    const AgentsOnScreen onScreen = agentsOnScreen(batch_, view.viewProjection, world());
    agentsOutsideView_ = onScreen.outside;
    agentsBox_ = onScreen.box;
    if (following_ && sceneIdle)
      if (const std::optional<float> off = selectedOffsetFromCentre(view)) {
        ++followedFrames_;
        followMaxOffset_ = std::max(followMaxOffset_, *off);
      }
    lastStats_ = renderer_.stats();
    // The world alone, for F12 and recordings (a slide without the panels): the world and its
    // labels (ImGui's background list, drawn first) are read before the windows are drawn over them.
    ImDrawData* ui = ImGui::GetDrawData();
    int uiFrom = 0;
    if (hud_.captureWorldOnly && (screenshotRequested_ || recorder_.active())) {
      if (ui->CmdListsCount > 0 && ui->CmdLists[0] == ImGui::GetBackgroundDrawList()) {
        drawUiLists(ui, 0, 1);
        uiFrom = 1;
      }
      captureRequested(worldPixels());
    }
    drawUiLists(ui, uiFrom, ui->CmdListsCount - uiFrom);
    renderMs_ = secondsSince(t0) * 1000.0;
    ctx_.lastFrame = lastStats_;
    ctx_.lastRenderMs = renderMs_;

    const bool lastFrame = options_.frames && frame_ + 1 >= options_.frames;
    captureRequested(windowPixels());
    if (lastFrame && outputs_.screenshot.isOpen()) screenshot(windowPixels());
    // --claim with --screenshot and no --frames: the verdict's first frame sized the strip for its
    // text; the next one is drawn fitted to it, and taken.
    if (untilVerdict() && (verdictFrames_ = panel_.bannerVerdict ? verdictFrames_ + 1 : 0) >= 2) {
      if (outputs_.screenshot.isOpen()) screenshot(windowPixels());
      quit_ = true;
    } else if (untilVerdict() && frame_ >= kMostFramesUntilVerdict) {
      fail("no verdict after " + std::to_string(frame_) + " frames", screenshotFailed_);
      quit_ = true;
    }
    SDL_GL_SwapWindow(sdl_.window);
  }

  WorldViewport world() const { return {worldOrigin_, worldSize_}; }
  // A 2D agent's glyph length on screen, window points (0 in 3D).
  float glyphPoints(float agentScale) const {
    return scene_->view == scenes::View::TwoD ? agentGlyphPoints(batch_, agentScale, ctx_.camera2D.zoom) : 0.0f;
  }

  static void drawUiLists(ImDrawData* all, int first, int count) {
    ImDrawData part = *all;
    part.CmdLists = all->CmdLists + first;
    part.CmdListsCount = count;
    ImGui_ImplOpenGL3_RenderDrawData(&part);
  }

  PixelRect windowPixels() const { return {0, 0, drawableSize_.x, drawableSize_.y}; }
  PixelRect worldPixels() const {
    const float ppp = pixelsPerPoint();
    const int x0 = int(std::lround(worldOrigin_.x * ppp)), x1 = int(std::lround((worldOrigin_.x + worldSize_.x) * ppp));
    const int y0 = int(std::lround((windowSize_.y - worldOrigin_.y - worldSize_.y) * ppp)), y1 = int(std::lround((windowSize_.y - worldOrigin_.y) * ppp));
    return {x0, y0, x1 - x0, y1 - y0};
  }

  // F12's screenshot and the recording's next frame, of `rect`, once a frame (the first call wins).
  void captureRequested(const PixelRect& rect) {
    if (screenshotRequested_) {
      screenshotRequested_ = false;
      // In the pictures folder, under its own name even for two in the same second: never over an
      // earlier screenshot.
      const std::string stem = timestampedName(sceneName_, "");
      std::string message;
      const std::string path =
          saveNewScreenshot(platform::hasUserFiles() ? inUserDir(UserDir::Pictures, stem) : stem, rect, message);
      if (path.empty()) fail(message, screenshotFailed_);
      else {
        hud_.message = platform::deliverFile(path);
        std::printf("screenshot=%s\n", path.c_str());
      }
    }
    if (recorder_.active() && !recordedThisFrame_) {
      recordedThisFrame_ = true;
      std::string message;
      if (!recorder_.frame(message)) fail(message, recordFailed_);
      else if (!message.empty()) hud_.message = message;
    }
  }

  static std::string frontWindow() {
    const ImGuiContext& g = *ImGui::GetCurrentContext();
    for (int i = g.Windows.Size - 1; i >= 0; --i) {
      const ImGuiWindow* w = g.Windows[i];
      if (w->WasActive && !w->Hidden && !(w->Flags & (ImGuiWindowFlags_Tooltip | ImGuiWindowFlags_ChildWindow))) return w->Name;
    }
    return "";
  }

  void fail(const std::string& message, bool& flag) {
    hud_.message = message;
    std::fprintf(stderr, "crowdlab: %s\n", message.c_str());
    flag = true;
  }

  // --screenshot, into the file opened before the window (once: it is closed after).
  bool screenshot(const PixelRect& rect) {
    std::string message;
    const std::string path = outputs_.screenshot.path();
    if (!saveScreenshot(outputs_.screenshot, rect, message)) {
      fail(message, screenshotFailed_);
      return false;
    }
    hud_.message = message;
    std::printf("screenshot=%s\n", path.c_str());
    return true;
  }

  // From the HUD or --record without --record-dir: a folder of its own, never an earlier run's.
  void startNewRecording(int frames) {
    std::string error;
    const std::string stem = timestampedName(sceneName_, "");
    const std::string dir = makeNewFolder(platform::hasUserFiles() ? inUserDir(UserDir::Pictures, stem) : stem, error);
    if (dir.empty()) return fail(error, recordFailed_);
    startRecording(frames, dir);
  }

  void startRecording(int frames, const std::string& dir) {
    std::string message;
    if (!recorder_.start(frames, dir, hud_.captureWorldOnly ? worldPixels() : windowPixels(), message)) return fail(message, recordFailed_);
    hud_.message = message;
  }

  void drawUi(bool sceneIdle) {
    HudState state;
    state.fps = float(fpsOver(kHudSeconds));
    state.stepMs = sim::median(stepper_.recentStepMs(kHudSeconds));
    state.metricsMs = sim::median(metricsMs_.last(kHudSeconds));
    state.behindRealTime = !stepper_.paused && !lockstep() && (!sceneIdle || stepper_.realTimeShare(kHudSeconds) < 0.9);
    state.realTimeShare = stepper_.realTimeShare(kHudSeconds);
    state.benchmarkSecondsLeft = benchmark_.secondsLeft();
    state.renderMs = renderMs_;
    state.stats = lastStats_;
    state.paused = stepper_.paused;
    state.stepsDropped = stepper_.stepsDropped();
    state.steps = stepper_.steps();
    state.glInfo = glInfo_;
    state.stepRunning = !sceneIdle;
    state.slowStepSeconds = stepper_.inFlightSeconds();
    state.uiScale = look_.uiScale;
    state.darkTheme = look_.darkTheme;
    state.recording = recorder_.active();
    state.recordedFrames = recorder_.written();
    state.recordTotal = recorder_.total();
    HudActions act = drawHud(hud_, state, scenes_, sceneName_, stepper_.speed, vsync_, log_);
    onLessonMenu(drawLessonMenu(lesson_, blackScreen_));
    panel_.lessonSay = lesson_.active() ? lesson_.step().say : "";
    panel_.lessonProgress = lesson_.active() ? lesson_.progress() : "";
    if (act.uiScale > 0) pendingLook_.uiScale = act.uiScale;
    if (act.benchmark) {
      stepper_.paused = false;
      hud_.message = benchmark_.start(benchmarkWatch());
    }
    if (act.toggleTheme) pendingLook_.darkTheme = !look_.darkTheme;
    if (act.recordFrames > 0) startNewRecording(act.recordFrames);
    if (act.stopRecording) hud_.message = recorder_.stop();
    if (act.vsyncChanged) SDL_GL_SetSwapInterval(vsync_ ? 1 : 0);
    if (act.togglePause) stepper_.paused = !stepper_.paused;
    if (act.singleStep) stepper_.requestSingleStep();
    if (act.restart) onCommand(Command{Command::Restart});  // waits for a step in flight without blocking
    if (act.screenshot) screenshotRequested_ = true;
    if (act.exportCsv) {
      std::string error;
      const std::string stem = timestampedName(sceneName_, "-metrics");
      const std::string path = io::writeUnderNewName(platform::hasUserFiles() ? inUserDir(UserDir::Documents, stem) : stem, ".csv",
          [&](const std::string& p, std::string& e) { return log_.writeCsv(p, e, io::Existing::Keep); }, error);
      hud_.message = !path.empty() ? platform::deliverFile(path) : error;
      if (error.empty() && !log_.droppedNote().empty()) hud_.message += "\n" + log_.droppedNote();
    }
    if (!act.switchTo.empty() && act.switchTo != sceneName_) {
      std::string error;
      if (!switchScene(act.switchTo, nullptr, error)) hud_.message = error;
      return;  // the panel below belongs to the old scene
    }
    // The panel touches no simulation state while a step runs (it says "simulating a slow step...").
    if (drawScenePanel(sceneUnguarded(), sceneName_, sceneTitle(), !stepper_.idle(), panel_)) {
      // A parameter changed: the scene reconciles (N, radii, clamps) between steps; the next step's
      // cost is unknown (N = 100,000 without the grid takes half a minute), so it starts on the worker.
      scene().paramsChanged();
      ++paramWrites_;
      stepper_.expectSlowStep();
    }
    if (const scenes::Claim* claim = std::exchange(panel_.requested, nullptr)) startClaim(*claim);
    // How far the panels' content reaches past their width (text or a widget cut at the edge), from
    // the extent ImGui measured for them: 0 when nothing is cut.
    float overflow = 0.0f;
    std::string overflowIn;
    for (const char* name : {"HUD", "###scene"})
      if (const ImGuiWindow* w = ImGui::FindWindowByName(name); w && !w->Collapsed) {
        const float over = w->ContentSize.x - (w->WorkRect.Max.x - w->WorkRect.Min.x);
        if (over > overflow) overflowIn = name;
        overflow = std::max(overflow, over);
      }
    probe::set("panel_overflow", std::lround(overflow));
    probe::set("panel_overflow_in", overflowIn);
    // The most over the run, at each UI scale once it has held for three frames (the first frames at a new
    // scale are laid out before its windows and scroll bars settle): a test steps Ctrl+= from 1x to 3x in one run.
    if (++framesAtLook_ >= 3) {
      overflowScales_.insert(int(std::lround(look_.uiScale * 100.0f)));
      if (overflow > panelOverflowMax_) panelOverflowMaxAtScale_ = look_.uiScale;
      panelOverflowMax_ = std::max(panelOverflowMax_, overflow);
    }
  }

  // ---- settings: only a person's session is remembered, never a scripted run's ----
  bool scriptedRun() const { return options_.frames || !options_.screenshot.empty() || options_.hidden || options_.fps; }

  void saveUserSettings() {
    if (scriptedRun()) return;
    settings_.lastScene = sceneName_;
    settings_.uiScale = look_.uiScale;
    settings_.vsync = vsync_;
    settings_.darkTheme = look_.darkTheme;
    const Uint32 flags = SDL_GetWindowFlags(sdl_.window);
    // A size given on the command line is for that run (a screenshot, a test), not the user's window.
    if (!options_.sizeGiven && !(flags & (SDL_WINDOW_FULLSCREEN | SDL_WINDOW_FULLSCREEN_DESKTOP | SDL_WINDOW_MAXIMIZED))) {
      SDL_GetWindowSize(sdl_.window, &settings_.windowWidth, &settings_.windowHeight);
      SDL_GetWindowPosition(sdl_.window, &settings_.windowX, &settings_.windowY);
    }
    std::string error;
    if (!saveSettings(settingsPath(), settings_, error)) std::fprintf(stderr, "crowdlab: settings not saved: %s\n", error.c_str());
    else platform::persistFiles();
  }

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
  scenes::Scene& scene() {
    if (!abandoned_) stepper_.waitIdle();
    return *scene_;
  }
  // For code that reads no simulation state, or checks stepper_.idle() itself: declarations (view,
  // keys, sizes), parameters (no step writes them), input and the panel (idle-aware).
  scenes::Scene& sceneUnguarded() { return *scene_; }
  // scene() as a callable, for the handlers in scene_keys.hpp.
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
  size_t agentsOutsideView_ = 0;
  float drawnAgentScale_ = 1.0f;  // the agents' scale as last drawn (the scene's, raised to kLeastGlyphPoints)
  glm::vec4 agentsBox_{0.0f};  // x, y, w, h of the drawn agents, window points
  int frame_ = 0;
  int verdictFrames_ = 0;     // frames the claim's verdict has shown (--claim with --screenshot and no --frames)
  bool quit_ = false, uiVisible_ = true, vsync_ = true, following_ = false;
  int followedFrames_ = 0;       // frames drawn following a selected agent
  float followMaxOffset_ = 0.0f;  // the most it was off the viewport's centre then, window points
  bool screenshotRequested_ = false, screenshotFailed_ = false, recordFailed_ = false;
  bool recordedThisFrame_ = false;
  float panelOverflowMax_ = 0.0f, panelOverflowMaxAtScale_ = 0.0f;  // the most over the run, and at which UI scale
  int framesAtLook_ = 0;             // frames drawn since the look (UI scale, theme) last changed
  std::set<int> overflowScales_;     // UI scales (percent) the overflow was measured at
};

}  // namespace

int runWindow(const Options& given) {
  // What the run uses lives here: in the browser the loop outlives this function.
  struct Run {
    Options options;
    Settings settings;
    MetricsCsvStream csv;
    WindowOutputs outputs;
    SdlContext sdl;
    std::unique_ptr<App> app;
    int code = 0;
  };
  auto run = std::make_shared<Run>();
  std::string warning, error;
  Settings& settings = run->settings;
  settings = loadSettings(settingsPath(), warning);
  if (!warning.empty()) std::fprintf(stderr, "crowdlab: %s\n", warning.c_str());
  // Resolve the scene the window will open, then check the flags against that scene before
  // opening anything, so mistakes exit 2 quickly.
  Options& o = run->options;
  o = given;
  std::string sceneWarning;
  o.scene = resolveSceneName(given, settings, sceneWarning);
  if (!o.lesson.empty()) {  // a bad lesson is one line before any window opens
    Lesson lesson;
    if (!loadLesson(o.lesson, lesson, error)) {
      std::fprintf(stderr, "crowdlab: %s\n", error.c_str());
      return 2;
    }
    o.scene = lesson.steps.front().scene;
    sceneWarning.clear();
  }
  if (!sceneWarning.empty()) {
    std::fprintf(stderr, "crowdlab: %s\n", sceneWarning.c_str());
    if (warning.empty()) warning = sceneWarning;
  }
  if (!given.scene.empty() || !o.sets.empty() || !o.preset.empty()) {
    scenes::SceneContext probe;
    if (!makeScene(o.scene, o, probe, error)) {
      std::fprintf(stderr, "crowdlab: %s\n%s", error.c_str(), usage().c_str());
      return 2;
    }
  }
  // Opened before the window, as headless runs do, and held until written: a path that cannot be
  // written, or a FIFO nobody reads, fails at once, not after the run.
  if (!o.metricsCsv.empty() && !run->csv.open(o.metricsCsv, error)) {
    std::fprintf(stderr, "crowdlab: %s\n", error.c_str());
    return 1;
  }
  if (!openWindowOutputs(o, run->outputs, error)) {
    std::fprintf(stderr, "crowdlab: %s\n", error.c_str());
    run->csv.discard();
    return 1;
  }
  if (!io::distinctOutputs({{"--metrics-csv", &run->csv.file()}, {"--state-out", &run->outputs.state},
                            {"--screenshot", &run->outputs.screenshot}},
                           error)) {
    std::fprintf(stderr, "crowdlab: %s\n", error.c_str());
    run->csv.discard();
    return 2;
  }
#ifdef SIGPIPE
  // A held FIFO whose reader has left fails its next write with EPIPE (said in the HUD, exit 1)
  // instead of ending the window before it saves its settings.
  for (const io::OutputFile* held : {&run->outputs.state, &run->outputs.screenshot})
    if (held->isOpen() && !held->isRegular()) std::signal(SIGPIPE, SIG_IGN);
#endif
  // A first start (no size saved) opens maximised over the display's usable area; later ones at the
  // size the user left the window at.
  const bool maximise = !o.sizeGiven && !o.hidden && (settings.windowWidth < 320 || settings.windowHeight < 240);
  int width = o.sizeGiven ? o.width : maximise ? 1280 : settings.windowWidth;
  int height = o.sizeGiven ? o.height : maximise ? 720 : settings.windowHeight;
  SdlContext& sdl = run->sdl;
  if (!openWindow(sdl, width, height, o.fullscreen, o.hidden, error)) {
    std::fprintf(stderr, "crowdlab: %s\n", error.c_str());
    return 1;
  }
  if (maximise && !o.fullscreen && platform::hasUserFiles()) {  // the browser's canvas has its own size
    SDL_Rect usable{};
    if (SDL_GetDisplayUsableBounds(std::max(0, SDL_GetWindowDisplayIndex(sdl.window)), &usable) == 0 && usable.w >= 320 &&
        usable.h >= 240) {
      SDL_SetWindowPosition(sdl.window, usable.x, usable.y);
      SDL_SetWindowSize(sdl.window, usable.w, usable.h);
    }
    SDL_MaximizeWindow(sdl.window);
  }
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // window layout is not worth a file in the working directory
  if (!o.sizeGiven && !maximise && settings.windowX >= 0 && settings.windowY >= 0) {
    std::vector<DisplayArea> displays;
    for (int d = 0; d < SDL_GetNumVideoDisplays(); ++d)
      if (SDL_Rect r; SDL_GetDisplayBounds(d, &r) == 0) displays.push_back({r.x, r.y, r.w, r.h});
    if (windowPositionVisible(settings.windowX, settings.windowY, width, displays)) {
      DisplayArea placed{settings.windowX, settings.windowY, width, height};
      // Inside the work area of the display it is on (no panel, no bottom row under a task bar).
      int display = 0;
      for (int d = int(displays.size()) - 1; d >= 0; --d)
        if (const DisplayArea& a = displays[size_t(d)]; settings.windowX >= a.x && settings.windowX < a.x + a.w &&
                                                        settings.windowY >= a.y && settings.windowY < a.y + a.h)
          display = d;
      if (SDL_Rect usable{}; SDL_GetDisplayUsableBounds(display, &usable) == 0 && usable.w >= 320 && usable.h >= 240)
        placed = clampWindowToArea(placed, {usable.x, usable.y, usable.w, usable.h});
      if (placed.w != width || placed.h != height) SDL_SetWindowSize(sdl.window, placed.w, placed.h);
      SDL_SetWindowPosition(sdl.window, placed.x, placed.y);
    } else {
      settings.windowX = settings.windowY = -1;  // off every display: centred, and saved as it opens
    }
  }
  ImGui_ImplSDL2_InitForOpenGL(sdl.window, sdl.gl);
  ImGui_ImplOpenGL3_Init(platform::imguiGlslVersion());
  run->app = std::make_unique<App>(o, sdl, settings, run->csv, run->outputs);
  if (!warning.empty()) run->app->showMessage(warning);
  auto shutDown = [run] {
    run->app.reset();
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext();
  };
  run->code = run->app->run();
  if (run->code != 0) {
    shutDown();
    return run->code;
  }
  platform::runLoop([run] { return run->app->frame(); }, [run, shutDown] {
    run->code = run->app->finish();
    shutDown();
  });
  return run->code;
}

}  // namespace app
