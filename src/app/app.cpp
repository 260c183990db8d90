// The window: SDL2 + OpenGL 3.3 core + Dear ImGui, the fixed-step main loop, keys, cameras and HUD.
#include <SDL.h>
#include <imgui.h>
#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <future>
#include <string>
#include <vector>
#include "app/hud.hpp"
#include "app/metrics_log.hpp"
#include "app/settings.hpp"
#include "app/setup.hpp"
#include "render/gl.hpp"
#include "render/renderer.hpp"
#include "sim/core/parallel.hpp"

namespace app {
namespace {

using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

constexpr float kStepSeconds = 1.0f / 60.0f;
// A step slower than this runs on a worker thread so the window keeps answering.
constexpr double kAsyncStepThresholdMs = 40.0;

void GLAPIENTRY onGlDebugMessage(GLenum, GLenum type, GLuint id, GLenum severity, GLsizei, const GLchar* message, const void*) {
  if (severity == GL_DEBUG_SEVERITY_NOTIFICATION) return;
  static std::vector<GLuint> seen;  // each message once, not every frame
  if (std::find(seen.begin(), seen.end(), id) != seen.end() || seen.size() > 64) return;
  seen.push_back(id);
  std::fprintf(stderr, "crowdlab: OpenGL %s: %s\n", type == GL_DEBUG_TYPE_ERROR ? "error" : "warning", message);
}

std::string timestamp() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y%m%d-%H%M%S", std::localtime(&t));
  return buf;
}

struct SdlContext {
  SDL_Window* window = nullptr;
  SDL_GLContext gl = nullptr;
  ~SdlContext() {
    if (gl) SDL_GL_DeleteContext(gl);
    if (window) SDL_DestroyWindow(window);
    SDL_Quit();
  }
};

// Opens a hidden-or-shown window with a GL 3.3 core context; message + false when impossible.
bool openWindow(SdlContext& sdl, int width, int height, bool fullscreen, bool hidden, std::string& error) {
  if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER) != 0) {
    error = std::string("cannot open a display (") + SDL_GetError() +
            "). On a machine without a screen, run it under a virtual one: xvfb-run -a crowdlab ...";
    return false;
  }
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_FLAGS, SDL_GL_CONTEXT_FORWARD_COMPATIBLE_FLAG);  // macOS needs it
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
  SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
  Uint32 flags = SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI;
  if (fullscreen) flags |= SDL_WINDOW_FULLSCREEN_DESKTOP;
  if (hidden) flags |= SDL_WINDOW_HIDDEN;
  sdl.window = SDL_CreateWindow("crowdlab", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, width, height, flags);
  if (!sdl.window) {
    error = std::string("cannot create a window (") + SDL_GetError() + ")";
    return false;
  }
  sdl.gl = SDL_GL_CreateContext(sdl.window);
  if (!sdl.gl) {
    error = std::string("OpenGL 3.3 core is not available on this display (") + SDL_GetError() +
            "). crowdlab needs OpenGL 3.3; under xvfb-run, Mesa's llvmpipe provides it";
    return false;
  }
  SDL_GL_MakeCurrent(sdl.window, sdl.gl);
  int version = gladLoadGL(reinterpret_cast<GLADloadfunc>(SDL_GL_GetProcAddress));
  if (!version || GLAD_VERSION_MAJOR(version) * 10 + GLAD_VERSION_MINOR(version) < 33) {
    error = "OpenGL 3.3 core functions could not be loaded";
    return false;
  }
  return true;
}

class App {
 public:
  App(const Options& o, SdlContext& sdl, Settings& settings) : options_(o), sdl_(sdl), settings_(settings) {}

  void showMessage(const std::string& text) { hud_.message = text; }

  int run() {
    std::string error;
    if (!renderer_.init(error)) {
      std::fprintf(stderr, "crowdlab: %s\n", error.c_str());
      return 1;
    }
    if (GLAD_GL_KHR_debug) {
      glEnable(GL_DEBUG_OUTPUT);
      glDebugMessageCallback(onGlDebugMessage, nullptr);
    }
    vsync_ = options_.vsync.value_or(settings_.vsync);
    darkTheme_ = settings_.darkTheme;
    updateViewport();
    applyUiScale(settings_.uiScale);
    SDL_GL_SetSwapInterval(vsync_ ? 1 : 0);
    glInfo_ = render::Renderer::glInfo();

    scenes_ = scenes::registeredScenes();
    std::string first = !options_.scene.empty() ? options_.scene : !settings_.lastScene.empty() ? settings_.lastScene : "boids";
    if (!scenes::findScene(first) && !scenes_.empty()) first = scenes_.front().name;
    updateViewport();
    scene_ = makeScene(first, options_, ctx_, error);
    if (!scene_) {
      std::fprintf(stderr, "crowdlab: %s\n%s", error.c_str(), usage());
      return 2;
    }
    sceneName_ = first;
    afterSceneCreated();
    if (options_.recordFrames) startRecording(options_.recordFrames, options_.recordDir);

    const auto start = Clock::now();
    auto last = start;
    while (!quit_) {
      auto now = Clock::now();
      double frameSeconds = std::chrono::duration<double>(now - last).count();
      last = now;
      ctx_.realTime = secondsSince(start);
      hud_.frameTimes.push(float(frameSeconds * 1000.0));
      pollEvents();
      if (pendingUiScale_ > 0) {
        applyUiScale(pendingUiScale_);  // between frames: the font atlas cannot change inside one
        pendingUiScale_ = 0;
      }
      updateViewport();
      simulate(frameSeconds);
      renderFrame();
      if (options_.frames && ++frame_ >= options_.frames) break;
    }
    finishStep();
    return finish();
  }

 private:
  void afterSceneCreated() {
    ctx_.simTime = 0;
    steps_ = 0;
    log_.clear();
    scene_->homeCamera(ctx_);
    lastStepMs_ = 0;
    recordMetrics();
    std::string title = "crowdlab — " + sceneTitle();
    SDL_SetWindowTitle(sdl_.window, title.c_str());
  }

  std::string sceneTitle() const {
    for (const auto& e : scenes_) if (sceneName_ == e.name) return e.title;
    return sceneName_;
  }

  void switchScene(const std::string& name) {
    finishStep();
    const scenes::SceneEntry* entry = scenes::findScene(name);
    if (!entry) return;
    auto scene = entry->create();
    scene->seed = options_.seed;
    scene->ctx = &ctx_;
    scene->paramsChanged();
    scene->reset();
    scene_ = std::move(scene);
    sceneName_ = name;
    afterSceneCreated();
  }

  void restartScene() {
    finishStep();
    scene_->reset();
    afterSceneCreated();
  }

  void updateViewport() {
    int w = 0, h = 0, pw = 0, ph = 0;
    SDL_GetWindowSize(sdl_.window, &w, &h);
    SDL_GL_GetDrawableSize(sdl_.window, &pw, &ph);
    windowSize_ = {float(std::max(w, 1)), float(std::max(h, 1))};
    drawableSize_ = {std::max(pw, 1), std::max(ph, 1)};
    ctx_.camera2D.viewport = windowSize_;  // world units = window points at 100 %
    ctx_.camera3D.viewport = windowSize_;
  }

  // ---- input ----
  void pollEvents() {
    SDL_Event e;
    ImGuiIO& io = ImGui::GetIO();
    while (SDL_PollEvent(&e)) {
      ImGui_ImplSDL2_ProcessEvent(&e);
      switch (e.type) {
        case SDL_QUIT: quit_ = true; break;
        case SDL_WINDOWEVENT:
          if (e.window.event == SDL_WINDOWEVENT_CLOSE) quit_ = true;
          break;
        case SDL_KEYDOWN:
          if (!io.WantCaptureKeyboard) onKey(e.key.keysym);
          break;
        case SDL_MOUSEBUTTONDOWN:
        case SDL_MOUSEBUTTONUP:
          if (io.WantCaptureMouse && e.type == SDL_MOUSEBUTTONDOWN) break;
          onMouseButton(e.button, e.type == SDL_MOUSEBUTTONDOWN);
          break;
        case SDL_MOUSEMOTION: onMouseMotion(e.motion); break;
        case SDL_MOUSEWHEEL:
          if (!io.WantCaptureMouse) onWheel(float(e.wheel.y));
          break;
        default: break;
      }
    }
    ctx_.mouseInView = !io.WantCaptureMouse;
  }

  void onKey(const SDL_Keysym& k) {
    const bool shift = (k.mod & KMOD_SHIFT) != 0, ctrl = (k.mod & KMOD_CTRL) != 0;
    switch (k.sym) {
      case SDLK_ESCAPE: quit_ = true; return;
      case SDLK_SPACE: paused_ = !paused_; return;
      case SDLK_RIGHT: singleStep_ = true; paused_ = true; return;
      case SDLK_r: if (!ctrl) { restartScene(); return; } break;
      case SDLK_TAB: uiVisible_ = !uiVisible_; return;
      case SDLK_F1: hud_.showHelp = !hud_.showHelp; return;
      case SDLK_F11: toggleFullscreen(); return;
      case SDLK_F12: screenshotRequested_ = true; return;
      case SDLK_HOME: scene_->homeCamera(ctx_); return;
      default: break;
    }
    if (ctrl && (k.sym == SDLK_EQUALS || k.sym == SDLK_PLUS || k.sym == SDLK_KP_PLUS)) {
      pendingUiScale_ = std::min(3.0f, uiScale_ + 0.25f);
      return;
    }
    if (ctrl && (k.sym == SDLK_MINUS || k.sym == SDLK_KP_MINUS)) {
      pendingUiScale_ = std::max(1.0f, uiScale_ - 0.25f);
      return;
    }
    if (k.sym >= SDLK_1 && k.sym <= SDLK_6 && !ctrl) {
      int order = int(k.sym - SDLK_1) + 1;
      for (const auto& e : scenes_)
        if (e.order == order) { switchScene(e.name); return; }
      return;
    }
    if (!stepInFlight()) scene_->onKey(int(k.sym), shift);
  }

  scenes::MouseEvent mouseEvent(scenes::MouseEvent::Kind kind, int button, int x, int y) {
    scenes::MouseEvent m;
    m.kind = kind;
    m.button = button;
    m.screen = {float(x), float(y)};
    m.world = ctx_.camera2D.screenToWorld(m.screen);
    SDL_Keymod mod = SDL_GetModState();
    m.shift = (mod & KMOD_SHIFT) != 0;
    m.ctrl = (mod & KMOD_CTRL) != 0;
    return m;
  }

  void onMouseButton(const SDL_MouseButtonEvent& b, bool down) {
    int button = b.button == SDL_BUTTON_LEFT ? 1 : b.button == SDL_BUTTON_MIDDLE ? 2 : b.button == SDL_BUTTON_RIGHT ? 3 : 0;
    auto m = mouseEvent(down ? scenes::MouseEvent::Down : scenes::MouseEvent::Up, button, b.x, b.y);
    bool used = !stepInFlight() && scene_->onMouse(m);
    if (down && !used) {
      // Camera drags: 2D pans with right/middle; 3D orbits with left and pans with right/middle.
      if (scene_->view() == scenes::View::TwoD) dragging_ = (button == 2 || button == 3) ? button : 0;
      else dragging_ = button;
    }
    if (!down && button == dragging_) dragging_ = 0;
  }

  void onMouseMotion(const SDL_MouseMotionEvent& mm) {
    ctx_.mouseScreen = {float(mm.x), float(mm.y)};
    ctx_.mouseWorld = ctx_.camera2D.screenToWorld(ctx_.mouseScreen);
    glm::vec2 d{float(mm.xrel), float(mm.yrel)};
    if (dragging_) {
      if (scene_->view() == scenes::View::TwoD) ctx_.camera2D.panPixels(d);
      else if (dragging_ == 1) ctx_.camera3D.orbit(d);
      else {
        render::OrbitCamera& c = ctx_.camera3D;
        glm::vec3 fwd = glm::normalize(c.target - c.eye());
        glm::vec3 right = glm::normalize(glm::cross(fwd, glm::vec3(0, 0, 1)));
        glm::vec3 up = glm::cross(right, fwd);
        float s = c.distance * 0.0015f;
        c.target += (-right * d.x + up * d.y) * s;
      }
      return;
    }
    if (!stepInFlight() && !ImGui::GetIO().WantCaptureMouse)
      scene_->onMouse(mouseEvent(scenes::MouseEvent::Move, 0, mm.x, mm.y));
  }

  void onWheel(float amount) {
    float factor = std::pow(1.15f, amount);
    if (scene_->view() == scenes::View::TwoD) ctx_.camera2D.zoomAt(ctx_.mouseScreen, factor);
    else ctx_.camera3D.zoom(1.0f / factor);
    ctx_.mouseWorld = ctx_.camera2D.screenToWorld(ctx_.mouseScreen);
  }

  void toggleFullscreen() {
    bool full = (SDL_GetWindowFlags(sdl_.window) & SDL_WINDOW_FULLSCREEN_DESKTOP) != 0;
    SDL_SetWindowFullscreen(sdl_.window, full ? 0 : SDL_WINDOW_FULLSCREEN_DESKTOP);
  }

  // ---- simulation ----
  bool stepInFlight() const { return pendingStep_.valid(); }

  // Waits for a step running on the worker and books it.
  void finishStep() {
    if (!pendingStep_.valid()) return;
    lastStepMs_ = pendingStep_.get();
    hud_.stepMs.push(float(lastStepMs_));
    afterStep();
  }

  void afterStep() {
    ++steps_;
    ctx_.simTime += kStepSeconds;
    recordMetrics();
  }

  void recordMetrics() {
    metrics_.clear();
    scene_->metrics(metrics_);
    log_.record(steps_, ctx_.simTime, metrics_);
  }

  double timedStep() {
    auto t0 = Clock::now();
    scene_->step(kStepSeconds);
    return secondsSince(t0) * 1000.0;
  }

  void simulate(double frameSeconds) {
    ctx_.paused = paused_;
    if (stepInFlight()) {
      // A slow step runs on the worker; the window keeps drawing the last frame meanwhile.
      if (pendingStep_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
        hud_.slowStepSeconds = secondsSince(asyncStart_);
        return;
      }
      finishStep();
      stepsDropped_++;  // real time moved on while it ran
      accumulator_ = 0;
      return;
    }
    int budget = 4;
    if (options_.frames || recording_.active()) {
      budget = paused_ && !singleStep_ ? 0 : 1;  // scripted runs and recordings: exactly one step per frame
      accumulator_ = budget * kStepSeconds;
    } else if (paused_) {
      accumulator_ = singleStep_ ? kStepSeconds : 0;
    } else {
      accumulator_ += std::min(frameSeconds, 0.25) * speed_;
    }
    singleStep_ = false;
    auto frameStart = Clock::now();
    int taken = 0;
    while (accumulator_ >= kStepSeconds - 1e-9 && taken < budget) {
      if (!options_.frames && !recording_.active() && lastStepMs_ > kAsyncStepThresholdMs) {
        asyncStart_ = Clock::now();
        pendingStep_ = std::async(std::launch::async, [this] { return timedStep(); });
        accumulator_ = 0;
        return;
      }
      lastStepMs_ = timedStep();
      hud_.stepMs.push(float(lastStepMs_));
      afterStep();
      accumulator_ -= kStepSeconds;
      ++taken;
      if (secondsSince(frameStart) > 0.030) break;  // keep the frame responsive
    }
    if (accumulator_ >= kStepSeconds) {
      // Behind real time: drop the backlog instead of spiralling.
      stepsDropped_ += int(accumulator_ / kStepSeconds);
      accumulator_ = 0;
    }
  }

  // ---- drawing ----
  void renderFrame() {
    auto t0 = Clock::now();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplSDL2_NewFrame();
    ImGui::NewFrame();

    if (!stepInFlight()) {
      batch_.clear();
      debug_.clear();
      scene_->draw(batch_, debug_);
    }
    render::FrameView view;
    view.time = float(ctx_.realTime);
    if (scene_->view() == scenes::View::ThreeD) {
      view.is3D = true;
      view.viewProjection = ctx_.camera3D.viewProjection();
      view.eye = ctx_.camera3D.eye();
      view.sky = true;
    } else {
      view.viewProjection = ctx_.camera2D.viewProjection();
    }
    drawLabels(view);
    if (uiVisible_) drawUi();
    if (hud_.showHelp) drawHelp(scenes_);
    ImGui::Render();

    glViewport(0, 0, drawableSize_.x, drawableSize_.y);
    renderer_.render(batch_, debug_, view);
    lastStats_ = renderer_.stats();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    renderMs_ = secondsSince(t0) * 1000.0;

    bool last = options_.frames && frame_ + 1 >= options_.frames;
    if (screenshotRequested_ || (last && !options_.screenshot.empty())) {
      std::string path = screenshotRequested_ ? "crowdlab-" + sceneName_ + "-" + timestamp() + ".png" : options_.screenshot;
      saveScreenshot(path);
      screenshotRequested_ = false;
    }
    if (recording_.active()) recordFrame();
    SDL_GL_SwapWindow(sdl_.window);
  }

  void drawLabels(const render::FrameView& view) {
    if (debug_.texts().empty()) return;
    ImDrawList* dl = ImGui::GetBackgroundDrawList();
    for (const auto& t : debug_.texts()) {
      glm::vec4 clip = view.viewProjection * glm::vec4(t.position, 1.0f);
      if (clip.w <= 0) continue;
      glm::vec2 ndc = glm::vec2(clip) / clip.w;
      ImVec2 p{(ndc.x * 0.5f + 0.5f) * windowSize_.x, (0.5f - ndc.y * 0.5f) * windowSize_.y};
      dl->AddText(p, t.color, t.text.c_str());
    }
  }

  void drawUi() {
    HudState state;
    state.fps = ImGui::GetIO().Framerate;
    state.stepMs = lastStepMs_;
    state.renderMs = renderMs_;
    state.stats = lastStats_;
    state.paused = paused_;
    state.stepsDropped = stepsDropped_;
    state.steps = steps_;
    state.glInfo = glInfo_;
    state.stepRunning = stepInFlight();
    state.uiScale = uiScale_;
    state.darkTheme = darkTheme_;
    state.recording = recording_.active();
    state.recordedFrames = recording_.written;
    state.recordTotal = recording_.total;
    HudActions act = drawHud(hud_, state, scenes_, sceneName_, speed_, vsync_, log_);
    if (act.uiScale > 0) pendingUiScale_ = act.uiScale;
    if (act.toggleTheme) {
      darkTheme_ = !darkTheme_;
      pendingUiScale_ = uiScale_;  // the theme is re-applied with the scaled style
    }
    if (act.recordFrames > 0) startRecording(act.recordFrames, "");
    if (act.stopRecording) stopRecording();
    if (act.vsyncChanged) SDL_GL_SetSwapInterval(vsync_ ? 1 : 0);
    if (act.togglePause) paused_ = !paused_;
    if (act.singleStep) { singleStep_ = true; paused_ = true; }
    if (act.restart) restartScene();
    if (act.screenshot) screenshotRequested_ = true;
    if (!act.switchTo.empty() && act.switchTo != sceneName_) switchScene(act.switchTo);
    if (act.exportCsv) {
      std::string path = "crowdlab-" + sceneName_ + "-metrics-" + timestamp() + ".csv", error;
      hud_.message = log_.writeCsv(path, error) ? "saved " + path : error;
    }
    if (drawScenePanel(*scene_, sceneName_, sceneTitle(), stepInFlight(), panel_)) {
      // A parameter changed: the scene reconciles (N, radii, clamps) between steps.
      scene_->paramsChanged();
    }
  }

  void saveScreenshot(const std::string& path) {
    std::vector<uint8_t> pixels;
    render::readFramebuffer(drawableSize_.x, drawableSize_.y, pixels);
    std::string error;
    if (render::writePng(path, drawableSize_.x, drawableSize_.y, pixels, error)) {
      hud_.message = "saved " + path;
      std::printf("screenshot=%s\n", path.c_str());
    } else {
      hud_.message = error;
      std::fprintf(stderr, "crowdlab: %s\n", error.c_str());
      screenshotFailed_ = true;
    }
  }

  void saveUserSettings() {
    settings_.lastScene = sceneName_;
    settings_.uiScale = uiScale_;
    settings_.vsync = vsync_;
    settings_.darkTheme = darkTheme_;
    Uint32 flags = SDL_GetWindowFlags(sdl_.window);
    // A size given on the command line is for that run (a screenshot, a test), not the user's window.
    if (!options_.sizeGiven && !(flags & (SDL_WINDOW_FULLSCREEN | SDL_WINDOW_FULLSCREEN_DESKTOP | SDL_WINDOW_MAXIMIZED))) {
      SDL_GetWindowSize(sdl_.window, &settings_.windowWidth, &settings_.windowHeight);
      SDL_GetWindowPosition(sdl_.window, &settings_.windowX, &settings_.windowY);
    }
    std::string error;
    if (!saveSettings(settingsPath(), settings_, error)) std::fprintf(stderr, "crowdlab: settings not saved: %s\n", error.c_str());
  }

  // ---- UI scale and theme: fonts are rebuilt at the new size so text stays crisp ----
  void applyUiScale(float scale) {
    uiScale_ = std::clamp(scale, 1.0f, 3.0f);
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    float pixelsPerPoint = windowSize_.x > 0 ? float(drawableSize_.x) / windowSize_.x : 1.0f;
    pixelsPerPoint = std::max(1.0f, pixelsPerPoint);
    const float points = 15.0f * uiScale_;
    ImFont* font = nullptr;
    for (const char* path : {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/System/Library/Fonts/SFNS.ttf",
                             "C:\\Windows\\Fonts\\segoeui.ttf"}) {
      if (std::FILE* f = std::fopen(path, "rb")) {
        std::fclose(f);
        font = io.Fonts->AddFontFromFileTTF(path, points * pixelsPerPoint);
        if (font) break;
      }
    }
    if (!font) {
      // No TTF on this system: ImGui's built-in font, rasterised at the scaled size.
      ImFontConfig config;
      config.SizePixels = 13.0f * uiScale_ * pixelsPerPoint;
      io.Fonts->AddFontDefault(&config);
    }
    io.FontGlobalScale = 1.0f / pixelsPerPoint;
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
    applyTheme(darkTheme_);
    ImGui::GetStyle().ScaleAllSizes(uiScale_);
  }

  // ---- recording for slides: a PNG sequence, and an MP4 when ffmpeg is on the PATH ----
  struct Recording {
    std::string dir;
    int total = 0, written = 0;
    std::FILE* ffmpeg = nullptr;
    bool active() const { return total > 0 && written < total; }
  };

  void startRecording(int frames, const std::string& dir) {
    stopRecording();
    recording_ = {};
    recording_.dir = dir.empty() ? "crowdlab-" + sceneName_ + "-" + timestamp() : dir;
    std::string error;
    if (!makeDirectories(recording_.dir, error)) {
      hud_.message = error;
      std::fprintf(stderr, "crowdlab: %s\n", error.c_str());
      recordFailed_ = true;
      return;
    }
    recording_.total = frames;
    if (std::system("command -v ffmpeg >/dev/null 2>&1") == 0) {
      char cmd[1024];
      std::snprintf(cmd, sizeof(cmd),
                    "ffmpeg -y -loglevel error -f rawvideo -pixel_format rgba -video_size %dx%d -framerate 60 -i - "
                    "-pix_fmt yuv420p '%s/recording.mp4'",
                    drawableSize_.x, drawableSize_.y, recording_.dir.c_str());
      recording_.ffmpeg = popen(cmd, "w");
    }
    hud_.message = "recording " + std::to_string(frames) + " frames to " + recording_.dir;
  }

  void recordFrame() {
    std::vector<uint8_t> pixels;
    render::readFramebuffer(drawableSize_.x, drawableSize_.y, pixels);
    char name[64];
    std::snprintf(name, sizeof(name), "/frame_%05d.png", recording_.written + 1);
    std::string error;
    if (!render::writePng(recording_.dir + name, drawableSize_.x, drawableSize_.y, pixels, error)) {
      hud_.message = error;
      std::fprintf(stderr, "crowdlab: %s\n", error.c_str());
      recordFailed_ = true;
      stopRecording();
      return;
    }
    if (recording_.ffmpeg) std::fwrite(pixels.data(), 1, pixels.size(), recording_.ffmpeg);
    if (++recording_.written >= recording_.total) stopRecording();
  }

  void stopRecording() {
    if (recording_.ffmpeg) {
      pclose(recording_.ffmpeg);
      recording_.ffmpeg = nullptr;
    }
    if (recording_.total) {
      hud_.message = "recorded " + std::to_string(recording_.written) + " frames in " + recording_.dir;
      std::printf("recorded=%d\nrecord_dir=%s\n", recording_.written, recording_.dir.c_str());
    }
    recording_.total = 0;
  }

  int finish() {
    stopRecording();
    saveUserSettings();
    std::printf("scene=%s\nframes=%d\nsteps=%llu\nagents=%zu\ndraw_calls=%d\nagent_draw_calls=%d\n", sceneName_.c_str(), frame_,
                static_cast<unsigned long long>(steps_), lastStats_.agents, lastStats_.drawCalls, lastStats_.agentDrawCalls);
    if (!options_.metricsCsv.empty()) {
      std::string error;
      if (!log_.writeCsv(options_.metricsCsv, error)) {
        std::fprintf(stderr, "crowdlab: %s\n", error.c_str());
        return 1;
      }
    }
    renderer_.shutdown();
    return screenshotFailed_ || recordFailed_ ? 1 : 0;
  }

  const Options& options_;
  SdlContext& sdl_;
  render::Renderer renderer_;
  render::AgentBatch batch_;
  render::DebugDraw debug_;
  render::FrameStats lastStats_;
  std::vector<scenes::SceneEntry> scenes_;
  std::unique_ptr<scenes::Scene> scene_;
  std::string sceneName_, glInfo_;
  scenes::SceneContext ctx_;
  std::vector<scenes::Metric> metrics_;
  MetricsLog log_;
  HudMemory hud_;
  PanelMemory panel_;
  Settings& settings_;
  Recording recording_;
  float uiScale_ = 1.0f, pendingUiScale_ = 0.0f;
  bool darkTheme_ = true, recordFailed_ = false;
  glm::vec2 windowSize_{1280, 720};
  glm::ivec2 drawableSize_{1280, 720};
  std::future<double> pendingStep_;
  Clock::time_point asyncStart_;
  double accumulator_ = 0, lastStepMs_ = 0, renderMs_ = 0;
  float speed_ = 1.0f;
  uint64_t steps_ = 0;
  int frame_ = 0, stepsDropped_ = 0, dragging_ = 0;
  bool quit_ = false, paused_ = false, singleStep_ = false, uiVisible_ = true, vsync_ = true;
  bool screenshotRequested_ = false, screenshotFailed_ = false;
};

}  // namespace

int runWindow(const Options& given) {
  std::string warning, error;
  Settings settings = loadSettings(settingsPath(), warning);
  if (!warning.empty()) std::fprintf(stderr, "crowdlab: %s\n", warning.c_str());
  // Resolve the scene the window will open, then check the flags against that scene before
  // opening anything, so mistakes exit 2 quickly.
  Options o = given;
  std::string sceneWarning;
  o.scene = resolveSceneName(given, settings, sceneWarning);
  if (!sceneWarning.empty()) {
    std::fprintf(stderr, "crowdlab: %s\n", sceneWarning.c_str());
    if (warning.empty()) warning = sceneWarning;
  }
  if (!given.scene.empty() || !o.sets.empty() || !o.preset.empty()) {
    scenes::SceneContext probe;
    if (!makeScene(o.scene, o, probe, error)) {
      std::fprintf(stderr, "crowdlab: %s\n%s", error.c_str(), usage());
      return 2;
    }
  }
  int width = o.sizeGiven ? o.width : settings.windowWidth, height = o.sizeGiven ? o.height : settings.windowHeight;
  SdlContext sdl;
  if (!openWindow(sdl, width, height, o.fullscreen, false, error)) {
    std::fprintf(stderr, "crowdlab: %s\n", error.c_str());
    return 1;
  }
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // window layout is not worth a file in the working directory
  if (!o.sizeGiven && settings.windowX >= 0 && settings.windowY >= 0) SDL_SetWindowPosition(sdl.window, settings.windowX, settings.windowY);
  ImGui_ImplSDL2_InitForOpenGL(sdl.window, sdl.gl);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  int code = 0;
  {
    App app(o, sdl, settings);
    if (!warning.empty()) app.showMessage(warning);
    code = app.run();
  }
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplSDL2_Shutdown();
  ImGui::DestroyContext();
  return code;
}

}  // namespace app

// For `crowdlab bench --report`: the GL renderer, from a hidden window when a display is there.
std::string benchReportHeader() {
  app::SdlContext sdl;
  std::string error;
  if (!app::openWindow(sdl, 64, 64, false, true, error)) return "GL renderer: unavailable (" + error + ")\n";
  return "GL renderer: " + render::Renderer::glInfo() + "\n";
}
