// Scene 7 — GPU: the article's part 6. Two lessons on one flock:
//  - render: one instanced draw call against one draw call per agent, same pixels, with the
//    figures (draw calls, CPU ms submitting, GPU ms drawing) on screen;
//  - sim: the boids step on the CPU (sim::Flock<2> with the grid) or in OpenGL 4.3 compute shaders
//    (render::GpuBoids), same N and parameters, drawn straight from the GPU buffer.
// Below 4.3 (or with CROWDLAB_GL=3.3) the GPU choice is greyed out with the reason; the CPU path runs.
// This is the simulation side (the CPU flock, the figures, no GL); the compute shaders and the panel are
// the window side's, gpu_window.cpp. GL work happens only in draw(): step() may run on the app's worker
// thread, which has no context.
#pragma once
#include <algorithm>
#include <chrono>
#include <cmath>
#include "render/color.hpp"
#include "scenes/boids_params.hpp"
#include "scenes/scene.hpp"
#include "sim/core/metrics.hpp"
#include "sim/models/flock.hpp"
#include "sim/core/metric.hpp"

namespace scenes::gpu {

using sim::Vec2;

constexpr int kPerAgentCap = 20000;      // per-agent draws beyond this take the window below a few frames a second

// The scene's own settings; the rules' parameters are the flock's (sim::BoidsParams), CPU or GPU.
struct SceneSettings {
  int count;
  int sim;     // 0 CPU, 1 GPU
  int render;  // 0 instanced, 1 per-agent
  float agentSize;
};

class GpuScene : public scenes::Scene {
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

  ~GpuScene() override;  // gpu.cpp: the class's vtable is built there once

  void reset() override {
    keepConsistent();
    flock_.world = sim::flockWorldFor(size_t(s_.count), flock_.params.perceptionRadius);
    flock_.spawn(size_t(s_.count), seed);
    meanNeighbors_ = 0;
  }

  void step(float dt) override {
    const auto t0 = std::chrono::steady_clock::now();
    flock_.step(dt);
    cpuStepMs_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    meanNeighbors_ = flock_.meanNeighbors();
  }

  void draw(render::AgentBatch& agents, render::DebugDraw& debug) override {
    using namespace render;
    agents.shape = AgentShape::Arrow2D;
    agents.submission = s_.render == 1 ? AgentSubmission::PerAgent : AgentSubmission::Instanced;
    agents.instances.resize(shownCount());
    for (size_t i = 0; i < agents.instances.size(); ++i)
      agents.instances[i] = {glm::vec3(flock_.positions()[i], 0), glm::vec3(flock_.velocities()[i], 0), s_.agentSize, 0.0f, kCpuColor};
    debug.rect({0, 0}, flock_.world.size, rgba(70, 76, 90));
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
    out.push_back({"gpu_step_ms", gpuStepMs_});
    // The step of the simulation that runs now (CPU or GPU), for the claim comparing the two at one N;
    // and whether the "GPU" is a software rasteriser on these same CPU cores (llvmpipe).
    out.push_back({"sim_step_ms", gpuActive_ ? gpuStepMs_ : cpuStepMs_});
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

 protected:
  static constexpr uint32_t kCpuColor = render::rgba(200, 215, 235);

  // Per-agent draws stop at kPerAgentCap.
  size_t shownCount() const { return s_.render == 1 ? std::min(flock_.size(), size_t(kPerAgentCap)) : flock_.size(); }

  void keepConsistent() {
    sim::BoidsParams& p = flock_.params;
    p = p.normalized();
    // The cell is the search radius: the 3x3 block covers it on the CPU and the GPU alike.
    flock_.cellSize = p.searchRadius();
  }

  SceneSettings s_{};
  sim::Flock<2> flock_;
  double cpuStepMs_ = 0, meanNeighbors_ = 0;
  // Where the step runs and what the compute shaders' step took: the window side's to set (it holds the
  // GL context); a run without a window steps on the CPU and reports 0.
  bool gpuActive_ = false, softwareGl_ = false;
  double gpuStepMs_ = 0;
};

}  // namespace scenes::gpu
