// The claims registry: every claim's experiment applies, must-hold claims hold on seeds other than
// the command's (1..3), and an experiment is a full restart into the claim's starting state.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string_view>
#include "scene_under_test.hpp"
#include "claim_on_seed.hpp"
#include "scenes/claims.hpp"
#include "scenes/presets.hpp"

using scenetest::SceneUnderTest;

namespace {

std::vector<double> metricValues(const scenes::Scene& scene) {
  std::vector<sim::Metric> out;
  scene.metrics(out);
  std::vector<double> values;
  for (const sim::Metric& m : out)
    if (!std::string(m.name).ends_with("_ms")) values.push_back(m.value);
  return values;
}

}  // namespace

TEST(Claims, EveryClaimIsWellFormed) {
  std::set<std::string> ids;
  for (const scenes::Claim& c : scenes::allClaims()) {
    SCOPED_TRACE(c.id);
    EXPECT_TRUE(ids.insert(c.id).second) << "duplicate id";
    EXPECT_EQ(std::string(c.id).rfind(std::string(c.scene) + ".", 0), 0u) << "ids start with the scene";
    EXPECT_GT(c.window, 0.0);
    SceneUnderTest t(c.scene);
    ASSERT_TRUE(t.scene);
    std::string error;
    ASSERT_TRUE(scenes::startExperiment(*t.scene, c, error)) << error;
    std::vector<sim::Metric> metrics;
    t.scene->metrics(metrics);
    auto has = [&](const char* name) {
      for (const sim::Metric& m : metrics)
        if (std::string(m.name) == name) return true;
      return false;
    };
    EXPECT_TRUE(has(c.rule.metric)) << c.rule.metric;
    for (const char* a : c.also) EXPECT_TRUE(has(a)) << a;
    if (*c.relativeTo) {
      const scenes::Claim* base = scenes::findClaim(c.relativeTo);
      ASSERT_NE(base, nullptr) << c.relativeTo;
      EXPECT_EQ(std::string(base->scene), c.scene);
      EXPECT_EQ(std::string(base->rule.metric), c.rule.metric) << "a ratio of one metric";
    }
  }
}

TEST(Claims, UnknownStartStateOrPresetIsAnError) {
  SceneUnderTest t("boids");
  scenes::Claim bad{"boids.bad", "boids", "bad", "bad", "", {}, "no-such-start", 1.0, 0.0, {"groups"}, false};
  std::string error;
  EXPECT_FALSE(scenes::startExperiment(*t.scene, bad, error));
  EXPECT_NE(error.find("no-such-start"), std::string::npos) << error;
  bad.start = "";
  bad.preset = "no-such-preset.json";
  EXPECT_FALSE(scenes::startExperiment(*t.scene, bad, error));
  EXPECT_NE(error.find("no-such-preset.json"), std::string::npos) << error;
}

// The verdict rule itself: the seed share, the fix, and the number when the article overstates.
TEST(Claims, VerdictsSayHowMuch) {
  scenes::Claim c{"x.y", "boids", "t", "s", "", {}, "", 1.0, 0.0, {"groups", scenes::Reduce::Mean, 0, false, 10.0}, true};
  const double good[] = {3.0, 5.0}, bad[] = {30.0, 50.0}, mixed[] = {3.0, 30.0, 5.0};
  EXPECT_EQ(scenes::judge(c, good).text, "holds");
  const scenes::ClaimVerdict v = scenes::judge(c, bad);
  EXPECT_FALSE(v.holds);
  EXPECT_NE(v.text.find("article overstates"), std::string::npos);
  EXPECT_NE(v.text.find("measured 40"), std::string::npos) << v.text;
  EXPECT_FALSE(scenes::judge(c, mixed).holds);
  c.seedShare = 2.0 / 3.0;
  EXPECT_TRUE(scenes::judge(c, mixed).holds);
  c.fix = "lanes";
  EXPECT_EQ(scenes::judge(c, good).text, "holds with crowdlab's fix (lanes)");
}

// The window's reductions, on a made-up metric stream at 60 Hz.
TEST(Claims, TrackerReducesTheWindow) {
  scenes::Claim c{"x.y", "boids", "t", "s", "", {}, "", 2.0, 1.0, {"m", scenes::Reduce::LongestBelow, 0.5, true, 1.0}, true};
  scenes::ClaimTracker tracker;
  tracker.begin(c);
  for (int s = 1; s <= 240 && !tracker.done(); ++s) {
    const double t = s / 60.0;
    // Below 0.5 from 1.5 s to 2.25 s (and before the window, which must not count).
    const double v = (t < 0.9 || (t >= 1.5 && t < 2.25)) ? 0.1 : 1.0;
    const sim::Metric m[1] = {{"m", v}};
    tracker.sample(t, m);
  }
  EXPECT_TRUE(tracker.done());
  EXPECT_NEAR(tracker.value(), 0.75, 1.5 / 60.0);
}

// Every must-hold claim on seeds the command never uses.
TEST(Claims, MustHoldClaimsHoldOnOtherSeeds) {
  std::map<std::string, std::vector<double>> raw;  // baselines of ratio claims, run once
  for (const scenes::Claim& c : scenes::allClaims()) {
    if (!c.mustHold) continue;
    SCOPED_TRACE(c.id);
    std::vector<double> values;
    for (uint64_t seed : {11u, 12u}) {
      double baseline = 0.0;
      if (*c.relativeTo) {
        auto it = raw.find(c.relativeTo);
        baseline = it != raw.end() ? it->second[seed - 11] : runClaimOnSeed(*scenes::findClaim(c.relativeTo), seed).raw;
      }
      const ClaimOnSeed run = runClaimOnSeed(c, seed, baseline);
      ASSERT_TRUE(run.ok) << run.error;
      values.push_back(run.value);
      raw[c.id].push_back(run.raw);
    }
    const scenes::ClaimVerdict v = scenes::judge(c, values);
    EXPECT_TRUE(v.holds) << v.text << " (seeds 11, 12: " << values[0] << ", " << values[1] << ")";
  }
}

// Every claim's run, cut to a tenth of a second: the paths MustHoldClaimsHoldOnOtherSeeds takes (the
// experiment, the steps, the tracker), short enough for the sanitizer stage, which leaves that heavy
// test out (label `heavy`, tests/CMakeLists.txt).
// One test per scene, so that none comes near the sanitizer stage's 120 s limit on a busy machine
// (all claims in one test took 74 s under ASan at load 8).
class EveryClaimOf : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryClaimOf, RunsAFewSteps) {
  int claims = 0;
  for (const scenes::Claim& c : scenes::allClaims()) {
    if (c.scene != GetParam()) continue;
    SCOPED_TRACE(c.id);
    ++claims;
    scenes::Claim brief = c;
    brief.from = 0.0;
    brief.window = 0.1;
    // The same code paths with fewer agents: the hash-off claim's brute force over its own 12,000
    // would take this test to its 120 s limit under ASan on a loaded machine.
    for (const char*& set : brief.sets)
      if (std::string_view(set).starts_with("N=")) set = "N=1500";
    const ClaimOnSeed run = runClaimOnSeed(brief, 11, 1.0);
    ASSERT_TRUE(run.ok) << run.error;
    EXPECT_EQ(run.also.size(), c.also.size());
  }
  EXPECT_GT(claims, 0);
}

static std::vector<std::string> scenesWithClaims() {
  std::vector<std::string> names;
  for (const scenes::SceneEntry& e : scenes::registeredScenes())
    if (!scenes::claimsOf(e.name).empty()) names.push_back(e.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(Claims, EveryClaimOf, ::testing::ValuesIn(scenesWithClaims()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& ch : name)
                             if (ch == '-') ch = '_';
                           return name;
                         });

// An experiment button is a full restart: whatever was tuned or run before, the scene is exactly a
// fresh one put through the same experiment (defaults, preset, starting state).
TEST(Claims, ExperimentIsAFullRestart) {
  for (const char* id : {"boids.separation-scatters", "murmuration.k1-chains", "steering.smoothing-arrives"}) {
    SCOPED_TRACE(id);
    const scenes::Claim* c = scenes::findClaim(id);
    ASSERT_NE(c, nullptr);
    SceneUnderTest used(c->scene, {"N=400"}, 7);
    used.run(90);
    std::string error;
    ASSERT_TRUE(scenes::startExperiment(*used.scene, *c, error)) << error;

    SceneUnderTest fresh(c->scene, {}, 7);
    ASSERT_TRUE(scenes::startExperiment(*fresh.scene, *c, error)) << error;
    EXPECT_EQ(used.scene->agentCount(), fresh.scene->agentCount());
    EXPECT_EQ(metricValues(*used.scene), metricValues(*fresh.scene));
    for (const scenes::Param& p : used.scene->params())
      EXPECT_EQ(p.get(), scenes::findParam(fresh.scene->params(), p.name)->get()) << p.name;
    // And they stay together: the same frames from the same start.
    used.run(30);
    fresh.run(30);
    EXPECT_EQ(metricValues(*used.scene), metricValues(*fresh.scene));
  }
}

// "Separation only" starts from a formed flock (one group), so the scattering is visible.
TEST(Claims, SeparationOnlyStartsFromAFormedFlock) {
  const scenes::Claim* c = scenes::findClaim("boids.separation-scatters");
  ASSERT_NE(c, nullptr);
  SceneUnderTest t("boids");
  std::string error;
  ASSERT_TRUE(scenes::startExperiment(*t.scene, *c, error)) << error;
  EXPECT_GT(t.metric("largest_group_share"), 0.95);
  EXPECT_GT(t.metric("polarization"), 0.95);
  t.run(600);
  EXPECT_LT(t.metric("largest_group_share"), 0.1);
}
