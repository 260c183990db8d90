// A presenter's controls beyond the scene: the lesson's steps, Esc and quit, agent selection and follow (app.hpp).
#include "app/app.hpp"

#include <imgui_internal.h>  // ClosePopupToLevel: Esc closes an open menu
#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>

namespace app {

void App::startLesson(Lesson lesson) {
  lesson_.start(std::move(lesson));
  input_.setLessonKeys(lesson_.active());
  if (lesson_.active()) enterLessonStep();
}

void App::lessonMove(bool forward) {
  if (!lesson_.active()) {
    hud_.message = "No lesson runs: start one from the Lesson menu or with --lesson NAME";
    return;
  }
  if (forward ? lesson_.next() : lesson_.previous()) enterLessonStep();
}

void App::enterLessonStep() {
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
  experiment_.tracker = scenes::ClaimTracker();  // a claim of the step before ends here
  experiment_.after = nullptr;
  if (!scenes::startSetup(scene(), {s.scene, s.preset, {}, s.start, ""}, error)) hud_.message = error;
  afterSceneCreated();
}

void App::onLessonMenu(const LessonMenuAction& act) {
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

bool App::selectNextAgent() {
  if (app::selectNextAgent(guardedScene())) return true;  // reads agents: through the guard
  noAgentToSelect();
  return false;
}

void App::noAgentToSelect() {
  hud_.message = sceneTitle() + " has no agent to select (N and F work in the scenes you can click an agent in)";
}

void App::followSelected() {
  const std::optional<glm::vec3> at = followedPosition(guardedScene());
  if (!at) return;
  if (scene().view == scenes::View::ThreeD) ctx_.camera3D.target = *at;
  else ctx_.camera2D.center = glm::vec2(*at);
}

std::optional<float> App::selectedOffsetFromCentre(const render::FrameView& view) {
  const std::optional<glm::vec3> at = scene().selectedAgent();
  if (!at) return std::nullopt;
  const glm::vec4 clip = view.viewProjection * glm::vec4(*at, 1.0f);
  if (clip.w <= 0) return std::numeric_limits<float>::infinity();
  return glm::length(glm::vec2(clip) / clip.w * worldSize_ * 0.5f);
}

void App::onEscape() {
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

void App::onQuit(bool ask) {
  if (!platform::canQuit()) return;
  if (ask && !quitAsked_ && !workUnderWay().empty()) {
    quitAsked_ = true;
    return;
  }
  quit_ = true;
}

std::string App::workUnderWay() {
  std::string work = backgroundWork();
  if (recorder_.active()) work += work.empty() ? "recording" : "+recording";
  return work;
}

void App::drawQuitQuestion() {
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
}  // namespace app
