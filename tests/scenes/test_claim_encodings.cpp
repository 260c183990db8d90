// What shows a claim in the picture: the banner's sentences, the merge's window that ends at
// the event, colour by group that stays with a group, trails, links and the checks layer.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include "scene_under_test.hpp"
#include "scenes/claims.hpp"
#include "scenes/group_colors.hpp"

using scenetest::SceneUnderTest;

TEST(ClaimEncodings, ResultSentencesFillInTheNumbersInTheClassWords) {
  scenes::Claim c{"x.y", "boids", "t", "s", "", {}, "", 1.0, 0.0, {"largest_group_share", scenes::Reduce::Mean, 0, false, 0.5}, true};
  c.result = "The flock broke into {a0:0} groups; the largest holds {v:%} of the birds ({v:1}, {a1})";
  const double also[] = {41.3, 0.12345};
  EXPECT_EQ(scenes::resultSentence(c, 0.2, also), "The flock broke into 41 groups; the largest holds 20 % of the birds (0.2, 0.123)");
  c.result = "";
  EXPECT_EQ(scenes::resultSentence(c, 0.2, also), "largest_group_share 0.2") << "no sentence: the metric's name";
  // Every claim of the registry speaks the class's words: no program names (snake_case) in its sentence.
  for (const scenes::Claim& k : scenes::allClaims()) {
    SCOPED_TRACE(k.id);
    EXPECT_NE(std::string(k.result), "");
    EXPECT_EQ(std::string(k.result).find('_'), std::string::npos) << k.result;
    const std::vector<double> zeros(k.also.size(), 0.0);
    EXPECT_EQ(scenes::resultSentence(k, 1.0, zeros).find('{'), std::string::npos) << "a field left unfilled";
  }
}

// TimeUntil: the window ends when the metric reaches the level (the picture then shows the event);
// +infinity when it never does within the window.
TEST(ClaimEncodings, TimeUntilEndsTheWindowAtTheEvent) {
  scenes::Claim c{"x.y", "boids", "t", "s", "", {}, "", 10.0, 2.0, {"m", scenes::Reduce::TimeUntil, 0.8, false, 10.0}, true};
  scenes::ClaimTracker rises, never;
  rises.begin(c);
  never.begin(c);
  for (int s = 1; s <= 60 * 13; ++s) {
    const double t = s / 60.0;
    const sim::Metric up[1] = {{"m", t < 1.0 || t >= 5.0 ? 0.9 : 0.3}}, flat[1] = {{"m", 0.3}};
    rises.sample(t, up);  // above the level before the window opens: not the event
    never.sample(t, flat);
  }
  EXPECT_TRUE(rises.done());
  EXPECT_NEAR(rises.value(), 3.0, 1.5 / 60.0);
  EXPECT_NEAR(rises.sampledUntil(), 5.0, 1.5 / 60.0) << "the window ends at the event";
  EXPECT_TRUE(never.done());
  EXPECT_TRUE(std::isinf(never.value()));
  EXPECT_FALSE(scenes::ruleHolds(c.rule, never.value()));
  c.resultNever = "The parts did not merge within 10 s";
  EXPECT_EQ(scenes::resultSentence(c, never.value(), {}), "The parts did not merge within 10 s");
}

// LongestBelow ends its window once the time below reaches the threshold: the picture then shows the
// split, not the flock merged long after it.
TEST(ClaimEncodings, LongestBelowEndsTheWindowOnceTheSplitIsShown) {
  scenes::Claim c{"x.y", "boids", "t", "s", "", {}, "", 10.0, 1.0, {"m", scenes::Reduce::LongestBelow, 0.5, true, 0.5}, true};
  scenes::ClaimTracker tracker;
  tracker.begin(c);
  for (int s = 1; s <= 60 * 11 && !tracker.done(); ++s) {
    const double t = s / 60.0;
    const sim::Metric m[1] = {{"m", t >= 1.5 && t < 4.0 ? 0.1 : 1.0}};
    tracker.sample(t, m);
  }
  EXPECT_TRUE(tracker.done());
  EXPECT_NEAR(tracker.sampledUntil(), 2.0, 1.5 / 60.0);
  EXPECT_TRUE(scenes::ruleHolds(c.rule, tracker.value()));
}

// Colour by group: one colour per group (up to the palette), and a group keeps its colour from frame
// to frame even when the agents change places; when a group splits, the larger part keeps it.
TEST(ClaimEncodings, GroupColoursStayWithTheirGroup) {
  std::vector<sim::Vec2> pos;
  std::vector<uint32_t> id;
  for (uint32_t g = 0; g < 5; ++g)
    for (uint32_t i = 0; i < 10 + g; ++i) {
      pos.push_back(sim::Vec2(100.0f * float(g), float(i)));  // five columns 100 apart, points 1 apart
      id.push_back(uint32_t(id.size()));
    }
  sim::World<2> world;
  world.size = sim::Vec2(1000.0f);
  scenes::GroupColors colours;
  colours.update<2>(pos, id, world, 5.0f);
  EXPECT_EQ(colours.groups(), 5u);
  std::vector<uint32_t> before(pos.size());
  std::set<uint32_t> distinct;
  for (size_t i = 0; i < pos.size(); ++i) distinct.insert(before[i] = colours.colorOf(i));
  EXPECT_EQ(distinct.size(), 5u);
  // Reversed order (as a grid's reorder would), and the third column split in two (7 and 5 points).
  std::reverse(pos.begin(), pos.end());
  std::reverse(id.begin(), id.end());
  for (size_t i = 0; i < pos.size(); ++i)
    if (pos[i].x == 200.0f && pos[i].y >= 7.0f) pos[i].x = 250.0f;
  colours.update<2>(pos, id, world, 5.0f);
  EXPECT_EQ(colours.groups(), 6u);
  size_t kept = 0, changed = 0;
  for (size_t i = 0; i < pos.size(); ++i) {
    const bool splitOff = pos[i].x == 250.0f;
    (colours.colorOf(i) == before[id[i]] ? kept : changed) += 1;
    if (splitOff) {
      EXPECT_NE(colours.colorOf(i), before[id[i]]) << "the smaller part gets a colour of its own";
    }
  }
  EXPECT_EQ(changed, 5u);
  EXPECT_EQ(kept, pos.size() - 5);
}

// The display options the experiments switch on draw something, in the same batched draws, and
// never change the simulation.
TEST(ClaimEncodings, DisplayOptionsDrawWithoutChangingTheSimulation) {
  auto linesAfter = [](const char* scene, const std::vector<std::string>& sets, int steps, std::vector<double>* metrics) {
    SceneUnderTest t(scene, sets, 3u);
    for (int s = 0; s < steps; ++s) {
      t.run(1);
      t.ctx.simTime += scenetest::kDt;
      render::AgentBatch agents;
      render::DebugDraw debug;
      t.scene->draw(agents, debug);
      if (s + 1 == steps) {
        std::vector<sim::Metric> m;
        t.scene->metrics(m);
        if (metrics)
          for (const sim::Metric& x : m)
            if (!std::string(x.name).ends_with("_ms")) metrics->push_back(x.value);
        return debug.lines().size();
      }
    }
    return size_t(0);
  };
  std::vector<double> plain, shown;
  const size_t withoutTrails = linesAfter("steering", {"trails=0"}, 60, &plain);
  const size_t withTrails = linesAfter("steering", {"trails=3"}, 60, &shown);
  EXPECT_GT(withTrails, withoutTrails + 100) << "trails: a path of segments per agent";
  EXPECT_EQ(plain, shown);
  const size_t noLinks = linesAfter("murmuration", {"mode2D=true", "k=1"}, 3, nullptr);
  const size_t links = linesAfter("murmuration", {"mode2D=true", "k=1", "showLinks=true"}, 3, nullptr);
  EXPECT_GE(links, noLinks + 2 * 2000) << "one link (two vertices) per bird at k = 1";
  const size_t noChecks = linesAfter("spatial-hash", {"method=brute"}, 2, nullptr);
  const size_t checks = linesAfter("spatial-hash", {"method=brute", "showChecks=true"}, 2, nullptr);
  EXPECT_GE(checks, noChecks + 2 * 1999) << "brute force: a line to every agent tested";
}
