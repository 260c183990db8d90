// The steering playground driven as the app drives it: parameters by name, stepped headless, drawn
// into a batch without a window.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>
#include "scenes/presets.hpp"
#include "scenes/scene.hpp"
#include "scene_under_test.hpp"

namespace {

using scenetest::kDt;

struct SteeringScene : scenetest::SceneUnderTest {
  explicit SteeringScene(const std::vector<std::string>& assignments) : SceneUnderTest("steering", assignments) {}
};

}  // namespace

TEST(SteeringScene, IsRegisteredAsSceneFiveWithTheIssueDefaults) {
  const scenes::SceneEntry* entry = scenes::findScene("steering");
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->order, 5);
  SteeringScene s({});
  EXPECT_EQ(s.scene->agentCount(), 30u);
  for (const char* name : {"seek", "arrive", "wander", "avoid", "flee", "pursue", "evade", "formation", "shape",
                           "maxSpeed", "maxForce", "slowingRadius", "wanderRadius", "wanderDistance", "wanderJitter",
                           "feelerLength", "wSeek", "wArrive", "wWander", "wAvoid", "wFlee", "wPursue", "wEvade",
                           "wFormation", "showVelocity", "showFeelers", "showWander", "showSlowing", "showSlots"})
    EXPECT_NE(scenes::findParam(s.scene->params(), name), nullptr) << name;
  std::string error;
  EXPECT_FALSE(scenes::setParamAssignment(s.scene->params(), "N=501", error));
  EXPECT_TRUE(scenes::setParamAssignment(s.scene->params(), "shape=column", error)) << error;
}

TEST(SteeringScene, SeekPlusArriveStopsOnTheTarget) {
  // Seek + arrive, nothing in the way, separation off: everyone ends on the target, at rest (stacked).
  SteeringScene s({"seek=on", "arrive=on", "wander=off", "avoid=on", "separate=off", "N=20"});
  const double start = s.metric("mean_distance_to_target");
  s.run(900);
  EXPECT_GT(start, 100.0);
  EXPECT_LT(s.metric("mean_distance_to_target"), 3.0);
  EXPECT_LT(s.metric("mean_speed"), 2.0);
  EXPECT_EQ(s.metric("obstacle_penetrations"), 0.0);
}

TEST(SteeringScene, SeparationMakesArriversSettleAroundTheTargetInsteadOfOnIt) {
  SteeringScene s({"seek=on", "arrive=on", "wander=off", "avoid=on", "separate=on", "N=20"});
  s.run(900);
  EXPECT_GT(s.metric("mean_distance_to_target"), 8.0);   // a disc of agents, not a stack
  EXPECT_LT(s.metric("mean_distance_to_target"), 60.0);  // still gathered at the target
  EXPECT_LT(s.metric("mean_speed"), 10.0);               // and settled
}

TEST(SteeringScene, SeekAloneKeepsMovingAroundTheTarget) {
  // Without separation, as in the article's demo (with it, a seeking crowd packs around the target and stops).
  SteeringScene s({"seek=on", "arrive=off", "avoid=on", "separate=off", "N=20"});
  s.run(900);
  // Overshooting and coming back for ever: near the target but never settling (arrive ends below 2).
  EXPECT_LT(s.metric("mean_distance_to_target"), 150.0);
  EXPECT_GT(s.metric("mean_distance_to_target"), 5.0);
  EXPECT_GT(s.metric("mean_speed"), 40.0);
}

TEST(SteeringScene, AvoidanceKeepsWanderersOutOfObstacles) {
  // Wanderers roam the whole world over the default obstacles; avoidance keeps them out, and without
  // it they walk straight through.
  SteeringScene with({"seek=off", "arrive=off", "wander=on", "avoid=on", "N=60"});
  SteeringScene without({"seek=off", "arrive=off", "wander=on", "avoid=off", "N=60"});
  with.run(900);
  without.run(900);
  EXPECT_EQ(with.metric("obstacle_penetrations"), 0.0);
  EXPECT_GT(without.metric("obstacle_penetrations"), 0.0);
}

TEST(SteeringScene, DrawPutsEveryAgentInOneBatch) {
  SteeringScene s({"N=123", "formation=on", "wander=on", "pursue=on", "showVelocity=on", "showWander=on"});
  s.run(30);
  render::AgentBatch batch;
  render::DebugDraw debug;
  s.scene->draw(batch, debug);
  EXPECT_EQ(s.scene->agentCount(), 123u);
  EXPECT_EQ(batch.instances.size(), s.scene->agentCount());
  EXPECT_EQ(batch.shape, render::AgentShape::Arrow2D);
  EXPECT_FALSE(debug.lines().empty());
  EXPECT_FALSE(debug.circles().empty());

  // A new N applies at once, also while paused (no step in between).
  std::string error;
  ASSERT_TRUE(scenes::setParamAssignment(s.scene->params(), "N=7", error)) << error;
  s.scene->paramsChanged();
  batch.clear();
  s.scene->draw(batch, debug);
  EXPECT_EQ(batch.instances.size(), 7u);
}

TEST(SteeringScene, BuiltInExperimentsApplyAndReproduceTheClassics) {
  const auto presets = scenes::builtinPresets("steering");
  ASSERT_GE(presets.size(), 4u);
  auto runPreset = [&](const std::string& title) {
    auto s = std::make_unique<SteeringScene>(std::vector<std::string>{"N=20"});
    bool found = false;
    for (const auto& p : presets) {
      if (scenes::presetTitle(p) != title) continue;
      std::string error;
      EXPECT_TRUE(scenes::applyBuiltinPreset(s->scene->params(), p, error)) << p.file << ": " << error;
      found = true;
    }
    EXPECT_TRUE(found) << title;
    s->scene->paramsChanged();
    s->scene->reset();
    s->run(900);
    return s;
  };
  // With separation on (the scene's default) arrivers settle in a disc around the target.
  auto stops = runPreset("Seek + arrive (stops)");
  EXPECT_LT(stops->metric("mean_distance_to_target"), 60.0);
  EXPECT_LT(stops->metric("mean_speed"), 10.0);
  auto orbits = runPreset("Seek only (orbits)");
  EXPECT_GT(orbits->metric("mean_speed"), 40.0);
  EXPECT_GT(orbits->metric("mean_speed"), 5.0 * stops->metric("mean_speed"));
  EXPECT_GT(runPreset("Wander")->metric("obstacle_penetrations"), 0.0);  // no avoidance: through the obstacles
  EXPECT_EQ(runPreset("Avoidance (drag the obstacles)")->metric("obstacle_penetrations"), 0.0);
  for (const auto& p : presets) {
    auto s = std::make_unique<SteeringScene>(std::vector<std::string>{});
    std::string error;
    EXPECT_TRUE(scenes::applyBuiltinPreset(s->scene->params(), p, error)) << p.file << ": " << error;
  }
}
