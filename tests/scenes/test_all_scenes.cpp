// Checks every registered scene, so each new scene is covered the day it lands: headless stepping,
// one agent instance per agent, finite metrics, deterministic replays, presets and bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <nlohmann/json.hpp>
#include "scene_test_files.hpp"
#include "scene_under_test.hpp"
#include "scenes/scene.hpp"
#include "sim/core/metric.hpp"

namespace {

using scenetest::SceneUnderTest;

std::vector<double> paramValues(scenes::Scene& s) {
  std::vector<double> v;
  for (const scenes::Param& p : s.params()) v.push_back(p.get());
  return v;
}

using scenetest::tempPath;
using scenetest::writeFile;

}  // namespace

TEST(AllScenes, TheBoidsPlaygroundIsRegistered) {
  EXPECT_NE(scenes::findScene("boids"), nullptr);
  auto list = scenes::registeredScenes();
  for (size_t i = 1; i < list.size(); ++i) EXPECT_LT(list[i - 1].order, list[i].order);
}

TEST(AllScenes, StepAndDrawOneInstancePerAgent) {
  for (const auto& e : scenes::registeredScenes()) {
    SCOPED_TRACE(e.name);
    SceneUnderTest t(e.name);
    for (int i = 0; i < 20; ++i) t.scene->step(1.0f / 60.0f);
    render::AgentBatch batch;
    render::DebugDraw debug;
    t.scene->draw(batch, debug);
    EXPECT_EQ(batch.instances.size(), t.scene->agentCount());
    EXPECT_GT(t.scene->agentCount(), 0u);
    std::vector<sim::Metric> metrics;
    t.scene->metrics(metrics);
    EXPECT_FALSE(metrics.empty());
    for (const auto& m : metrics) EXPECT_TRUE(std::isfinite(m.value)) << m.name;
    for (const auto& inst : batch.instances) {
      ASSERT_TRUE(std::isfinite(inst.position.x) && std::isfinite(inst.position.y) && std::isfinite(inst.position.z));
    }
  }
}

TEST(AllScenes, SameSeedSameMetrics) {
  for (const auto& e : scenes::registeredScenes()) {
    SCOPED_TRACE(e.name);
    SceneUnderTest a(e.name, {}, 9), b(e.name, {}, 9);
    for (int i = 0; i < 60; ++i) { a.scene->step(1.0f / 60.0f); b.scene->step(1.0f / 60.0f); }
    std::vector<sim::Metric> ma, mb;
    a.scene->metrics(ma);
    b.scene->metrics(mb);
    ASSERT_EQ(ma.size(), mb.size());
    for (size_t i = 0; i < ma.size(); ++i) {
      std::string name = ma[i].name;
      if (name.size() > 3 && name.compare(name.size() - 3, 3, "_ms") == 0) continue;  // timings (step_ms) vary by run
      EXPECT_EQ(ma[i].value, mb[i].value) << ma[i].name;
    }
  }
}

// Every metric a scene emits is described once, beside the code that emits it: a label for the
// sweep plots' axes and the HUD, and a plot range where one is fixed.
TEST(AllScenes, EveryMetricIsDescribed) {
  for (const auto& e : scenes::registeredScenes()) {
    SCOPED_TRACE(e.name);
    SceneUnderTest t(e.name);
    for (int i = 0; i < 3; ++i) t.scene->step(1.0f / 60.0f);
    std::vector<sim::Metric> metrics;
    t.scene->metrics(metrics);
    for (const sim::Metric& m : metrics) {
      const sim::MetricInfo* info = sim::metricInfo(m.name);
      ASSERT_NE(info, nullptr) << m.name << " has no sim::MetricInfo";
      EXPECT_TRUE(*info->label) << m.name;
      EXPECT_LE(info->plotLo, info->plotHi) << m.name;
    }
  }
  EXPECT_EQ(sim::metricInfo("no_such_metric"), nullptr);
  EXPECT_EQ(sim::metricTitle("no_such_metric"), "no_such_metric");
  EXPECT_EQ(sim::metricTitle("throughput_per_min"), "throughput (agents per minute)");
}

// The panel shows the lede above the fold, in front of the class; the rest waits behind "More".
TEST(AllScenes, AboutIsALedeOfAtMost25WordsWithTheRestBehindMore) {
  for (const auto& e : scenes::registeredScenes()) {
    SCOPED_TRACE(e.name);
    SceneUnderTest t(e.name);
    std::istringstream lede(t.scene->about);
    size_t words = 0;
    for (std::string w; lede >> w;) ++words;
    EXPECT_GT(words, 0u);
    EXPECT_LE(words, 25u) << t.scene->about;
    EXPECT_TRUE(*t.scene->aboutMore) << "the rest of the text: what to try, what crowdlab finds";
  }
}

TEST(AllScenes, EveryDefaultIsInsideItsRange) {
  for (const auto& e : scenes::registeredScenes()) {
    SceneUnderTest t(e.name);
    for (const scenes::Param& p : t.scene->params()) {
      EXPECT_GE(p.defaultValue, p.min) << e.name << "." << p.name;
      EXPECT_LE(p.defaultValue, p.max) << e.name << "." << p.name;
      EXPECT_TRUE(p.tooltip && *p.tooltip) << e.name << "." << p.name << " needs a tooltip";
    }
  }
}

TEST(AllScenes, PresetSaveThenLoadRestoresEveryParameter) {
  for (const auto& e : scenes::registeredScenes()) {
    SCOPED_TRACE(e.name);
    SceneUnderTest t(e.name);
    auto params = t.scene->params();
    // Move every parameter off its default (to its max, or to its min where the max is the default, as
    // for the finale's threads), save, reset to defaults, load. Only a range of one value (threads on a
    // one-core machine) stays put.
    for (const scenes::Param& p : params) p.set(p.defaultValue != p.max ? p.max : p.min);
    std::vector<double> saved = paramValues(*t.scene);
    std::string path = tempPath(std::string(e.name) + ".json"), error;
    ASSERT_TRUE(scenes::savePresetFile(params, path, e.name, error)) << error;
    scenes::applyDefaults(params);
    ASSERT_NE(paramValues(*t.scene), saved);
    ASSERT_TRUE(scenes::loadPresetFile(params, path, e.name, error)) << error;
    EXPECT_EQ(paramValues(*t.scene), saved);
  }
}

TEST(AllScenes, BadPresetsLeaveTheSceneUnchangedAndNameTheProblem) {
  for (const auto& e : scenes::registeredScenes()) {
    SCOPED_TRACE(e.name);
    SceneUnderTest t(e.name);
    auto params = t.scene->params();
    const scenes::Param& first = params[0];
    std::string firstName = first.name;
    std::string numberField = firstName, numberDefault = "0";
    for (const scenes::Param& p : params)
      if (p.type == scenes::ParamType::Float) { numberField = p.name; numberDefault = std::to_string(p.defaultValue); break; }
    std::vector<double> before = paramValues(*t.scene);
    const std::string path = tempPath("bad.json");
    struct Case { std::string text, mention; };
    std::vector<Case> cases = {
        {"{ \"params\": { ", "invalid JSON"},
        {"", "empty"},
        {"[1,2]", "expected a JSON object"},
        {"{\"params\": {\"noSuchField\": 1}}", "unknown field 'params.noSuchField'"},
        {"{\"params\": {\"" + numberField + "\": \"fast\"}}", numberField},
        {"{\"params\": {\"" + numberField + "\": 1e30}}", "outside"},
        {"{\"params\": {\"" + numberField + "\": " + numberDefault + ", \"noSuchField\": 2}}", "noSuchField"},
        {"{\"scene\": \"not-this-one\", \"params\": {}}", "not-this-one"},
        {"{\"extra\": true, \"params\": {}}", "unknown field 'extra'"},
    };
    for (const Case& c : cases) {
      writeFile(path, c.text);
      std::string error;
      EXPECT_FALSE(scenes::loadPresetFile(params, path, e.name, error)) << c.text;
      EXPECT_NE(error.find(path), std::string::npos) << error;
      EXPECT_NE(error.find(c.mention), std::string::npos) << "'" << error << "' should mention " << c.mention;
      EXPECT_EQ(paramValues(*t.scene), before) << c.text;
    }
    std::string error;
    EXPECT_FALSE(scenes::loadPresetFile(params, tempPath("does-not-exist.json"), e.name, error));
    EXPECT_NE(error.find("cannot open"), std::string::npos);
  }
}

// A failed write leaves the old file intact (AtomicFile.AFailedWriteKeepsTheOldFileAndNamesTheTarget);
// and whatever sits at the old, predictable temporary name (here a folder) neither blocks a save nor
// is touched by it: the temporary's name is unpredictable.
TEST(Presets, ASaveIgnoresWhateverSitsAtTheOldTemporaryName) {
  auto entry = scenes::findScene("boids");
  ASSERT_NE(entry, nullptr);
  SceneUnderTest t(entry->name);
  std::string path = tempPath("keep.json"), error;
  ASSERT_TRUE(scenes::savePresetFile(t.scene->params(), path, "boids", error)) << error;
  std::filesystem::create_directories(path + ".tmp/inside");
  t.scene->params()[0].set(t.scene->params()[0].max);
  EXPECT_TRUE(scenes::savePresetFile(t.scene->params(), path, "boids", error)) << error;
  EXPECT_TRUE(std::filesystem::is_directory(path + ".tmp/inside"));
  std::filesystem::remove_all(path + ".tmp");
  SceneUnderTest loaded(entry->name);
  ASSERT_TRUE(scenes::loadPresetFile(loaded.scene->params(), path, "boids", error)) << error;
  EXPECT_EQ(loaded.scene->params()[0].get(), t.scene->params()[0].max);
}

TEST(Params, SetFromTextValidates) {
  float f = 1;
  int n = 5;
  bool b = false;
  int mode = 0;
  std::vector<scenes::Param> ps = {scenes::Param::f("w", "w", &f, 0, 3, 1, "t"), scenes::Param::i("N", "N", &n, 1, 10, 5, "t"),
                                   scenes::Param::b("on", "on", &b, false, "t"),
                                   scenes::Param::e("mode", "mode", &mode, "brute|grid", 0, "t")};
  std::string err;
  EXPECT_TRUE(scenes::setParamAssignment(ps, "w=2.5", err));
  EXPECT_FLOAT_EQ(f, 2.5f);
  EXPECT_FALSE(scenes::setParamAssignment(ps, "w=3.5", err));
  EXPECT_FLOAT_EQ(f, 2.5f);
  EXPECT_FALSE(scenes::setParamAssignment(ps, "w=inf", err));
  EXPECT_FALSE(scenes::setParamAssignment(ps, "w=2x", err));
  EXPECT_FALSE(scenes::setParamAssignment(ps, "N=2.5", err));
  EXPECT_NE(err.find("whole number"), std::string::npos);
  EXPECT_TRUE(scenes::setParamAssignment(ps, "on=true", err));
  EXPECT_TRUE(b);
  EXPECT_FALSE(scenes::setParamAssignment(ps, "on=maybe", err));
  EXPECT_TRUE(scenes::setParamAssignment(ps, "mode=grid", err));
  EXPECT_EQ(mode, 1);
  EXPECT_FALSE(scenes::setParamAssignment(ps, "mode=kdtree", err));
  EXPECT_NE(err.find("brute|grid"), std::string::npos);
}
