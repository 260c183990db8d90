// Every registered scene's declared parameters point into the model's own parameter
// fields (or into the scene's own settings), so a value set by name is the value the model runs
// with; and every scene's metrics come by name, each name once.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>
#include "render/agent_batch.hpp"
#include "render/debug_draw.hpp"
#include "scene_under_test.hpp"
#include "scenes/digest.hpp"
#include "scenes/params.hpp"
#include "scenes/scene.hpp"

namespace {

using scenetest::SceneUnderTest;

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

}  // namespace

// The base appends what every scene has (agentScale, a scene setting) after the scene's own
// declarations, once; each scene declares at least one parameter of its model.
TEST(SceneParams, TheBaseAppendsAgentScaleAndEverySceneReachesItsModel) {
  for (const auto& e : scenes::registeredScenes()) {
    SCOPED_TRACE(e.name);
    SceneUnderTest t(e.name);
    const auto params = t.scene->params();
    ASSERT_FALSE(params.empty());
    EXPECT_STREQ(params.back().name, "agentScale");
    EXPECT_EQ(params.back().value, static_cast<void*>(&t.scene->drawSizes.agentScale));
    EXPECT_FALSE(params.back().ofModel);
    int inModel = 0, agentScales = 0;
    std::set<std::string> names;
    for (const scenes::Param& p : params) {
      inModel += p.ofModel;
      agentScales += std::string(p.name) == "agentScale";
      EXPECT_TRUE(names.insert(p.name).second) << p.name << " declared twice";
    }
    EXPECT_EQ(agentScales, 1);
    EXPECT_GT(inModel, 0) << "no parameter reaches the model";
  }
}

// Each parameter of the model changes what the agents do or what is measured of them: the same
// seed run with the parameter moved ends with other agents (their digest) or other metrics than
// the run without. Behaviour, not plumbing: a declaration pointing at a field the model never reads
// fails here. A parameter that acts only in a mode, or only later, is moved in that context (both
// runs get the context), listed below with its reason.
TEST(SceneParams, EachModelParameterChangesWhatTheAgentsDo) {
  struct Context {
    Context(std::vector<std::string> s = {}, int n = 40, std::string v = "") : sets(std::move(s)), steps(n), value(std::move(v)) {}
    std::vector<std::string> sets;
    int steps;
    std::string value;  // the value it is moved to ("": half way to a bound, otherValue)
  };
  const std::vector<std::string> falcon = {"alarmEvery=0.5"};  // a falcon at 0.5 s, so its settings act
  const std::map<std::string, Context> contexts = {
      {"murmuration.radius", {{"neighbors=metric"}}},  // the metric mode's radius
      {"murmuration.groupLink", {{"k=1"}, 300}},      // a measure only: groups once k = 1 breaks the flock
      {"murmuration.falconSeconds", {falcon, 240}},
      {"murmuration.sight", {falcon, 120}},
      {"murmuration.reaction", {falcon, 120}},
      {"murmuration.fearSeconds", {falcon, 240}},
      {"murmuration.quorum", {falcon, 120}},
      {"boids.fovAngle", {{"fov=true"}}},
      {"boids.separateRadii", {{"alignRadius=27.5"}}},  // radii of their own only once they differ
      {"boids.alignRadius", {{"separateRadii=true"}}},
      {"boids.cohRadius", {{"separateRadii=true"}}},
      {"spatial-hash.search", {{"cellSize=10"}}},  // cells smaller than the radius: 3x3 misses some
      {"orca-corridor.neighborDist", {{}, 300, "20"}},  // the groups meet later; the nearest 10 lie within 85
      {"steering.seek", {{"arrive=false"}}},
      {"steering.wSeek", {{"arrive=false"}}},
      {"steering.shape", {{"formation=true"}}},
      {"steering.spacing", {{"formation=true"}}},
      {"steering.wFormation", {{"formation=true"}}},
      {"steering.wanderRadius", {{"wander=true"}}},
      {"steering.wanderDistance", {{"wander=true"}}},
      {"steering.wanderJitter", {{"wander=true"}}},
      {"steering.wWander", {{"wander=true"}}},
      {"steering.fleeRadius", {{"flee=true"}}},
      {"steering.wFlee", {{"flee=true"}}},
      {"steering.prediction", {{"pursue=true"}}},
      {"steering.quarrySpeed", {{"pursue=true"}}},
      {"steering.wPursue", {{"pursue=true"}}},
      {"steering.wEvade", {{"evade=true"}}},
      {"steering.wContain", {{"wander=true", "arrive=false", "containMargin=200"}, 600}},  // wanderers near the edge
      {"finale.lodRadius", {{"lod=true"}}},
      {"pedestrians.people", {{"setup=bottleneck"}}},
      {"pedestrians.doorWidth", {{"setup=bottleneck"}, 240}},  // once the first reach the door
      {"pedestrians.tau", {{"method=orca"}}},
      {"pedestrians.warmup", {{}, 40, "0.2"}},  // the measurement opens within the run
  };
  auto contextOf = [&](const std::string& scene, const std::string& param) {
    if (auto it = contexts.find(scene + "." + param); it != contexts.end()) return it->second;
    if (scene == "finale" && param.rfind("nn", 0) == 0) return Context({"weights=learned"});  // the network's weights
    if (scene == "finale" && (param == "densityStep" || param.rfind("sep", 0) == 0 || param.rfind("ali", 0) == 0 ||
                              param.rfind("coh", 0) == 0))
      return Context({"weights=curves"});  // the hand-drawn curves
    return Context();
  };
  // The agents as drawn, and every metric, after the steps.
  auto outcome = [&](const std::string& scene, std::vector<std::string> sets, int steps) {
    SceneUnderTest t(scene.c_str(), sets, 1);
    t.run(steps);
    render::AgentBatch batch;
    render::DebugDraw debug;
    t.scene->draw(batch, debug);
    std::vector<sim::Metric> metrics;
    t.scene->metrics(metrics);
    std::string all = scenes::agentsDigest(batch);
    for (const sim::Metric& m : metrics)
      if (std::strstr(m.name, "_ms") == nullptr) all += " " + std::string(m.name) + "=" + std::to_string(m.value);  // not the clocks
    return all;
  };
  for (const auto& e : scenes::registeredScenes()) {
    SCOPED_TRACE(e.name);
    SceneUnderTest t(e.name);
    const auto params = t.scene->params();
    std::map<std::string, std::string> baselines;  // context -> outcome
    for (const scenes::Param& p : params) {
      if (!p.ofModel) continue;
      const Context c = contextOf(e.name, p.name);
      std::string key = std::to_string(c.steps);
      for (const std::string& a : c.sets) key += " " + a;
      if (!baselines.count(key)) baselines[key] = outcome(e.name, c.sets, c.steps);
      std::vector<std::string> moved = c.sets;
      moved.push_back(std::string(p.name) + "=" + (c.value.empty() ? textOf(p, otherValue(p)) : c.value));
      EXPECT_NE(outcome(e.name, moved, c.steps), baselines[key])
          << moved.back() << " (with" << key << ") left the agents and the metrics as they were";
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
