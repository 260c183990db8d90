// The ORCA corridor scene driven as the app drives it: parameters by name, stepped headless, drawn
// into a batch without a window (clicks: tests/scene_window).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>
#include "scenes/presets.hpp"
#include "scenes/scene.hpp"
#include "scene_under_test.hpp"

namespace {

using scenetest::kDt;

struct CorridorScene : scenetest::SceneUnderTest {
  explicit CorridorScene(const std::vector<std::string>& assignments) : SceneUnderTest("orca-corridor", assignments) {}
};

}  // namespace

TEST(OrcaCorridorScene, IsRegisteredAsSceneFourWithTheIssueDefaults) {
  const scenes::SceneEntry* entry = scenes::findScene("orca-corridor");
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->order, 4);
  EXPECT_STREQ(entry->title, "ORCA corridor");
  CorridorScene s({});
  EXPECT_EQ(s.scene->agentCount(), 40u);  // 20 per side
  for (const char* name : {"groupSize", "width", "length", "method", "tau", "tauObst", "neighborDist", "maxNeighbors",
                           "radius", "maxSpeed", "prefSpeed", "lanes", "showGuides", "showTargets", "trails",
                           "showVelocity", "inset"})
    EXPECT_NE(scenes::findParam(s.scene->params(), name), nullptr) << name;
  EXPECT_EQ(scenes::findParam(s.scene->params(), "width")->get(), 4.0);
  EXPECT_EQ(scenes::findParam(s.scene->params(), "lanes")->get(), 1.0);
  EXPECT_EQ(scenes::findParam(s.scene->params(), "method")->valueText(), "orca");
  std::string error;
  EXPECT_FALSE(scenes::setParamAssignment(s.scene->params(), "groupSize=201", error));
  EXPECT_FALSE(scenes::setParamAssignment(s.scene->params(), "width=1.4", error));
  EXPECT_TRUE(scenes::setParamAssignment(s.scene->params(), "method=orca-like", error)) << error;
  EXPECT_TRUE(scenes::setParamAssignment(s.scene->params(), "method=separation", error)) << error;

  std::vector<sim::Metric> metrics;
  s.scene->metrics(metrics);
  std::vector<std::string> names;
  for (const auto& m : metrics) names.push_back(m.name);
  EXPECT_EQ(names, (std::vector<std::string>{"arrived", "crossed_total", "rounds", "throughput_per_min", "mean_cross_time",
                                             "overlaps_total", "min_distance_ratio", "wall_penetrations", "jammed"}));
}

TEST(OrcaCorridorScene, OrcaWithLanesCompletesARoundWithoutOverlapsAtWidthFour) {
  // 20 per side, width 4: every agent crosses within 40 s of simulated time (about 24 s measured).
  CorridorScene s({"method=orca", "lanes=on", "width=4"});
  int steps = 0;
  while (s.metric("rounds") < 1 && steps < 2400) {
    s.run(60);
    steps += 60;
  }
  EXPECT_GE(s.metric("rounds"), 1.0) << "after " << steps << " steps";
  EXPECT_GE(s.metric("crossed_total"), 40.0);
  EXPECT_EQ(s.metric("overlaps_total"), 0.0);
  EXPECT_EQ(s.metric("wall_penetrations"), 0.0);
  EXPECT_GT(s.metric("throughput_per_min"), 0.0);
}

TEST(OrcaCorridorScene, ChangingTheWidthStartsANewRun) {
  CorridorScene s({});
  s.run(900);
  ASSERT_GT(s.metric("crossed_total"), 0.0);  // the run is under way
  const double before = s.metric("min_distance_ratio");
  s.set({"width=3"});
  EXPECT_EQ(s.metric("crossed_total"), 0.0);
  EXPECT_EQ(s.metric("arrived"), 0.0);
  EXPECT_EQ(s.metric("rounds"), 0.0);
  EXPECT_GT(s.metric("min_distance_ratio"), before);  // fresh metrics
  // A display toggle is not a new experiment: the run goes on.
  s.run(60);
  const double crossed = s.metric("crossed_total"), ratio = s.metric("min_distance_ratio");
  s.set({"trails=off", "showVelocity=on"});
  EXPECT_EQ(s.metric("crossed_total"), crossed);
  EXPECT_EQ(s.metric("min_distance_ratio"), ratio);
}

TEST(OrcaCorridorScene, GroupSizeSetsTheAgentCountAndDrawGivesOneInstanceEach) {
  CorridorScene s({"groupSize=50", "showTargets=on", "showVelocity=on"});
  EXPECT_EQ(s.scene->agentCount(), 100u);
  s.run(120);
  render::AgentBatch batch;
  render::DebugDraw debug;
  s.scene->draw(batch, debug);
  EXPECT_EQ(batch.shape, render::AgentShape::Disk2D);
  EXPECT_EQ(batch.instances.size(), s.scene->agentCount());
  EXPECT_FALSE(debug.lines().empty());  // walls, guides, trails
  // The two groups are told apart by colour, and start in different rooms.
  const auto& first = batch.instances.front();
  const auto& last = batch.instances.back();
  EXPECT_NE(first.color, last.color);
  EXPECT_LT(first.position.x, 0.0f);
  EXPECT_GT(last.position.x, 0.0f);
}

TEST(OrcaCorridorScene, EveryBuiltInPresetLoadsAndRuns) {
  const auto presets = scenes::builtinPresets("orca-corridor");
  std::vector<std::string> titles;
  for (const auto& p : presets) titles.push_back(scenes::presetTitle(p));
  for (const char* wanted : {"Width 4, ORCA + lanes", "Width 2 jam", "Width 2.5 with lanes", "Separation only",
                             "ORCA-like (the article's demo)", "ORCA without lanes"})
    EXPECT_NE(std::find(titles.begin(), titles.end(), wanted), titles.end()) << wanted;
  for (const auto& p : presets) {
    SCOPED_TRACE(p.file);
    CorridorScene s({});
    std::string error;
    EXPECT_TRUE(scenes::applyBuiltinPreset(s.scene->params(), p, error)) << error;
    EXPECT_FALSE(scenes::presetDescription(p).empty());
    s.scene->paramsChanged();
    s.scene->reset();
    s.run(120);
    render::AgentBatch batch;
    render::DebugDraw debug;
    s.scene->draw(batch, debug);
    EXPECT_EQ(batch.instances.size(), s.scene->agentCount());
    EXPECT_TRUE(std::isfinite(s.metric("min_distance_ratio")));
  }
}

TEST(OrcaCorridorScene, TheJamPresetJamsAndLanesReleaseIt) {
  // What the experiments promise, as numbers: ORCA without lanes at width 2 locks up; with lanes at
  // width 4 the same 30 s see a full round.
  CorridorScene jam({"method=orca", "lanes=off", "width=2"});
  CorridorScene lanes({"method=orca", "lanes=on", "width=4"});
  jam.run(1800);
  lanes.run(1800);
  EXPECT_EQ(jam.metric("rounds"), 0.0);
  EXPECT_GE(jam.metric("jammed"), 10.0);
  EXPECT_EQ(jam.metric("overlaps_total"), 0.0);
  EXPECT_GE(lanes.metric("rounds"), 1.0);
}
