// Every registered scene's declared parameters point straight into the model's own parameter
// fields (or into the scene's own settings), so a value set by name is the value the model runs
// with; and every scene's metrics come by name, each name once.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <vector>
#include "scene_under_test.hpp"
#include "scenes/params.hpp"
#include "scenes/scene.hpp"

namespace {

using scenetest::SceneUnderTest;

bool holds(const scenes::ParamStorage& s, const void* field) {
  const auto begin = reinterpret_cast<uintptr_t>(s.data), at = reinterpret_cast<uintptr_t>(field);
  return at >= begin && at < begin + s.bytes;
}

const scenes::ParamStorage* storageOf(const std::vector<scenes::ParamStorage>& all, const void* field) {
  for (const scenes::ParamStorage& s : all)
    if (holds(s, field)) return &s;
  return nullptr;
}

// A valid value other than the current one: the other boolean, the next option, or a number half
// way to a bound (inside the range, clear of the clamps scenes apply between radii and speeds).
double otherValue(const scenes::Param& p) {
  const double now = p.get();
  switch (p.type) {
    case scenes::ParamType::Bool: return now != 0 ? 0 : 1;
    case scenes::ParamType::Enum: return std::fmod(now + 1, double(scenes::Param::optionCount(p.options)));
    case scenes::ParamType::Int:
    case scenes::ParamType::Float: break;
  }
  const double bound = now != p.min ? p.min : p.max;
  const double half = now + (bound - now) * 0.5;
  if (p.type == scenes::ParamType::Float) return half;
  return std::round(half) != now ? std::round(half) : bound;
}

// The text --set would take for value v of p.
std::string textOf(const scenes::Param& p, double v) {
  const double now = p.get();
  p.set(v);
  std::string text = p.valueText();
  p.set(now);
  return text;
}

std::vector<uint8_t> bytesOf(const scenes::ParamStorage& s) {
  const auto* b = static_cast<const uint8_t*>(s.data);
  return {b, b + s.bytes};
}

}  // namespace

TEST(SceneParams, EveryDeclaredParameterPointsIntoTheModelOrTheSceneSettings) {
  for (const auto& e : scenes::registeredScenes()) {
    SCOPED_TRACE(e.name);
    SceneUnderTest t(e.name);
    const std::vector<scenes::ParamStorage> storage = t.scene->paramStorage();
    int inModel = 0;
    for (const scenes::Param& p : t.scene->params()) {
      const scenes::ParamStorage* s = storageOf(storage, p.value);
      EXPECT_NE(s, nullptr) << p.name << " points outside the model's parameters and the scene's settings";
      inModel += s && s->ofModel;
    }
    EXPECT_GT(inModel, 0) << "no parameter reaches the model";
  }
}

TEST(SceneParams, ASetParameterReachesTheModelAfterParamsChanged) {
  for (const auto& e : scenes::registeredScenes()) {
    SCOPED_TRACE(e.name);
    SceneUnderTest t(e.name);
    const auto params = t.scene->params();
    const std::vector<scenes::ParamStorage> storage = t.scene->paramStorage();
    for (const scenes::Param& p : params) {
      const scenes::ParamStorage* s = storageOf(storage, p.value);
      if (!s || !s->ofModel) continue;
      const std::vector<uint8_t> before = bytesOf(*s);
      const double old = p.get();
      std::string error;
      ASSERT_TRUE(scenes::setParamAssignment(params, std::string(p.name) + "=" + textOf(p, otherValue(p)), error))
          << error;
      const double written = p.get();
      ASSERT_NE(written, old) << p.name;
      t.scene->paramsChanged();
      // The field the declaration points at is the model's own, so this is what the model reads.
      EXPECT_EQ(p.get(), written) << p.name << " was overwritten after the write";
      EXPECT_NE(bytesOf(*s), before) << p.name << ": the model's parameters did not change";
      scenes::applyDefaults(params);  // the next parameter starts from the defaults again
      t.scene->paramsChanged();
    }
  }
}

TEST(SceneParams, MetricsComeByNameEachOnce) {
  for (const auto& e : scenes::registeredScenes()) {
    SCOPED_TRACE(e.name);
    SceneUnderTest t(e.name);
    t.run(12);  // past the scenes that sample every 10 steps
    std::vector<sim::Metric> metrics;
    t.scene->metrics(metrics);
    EXPECT_FALSE(metrics.empty());
    std::set<std::string> names;
    for (const sim::Metric& m : metrics) {
      ASSERT_NE(m.name, nullptr);
      EXPECT_GT(std::strlen(m.name), 0u);
      EXPECT_TRUE(names.insert(m.name).second) << "metric " << m.name << " twice";
      EXPECT_EQ(sim::metricValue(metrics, m.name), m.value) << m.name;
    }
  }
}
