// `crowdlab --headless`: a scene's simulation without a window; prints its final metrics.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>
#include "app/metrics_log.hpp"
#include "app/settings.hpp"
#include "app/setup.hpp"
#include "scenes/user_input.hpp"
#include "sim/core/parallel.hpp"

namespace app {

std::unique_ptr<scenes::Scene> makeScene(const std::string& name, const Options& o, scenes::SceneContext& ctx,
                                         std::string& error) {
  const scenes::SceneEntry* entry = scenes::findScene(name);
  if (!entry) {
    error = "unknown scene " + scenes::quoteText(name) + " (scenes: " + scenes::sceneNames() + ")";
    return nullptr;
  }
  std::unique_ptr<scenes::Scene> scene = entry->create();
  scene->seed = o.seed;
  scene->ctx = &ctx;
  if (!o.preset.empty() && !scenes::loadPresetFile(scene->params(), o.preset, name, error)) return nullptr;
  for (const std::string& s : o.sets)
    if (!scenes::setParamAssignment(scene->params(), s, error)) return nullptr;
  scene->paramsChanged();
  // Every new scene starts on the thread count the user chose (all cores); a scene's own setting,
  // like the finale's `threads`, holds only inside its steps.
  sim::setThreadCount(0);
  scene->reset();
  return scene;
}

std::string resolveSceneName(const Options& o, const Settings& settings, std::string& warning) {
  if (!o.scene.empty()) return o.scene;  // makeScene names it if it is unknown
  if (!settings.lastScene.empty()) {
    if (scenes::findScene(settings.lastScene)) return settings.lastScene;
    warning = settingsPath() + ": unknown lastScene " + scenes::quoteText(settings.lastScene) + "; opening " +
              kDefaultScene;
  }
  return kDefaultScene;
}

int runHeadless(const Options& o) {
  scenes::SceneContext ctx;
  std::string error;
  std::unique_ptr<scenes::Scene> scene = makeScene(o.scene, o, ctx, error);
  if (!scene) {
    std::fprintf(stderr, "crowdlab: %s\n%s", error.c_str(), usage().c_str());
    return 2;
  }
  MetricsCsvStream csv;  // opened before the run: a path that cannot be written costs no waiting
  if (!o.metricsCsv.empty() && !csv.open(o.metricsCsv, error)) {
    std::fprintf(stderr, "crowdlab: %s\n", error.c_str());
    return 1;
  }
  const float dt = 1.0f / 60.0f;
  std::vector<sim::Metric> metrics;
  std::vector<double> stepMs;
  constexpr size_t kMaxStepSamples = 1 << 16;
  int stride = 1;
  for (int s = 1; s <= o.steps; ++s) {
    const auto t0 = std::chrono::steady_clock::now();
    scene->step(dt);
    // Every `stride`-th step time, halving the samples when they reach the cap: memory stays bounded
    // on a run of --steps 100000000, and the median still spans the whole run.
    if (s % stride == 0) stepMs.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    if (stepMs.size() >= kMaxStepSamples) {
      for (size_t k = 0; k < stepMs.size() / 2; ++k) stepMs[k] = stepMs[2 * k + 1];
      stepMs.resize(stepMs.size() / 2);
      stride *= 2;
    }
    scene->sampleMetrics();
    ctx.simTime += dt;
    if (csv.isOpen()) {
      metrics.clear();
      scene->metrics(metrics);
      csv.write(uint64_t(s), ctx.simTime, metrics);
    }
  }
  metrics.clear();
  scene->metrics(metrics);
  std::printf("scene=%s\nsteps=%d\nagents=%zu\n", o.scene.c_str(), o.steps, scene->agentCount());
  std::sort(stepMs.begin(), stepMs.end());
  std::printf("step_ms_median=%.4f\n", stepMs[stepMs.size() / 2]);
  for (const sim::Metric& m : metrics) std::printf("%s=%.6g\n", m.name, m.value);
  if (!csv.close(error)) {
    std::fprintf(stderr, "crowdlab: %s\n", error.c_str());
    return 1;
  }
  return 0;
}

}  // namespace app
