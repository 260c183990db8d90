// How claims are judged so that a busy machine never flips a verdict (cost claims by counted work or
// by the fastest of repeated timings), and the baselines of ratio claims: run headless once per claim
// and seed, then reused, with the numbers `crowdlab claims` gets.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include "experiments/claim_runs.hpp"
#include "experiments/runner.hpp"
#include "claim_on_seed.hpp"
#include "scenes/claims.hpp"

namespace {

bool isTiming(std::string_view metric) { return metric.ends_with("_ms"); }

// The claim with its N cut down (the same code paths, a test's time).
scenes::Claim smaller(const scenes::Claim& c) {
  scenes::Claim s = c;
  for (const char*& set : s.sets)
    if (std::string_view(set).starts_with("N=")) set = "N=1500";
  return s;
}

}  // namespace

// A wall-clock metric decides no claim but by its fastest sample, and no must-hold claim at all; the
// search's cost is judged by the distance checks counted, and the rule's line says so.
TEST(ClaimCosts, CostClaimsJudgeByCountedWorkOrTheFastestTiming) {
  for (const scenes::Claim& c : scenes::allClaims()) {
    SCOPED_TRACE(c.id);
    if (!isTiming(c.rule.metric)) continue;
    EXPECT_EQ(c.cost, scenes::CostBasis::FastestTiming);
    EXPECT_EQ(c.rule.reduce, scenes::Reduce::Min) << "a timing decides only by its fastest sample";
    EXPECT_FALSE(c.mustHold) << "a must-hold verdict must not rest on a clock";
    EXPECT_NE(scenes::describeRule(c).find("by the fastest of repeated timings"), std::string::npos);
  }
  for (const char* id : {"finale.hash-off", "finale.hash-on", "spatial-hash.brute-vs-grid", "spatial-hash.grid"}) {
    SCOPED_TRACE(id);
    const scenes::Claim* c = scenes::findClaim(id);
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->cost, scenes::CostBasis::CountedWork);
    EXPECT_FALSE(isTiming(c->rule.metric)) << c->rule.metric;
    EXPECT_NE(scenes::describeRule(*c).find("by counted work"), std::string::npos) << scenes::describeRule(*c);
  }
}

// Counted work is the same on every run: the hash-off claim's ratio does not move between two runs
// of one seed (a ratio of step times would, and a busy machine once took it under its minimum).
TEST(ClaimCosts, HashOffRatioIsTheSameOnEveryRun) {
  const scenes::Claim off = smaller(*scenes::findClaim("finale.hash-off"));
  const scenes::Claim on = smaller(*scenes::findClaim(off.relativeTo));
  double values[2] = {};
  for (double& v : values) {
    const ClaimOnSeed base = runClaimOnSeed(on, 60);
    ASSERT_TRUE(base.ok) << base.error;
    const ClaimOnSeed run = runClaimOnSeed(off, 60, base.raw);
    ASSERT_TRUE(run.ok) << run.error;
    v = run.value;
  }
  EXPECT_EQ(values[0], values[1]);
  EXPECT_GE(values[0], off.rule.threshold) << "brute force checks every other agent; the hash a few cells";
}

// A baseline runs once per claim and seed, then every request reuses it; its value is the one
// `crowdlab claims` computes (the same job).
TEST(ClaimCosts, BaselineIsComputedOncePerSeedAndReused) {
  const scenes::Claim& base = *scenes::findClaim("spatial-hash.grid");
  ASSERT_TRUE(experiments::BaselineRuns::headless(base));
  experiments::BaselineRuns runs;
  const double first = runs.wait(base, 3);
  EXPECT_EQ(runs.runsStarted(), 1u);
  runs.request(base, 3);
  EXPECT_EQ(runs.value(base, 3), first);
  EXPECT_EQ(runs.wait(base, 3), first);
  EXPECT_EQ(runs.runsStarted(), 1u) << "the same seed's baseline ran again";
  const experiments::Result direct = experiments::runJob(experiments::claimJob(base, 3));
  ASSERT_TRUE(direct.ok) << direct.error;
  EXPECT_EQ(first, direct.values[0]);
  runs.wait(base, 4);
  EXPECT_EQ(runs.runsStarted(), 2u) << "another seed is another run";
  // Measured from frames drawn: never headless.
  EXPECT_FALSE(experiments::BaselineRuns::headless(*scenes::findClaim("gpu.instanced")));
}

// Fast-forward: the settling several steps a frame, a long window as well, nothing once the verdict is
// in, and never for claims measured from the frames themselves.
TEST(ClaimCosts, FastForwardSettlesFastAndLeavesFrameClaimsAlone) {
  const scenes::Claim& corridor = *scenes::findClaim("orca-corridor.orca-lanes-w2.5");
  EXPECT_EQ(scenes::fastForward(corridor, 0.0, false), 8);
  EXPECT_GT(scenes::fastForward(corridor, corridor.from + 1.0, false), 1);
  EXPECT_EQ(scenes::fastForward(corridor, corridor.from + 1.0, true), 1);
  EXPECT_EQ(scenes::fastForwardNote(8), "fast-forward x8");
  EXPECT_EQ(scenes::fastForwardNote(1), "");
  for (const scenes::Claim& c : scenes::allClaims()) {
    SCOPED_TRACE(c.id);
    // At most about 300 frames drawn: a verdict within a lecture's minute at tens of ms a frame.
    const double settle = c.from * 60.0 / scenes::fastForward(c, 0.0, false);
    const double window = c.window * 60.0 / scenes::fastForward(c, c.from + 0.01, false);
    if (c.needsWindow) EXPECT_EQ(scenes::fastForward(c, 0.0, false), 1);
    else EXPECT_LE(settle + window, 300.0);
  }
}

// The tracker takes each step's metrics once, and nothing before the first step: fed after every
// step and again when the banner is drawn, it reduces the window as `crowdlab claims` does.
TEST(ClaimCosts, TrackerSamplesEachStepOnce) {
  scenes::Claim c = *scenes::findClaim("spatial-hash.grid");
  c.from = 0.0;
  c.rule = scenes::atLeast("x", scenes::Reduce::Mean, 0.0);
  c.also = {};
  scenes::ClaimTracker t;
  t.begin(c);
  const sim::Metric at0[] = {{"x", 100.0}}, one[] = {{"x", 1.0}}, three[] = {{"x", 3.0}};
  t.sample(0.0, at0);  // before any step
  t.sample(1.0 / 60.0, one);
  t.sample(1.0 / 60.0, three);  // the same step again
  t.sample(2.0 / 60.0, three);
  EXPECT_DOUBLE_EQ(t.value(), 2.0);
}
