// The pedestrians scene: its claims in short runs (the registry's own, windows cut where the verdict
// is already settled), and the sweep figure's reference data (Weidmann's curve, the bottleneck band).
#include <gtest/gtest.h>

#include <string>
#include <vector>
#include "experiments/sweep.hpp"
#include "claim_on_seed.hpp"
#include "scenes/claims.hpp"

namespace {

// The claim with a shorter window: same experiment, the verdict read at `window`.
scenes::Claim shortened(const char* id, double window, std::vector<const char*> extraSets = {}) {
  const scenes::Claim* c = scenes::findClaim(id);
  EXPECT_NE(c, nullptr) << id;
  scenes::Claim s = *c;
  s.window = window;
  s.from = window - 1.0;
  for (const char* a : extraSets) s.sets.push_back(a);
  return s;
}

}  // namespace

// Counter-flow with the keep-right rule: lanes within 15 s (the band order near 1).
TEST(PedestrianClaims, LanesFormWithTheKeepRightRuleInAShortRun) {
  const scenes::Claim c = shortened("pedestrians.lanes-orca-lanes", 15.0, {"warmup=5"});
  const ClaimOnSeed run = runClaimOnSeed(c, 40);
  ASSERT_TRUE(run.ok) << run.error;
  EXPECT_GT(run.value, 0.9);
  EXPECT_TRUE(scenes::ruleHolds(c.rule, run.value));
}

// The social force model empties the room through a 0.8 m door at a specific flow at the
// experiments' band (2.03-2.23 on seeds 40-44 against 1.6-2.2); ORCA jams in the same door (nobody
// gets through after the first few).
TEST(PedestrianClaims, TheSocialForceDoorFlowLiesInTheBandAndOrcaJams) {
  const scenes::Claim sfm = shortened("pedestrians.bottleneck-social-force-w0.8", 60.0);
  const ClaimOnSeed run = runClaimOnSeed(sfm, 40);
  ASSERT_TRUE(run.ok) << run.error;
  EXPECT_GT(run.also[0], 1.6) << "specific flow";
  EXPECT_LT(run.also[0], 2.3) << "specific flow";
  const scenes::Claim orca = shortened("pedestrians.bottleneck-orca-w0.8", 20.0);
  const ClaimOnSeed jam = runClaimOnSeed(orca, 40);
  ASSERT_TRUE(jam.ok) << jam.error;
  EXPECT_FALSE(scenes::ruleHolds(orca.rule, jam.value));
  EXPECT_LT(jam.also[2], 20.0) << "people out";
}

// ORCA with the keep-right rule walks within 20 % of Weidmann's speed at 1 /m^2; the social force
// model at 2 /m^2 walks far faster than people do (the claim the model fails).
TEST(PedestrianClaims, SpeedAgainstWeidmann) {
  const scenes::Claim* holds = scenes::findClaim("pedestrians.speed-orca-lanes-rho1");
  ASSERT_NE(holds, nullptr);
  const ClaimOnSeed run = runClaimOnSeed(*holds, 40);
  ASSERT_TRUE(run.ok) << run.error;
  EXPECT_TRUE(scenes::ruleHolds(holds->rule, run.value)) << run.value;
  const scenes::Claim fails = shortened("pedestrians.speed-social-force-rho2", 20.0, {"warmup=5"});
  const ClaimOnSeed fast = runClaimOnSeed(fails, 40);
  ASSERT_TRUE(fast.ok) << fast.error;
  EXPECT_GT(fast.also[0], 1.0) << "m/s at 2 /m^2";
  EXPECT_FALSE(scenes::ruleHolds(fails.rule, fast.value));
}

namespace {
// A two-point fundamental diagram, as a sweep's CSV would hold it.
experiments::SweepTable speedByDensity() {
  experiments::SweepTable table;
  std::string error;
  EXPECT_TRUE(experiments::parseSweepCsv("job,scene,density,seed,walking_speed\n0,pedestrians,1,1,1.2\n1,pedestrians,2,1,1.1\n",
                                         "test", table, error))
      << error;
  return table;
}
}  // namespace

TEST(SweepReferences, TheFigureDrawsWeidmannsCurveOnlyWhenAsked) {
  const experiments::SweepTable table = speedByDensity();
  experiments::PlotOptions options = experiments::plotOptionsOf(table);
  EXPECT_EQ(experiments::sweepSvg(table, options).find("Weidmann"), std::string::npos);
  options.references = {"weidmann"};
  const std::string svg = experiments::sweepSvg(table, options);
  EXPECT_NE(svg.find("Weidmann (1993)"), std::string::npos);
  EXPECT_NE(svg.find("stroke-dasharray=\"10,6\""), std::string::npos) << "the curve, dashed";
  options.references = {"bottleneck"};  // drawn only in the panels of its metrics
  EXPECT_EQ(experiments::sweepSvg(table, options).find("experiments: 1.6-2.2"), std::string::npos);
}

// Merged shards draw what the merge is told to: --reference and the other drawing flags; a flag that
// defines jobs is refused, as is a bad value.
TEST(SweepReferences, AMergeDrawsTheReferenceItIsGiven) {
  const experiments::SweepTable table = speedByDensity();
  std::string error;
  experiments::PlotOptions options = experiments::plotOptionsOf(table);
  ASSERT_TRUE(experiments::readPlotFlags({"--reference", "weidmann", "--title", "Merged"}, options, error)) << error;
  const std::string svg = experiments::sweepSvg(table, options);
  EXPECT_NE(svg.find("Weidmann (1993)"), std::string::npos);
  EXPECT_NE(svg.find("Merged"), std::string::npos);
  EXPECT_FALSE(experiments::readPlotFlags({"--seeds", "3"}, options, error));
  EXPECT_NE(error.find("--seeds"), std::string::npos) << error;
  EXPECT_FALSE(experiments::readPlotFlags({"--reference", "nosuch"}, options, error));
  EXPECT_FALSE(experiments::readPlotFlags({"--log", "x", "--log", "y"}, options, error));
}

TEST(SweepReferences, TheBuiltinSweepsNameTheirDataAndUnknownNamesAreRefused) {
  for (const char* name : {"fundamental-diagram", "bottleneck-width"}) {
    const experiments::BuiltinSweep* b = experiments::findBuiltinSweep(name);
    ASSERT_NE(b, nullptr) << name;
    experiments::SweepSpec spec;
    std::string error;
    ASSERT_TRUE(experiments::parseSweepArgs({b->args.begin(), b->args.end()}, spec, error)) << error;
    ASSERT_EQ(spec.references.size(), 1u);
    EXPECT_EQ(experiments::plotOptionsOf(spec).references, spec.references);
  }
  experiments::SweepSpec spec;
  std::string error;
  EXPECT_FALSE(experiments::parseSweepArgs({"--scene", "pedestrians", "--vary", "density=1,2", "--metric", "walking_speed",
                                            "--reference", "nosuch"},
                                           spec, error));
  EXPECT_NE(error.find("weidmann"), std::string::npos) << error;
}

// An axis title carries its parameter's unit from the parameter's declaration, and a metric's title
// its description's words: the pedestrians' corridor width is metres where the ORCA corridor's is
// agent diameters, though both are called "width".
TEST(SweepReferences, AxisTitlesTakeTheUnitFromTheParametersDeclaration) {
  experiments::SweepSpec corridor;
  corridor.scene = "orca-corridor";
  corridor.axes.push_back({"width", "corridor width", {}, {}, true});
  EXPECT_EQ(experiments::plotOptionsOf(corridor).axisLabels.at(0), "corridor width [width] (agent diameters)");
  experiments::SweepSpec finale;
  finale.scene = "finale";
  finale.axes.push_back({"cellSize", "cell size", {}, {}, true});
  EXPECT_EQ(experiments::plotOptionsOf(finale).axisLabels.at(0), "cell size [cellSize] (world units)");
  const experiments::SweepTable table = speedByDensity();
  EXPECT_NE(experiments::sweepSvg(table, experiments::plotOptionsOf(table)).find("walking speed (m/s)"), std::string::npos);
}
