// The finale's declared parameters beyond the sliders: the thread count and the density-aware weight
// curves (sep0..sep7, ali0..ali7, coh0..coh7), through --set, presets and into the simulation.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>
#include "scene_test_files.hpp"
#include "scene_under_test.hpp"
#include "scenes/scene.hpp"
#include "sim/models/finale.hpp"
#include "sim/core/parallel.hpp"

namespace {

constexpr int kSamples = sim::DensityWeights::kSamples;

struct FinaleScene : scenetest::SceneUnderTest {
  explicit FinaleScene(const std::vector<std::string>& assignments = {}) : SceneUnderTest("finale", assignments, 3) {}

  std::vector<double> values() const {
    std::vector<double> v;
    for (const scenes::Param& p : scene->params()) v.push_back(p.get());
    return v;
  }

  // Every metric but the wall-clock timings.
  std::vector<double> metrics() const {
    std::vector<sim::Metric> out;
    scene->metrics(out);
    std::vector<double> v;
    for (const sim::Metric& m : out)
      if (std::string(m.name) != "step_ms") v.push_back(m.value);
    return v;
  }
};

std::string curveName(const char* prefix, int b) { return prefix + std::to_string(b); }

using scenetest::tempPath;
using scenetest::writeFile;

// Curves unlike the defaults: a crush pushes hard, alignment flat, cohesion strong everywhere.
std::vector<std::string> changedCurves() {
  std::vector<std::string> a;
  for (int b = 0; b < kSamples; ++b) {
    a.push_back(curveName("sep", b) + "=" + std::to_string(0.5 + 0.25 * b));
    a.push_back(curveName("ali", b) + "=1.5");
    a.push_back(curveName("coh", b) + "=" + std::to_string(2.0 - 0.125 * b));
  }
  return a;
}

}  // namespace

TEST(FinaleScene, ThreadsIsADeclaredParameterWithTheMachineAsDefault) {
  FinaleScene s;
  const scenes::Param& threads = s.param("threads");
  EXPECT_EQ(threads.type, scenes::ParamType::Int);
  EXPECT_EQ(threads.defaultValue, float(sim::hardwareThreads()));
  EXPECT_EQ(threads.min, 1.0f);
  EXPECT_EQ(threads.max, 64.0f);  // not the core count: presets from bigger machines load anywhere
  EXPECT_FALSE(threads.noSlider);  // a generated slider
  EXPECT_EQ(threads.get(), double(sim::hardwareThreads()));
  EXPECT_NE(scenes::describeParams(s.scene->params()).find("threads "), std::string::npos);

  // --set threads=1 holds inside the finale's steps only: after one, every other scene finds the
  // count it had (it used to stay at 1 for every scene after leaving the finale).
  sim::setThreadCount(0);
  s.set({"threads=1"});
  s.scene->paramsChanged();
  s.run(1);
  EXPECT_EQ(sim::threadCount(), sim::hardwareThreads());
  std::string error;
  EXPECT_FALSE(scenes::setParamAssignment(s.scene->params(), "threads=0", error));
  EXPECT_FALSE(scenes::setParamAssignment(s.scene->params(), "threads=65", error));
  EXPECT_NE(error.find("outside"), std::string::npos) << error;
  // More threads than this machine has cores: accepted, and the step runs on all the cores.
  ASSERT_TRUE(scenes::setParamAssignment(s.scene->params(), "threads=64", error)) << error;
  s.scene->paramsChanged();
  s.run(1);
  EXPECT_EQ(sim::threadCount(), sim::hardwareThreads());
}

TEST(FinaleScene, CurvesAreParametersWithoutGeneratedSliders) {
  FinaleScene s;
  const sim::DensityWeights defaults;
  const std::string listed = scenes::describeParams(s.scene->params());
  for (int b = 0; b < kSamples; ++b) {
    for (auto [prefix, curve] : {std::pair{"sep", &defaults.separation}, std::pair{"ali", &defaults.alignment},
                                 std::pair{"coh", &defaults.cohesion}}) {
      const std::string name = curveName(prefix, b);
      const scenes::Param& p = s.param(name);
      EXPECT_EQ(p.type, scenes::ParamType::Float) << name;
      EXPECT_TRUE(p.noSlider) << name;
      EXPECT_EQ(p.defaultValue, (*curve)[size_t(b)]) << name;
      EXPECT_EQ(p.get(), double((*curve)[size_t(b)])) << name;
      EXPECT_EQ(p.min, 0.0f) << name;
      EXPECT_EQ(p.max, 3.0f) << name;  // the curve editor's range
      EXPECT_NE(listed.find("\n" + name + " "), std::string::npos) << name << " missing from --list-params";
    }
  }
}

TEST(FinaleScene, APresetWithChangedCurvesAndThreadsLoadsBackAndDrivesTheSimulation) {
  const int threads = sim::hardwareThreads() > 1 ? 1 : sim::hardwareThreads();  // off the default where it can be
  std::vector<std::string> changed = changedCurves();
  changed.insert(changed.end(), {"N=400", "weights=curves", "threads=" + std::to_string(threads)});
  FinaleScene saved(changed);
  const std::string path = tempPath("finale-curves.json");
  std::string error;
  ASSERT_TRUE(scenes::savePresetFile(saved.scene->params(), path, "finale", error)) << error;

  FinaleScene loaded({"N=400", "weights=curves"});
  ASSERT_NE(loaded.values(), saved.values());
  ASSERT_TRUE(scenes::loadPresetFile(loaded.scene->params(), path, "finale", error)) << error;
  EXPECT_EQ(loaded.values(), saved.values());
  EXPECT_EQ(loaded.param("threads").get(), double(threads));
  EXPECT_FLOAT_EQ(float(loaded.param("sep7").get()), 0.5f + 0.25f * 7);
  EXPECT_FLOAT_EQ(float(loaded.param("ali3").get()), 1.5f);
  EXPECT_FLOAT_EQ(float(loaded.param("coh4").get()), 1.5f);

  // The loaded curves reach the simulation: the same frames as the scene they were saved from, and
  // other frames than the default curves give.
  loaded.scene->paramsChanged();
  loaded.scene->reset();
  FinaleScene defaults({"N=400", "weights=curves"});
  saved.run(40);
  loaded.run(40);
  defaults.run(40);
  EXPECT_EQ(loaded.metrics(), saved.metrics());
  EXPECT_NE(loaded.metrics(), defaults.metrics());

  // "Reset to defaults" brings the curves back with everything else.
  scenes::applyDefaults(loaded.scene->params());
  const sim::DensityWeights d;
  EXPECT_EQ(loaded.param("sep7").get(), double(d.separation[7]));
  EXPECT_EQ(loaded.param("coh0").get(), double(d.cohesion[0]));
  sim::setThreadCount(0);
}

TEST(FinaleScene, ABadCurveValueIsRejectedWithAMessageAndNothingIsApplied) {
  FinaleScene s;
  const std::vector<double> before = s.values();
  const std::string path = tempPath("finale-bad-curve.json");
  struct Case { std::string text, mention; };
  // Each file also changes valid fields (threads, sep0): none of them may be applied.
  const std::vector<Case> cases = {
      {R"({"scene": "finale", "params": {"threads": 1, "sep0": 2.0, "coh3": 3.5}})", "field 'params.coh3': 3.5 is outside 0..3"},
      {R"({"params": {"sep0": 2.0, "ali6": -0.25}})", "field 'params.ali6'"},
      {R"({"params": {"threads": 1, "sep5": "strong"}})", "field 'params.sep5': expected a number"},
      {R"({"params": {"sep0": 2.0, "sep1": 1e300}})", "field 'params.sep1'"},
      // JSON has no NaN: a file that writes one is not JSON.
      {R"({"params": {"sep0": 2.0, "ali2": NaN}})", "invalid JSON"},
  };
  for (const Case& c : cases) {
    writeFile(path, c.text);
    std::string error;
    EXPECT_FALSE(scenes::loadPresetFile(s.scene->params(), path, "finale", error)) << c.text;
    EXPECT_NE(error.find(path), std::string::npos) << error;
    EXPECT_NE(error.find(c.mention), std::string::npos) << "'" << error << "' should mention " << c.mention;
    EXPECT_EQ(s.values(), before) << c.text;
  }

  // A NaN that reaches the loader in a document (not through text) is rejected by name too.
  nlohmann::json doc = {{"scene", "finale"},
                        {"params", {{"sep0", 2.0}, {"coh2", std::numeric_limits<double>::quiet_NaN()}}}};
  std::string error;
  EXPECT_FALSE(scenes::paramsFromJson(s.scene->params(), doc, "finale", error));
  EXPECT_NE(error.find("params.coh2"), std::string::npos) << error;
  EXPECT_NE(error.find("finite"), std::string::npos) << error;
  EXPECT_EQ(s.values(), before);

  // And through --set.
  for (const char* bad : {"sep3=nan", "ali0=inf", "coh7=3.01", "sep2=-1"}) {
    EXPECT_FALSE(scenes::setParamAssignment(s.scene->params(), bad, error)) << bad;
    EXPECT_NE(error.find(std::string(bad).substr(0, 4)), std::string::npos) << error;
  }
  EXPECT_EQ(s.values(), before);
}

// A lecturer's option: with no cursor over the world, the target wanders by itself and the crowd
// keeps moving; without it the crowd gathers at the still target and slows down.
TEST(FinaleScene, TheTargetWandersByItselfWhenAsked) {
  FinaleScene still({"N=1500"}), wandering({"N=1500", "wander=on"});
  still.run(600);
  wandering.run(600);
  EXPECT_GT(wandering.metric("mean_speed"), 1.5 * still.metric("mean_speed"));
  EXPECT_EQ(wandering.metric("overlaps_total"), 0.0) << "ORCA holds while the target moves";
}
