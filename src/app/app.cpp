// The frame loop, scene switching, and the commands keys and menus send (app.hpp).
#include "app/app.hpp"

#include <imgui_internal.h>  // ClosePopupToLevel: Esc closes an open menu
#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>

namespace app {

volatile std::sig_atomic_t stateWanted = 0;
extern "C" void askForState(int) { stateWanted = 1; }

bool App::frame() {
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
    stepper_.fastForward = experimentFastForward(experiment_, sceneName_, stepper_.simTime());
    if (!quit_) stepper_.advance(frameSeconds, lockstep());  // quitting starts no step
    csv_.flushIfDue();  // rows of the last second reach the file even while paused
    probe::beginFrame();
    // A snapshot asked for (SIGUSR1) before this frame is this frame's: its picture (renderFrame) and
    // its state (below) come from the same frame; a signal arriving during it waits for the next.
    snapshotThisFrame_ = stateWanted && outputs_.state.isOpen();
    if (snapshotThisFrame_) stateWanted = 0;
    renderFrame();
    if (snapshotThisFrame_)
      if (std::string error; !outputs_.state.rewrite(stateJson() + "\n", error)) hud_.message = error;
    if (options_.fps) fpsFrameDone();
    if (benchmark_.running())
      if (const std::optional<std::string> stopped = benchmark_.stopIfChanged(benchmarkWatch())) hud_.message = *stopped;
    if (benchmark_.due()) finishBenchmark();
    if ((options_.frames || untilVerdict()) && ++frame_ >= options_.frames && options_.frames) return false;
  }
  return !quit_;
}

int App::finish() {
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

void App::holdFrameRate(Clock::time_point& now) {
  if (options_.maxFps <= 0 || lockstep()) return;
  const auto due = last_ + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(1.0 / options_.maxFps));
  if (now >= due) return;
  std::this_thread::sleep_until(due);
  now = Clock::now();
}

bool App::untilVerdict() const {
  return !options_.claim.empty() && (!options_.screenshot.empty() || options_.hidden) && !options_.frames;
}

bool App::switchScene(const std::string& name, const Options* commandLine, std::string& error) {
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
  experiment_ = ExperimentState{};  // an experiment ends with its scene
  panel_.collapsed = panelCollapsed;
  panel_.sweep = std::move(sweeps);
  panel_.tune = std::move(searches);
  afterSceneCreated();
  return true;
}

void App::switchToNumber(int number) {
  if (number < 1 || number > int(scenes_.size())) return;
  std::string error;
  const std::string name = scenes_[size_t(number - 1)].name;
  if (name != sceneName_ && !switchScene(name, nullptr, error)) hud_.message = error;
}

void App::afterSceneCreated() {
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

void App::updateTitle() {
  std::string title = "crowdlab - " + sceneTitle();
  for (const std::string& work : {sweepProgress(panel_.sweep), panel_.tune->progress()})
    if (!work.empty()) title += " - " + work;
  if (title == title_) return;
  title_ = title;
  SDL_SetWindowTitle(sdl_.window, title.c_str());
}

void App::restartScene() {
  if (const scenes::Claim* claim = runningClaim()) return void(startClaim(*claim));
  scene().reset();
  afterSceneCreated();
}

const scenes::Claim* App::runningClaim() const {
  return experiment_.scene == sceneName_ ? experiment_.tracker.claim() : nullptr;
}

bool App::startClaim(const scenes::Claim& claim) {
  stepper_.waitIdle();
  if (!startExperimentRun(scene(), sceneName_, claim, experiment_, panel_)) return false;
  afterSceneCreated();
  return true;
}

std::string App::sceneTitle() const {
  for (const auto& e : scenes_)
    if (sceneName_ == e.name) return e.title;
  return sceneName_;
}

void App::updateViewport() {
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
  reserved.bottom = experiment_.reservedBottom;
  if (uiVisible_) reserved.panels = dockedPanels(hud_, panel_.collapsed, experiment_.reservedBottom, windowSize_);
  const WorldViewport viewport = freeWorldViewport(windowSize_, reserved);
  worldOrigin_ = viewport.origin;
  worldSize_ = viewport.size;
  experiment_.worldLeft = worldOrigin_.x;  // the banner spans the world
  experiment_.worldRight = worldOrigin_.x + worldSize_.x;
  input_.setWorldArea(worldOrigin_, worldSize_);
  ctx_.viewOrigin = worldOrigin_;
  if (!scene_) return;
  if (!(viewport == viewFit_.viewport())) stepper_.waitIdle();  // a fit may read agents (the 3D flock's centre)
  viewFit_.update(viewport, *scene_, ctx_);  // world units = window points at 100 %
}

void App::fitView() {
  following_ = false;
  viewFit_.fit(scene(), ctx_);  // Home reads agent positions: through the guard
}

void App::feedScriptedKey() {
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

void App::onCommand(const Command& c) {
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

bool App::readsScene(Command::Kind k) {
  return k == Command::Restart || k == Command::Home || k == Command::NextAgent || k == Command::ToggleFollow ||
         k == Command::LessonNext || k == Command::LessonPrevious;
}

void App::afterStep() {
  const auto t0 = Clock::now();
  scene().sampleMetrics();
  metricsMs_.push(secondsSince(t0) * 1000.0);
  recordMetrics();
  stepper_.fastForward = sampleExperimentStep(experiment_, sceneName_, stepper_.simTime(), metrics_);
}

void App::recordMetrics() {
  metrics_.clear();
  scene().metrics(metrics_);
  log_.record(stepper_.steps(), stepper_.simTime(), metrics_);
  csv_.write(stepper_.steps(), stepper_.simTime(), metrics_);
  ctx_.simTime = stepper_.simTime();
}

float App::glyphPoints(float agentScale) const {
  return scene_->view == scenes::View::TwoD ? agentGlyphPoints(batch_, agentScale, ctx_.camera2D.zoom) : 0.0f;
}

scenes::Scene& App::scene() {
  if (!abandoned_) stepper_.waitIdle();
  return *scene_;
}
}  // namespace app
