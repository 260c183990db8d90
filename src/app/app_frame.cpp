// One frame's drawing: the world, the panels, screenshots and recorded frames (app.hpp).
#include "app/app.hpp"

#include <imgui_internal.h>  // ClosePopupToLevel: Esc closes an open menu
#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>

namespace app {

void App::renderFrame() {
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
  drawWorldLabels(debug_, view, world(), uiVisible_ ? DockLayout::hudWidth() : 0.0f,
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
  agentsOnScreen_ = agentsOnScreen(batch_, view.viewProjection, world());
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
  // SIGUSR1 asks for the state now (App::frame writes it after this frame), and for the screenshot with
  // it: a script reads the picture and the layout of one frame, as many times as it asks.
  else if (snapshotThisFrame_ && outputs_.screenshot.isOpen())
    if (std::string error; !rewriteScreenshot(outputs_.screenshot, windowPixels(), error)) hud_.message = error;
  // --claim with --screenshot and no --frames: the verdict's first frame sized the strip for its
  // text; the next one is drawn fitted to it, and taken.
  if (untilVerdict() && (verdictFrames_ = experiment_.bannerVerdict ? verdictFrames_ + 1 : 0) >= 2) {
    if (outputs_.screenshot.isOpen()) screenshot(windowPixels());
    quit_ = true;
  } else if (untilVerdict() && frame_ >= kMostFramesUntilVerdict) {
    fail("no verdict after " + std::to_string(frame_) + " frames", screenshotFailed_);
    quit_ = true;
  }
  SDL_GL_SwapWindow(sdl_.window);
}

void App::drawUiLists(ImDrawData* all, int first, int count) {
  ImDrawData part = *all;
  part.CmdLists = all->CmdLists + first;
  part.CmdListsCount = count;
  ImGui_ImplOpenGL3_RenderDrawData(&part);
}

PixelRect App::worldPixels() const {
  const float ppp = pixelsPerPoint();
  const int x0 = int(std::lround(worldOrigin_.x * ppp)), x1 = int(std::lround((worldOrigin_.x + worldSize_.x) * ppp));
  const int y0 = int(std::lround((windowSize_.y - worldOrigin_.y - worldSize_.y) * ppp)), y1 = int(std::lround((windowSize_.y - worldOrigin_.y) * ppp));
  return {x0, y0, x1 - x0, y1 - y0};
}

void App::captureRequested(const PixelRect& rect) {
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

void App::fail(const std::string& message, bool& flag) {
  hud_.message = message;
  std::fprintf(stderr, "crowdlab: %s\n", message.c_str());
  flag = true;
}

bool App::screenshot(const PixelRect& rect) {
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

void App::startNewRecording(int frames) {
  std::string error;
  const std::string stem = timestampedName(sceneName_, "");
  const std::string dir = makeNewFolder(platform::hasUserFiles() ? inUserDir(UserDir::Pictures, stem) : stem, error);
  if (dir.empty()) return fail(error, recordFailed_);
  startRecording(frames, dir);
}

void App::startRecording(int frames, const std::string& dir) {
  std::string message;
  if (!recorder_.start(frames, dir, hud_.captureWorldOnly ? worldPixels() : windowPixels(), message)) return fail(message, recordFailed_);
  hud_.message = message;
}

void App::drawUi(bool sceneIdle) {
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
  experiment_.lessonSay = lesson_.active() ? lesson_.step().say : "";
  experiment_.lessonProgress = lesson_.active() ? lesson_.progress() : "";
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
  if (drawScenePanel(sceneUnguarded(), sceneName_, sceneTitle(), !stepper_.idle(), panel_, experiment_)) {
    // A parameter changed: the scene reconciles (N, radii, clamps) between steps; the next step's
    // cost is unknown (N = 100,000 without the grid takes half a minute), so it starts on the worker.
    scene().paramsChanged();
    ++paramWrites_;
    stepper_.expectSlowStep();
  }
  if (const scenes::Claim* claim = std::exchange(experiment_.requested, nullptr)) startClaim(*claim);
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
}  // namespace app
