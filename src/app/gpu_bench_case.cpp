// Case gpu-boids: the gpu scene's flock stepped on the CPU (sim::Flock<2>, grid, all threads) and in
// OpenGL 4.3 compute shaders (render::GpuBoids), same N, parameters and starting state. It lives in
// the app, not in src/bench, because it needs a GL context (bench stays sim-only, see docs/design.md);
// it opens a hidden window, says so in one line when it cannot, and runs only when asked by name.
//
// Rows: mode "cpu" and "gpu"; extra holds grid_ms (grid build) and rules_ms (rules + integrate).
// GPU: ms/step is the median of the timestamp queries around a whole step; the split comes from a
// second run of steps that waits for the GPU between the halves (wall clock), because llvmpipe
// takes its timestamps lazily and would put the whole step in one half. CPU: the grid from timing
// UniformGrid::build on the same positions, rules the rest. cpu_over_gpu says which side won.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>
#include "app/window.hpp"
#include "bench/bench.hpp"
#include "render/gl.hpp"
#include "render/gpu_boids.hpp"
#include "render/renderer.hpp"
#include "sim/core/parallel.hpp"
#include "sim/models/flock.hpp"

namespace {

constexpr float kRadius = 50.0f;
constexpr float kDt = 1.0f / 60.0f;
constexpr uint64_t kSeed = 2024;

sim::Flock<2> makeFlock(size_t n) {
  sim::Flock<2> f;
  f.world = sim::flockWorldFor(n, kRadius);
  f.method = sim::NeighborMethod::Grid;
  f.params.perceptionRadius = kRadius;
  f.cellSize = kRadius;
  f.spawn(n, kSeed);
  return f;
}

// Fewer steps for big N (a CPU step at 1M takes a good fraction of a second): about 2e7 agent-steps,
// at least 5, never more than --steps asked for (`--steps 1` is one step).
bench::Options scaledOptions(const bench::Options& o, size_t n) {
  bench::Options s = o;
  s.steps = std::min(o.steps, std::max(5, int(2e7 / double(n))));
  s.warmup = std::min(o.warmup, 3);
  return s;
}

std::string extra(double gridMs, double rulesMs, const char* more = "") {
  char buf[160];
  std::snprintf(buf, sizeof buf, "grid_ms=%.3f;rules_ms=%.3f%s", gridMs, rulesMs, more);
  return buf;
}

bench::Row cpuRow(const bench::Options& o, size_t n) {
  const int threads = sim::threadCount();
  bench::startRow(threads);
  sim::Flock<2> flock = makeFlock(n);
  sim::UniformGrid<2> grid;
  std::vector<double> gridSamples;
  uint64_t neighbors = 0;
  const double ms = bench::timeSteps(o, [&](bool measured) {
    if (measured) {  // the grid build alone, on the positions the step is about to use
      const auto t0 = std::chrono::steady_clock::now();
      grid.build(flock.positions(), flock.world, flock.cellSize);
      gridSamples.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    flock.step(kDt);
    if (measured) neighbors += flock.lastNeighbors();
  });
  const double gridMs = bench::medianMs(gridSamples);
  bench::Row r;
  r.caseName = "gpu-boids";
  r.n = n;
  r.mode = "cpu";
  r.threads = threads;
  r.steps = o.steps;
  r.medianMsPerStep = ms;
  r.neighborsPerAgent = double(neighbors) / (double(n) * double(o.steps));
  r.extra = extra(gridMs, std::max(0.0, ms - gridMs));
  return r;
}

bench::Row gpuRow(const bench::Options& o, size_t n, render::GpuBoids& gpu) {
  sim::Flock<2> flock = makeFlock(n);
  gpu.upload(flock.positions(), flock.velocities(), flock.ids(), flock.world, flock.cellSize);
  std::vector<double> grid, rules, total;
  // Each step waits for its own timer queries: nothing else is queued, so the figures are the step's.
  const double wallMs = bench::timeSteps(o, [&](bool measured) {
    gpu.step(flock.params, kDt);
    const render::GpuBoids::Timings t = gpu.finishTimings();
    if (measured) total.push_back(t.totalMs());
  });
  bench::timeSteps(o, [&](bool measured) {
    render::GpuBoids::Timings split;
    gpu.step(flock.params, kDt, &split);
    gpu.finishTimings();
    if (!measured) return;
    grid.push_back(split.gridMs);
    rules.push_back(split.rulesMs);
  });
  bench::Row r;
  r.caseName = "gpu-boids";
  r.n = n;
  r.mode = "gpu";
  r.threads = 1;
  r.steps = o.steps;
  r.medianMsPerStep = bench::medianMs(total);
  char wall[48];
  std::snprintf(wall, sizeof wall, ";wall_ms=%.3f", wallMs);
  r.extra = extra(bench::medianMs(grid), bench::medianMs(rules), wall);
  return r;
}

void runGpuBoids(const bench::Options& o, std::vector<bench::Row>& rows) {
  if (o.caseName.empty()) {
    std::printf("gpu-boids: skipped (needs an OpenGL 4.3 context; run it with --case gpu-boids)\n");
    return;
  }
  const std::vector<size_t> ns = o.n.empty() ? std::vector<size_t>{100000, 1000000} : o.n;
  std::string error;
  const bool opened = app::withHiddenGlContext([&] {
    const render::ComputeSupport support = render::computeSupport();
    if (!support.available) {
      error = support.reason;
      return;
    }
    render::GpuBoids gpu;
    if (!gpu.init(error)) return;
    std::printf("gpu-boids on %s\n", render::Renderer::glInfo().c_str());
    for (size_t n : ns) {
      const bench::Options s = scaledOptions(o, n);
      bench::Row cpu = cpuRow(s, n);
      bench::Row g = gpuRow(s, n, gpu);
      char ratio[48];
      std::snprintf(ratio, sizeof ratio, ";cpu_over_gpu=%.2f", cpu.medianMsPerStep / g.medianMsPerStep);
      cpu.extra += ratio;
      rows.push_back(cpu);
      rows.push_back(g);
    }
  }, error);
  if (!opened || !error.empty())
    std::printf("gpu-boids: needs an OpenGL 4.3 context (a window or EGL) and has none here: %s\n", error.c_str());
}

const bool registered = bench::registerCase(
    {"gpu-boids", "the gpu scene's flock on CPU threads vs OpenGL 4.3 compute shaders (needs a GL context)", &runGpuBoids, 192});

}  // namespace
