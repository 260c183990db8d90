// Scene 7 — GPU: the article's part 6. Two lessons on one flock:
//  - render: one instanced draw call against one draw call per agent, same pixels, with the
//    figures (draw calls, CPU ms submitting, GPU ms drawing) on screen;
//  - sim: the boids step on the CPU (sim::Flock<2> with the grid) or in OpenGL 4.3 compute shaders
//    (render::GpuBoids), same N and parameters, drawn straight from the GPU buffer.
// Below 4.3 (or with CROWDLAB_GL=3.3) the GPU choice is greyed out with the reason; the CPU path runs.
// GL work happens only in draw(): step() may run on the app's worker thread, which has no context.
#include <imgui.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include "render/color.hpp"
#include "render/gpu_boids.hpp"
#include "render/renderer.hpp"
#include "scenes/param_ui.hpp"
#include "scenes/boids_params.hpp"
#include "scenes/scene.hpp"
#include "sim/core/metrics.hpp"
#include "sim/models/flock.hpp"
#include "sim/core/metric.hpp"

namespace {

using sim::Vec2;

constexpr int kPerAgentCap = 20000;      // per-agent draws beyond this take the window below a few frames a second
constexpr int kMaxPendingGpuSteps = 4;

// The scene's own settings; the rules' parameters are the flock's (sim::BoidsParams), CPU or GPU.
struct SceneSettings {
  int count;
  int sim;     // 0 CPU, 1 GPU
  int render;  // 0 instanced, 1 per-agent
  float agentSize;
};

// The scene's own measures (mean_neighbors is the flock's).
constexpr sim::MetricInfo kGpuMetrics[] = {
    {"gpu_sim", "the step runs in compute shaders (1) or on the CPU (0)", "", 0.0, 1.0},
    {"cpu_step_ms", "CPU step (ms)", "ms"},
    {"gpu_step_ms", "compute shaders' step (ms)", "ms"},
    {"sim_step_ms", "step time of the running simulation (ms)", "ms"},
    {"software_gl", "software OpenGL: the GPU is the CPU (1)", "", 0.0, 1.0},
    {"agent_draw_calls", "draw calls for the agents"},
    {"agent_submit_ms", "CPU time submitting the agents' draws (ms)", "ms"},
    {"agent_draw_gpu_ms", "GPU time drawing the agents (ms)", "ms"},
    {"render_ms", "frame render, CPU (ms)", "ms"},
};
[[maybe_unused]] const bool gpuDescribed = sim::describeMetrics(kGpuMetrics);

class GpuScene final : public scenes::Scene {
 public:
  GpuScene(scenes::SceneContext& context, uint64_t seedValue) : Scene(context, seedValue) {
    params_ = {
        scenes::Param::i("N", "agents (N)", &s_.count, 1000, 1000000, 20000,
                         "Number of boids; the world grows with N so each sees about 10 others", true).withUnit("agents").ofScene(),
        scenes::Param::e("sim", "simulation", &s_.sim, "cpu|gpu", 0,
                         "Where the boids step runs: CPU threads or OpenGL 4.3 compute shaders").ofScene().withoutSlider(),
        scenes::Param::e("render", "render mode", &s_.render, "instanced|per-agent", 0,
                         "One instanced draw call for all agents, or one draw call per agent").ofScene().withoutSlider(),
    };
    for (const scenes::Param& rule :
         scenes::boidsRuleParams(flock_.params, {100, 90, "Who counts as a neighbour; also the grid's cell size"}))
      params_.push_back(rule);
    params_.push_back(scenes::Param::f("size", "agent length", &s_.agentSize, 2, 120, 40,
                                     "Drawn length of an agent, world units (40: about 9 px in a 1280 x 720 window at 20000)").ofScene());
    declareParams();
    about = kAbout;
    aboutMore = kAboutMore;
    flock_.method = sim::NeighborMethod::Grid;
  }

  void reset() override {
    keepConsistent();
    flock_.world = render::flockWorldFor(size_t(s_.count), flock_.params.perceptionRadius);
    flock_.spawn(size_t(s_.count), seed);
    pendingGpuSteps_ = 0;
    gpuNeedsUpload_ = true;
    gpuAhead_ = false;  // the fresh CPU state wins
    meanNeighbors_ = 0;
  }

  void step(float dt) override {
    if (gpuActive_) {  // run in draw(), on the GL thread
      // Slow GPU steps (1M agents on llvmpipe) are not queued up: at most one per frame then, so the
      // window keeps responding and the simulation runs slower than real time instead.
      const int cap = gpuTimings_.valid && gpuTimings_.totalMs() > 8.0 ? 1 : kMaxPendingGpuSteps;
      pendingGpuSteps_ = std::min(pendingGpuSteps_ + 1, cap);
      lastDt_ = dt;
      return;
    }
    const auto t0 = std::chrono::steady_clock::now();
    flock_.step(dt);
    cpuStepMs_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    meanNeighbors_ = flock_.meanNeighbors();
  }

  void draw(render::AgentBatch& agents, render::DebugDraw& debug) override {
    using namespace render;
    syncSimulation();
    agents.shape = AgentShape::Arrow2D;
    agents.submission = s_.render == 1 ? AgentSubmission::PerAgent : AgentSubmission::Instanced;
    const size_t shown = s_.render == 1 ? std::min(flock_.size(), size_t(kPerAgentCap)) : flock_.size();
    if (gpuActive_) {
      for (; pendingGpuSteps_ > 0; --pendingGpuSteps_) {
        gpu_.step(flock_.params, lastDt_);
        gpuAhead_ = true;
      }
      gpuTimings_ = gpu_.latestTimings();
      agents.gpu = {gpu_.stateBuffer(), gpu_.indirectBuffer(), shown, s_.agentSize, kGpuColor};
    } else {
      agents.instances.resize(shown);
      for (size_t i = 0; i < shown; ++i)
        agents.instances[i] = {glm::vec3(flock_.positions()[i], 0), glm::vec3(flock_.velocities()[i], 0), s_.agentSize, 0.0f, kCpuColor};
    }
    debug.rect({0, 0}, flock_.world.size, rgba(70, 76, 90));
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

  // The lede the panel shows; the rest behind its "More" and in the F1 help.
  static constexpr const char* kAbout = "Thousands of agents: one instanced draw call against one call per agent, and the whole simulation in compute shaders on the GPU.";
  static constexpr const char* kAboutMore =
           "The article's part 6: thousands of units on screen. Drawing: 'instanced' sends every agent in ONE "
           "draw call (one buffer of positions, one mesh, N instances); 'per-agent' draws the same pixels the "
           "way a naive engine does, one call per agent, and the CPU time spent submitting grows with N.\n\n"
           "Simulation: on the CPU the positions live in main memory and are copied to the GPU every frame to be "
           "drawn. With 'GPU' they live in a GPU buffer: compute shaders build the grid (an atomic count per cell, "
           "a prefix sum, a scatter into cell order), apply the same three rules over the 3x3 cells, integrate, "
           "and the renderer draws from that same buffer with an indirect draw, whose instance count the GPU "
           "wrote itself. Nothing comes back: reading a buffer back makes the CPU wait until the GPU has finished "
           "everything queued, so the two stop working side by side; it happens here only when you switch back "
           "to the CPU.\n\n"
           "When is the GPU the wrong place? When game logic needs each agent on the CPU every frame (AI "
           "decisions, physics queries, networking, scripting): the read-back each frame costs more than the "
           "step it saved. Keep those agents on the CPU and give the GPU the crowds that only need to look "
           "right. Needs OpenGL 4.3; below it (macOS stops at 4.1) the CPU path runs.";

  void paramsChanged() override {
    keepConsistent();
    if (size_t(s_.count) != flock_.size()) reset();
  }

  void metrics(std::vector<sim::Metric>& out) const override {
    out.push_back({"mean_neighbors", meanNeighbors_});
    out.push_back({"gpu_sim", gpuActive_ ? 1.0 : 0.0});
    out.push_back({"cpu_step_ms", cpuStepMs_});
    out.push_back({"gpu_step_ms", gpuTimings_.valid ? gpuTimings_.totalMs() : 0.0});
    // The step of the simulation that runs now (CPU or GPU), for the claim comparing the two at one N;
    // and whether the "GPU" is a software rasteriser on these same CPU cores (llvmpipe).
    out.push_back({"sim_step_ms", gpuActive_ ? (gpuTimings_.valid ? gpuTimings_.totalMs() : 0.0) : cpuStepMs_});
    out.push_back({"software_gl", softwareGl_ ? 1.0 : 0.0});
    // The draw-call lesson in numbers (the previous frame; zero without a window).
    const render::FrameStats none;
    const render::FrameStats& f = ctx ? ctx->lastFrame : none;
    out.push_back({"agent_draw_calls", double(f.agentDrawCalls)});
    out.push_back({"agent_submit_ms", f.agentSubmitMs});
    out.push_back({"agent_draw_gpu_ms", std::max(0.0, f.agentGpuMs)});
    out.push_back({"render_ms", ctx ? ctx->lastRenderMs : 0.0});
  }
  size_t agentCount() const override { return flock_.size(); }

  void homeCamera(scenes::SceneContext& c) override { c.camera2D.fit({0, 0}, flock_.world.size); }

 private:
  static constexpr uint32_t kCpuColor = render::rgba(200, 215, 235);
  static constexpr uint32_t kGpuColor = render::rgba(120, 235, 150);

  static std::string formatMs(double ms) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f ms/step", ms);
    return buf;
  }

  void keepConsistent() {
    sim::BoidsParams& p = flock_.params;
    p = p.normalized();
    // The cell is the search radius: the 3x3 block covers it on the CPU and the GPU alike.
    if (gpuActive_ && flock_.cellSize != p.searchRadius()) gpuNeedsUpload_ = true;  // a new grid layout
    flock_.cellSize = p.searchRadius();
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

  SceneSettings s_{};
  sim::Flock<2> flock_;
  render::GpuBoids gpu_;
  render::ComputeSupport support_;
  bool probed_ = false, gpuActive_ = false, gpuNeedsUpload_ = true, softwareGl_ = false;
  bool gpuAhead_ = false;  // the GPU has stepped past the CPU copy of the agents
  int pendingGpuSteps_ = 0;
  float lastDt_ = 1.0f / 60.0f;
  double cpuStepMs_ = 0, meanNeighbors_ = 0;
  render::GpuBoids::Timings gpuTimings_;
};

std::unique_ptr<scenes::Scene> create(scenes::SceneContext& context, uint64_t seed) {
  return std::make_unique<GpuScene>(context, seed);
}
[[maybe_unused]] bool registered = scenes::registerScene({"gpu", "GPU: instancing and compute", 7, &create});

}  // namespace
