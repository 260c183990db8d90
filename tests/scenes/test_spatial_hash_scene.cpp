// The Spatial-hash scene: what its counters say about brute force, the grid and its two search modes.
#include <gtest/gtest.h>

#include <string>
#include "scenes/presets.hpp"
#include "scenes/scene.hpp"
#include "scene_under_test.hpp"

namespace {

struct HashScene : scenetest::SceneUnderTest {
  explicit HashScene(const std::vector<std::string>& assignments) : SceneUnderTest("spatial-hash", assignments, 7) {}
};

}  // namespace

TEST(SpatialHashScene, IsSceneThree) {
  const scenes::SceneEntry* entry = scenes::findScene("spatial-hash");
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->order, 3);
  EXPECT_STREQ(entry->title, "Spatial hash");
}

TEST(SpatialHashScene, AutoRingsMissNoNeighbourAtAnyCellSize) {
  for (const char* cell : {"cellSize=10", "cellSize=27", "cellSize=50", "cellSize=130"}) {
    SCOPED_TRACE(cell);
    HashScene t({"N=2000", "method=grid", "search=auto", cell});
    ASSERT_TRUE(t.scene);
    EXPECT_EQ(t.metric("missed_neighbors"), 0.0);  // audited at reset
    t.run(31);                                    // and again after kAuditEvery steps
    EXPECT_EQ(t.metric("missed_neighbors"), 0.0);
    EXPECT_GT(t.metric("neighbors_per_agent"), 5.0);
  }
}

TEST(SpatialHashScene, Classic3x3WithTinyCellsMissesNeighbours) {
  HashScene t({"N=2000", "method=grid", "search=classic", "cellSize=10"});
  ASSERT_TRUE(t.scene);
  EXPECT_GT(t.metric("missed_neighbors"), 0.0);
  t.run(31);
  EXPECT_GT(t.metric("missed_neighbors"), 0.0);
  // Cells of at least the radius: the classic block is exact again.
  HashScene wide({"N=2000", "method=grid", "search=classic", "cellSize=50"});
  wide.run(31);
  EXPECT_EQ(wide.metric("missed_neighbors"), 0.0);
}

TEST(SpatialHashScene, BruteForceChecksEveryPairTheGridFarFewer) {
  HashScene brute({"N=2000", "method=brute"}), grid({"N=2000", "method=grid"});
  brute.run(1);
  grid.run(1);
  EXPECT_EQ(brute.metric("checks_per_agent"), 1999.0);
  EXPECT_EQ(brute.metric("checks_per_frame"), 2000.0 * 1999.0);
  EXPECT_LT(grid.metric("checks_per_agent") * 10.0, brute.metric("checks_per_agent"));
  // Same seed, same first state: both searches find exactly the same neighbours.
  EXPECT_EQ(grid.metric("neighbors_per_agent"), brute.metric("neighbors_per_agent"));
  EXPECT_EQ(brute.metric("missed_neighbors"), 0.0);
}

TEST(SpatialHashScene, ClusteredDistributionRaisesChecksPerAgent) {
  HashScene uniform({"N=2000", "distribution=uniform"}), clustered({"N=2000", "distribution=clustered"});
  uniform.run(120);
  clustered.run(120);  // two seconds: the pen keeps the dense region dense
  EXPECT_GT(clustered.metric("checks_per_agent"), 2.0 * uniform.metric("checks_per_agent"));
  EXPECT_EQ(clustered.metric("missed_neighbors"), 0.0);
}

TEST(SpatialHashScene, WorldGrowsWithNAtConstantDensity) {
  HashScene small({"N=2000"}), large({"N=20000"});
  small.run(1);
  large.run(1);
  EXPECT_EQ(large.scene->agentCount(), 20000u);
  // Same density: about the same neighbours and checks per agent, ten times the agents.
  EXPECT_NEAR(large.metric("neighbors_per_agent"), small.metric("neighbors_per_agent"), 2.0);
  EXPECT_NEAR(large.metric("checks_per_agent"), small.metric("checks_per_agent"), 6.0);
}

TEST(SpatialHashScene, OverlaysAtFiftyThousandStayBounded) {
  HashScene t({"N=50000", "cellSize=10", "grid=on", "heat=on"});
  t.run(1);
  render::AgentBatch batch;
  render::DebugDraw debug;
  t.scene->homeCamera(t.ctx);
  t.scene->draw(batch, debug);
  EXPECT_EQ(batch.instances.size(), 50000u);
  EXPECT_LE(debug.triangles().size(), 2u * 3u * 20000u);  // heat map in blocks, not 230,000 cells
  EXPECT_LT(debug.lines().size(), 2u * 1000u);             // every k-th grid line when cells are tiny
}

TEST(SpatialHashScene, EveryBuiltInExperimentApplies) {
  auto experiments = scenes::builtinPresets("spatial-hash");
  EXPECT_GE(experiments.size(), 4u);
  for (const scenes::BuiltinPreset& p : experiments) {
    SCOPED_TRACE(p.file);
    HashScene t({"N=500"});
    std::string error;
    EXPECT_TRUE(scenes::applyBuiltinPreset(t.scene->params(), p, error)) << error;
    t.scene->paramsChanged();
    t.run(2);
    EXPECT_GT(t.scene->agentCount(), 0u);
  }
}
