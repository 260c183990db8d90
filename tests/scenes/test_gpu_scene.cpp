// The gpu scene without a window: registered as scene 7, runs the CPU flock when no context exists
// (headless, tests), keeps the per-agent mode under its cap, and grows its world with N.
#include <gtest/gtest.h>

#include <cmath>
#include "scene_under_test.hpp"

using scenetest::kDt;

TEST(GpuScene, IsSceneSevenWithBothToggles) {
  const scenes::SceneEntry* entry = scenes::findScene("gpu");
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->order, 7);
  scenetest::SceneUnderTest s("gpu");
  const scenes::Param* n = scenes::findParam(s.scene->params(), "N");
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->max, 1000000.0f);
  for (const char* name : {"sim", "render", "wSep", "wAli", "wCoh", "perception", "separation", "maxSpeed"})
    EXPECT_NE(scenes::findParam(s.scene->params(), name), nullptr) << name;
}

TEST(GpuScene, PerAgentModeDrawsAtMostItsCap) {
  scenetest::SceneUnderTest s("gpu", {"render=per-agent", "N=50000"});
  render::AgentBatch batch;
  render::DebugDraw debug;
  s.scene->draw(batch, debug);
  EXPECT_EQ(batch.submission, render::AgentSubmission::PerAgent);
  EXPECT_EQ(batch.instances.size(), 20000u);
  EXPECT_EQ(s.scene->agentCount(), 50000u);
  s.set({"render=instanced"});
  batch.clear();
  s.scene->draw(batch, debug);
  EXPECT_EQ(batch.submission, render::AgentSubmission::Instanced);
  EXPECT_EQ(batch.instances.size(), 50000u);
}

TEST(GpuScene, TheWorldGrowsWithNAtAFixedDensity) {
  scenetest::SceneUnderTest small("gpu", {"N=10000"}), big("gpu", {"N=40000"});
  render::AgentBatch a, b;
  render::DebugDraw debug;
  small.scene->draw(a, debug);
  big.scene->draw(b, debug);
  glm::vec3 hiA(0.0f), hiB(0.0f);
  for (const auto& i : a.instances) hiA = glm::max(hiA, i.position);
  for (const auto& i : b.instances) hiB = glm::max(hiB, i.position);
  EXPECT_NEAR(hiB.x / hiA.x, 2.0, 0.05);  // four times the agents, twice the side
  EXPECT_NEAR(hiB.y / hiA.y, 2.0, 0.05);
}
