// The in-app benchmark and the frames of `crowdlab fps` (app.hpp).
#include "app/app.hpp"

#include <imgui_internal.h>  // ClosePopupToLevel: Esc closes an open menu
#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>

namespace app {

double App::fpsOver(double seconds) const {
  const std::vector<double> frames = frameMs_.last(seconds);
  double total = 0;
  for (double ms : frames) total += ms;
  return total > 0 ? 1000.0 * double(frames.size()) / total : 0.0;
}

std::string App::backgroundWork() {
  const bool sweep = sweepRunning(panel_.sweep), tuning = panel_.tune->running();
  return sweep && tuning ? "sweep+tuning" : sweep ? "sweep" : tuning ? "tuning" : "";
}

void App::finishBenchmark() {
  const std::vector<double> stepMs = stepper_.recentStepMs(AppBenchmark::kSeconds);
  hud_.message = benchmark_.finish({sceneName_, scene().agentCount(), sim::median(stepMs), fpsOver(AppBenchmark::kSeconds),
                                    stepMs.size(), glInfo_, backgroundWork(), drawableSize_.x, drawableSize_.y, vsync_});
}

void App::scriptCursor() {
  if (sceneUnguarded().view != scenes::View::TwoD) return;
  const float t = float(stepper_.simTime());
  const glm::vec2 half = 0.35f * worldSize_ / std::max(1e-6f, ctx_.camera2D.zoom);
  ctx_.mouseWorld = ctx_.camera2D.center + glm::vec2(half.x * std::sin(0.21f * t), half.y * std::sin(0.33f * t + 1.0f));
  ctx_.mouseInView = true;
}

bool App::openFpsCase() {
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

void App::fpsFrameDone() {
  FpsDriver& fps = *options_.fps;
  if (fps.result().frameClock == "work") glFinish();
  fps.frameDone(secondsSince(frameStart_) * 1000.0, stepper_.lastStepMs(), renderMs_, lastStats_.drawCalls,
                sceneUnguarded().agentCount());  // lockstep: no step is in flight
}

int App::finishFps() {
  const int code = reportFpsRun(*options_.fps, drawableSize_);
  renderer_.shutdown();
  return code;
}
}  // namespace app
