// `crowdlab --headless`: a scene's simulation without a window; prints its final metrics.
#include <algorithm>
#include <csignal>
#include <nlohmann/json.hpp>
#include <cstdio>
#include <vector>
#include "app/metrics_log.hpp"
#include "app/recording.hpp"
#include "app/settings.hpp"
#include "app/run_modes.hpp"
#include "app/stop_signals.hpp"
#include "io/atomic_file.hpp"
#include "io/output_file.hpp"
#include "io/user_files.hpp"
#include "scenes/driver.hpp"
#include "scenes/scene_window.hpp"
#include "sim/core/parallel.hpp"

namespace app {

scenes::ExperimentSetup sceneSetup(const std::string& name, const Options& o) {
  return {name, "", o.sets, "", o.preset};
}

std::unique_ptr<scenes::Scene> makeScene(const std::string& name, const Options& o, scenes::SceneContext& ctx,
                                         std::string& error) {
  const scenes::SceneEntry* entry = scenes::findScene(name);
  if (!entry) {
    error = "unknown scene " + io::quoteText(name) + " (scenes: " + scenes::sceneNames() + ")";
    return nullptr;
  }
  std::unique_ptr<scenes::Scene> scene = scenes::createForWindow(*entry, ctx, o.seed);
  // Every new scene starts on the thread count the user chose (all cores); a scene's own setting,
  // like the finale's `threads`, holds only inside its steps.
  sim::setThreadCount(0);
  if (!scenes::startSetup(*scene, sceneSetup(name, o), error)) return nullptr;
  return scene;
}

bool openWindowOutputs(const Options& o, WindowOutputs& out, std::string& error) {
  // Opened, not only probed: a FIFO is opened now (without blocking), so one nobody reads fails here.
  if (!o.stateOut.empty() && !out.state.open(o.stateOut, {}, error)) return false;
  if (!o.screenshot.empty() && !out.screenshot.open(o.screenshot, {}, error)) return false;
  if (!o.recordDir.empty() && (!recordingFolderFree(o.recordDir, error) || !makeDirectories(o.recordDir, error)))
    return false;
  return true;
}

std::string resolveSceneName(const Options& o, const Settings& settings, std::string& warning) {
  if (!o.scene.empty()) return o.scene;  // makeScene names it if it is unknown
  if (!settings.lastScene.empty()) {
    if (scenes::findScene(settings.lastScene)) return settings.lastScene;
    warning = settingsPath() + ": unknown lastScene " + io::quoteText(settings.lastScene) + "; opening " +
              kDefaultScene;
  }
  return kDefaultScene;
}

namespace {
// --state-out of a headless run: the parameters (as a preset holds them), the steps, the simulated
// time, the agents and the final metrics, as the window's state file names them.
std::string headlessStateJson(scenes::Scene& scene, const std::string& sceneName, int steps, double simTime,
                              const std::vector<sim::Metric>& metrics) {
  nlohmann::json j = scenes::paramsToJson(scene.params(), sceneName);
  j["steps"] = steps;
  j["sim_time"] = simTime;
  j["agents"] = scene.agentCount();
  nlohmann::json values = nlohmann::json::object();
  for (const sim::Metric& m : metrics) values[m.name] = m.value;
  j["metrics"] = values;
  return j.dump();
}

}  // namespace

int runHeadless(const Options& o) {
  std::string error;
  sim::setThreadCount(0);  // the user's choice (all cores), as the window's scenes start
  scenes::SceneDriver driver;
  if (!driver.prepare(sceneSetup(o.scene, o), o.seed, error)) {
    std::fprintf(stderr, "crowdlab: %s\n%s", error.c_str(), usage().c_str());
    return 2;
  }
  scenes::Scene* scene = &driver.scene();
  // The GPU scene's compute shaders need a window: a headless run steps the same flock on the CPU,
  // and says so rather than quietly.
  for (const scenes::Param& p : scene->params())
    if (o.scene == "gpu" && std::string(p.name) == "sim" && p.get() != 0)
      std::fprintf(stderr, "crowdlab: sim=gpu needs a window (OpenGL compute shaders); this headless run steps the "
                           "flock on the CPU (gpu_sim=0)\n");
  // Both files are opened before the run: a path that cannot be written costs no waiting.
  MetricsCsvStream csv;
  io::OutputFile state;
  if ((!o.metricsCsv.empty() && !csv.open(o.metricsCsv, error)) ||
      (!o.stateOut.empty() && !state.open(o.stateOut, {}, error))) {
    std::fprintf(stderr, "crowdlab: %s\n", error.c_str());
    return 1;
  }
  if (!io::distinctOutputs({{"--metrics-csv", &csv.file()}, {"--state-out", &state}}, error)) {
    std::fprintf(stderr, "crowdlab: %s\n", error.c_str());
    csv.discard();
    return 2;
  }
  // SIGINT / SIGTERM during the run: the step under way finishes, its row is written, the CSV is
  // flushed and closed, and the run ends with 128 + the signal. A second signal ends it at once (the
  // file still holds whole rows only: they are written whole).
  const StopSignals stops{SIGINT, SIGTERM, SIGHUP};  // until the run's files are written
  const std::atomic<bool>& stopRequested = StopSignals::stopRequested();
  std::vector<double> stepMs;
  constexpr size_t kMaxStepSamples = 1 << 16;
  int stride = 1;
  const int stepsRun = driver.advance(o.steps, [&](const scenes::StepTaken& taken) {
    // Every `stride`-th step time, halving the samples when they reach the cap: memory stays bounded
    // on a run of --steps 100000000, and the median still spans the whole run.
    if (taken.step % stride == 0) stepMs.push_back(taken.stepMs);
    if (stepMs.size() >= kMaxStepSamples) {
      for (size_t k = 0; k < stepMs.size() / 2; ++k) stepMs[k] = stepMs[2 * k + 1];
      stepMs.resize(stepMs.size() / 2);
      stride *= 2;
    }
    if (csv.isOpen()) {
      csv.write(uint64_t(taken.step), taken.simTime, driver.metrics());
    }
    return !stopRequested.load();
  });
  const std::span<const sim::Metric> last = driver.metrics();
  const std::vector<sim::Metric> metrics(last.begin(), last.end());
  std::printf("scene=%s\nsteps=%d\nagents=%zu\n", o.scene.c_str(), stepsRun, scene->agentCount());
  std::sort(stepMs.begin(), stepMs.end());
  std::printf("step_ms_median=%.4f\n", stepMs.empty() ? 0.0 : stepMs[stepMs.size() / 2]);
  for (const sim::Metric& m : metrics) std::printf("%s=%.6g\n", m.name, m.value);
  std::fflush(stdout);
  int code = 0;
  if (!csv.close(error)) {
    std::fprintf(stderr, "crowdlab: %s\n", error.c_str());
    code = 1;
  }
  if (state.isOpen()) {
    state.write(headlessStateJson(*scene, o.scene, stepsRun, driver.simTime(), metrics) + "\n");
    if (!state.commit(error)) {
      std::fprintf(stderr, "crowdlab: %s\n", error.c_str());
      code = 1;
    }
  }
  if (const int stopSignal = StopSignals::received()) {
    std::fprintf(stderr, "crowdlab: stopped by %s after step %d of %d%s\n", stopSignal == SIGINT    ? "SIGINT"
                                                                       : stopSignal == SIGTERM ? "SIGTERM"
                                                                                               : "SIGHUP",
                 stepsRun, o.steps, o.metricsCsv.empty() ? "" : "; the CSV holds every step up to it, whole rows only");
    return 128 + stopSignal;
  }
  return code;
}

}  // namespace app
