// The display options that make a claim's picture show its claim (scenes/overlap_marks.hpp and the
// scenes' view parameters): overlapping bodies found as the metrics count them, ORCA off's crush
// magnified with its overlapping bodies ringed, the corridor's overlaps ringed, seek framed on its target.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>
#include "render/agent_batch.hpp"
#include "render/color.hpp"
#include "render/debug_draw.hpp"
#include "scene_under_test.hpp"
#include "scenes/overlap_marks.hpp"

namespace {

size_t circlesOf(const render::DebugDraw& debug, uint32_t color) {
  return size_t(std::count_if(debug.circles().begin(), debug.circles().end(),
                              [&](const render::DebugDraw::CircleInstance& c) { return c.color == color; }));
}

render::DebugDraw drawn(scenetest::SceneUnderTest& s) {
  render::AgentBatch agents;
  render::DebugDraw debug;
  s.scene->draw(agents, debug);
  return debug;
}

}  // namespace

TEST(ClaimViews, OverlappingPairsAreCentresCloserThanADiameter) {
  const std::vector<sim::Vec2> at = {{0, 0}, {5, 0}, {20, 0}, {25.95f, 0}, {100, 100}};
  const auto pairs = scenes::overlappingPairs(at, 3.0f);  // diameter 6, counted below 0.99 of it
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0], (std::pair<uint32_t, uint32_t>{0, 1}));
}

// ORCA off: the magnifier beside the crowd rings overlapping bodies; with ORCA on there are none to ring,
// and without the option nothing is magnified.
TEST(ClaimViews, TheFinaleMagnifiesTheCrushAndRingsOverlappingBodies) {
  const uint32_t ring = render::rgba(255, 240, 80);
  auto crush = [&](bool orca, bool magnify) {
    scenetest::SceneUnderTest s("finale", {"N=400", orca ? "orca=true" : "orca=false", magnify ? "showOverlaps=true" : "showOverlaps=false"});
    s.ctx.camera2D.viewport = {1280.0f, 720.0f};
    s.scene->homeCamera(s.ctx);
    s.run(600);  // 10 s: the crowd has reached the target
    return drawn(s);
  };
  const render::DebugDraw off = crush(false, true);
  EXPECT_GT(circlesOf(off, ring), 10u) << "ORCA off: overlapping bodies ringed in the magnifier";
  EXPECT_GT(off.disks().size(), 10u) << "the magnified bodies";
  EXPECT_EQ(circlesOf(crush(true, true), ring), 0u) << "ORCA on: no body overlaps another";
  EXPECT_EQ(circlesOf(crush(false, false), ring), 0u) << "the option off: no magnifier";
}

TEST(ClaimViews, TheCorridorRingsBodiesPassingThroughEachOther) {
  const uint32_t ring = render::rgba(255, 60, 60);
  for (bool mark : {true, false}) {
    scenetest::SceneUnderTest s("orca-corridor", {"method=orca-like", "groupSize=20", "width=4", mark ? "showOverlaps=true" : "showOverlaps=false"});
    size_t most = 0;
    for (int second = 0; second < 30; ++second) {
      s.run(60);
      most = std::max(most, circlesOf(drawn(s), ring));
    }
    if (mark) EXPECT_GT(most, 0u) << "orca-like walks bodies through each other";
    else EXPECT_EQ(most, 0u);
  }
}

TEST(ClaimViews, SeekIsFramedOnItsTarget) {
  auto zoom = [](const char* frame) {
    scenetest::SceneUnderTest s("steering", {frame});
    s.ctx.camera2D.viewport = {1280.0f, 720.0f};
    s.scene->homeCamera(s.ctx);
    return s.ctx.camera2D.zoom;
  };
  EXPECT_GT(zoom("frameTarget=true"), 2.0f * zoom("frameTarget=false"));
}
