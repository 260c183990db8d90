// The GPU scene (the article's part 6)'s claims of the article, beside the scene: the registry (scenes/claims.hpp)
// gathers them for the experiment buttons, the banner, `crowdlab claims` and the tests.
#include <string>
#include <vector>
#include "scenes/claims.hpp"

namespace scenes {
namespace {

std::vector<Claim> gpuClaims() {
  std::vector<Claim> c;
  // Measured from frames the window draws (draw calls, CPU time submitting them, compute-shader steps):
  // experiment buttons and `crowdlab --claim ID`; `crowdlab claims` lists them as window-only. On
  // llvmpipe (software OpenGL) the "GPU" runs on the same CPU cores, so the compute claim cannot show there.
  // Timings decide by their fastest (Reduce::Min) of the 30 frames after a quarter second of warm-up:
  // the frame least disturbed by other work on the machine.
  c.push_back({"gpu.instanced", "gpu", "One instanced draw",
               "Instancing: one draw call for every agent", "", {"N=20000", "render=instanced", "sim=cpu"}, "", 0.5, 0.25,
               atMost("agent_submit_ms", Reduce::Min, 1e9), false});
  c.back().result = "All 20000 agents went out in {a0:0} draw call a frame: {v:2} ms of CPU time submitting";
  c.back().unit = "ms";
  c.back().also = {"agent_draw_calls"};
  c.back().needsWindow = true;
  c.back().cost = CostBasis::FastestTiming;
  c.push_back({"gpu.per-agent", "gpu", "One draw per agent",
               "One draw call per agent: the CPU drowns in submitting them", "", {"N=20000", "render=per-agent", "sim=cpu"},
               "", 0.5, 0.25, atLeast("agent_submit_ms", Reduce::Min, 10.0), false});
  c.back().relativeTo = "gpu.instanced";
  c.back().unit = "x the instanced draw's";
  c.back().result = "{a0:0} draw calls a frame took {v:0} times the CPU time of one instanced draw";
  c.back().also = {"agent_draw_calls"};
  c.back().needsWindow = true;
  c.back().cost = CostBasis::FastestTiming;
  c.push_back({"gpu.cpu-sim", "gpu", "Simulation on the CPU, N = 100000",
               "The CPU steps a big flock", "", {"N=100000", "sim=cpu", "render=instanced"}, "", 0.5, 0.25,
               atMost("sim_step_ms", Reduce::Min, 1e9), false});
  c.back().result = "The CPU stepped 100000 boids in {v:1} ms";
  c.back().unit = "ms/step";
  c.back().needsWindow = true;
  c.back().cost = CostBasis::FastestTiming;
  c.push_back({"gpu.gpu-sim", "gpu", "Simulation on the GPU, N = 100000",
               "Compute shaders step the same flock much faster than the CPU", "", {"N=100000", "sim=gpu", "render=instanced"},
               "", 0.5, 0.25, atMost("sim_step_ms", Reduce::Min, 0.5), false});
  c.back().relativeTo = "gpu.cpu-sim";
  c.back().unit = "x the CPU's step";
  c.back().result = "The compute shaders' step took {v:1} x the CPU's time (with software OpenGL such as llvmpipe the GPU is the CPU)";
  c.back().also = {"software_gl"};
  c.back().needsWindow = true;
  c.back().cost = CostBasis::FastestTiming;
  return c;
}

[[maybe_unused]] bool registered = registerClaims("gpu", &gpuClaims);

}  // namespace
}  // namespace scenes
