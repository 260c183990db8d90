// What the run reports and keeps: the --state-out JSON with its layout and probe, the user's settings (app.hpp).
#include "app/app.hpp"

#include <imgui_internal.h>  // ClosePopupToLevel: Esc closes an open menu
#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>

namespace app {

std::string App::stateJson() {
  nlohmann::json j = scenes::paramsToJson(sceneUnguarded().params(), sceneName_);  // parameters: no step writes them
  j["steps"] = stepper_.steps();
  j["sim_time"] = stepper_.simTime();
  j["agents_digest"] = agentsDigest();
  const scenes::Claim* claim = runningClaim();
  j["experiment"] = {{"claim", claim ? claim->id : ""}, {"banner", experiment_.banner}, {"verdict_shown", experiment_.bannerVerdict},
                     {"banner_strip", experiment_.reservedBottom}};
  if (claim && experiment_.tracker.done()) {  // the window's values, as `crowdlab claims` reads them back
    nlohmann::json also = nlohmann::json::array();
    for (size_t i = 0; i < claim->also.size(); ++i) also.push_back(experiment_.tracker.alsoValue(i));
    j["experiment"]["value"] = experiment_.tracker.value();
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

nlohmann::json App::probeJson() {
  writeSweepProbe(panel_.sweep);
  nlohmann::json p = probe::marks();
  // What the state holds elsewhere (scene, steps, agents, the 10 s step median, the layout's UI scale,
  // the camera) is not repeated here.
  p.update({{"frames", frame_}, {"draw_calls", lastStats_.drawCalls}, {"agent_draw_calls", lastStats_.agentDrawCalls},
            {"ui_visible", uiVisible_}, {"help_open", hud_.showHelp},
            {"theme", look_.darkTheme ? "dark" : "light"}, {"style", styleSizes()},
            {"world_area", probe::area({worldOrigin_.x, worldOrigin_.y, worldSize_.x, worldSize_.y})},
            {"agents_outside_view", agentsOnScreen_.outside},
            {"text_contrast", panelTextContrast()}, {"speed", stepper_.speed}, {"user_view", ctx_.userView},
            {"agents_box", probe::area(agentsOnScreen_.box)},
            {"window", {std::lround(windowSize_.x), std::lround(windowSize_.y)}},
            {"glyph_px", glyphPoints(drawnAgentScale_)}, {"panel_overflow_max", std::lround(panelOverflowMax_)},
            {"panel_overflow_max_at_ui", panelOverflowMaxAtScale_}, {"panel_overflow_scales", overflowScales_.size()},
            {"front_window", frontWindow()}, {"hud_right", std::lround(hud_.open ? DockLayout::hudWidth() : 0.0f)},
            {"panel_left", std::lround(windowSize_.x - DockLayout::panelWidth())}, {"reserved_bottom", std::lround(experiment_.reservedBottom)},
            {"following", following_}, {"followed_frames", followedFrames_}, {"follow_max_offset", followMaxOffset_},
            {"preset_name", panel_.saveName}, {"panel_message", panel_.message},
            {"replace_pending", !panel_.replacePending.empty()},
            {"frame_ms_median", sim::median(frameMs_.last(AppBenchmark::kSeconds))}});
  const std::optional<glm::vec3> selected = abandoned_ || !stepper_.idle() ? std::nullopt : scene().selectedAgent();
  p["selected"] = selected ? nlohmann::json{selected->x, selected->y, selected->z} : nlohmann::json();
  return p;
}

std::string App::agentsDigest() {
  render::AgentBatch now;
  render::DebugDraw unused;
  const bool idle = !abandoned_ && stepper_.idle();
  if (idle) scene().draw(now, unused);
  return scenes::agentsDigest(idle ? now : batch_);
}

ScreenLayout App::currentLayout() const {
  ScreenLayout l;
  l.window = windowSize_;
  l.free = {worldOrigin_.x, worldOrigin_.y, worldSize_.x, worldSize_.y};
  l.agents = agentsOnScreen_.box;
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

std::string App::frontWindow() {
  const ImGuiContext& g = *ImGui::GetCurrentContext();
  for (int i = g.Windows.Size - 1; i >= 0; --i) {
    const ImGuiWindow* w = g.Windows[i];
    if (w->WasActive && !w->Hidden && !(w->Flags & (ImGuiWindowFlags_Tooltip | ImGuiWindowFlags_ChildWindow))) return w->Name;
  }
  return "";
}

void App::saveUserSettings() {
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
}  // namespace app
