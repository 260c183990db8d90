#include "app/input.hpp"

#include <imgui.h>
#include <backends/imgui_impl_sdl.h>
#include <algorithm>
#include <cfloat>
#include <cmath>
#include "scenes/scene_window.hpp"

namespace app {

namespace {
scenes::MouseEvent mouseEvent(const scenes::SceneContext& ctx, scenes::MouseEvent::Kind kind, int button, glm::vec2 at) {
  scenes::MouseEvent m;
  m.kind = kind;
  m.button = button;
  m.screen = at;
  m.world = ctx.camera2D.screenToWorld(at);
  const SDL_Keymod mod = SDL_GetModState();
  m.shift = (mod & KMOD_SHIFT) != 0;
  m.ctrl = (mod & KMOD_CTRL) != 0;
  return m;
}
// Keys that act even while a text field has the keyboard: none of them edits text (ImGui's fields
// take Ctrl+A/C/V/X/Y/Z), and a presenter must be able to quit, rescale or get help at any moment.
bool isGlobalShortcut(const SDL_Keysym& k) {
  switch (k.sym) {
    case SDLK_ESCAPE: case SDLK_F1: case SDLK_F2: case SDLK_F11: case SDLK_F12: return true;
    case SDLK_PAGEDOWN: case SDLK_PAGEUP: return true;  // a clicker's keys: the lecture goes on whatever has focus
    case SDLK_q: case SDLK_t: case SDLK_EQUALS: case SDLK_PLUS: case SDLK_KP_PLUS: case SDLK_MINUS: case SDLK_KP_MINUS:
      return (k.mod & KMOD_CTRL) != 0;
    default: return false;
  }
}
}  // namespace

std::vector<Command> Input::poll(scenes::Scene& scene, scenes::SceneContext& ctx, bool sceneIdle) {
  std::vector<Command> out;
  const ImGuiIO& io = ImGui::GetIO();
  SDL_Event e;
  while (SDL_PollEvent(&e)) {
    ImGui_ImplSDL2_ProcessEvent(&e);
    switch (e.type) {
      case SDL_QUIT: out.push_back({Command::Quit}); break;
      case SDL_WINDOWEVENT:
        if (e.window.event == SDL_WINDOWEVENT_CLOSE) out.push_back({Command::Quit, 1});  // asks first while work runs
        if (e.window.event == SDL_WINDOWEVENT_LEAVE) pointerInWindow_ = false;
        if (e.window.event == SDL_WINDOWEVENT_ENTER) pointerInWindow_ = true;
        break;
      case SDL_KEYDOWN:
        if (!io.WantCaptureKeyboard || isGlobalShortcut(e.key.keysym)) onKey(e.key.keysym, scene, sceneIdle, out);
        break;
      case SDL_MOUSEBUTTONDOWN:
      case SDL_MOUSEBUTTONUP:
        pointer_ = {float(e.button.x), float(e.button.y)};
        pointerInWindow_ = true;
        if (io.WantCaptureMouse && e.type == SDL_MOUSEBUTTONDOWN) break;
        onButton(e.button, e.type == SDL_MOUSEBUTTONDOWN, scene, ctx, sceneIdle);
        break;
      case SDL_MOUSEMOTION:
        pointer_ = {float(e.motion.x), float(e.motion.y)};
        pointerInWindow_ = true;
        onMotion(e.motion, scene, ctx, sceneIdle);
        break;
      case SDL_FINGERDOWN:
      case SDL_FINGERUP:
      case SDL_FINGERMOTION:
        onFinger(e.tfinger, e.type, scene, ctx);
        break;
      case SDL_MOUSEWHEEL:
        if (!io.WantCaptureMouse && overWorld()) {
          const float factor = std::pow(1.15f, float(e.wheel.y));
          if (scene.view == scenes::View::TwoD) ctx.camera2D.zoomAt(ctx.mouseScreen, factor);
          else ctx.camera3D.zoom(1.0f / factor);
          ctx.userView = true;
          ctx.mouseWorld = ctx.camera2D.screenToWorld(ctx.mouseScreen);
        }
        break;
      default: break;
    }
  }
  ctx.mouseInView = overWorld() && !io.WantCaptureMouse;
  return out;
}

bool Input::overWorld() const {
  const glm::vec2 p = inWorld();
  return pointerInWindow_ && p.x >= 0 && p.y >= 0 && p.x < worldSize_.x && p.y < worldSize_.y;
}

void Input::feedImGuiPointer() const {
  ImGui::GetIO().MousePos = pointerInWindow_ ? ImVec2(pointer_.x, pointer_.y) : ImVec2(-FLT_MAX, -FLT_MAX);
}

void Input::onKey(const SDL_Keysym& k, scenes::Scene& scene, bool sceneIdle, std::vector<Command>& out) {
  const bool shift = (k.mod & KMOD_SHIFT) != 0, ctrl = (k.mod & KMOD_CTRL) != 0;
  auto command = [&](Command::Kind kind, int number = 0) { out.push_back({kind, number}); };
  if (ctrl) {
    switch (k.sym) {
      case SDLK_q: return command(Command::Quit, 1);
      case SDLK_t: return command(Command::ToggleTheme);
      case SDLK_EQUALS: case SDLK_PLUS: case SDLK_KP_PLUS: return command(Command::LargerUi);
      case SDLK_MINUS: case SDLK_KP_MINUS: return command(Command::SmallerUi);
      default: break;
    }
  }
  switch (k.sym) {
    case SDLK_ESCAPE: return command(Command::Escape);
    case SDLK_SPACE: return command(Command::TogglePause);
    case SDLK_RIGHT: return command(lessonKeys_ ? Command::LessonNext : Command::SingleStep);
    case SDLK_LEFT: if (lessonKeys_) return command(Command::LessonPrevious); break;
    case SDLK_PAGEDOWN: return command(Command::LessonNext);
    case SDLK_PAGEUP: return command(Command::LessonPrevious);
    case SDLK_b: if (!ctrl) return command(Command::BlackScreen); break;
    case SDLK_TAB: return command(Command::ToggleUi);
    case SDLK_F1: return command(Command::ToggleHelp);
    case SDLK_F2: return command(Command::ToggleHud);
    case SDLK_F11: return command(Command::Fullscreen);
    case SDLK_F12: return command(Command::Screenshot);
    case SDLK_HOME: return command(Command::Home);
    case SDLK_r: if (!ctrl) return command(Command::Restart); break;
    case SDLK_n: if (!ctrl) return command(Command::NextAgent); break;
    case SDLK_f: if (!ctrl) return command(Command::ToggleFollow); break;
    default: break;
  }
  if (k.sym >= SDLK_1 && k.sym <= SDLK_9 && !ctrl) return command(Command::SwitchScene, int(k.sym - SDLK_1) + 1);
  if (scenes::SceneUi* ui = scenes::uiOf(scene); ui && sceneIdle) ui->onKey(int(k.sym), shift);
}

void Input::onButton(const SDL_MouseButtonEvent& b, bool down, scenes::Scene& scene, scenes::SceneContext& ctx, bool sceneIdle) {
  const int button = b.button == SDL_BUTTON_LEFT ? 1 : b.button == SDL_BUTTON_MIDDLE ? 2 : b.button == SDL_BUTTON_RIGHT ? 3 : 0;
  const auto m = mouseEvent(ctx, down ? scenes::MouseEvent::Down : scenes::MouseEvent::Up, button, inWorld());
  scenes::SceneUi* ui = scenes::uiOf(scene);
  const bool used = ui && sceneIdle && ui->onMouse(m);
  if (down && !used) {
    // Camera drags: 2D pans with right/middle (and a finger); 3D orbits with left and pans with right/middle.
    const bool finger = b.which == SDL_TOUCH_MOUSEID;
    if (scene.view == scenes::View::TwoD) dragging_ = (button == 2 || button == 3 || finger) ? button : 0;
    else dragging_ = button;
  }
  if (!down && button == dragging_) dragging_ = 0;
}

void Input::onMotion(const SDL_MouseMotionEvent& mm, scenes::Scene& scene, scenes::SceneContext& ctx, bool sceneIdle) {
  ctx.mouseScreen = inWorld();
  ctx.mouseWorld = ctx.camera2D.screenToWorld(ctx.mouseScreen);
  const glm::vec2 d{float(mm.xrel), float(mm.yrel)};
  if (dragging_ && fingers_.size() >= 2) return;  // a pinch zooms; its first finger does not also drag
  if (dragging_) {
    ctx.userView = true;
    if (scene.view == scenes::View::TwoD) ctx.camera2D.panPixels(d);
    else if (dragging_ == 1) ctx.camera3D.orbit(d);
    else {
      render::OrbitCamera& c = ctx.camera3D;
      const glm::vec3 fwd = glm::normalize(c.target - c.eye());
      const glm::vec3 right = glm::normalize(glm::cross(fwd, glm::vec3(0, 0, 1)));
      const glm::vec3 up = glm::cross(right, fwd);
      const float s = c.distance * 0.0015f;
      c.target += (-right * d.x + up * d.y) * s;
    }
    return;
  }
  if (scenes::SceneUi* ui = scenes::uiOf(scene); ui && sceneIdle && !ImGui::GetIO().WantCaptureMouse)
    ui->onMouse(mouseEvent(ctx, scenes::MouseEvent::Move, 0, inWorld()));
}

void Input::onFinger(const SDL_TouchFingerEvent& f, Uint32 type, scenes::Scene& scene, scenes::SceneContext& ctx) {
  // SDL gives 0..1 of the window; the camera wants points in the world area beside the docked panels.
  glm::ivec2 window{0, 0};
  if (SDL_Window* w = SDL_GetWindowFromID(f.windowID)) SDL_GetWindowSize(w, &window.x, &window.y);
  const glm::vec2 windowSize = window.x > 0 ? glm::vec2(window) : worldOrigin_ + worldSize_;
  const glm::vec2 at = glm::vec2{f.x, f.y} * windowSize - worldOrigin_;
  auto it = std::find_if(fingers_.begin(), fingers_.end(), [&](const Finger& g) { return g.id == f.fingerId; });
  if (type == SDL_FINGERUP) {
    if (it != fingers_.end()) fingers_.erase(it);
    return;
  }
  if (it == fingers_.end()) {
    fingers_.push_back({f.fingerId, at});
    return;
  }
  if (fingers_.size() < 2 || (it - fingers_.begin()) > 1 || ImGui::GetIO().WantCaptureMouse) {
    it->at = at;
    return;
  }
  // Two fingers: the change in their distance is the zoom, about their midpoint.
  const Finger& other = fingers_[it == fingers_.begin() ? 1 : 0];
  const float before = glm::distance(it->at, other.at);
  it->at = at;
  const float after = glm::distance(it->at, other.at);
  if (before < 1.0f || after < 1.0f) return;
  const float factor = after / before;
  if (scene.view == scenes::View::TwoD) ctx.camera2D.zoomAt((it->at + other.at) * 0.5f, factor);
  else ctx.camera3D.zoom(1.0f / factor);
  ctx.userView = true;
  ctx.mouseWorld = ctx.camera2D.screenToWorld(ctx.mouseScreen);
}

}  // namespace app
