// The GPU scene's window side: the boids step in OpenGL 4.3 compute shaders (render::GpuBoids, on
// the GL thread, in draw()), drawn straight from the GPU's buffer, and the panel with the figures.
#include <imgui.h>
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>
#include "render/gpu_boids.hpp"
#include "render/renderer.hpp"
#include "scenes/gpu.hpp"
#include "scenes/param_ui.hpp"
#include "scenes/scene_window.hpp"

namespace scenes::gpu {
namespace {

constexpr int kMaxPendingGpuSteps = 4;
constexpr uint32_t kGpuColor = render::rgba(120, 235, 150);

class GpuWindow final : public GpuScene, public scenes::SceneUi {
 public:
  using GpuScene::GpuScene;

  void reset() override {
    GpuScene::reset();
    pendingGpuSteps_ = 0;
    gpuNeedsUpload_ = true;
    gpuAhead_ = false;  // the fresh CPU state wins
  }

  void step(float dt) override {
    if (!gpuActive_) return GpuScene::step(dt);
    // Run in draw(), on the GL thread. Slow GPU steps (1M agents on llvmpipe) are not queued up: at
    // most one per frame then, so the window keeps responding and the simulation runs slower than
    // real time instead.
    const int cap = gpuTimings_.valid && gpuTimings_.totalMs() > 8.0 ? 1 : kMaxPendingGpuSteps;
    pendingGpuSteps_ = std::min(pendingGpuSteps_ + 1, cap);
    lastDt_ = dt;
  }

  void draw(render::AgentBatch& agents, render::DebugDraw& debug) override {
    syncSimulation();
    if (!gpuActive_) return GpuScene::draw(agents, debug);
    agents.shape = render::AgentShape::Arrow2D;
    agents.submission = s_.render == 1 ? render::AgentSubmission::PerAgent : render::AgentSubmission::Instanced;
    for (; pendingGpuSteps_ > 0; --pendingGpuSteps_) {
      gpu_.step(flock_.params, lastDt_);
      gpuAhead_ = true;
    }
    gpuTimings_ = gpu_.latestTimings();
    gpuStepMs_ = gpuTimings_.valid ? gpuTimings_.totalMs() : 0.0;
    agents.gpu = {gpu_.stateBuffer(), gpu_.indirectBuffer(), shownCount(), s_.agentSize, kGpuColor};
    debug.rect({0, 0}, flock_.world.size, render::rgba(70, 76, 90));
  }

  void paramsChanged() override {
    const float cell = flock_.cellSize;
    GpuScene::paramsChanged();
    if (gpuActive_ && flock_.cellSize != cell) gpuNeedsUpload_ = true;  // a new grid layout
  }

  void panel() override {
    scenes::sectionTitle("Simulation");
    ImGui::RadioButton("CPU", &s_.sim, 0);
    scenes::sameLineIfFits(scenes::checkboxWidth("GPU (compute shaders)"));
    ImGui::BeginDisabled(probed_ && !support_.available);
    ImGui::RadioButton("GPU (compute shaders)", &s_.sim, 1);
    ImGui::EndDisabled();
    if (probed_ && !support_.available) ImGui::TextWrapped("GPU simulation unavailable: %s", support_.reason.c_str());
    ImGui::Text("CPU step: %s", cpuStepMs_ > 0 ? formatMs(cpuStepMs_).c_str() : "not run yet");
    char what[64];
    std::snprintf(what, sizeof what, "(grid + rules + integrate, %d threads)", sim::threadCount());
    scenes::sameLineIfFits(scenes::textWidth(what));
    ImGui::TextDisabled("%s", what);
    if (gpuTimings_.valid)
      ImGui::Text("GPU step: %s  (grid %.2f + rules %.2f ms, timer queries)", formatMs(gpuTimings_.totalMs()).c_str(),
                  gpuTimings_.gridMs, gpuTimings_.rulesMs);
    else
      ImGui::TextDisabled("GPU step: not run yet");
    if (softwareGl_)
      ImGui::TextDisabled("llvmpipe: the \"GPU\" is these CPU cores, and its timestamps are taken late, so the\n"
                          "grid/rules split may lump into one half (bench --case gpu-boids splits by wall clock)");

    scenes::sectionTitle("Drawing");
    ImGui::RadioButton("instanced", &s_.render, 0);
    scenes::sameLineIfFits(scenes::checkboxWidth("per-agent"));
    ImGui::RadioButton("per-agent", &s_.render, 1);
    if (s_.render == 1 && flock_.size() > size_t(kPerAgentCap))
      ImGui::TextColored(ImVec4(1, 0.8f, 0.3f, 1),
                         "per-agent draws only the first %d of %zu agents: one call each, more would freeze the window",
                         kPerAgentCap, flock_.size());
    if (ctx) {
      const render::FrameStats& f = ctx->lastFrame;
      ImGui::Text("agent draw calls %d   (all draw calls %d)", f.agentDrawCalls, f.drawCalls);
      ImGui::Text("CPU submitting agents %.3f ms", f.agentSubmitMs);
      if (f.agentGpuMs >= 0) ImGui::Text("GPU drawing agents %.3f ms", f.agentGpuMs);
      ImGui::Text("frame render (CPU, UI included) %.2f ms", ctx->lastRenderMs);
    }
  }

 private:
  static std::string formatMs(double ms) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f ms/step", ms);
    return buf;
  }

  // The one read-back: the GPU's agents (in its cell order, ids with them) become the CPU flock.
  void takeAgentsFromGpu() {
    std::vector<Vec2> positions, velocities;
    std::vector<uint32_t> ids;
    gpu_.download(&positions, &velocities, &ids, nullptr);
    flock_.setState(positions, velocities, ids);
  }

  // Moves the agents to where the chosen simulation runs. Main thread, context current.
  void syncSimulation() {
    if (!probed_) {
      support_ = render::computeSupport();
      probed_ = true;
      softwareGl_ = support_.available && render::Renderer::glInfo().find("llvmpipe") != std::string::npos;
    }
    bool wantGpu = s_.sim == 1 && support_.available;
    if (wantGpu && !gpu_.ready()) {
      std::string error;
      if (!gpu_.init(error)) {
        support_ = {false, error};
        wantGpu = false;
      }
    }
    if (s_.sim == 1 && !wantGpu) {
      std::fprintf(stderr, "crowdlab: gpu scene: GPU simulation unavailable: %s\n", support_.reason.c_str());
      s_.sim = 0;
    }
    if (gpuActive_ && !wantGpu) {
      takeAgentsFromGpu();  // back to the CPU, which continues from where the GPU got to
      gpuActive_ = false;
      gpuAhead_ = false;
    } else if (wantGpu && (!gpuActive_ || gpuNeedsUpload_)) {
      if (gpuActive_ && gpuAhead_) takeAgentsFromGpu();  // a new grid layout mid-run
      gpu_.upload(flock_.positions(), flock_.velocities(), flock_.ids(), flock_.world, flock_.cellSize);
      gpuActive_ = true;
      gpuAhead_ = false;
    }
    gpuNeedsUpload_ = false;
  }

  render::GpuBoids gpu_;
  render::ComputeSupport support_;
  bool probed_ = false, gpuNeedsUpload_ = true;
  bool gpuAhead_ = false;  // the GPU has stepped past the CPU copy of the agents
  int pendingGpuSteps_ = 0;
  float lastDt_ = 1.0f / 60.0f;
  render::GpuBoids::Timings gpuTimings_;
};

[[maybe_unused]] bool registered = scenes::registerSceneWindow("gpu", &scenes::makeWindow<GpuWindow>);

}  // namespace
}  // namespace scenes::gpu
