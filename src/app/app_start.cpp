// Start-up: the flags checked against the scene, the outputs and the window opened and placed
// where the user left it, the first scene and claim, lesson or search started (app.hpp).
#include "app/app.hpp"

#include <imgui_internal.h>  // ClosePopupToLevel: Esc closes an open menu
#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>

namespace app {

namespace {

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

}  // namespace

int App::run() {
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
  // A saved scale wins; a first run picks one the display can be read at (ui_style.hpp).
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
