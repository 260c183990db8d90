#include "scenes/gpu.hpp"

namespace scenes::gpu {

GpuScene::~GpuScene() = default;

namespace {
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

std::unique_ptr<scenes::Scene> create(scenes::SceneContext& context, uint64_t seed) {
  return std::make_unique<GpuScene>(context, seed);
}
[[maybe_unused]] bool registered = scenes::registerScene({"gpu", "GPU: instancing and compute", 7, &create});
}  // namespace

}  // namespace scenes::gpu
