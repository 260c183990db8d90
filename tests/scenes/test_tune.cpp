// Tuning on the experiment runner: every objective's experiment applies and its default parameters
// are numbers; a few generations improve the training score; the same settings give the same
// evaluations at 1 and 2 threads; held-out scores come from other seeds than training; the tuned
// preset holds only what was tuned and loads back.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include "experiments/objectives.hpp"
#include "experiments/tuner.hpp"
#include "scene_under_test.hpp"
#include "scenes/params.hpp"
#include "sim/models/finale_learned.hpp"

using experiments::Tuner;
using experiments::TuneSettings;

namespace {

TuneSettings steering(long budget) {
  TuneSettings s;
  s.scene = "steering";
  s.objective = "clean-arrival";
  s.budget = budget;
  s.seeds = 1;
  s.testSeeds = 2;
  return s;
}

std::vector<experiments::Evaluation> runAll(Tuner& t) {
  std::vector<experiments::Evaluation> all;
  while (t.step(nullptr, [&](const experiments::Evaluation& e) { all.push_back(e); })) {
  }
  return all;
}

}  // namespace

TEST(Objectives, EveryObjectiveIsARunnableExperimentWithNumericParameters) {
  std::set<std::string> scenesWithOne;
  for (const experiments::Objective& o : experiments::allObjectives()) {
    SCOPED_TRACE(std::string(o.scene) + "/" + o.name);
    scenesWithOne.insert(o.scene);
    EXPECT_EQ(experiments::findObjective(o.scene, o.name), &o);
    TuneSettings s;
    s.scene = o.scene;
    s.objective = o.name;
    s.budget = 0;
    const Tuner t(s);
    ASSERT_EQ(t.error(), "");
    EXPECT_EQ(t.params().size(), o.params.size());
    for (const experiments::ParamGroup& g : o.groups) {
      s.params = {g.name};
      const Tuner grouped(s);
      EXPECT_EQ(grouped.error(), "") << g.name;
      EXPECT_GT(grouped.params().size(), 8u) << g.name;
    }
  }
  for (const char* scene : {"boids", "orca-corridor", "steering", "finale"}) EXPECT_TRUE(scenesWithOne.count(scene)) << scene;
}

TEST(Objectives, TheFinaleLearnedGroupIsTheNetworkFromZerosInLearnedMode) {
  TuneSettings s;
  s.scene = "finale";
  s.objective = "fast-and-safe";
  s.params = {"learned"};
  s.budget = 0;
  const Tuner t(s);
  ASSERT_EQ(t.error(), "");
  EXPECT_EQ(int(t.params().size()), sim::LearnedWeights::kCount);
  for (double v : t.startValues()) EXPECT_EQ(v, 0.0);
  EXPECT_EQ(t.sets(), std::vector<std::string>{"weights=learned"});
}

TEST(Tuner, BadSettingsAreOneLine) {
  auto error = [](TuneSettings s) { return Tuner(s).error(); };
  TuneSettings s = steering(16);
  s.objective = "nope";
  EXPECT_NE(error(s).find("objectives: clean-arrival"), std::string::npos) << error(s);
  s = steering(16);
  s.params = {"seek"};
  EXPECT_NE(error(s).find("switch or a choice"), std::string::npos) << error(s);
  s.params = {"maxForce", "maxForce"};
  EXPECT_NE(error(s).find("twice"), std::string::npos) << error(s);
  s.params = {"nope"};
  EXPECT_NE(error(s).find("unknown parameter"), std::string::npos) << error(s);
  s = steering(3);
  EXPECT_NE(error(s).find("at least one generation"), std::string::npos) << error(s);
  s = steering(16);
  s.sets = {"maxSpeed=-5"};
  EXPECT_NE(error(s), "");
  for (const std::string& e : {error(steering(3))}) EXPECT_EQ(e.find('\n'), std::string::npos);
}

// A few generations find a better clean arrival than the preset's on the training seed, and the
// best is the lowest score seen.
TEST(Tuner, AFewGenerationsImproveTheTrainingScore) {
  Tuner t(steering(32));
  ASSERT_EQ(t.error(), "");
  const experiments::Score start = t.scoreOn(t.startValues(), 1, 1, nullptr);
  ASSERT_TRUE(start.ok);
  const auto all = runAll(t);
  ASSERT_EQ(all.size(), 32u);
  ASSERT_TRUE(t.hasBest());
  double lowest = 1e300;
  for (const auto& e : all) lowest = std::min(lowest, e.score.score);
  EXPECT_EQ(t.bestScore().score, lowest);
  EXPECT_LT(t.bestScore().score, start.score);
  EXPECT_EQ(t.stopReason(), "budget spent");
}

// The whole run, evaluation for evaluation, at 1 and 2 threads.
TEST(Tuner, TheSameRunAtOneAndTwoThreads) {
  auto run = [](int threads) {
    TuneSettings s = steering(16);
    s.seeds = 2;
    s.threads = threads;
    Tuner t(s);
    std::vector<double> trace;
    for (const auto& e : runAll(t)) {
      trace.push_back(e.score.score);
      trace.insert(trace.end(), e.values.begin(), e.values.end());
    }
    return trace;
  };
  const std::vector<double> one = run(1), two = run(2);
  EXPECT_EQ(one.size(), 16u * 6u);
  EXPECT_EQ(one, two);
}

// Held-out scores run the seeds from kFirstTestSeed on, not the training ones, and score each seed
// as the objective says.
TEST(Tuner, HeldOutScoresUseOtherSeeds) {
  Tuner t(steering(16));
  const std::vector<double> start = t.startValues();
  const experiments::Score heldOut = t.scoreOn(start, experiments::kFirstTestSeed, 2, nullptr);
  ASSERT_TRUE(heldOut.ok);
  ASSERT_EQ(heldOut.perSeed.size(), 2u);
  for (int k = 0; k < 2; ++k) {
    std::vector<std::string> sets = t.sets();
    for (const std::string& a : t.assignments(start)) sets.push_back(a);
    const experiments::Result r =
        experiments::runJob(experiments::objectiveJob(t.objective(), experiments::kFirstTestSeed + uint64_t(k), sets));
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(heldOut.perSeed[size_t(k)], experiments::objectiveScore(t.objective(), r.values));
  }
  const experiments::Score training = t.scoreOn(start, 1, 2, nullptr);
  EXPECT_NE(training.perSeed, heldOut.perSeed);
}

// The preset holds the tuned values (and the mode a group needs), says where it came from, and
// loads into the scene.
TEST(Tuner, TheTunedPresetLoadsBack) {
  TuneSettings s;
  s.scene = "finale";
  s.objective = "fast-and-safe";
  s.params = {"learned"};
  s.budget = 0;
  const Tuner t(s);
  std::vector<double> values = t.startValues();
  values[5] = 0.75;
  experiments::Score training;
  training.score = 12.5;
  const std::string text = t.presetText(values, training, nullptr, "crowdlab tune ...");
  ASSERT_NE(text.find("\"tuned\""), std::string::npos);
  ASSERT_NE(text.find("\"training_score\": 12.5"), std::string::npos) << text;
  scenetest::SceneUnderTest scene("finale");
  std::string error;
  ASSERT_TRUE(scenes::loadPresetText(scene.scene->params(), text, "tuned", "finale", error)) << error;
  EXPECT_EQ(scenes::findParam(scene.scene->params(), "nn5")->get(), 0.75);
  EXPECT_EQ(scenes::findParam(scene.scene->params(), "weights")->valueText(), "learned");
  EXPECT_EQ(text.find("\"N\""), std::string::npos) << "only what was tuned";
}

// The learned weights the finale ships (its nn* defaults, from assets/presets/finale/learned-weights.json)
// beat the network of zeros (the constant weights) on held-out seeds of the objective they were
// trained for.
TEST(Tuner, TheShippedLearnedWeightsBeatTheConstantWeightsOnHeldOutSeeds) {
  TuneSettings s;
  s.scene = "finale";
  s.objective = "fast-and-safe";
  s.params = {"learned"};
  s.budget = 0;
  s.threads = 2;
  const Tuner t(s);
  ASSERT_EQ(t.error(), "");
  scenetest::SceneUnderTest scene("finale");
  std::vector<double> shipped;
  for (const experiments::TunedParam& p : t.params()) shipped.push_back(scenes::findParam(scene.scene->params(), p.name)->defaultValue);
  double nonZero = 0;
  for (double w : shipped) nonZero += std::fabs(w);
  ASSERT_GT(nonZero, 1.0) << "the scene's learned defaults should be the shipped, trained weights";
  const experiments::Score constant = t.scoreOn(t.startValues(), experiments::kFirstTestSeed + 20, 2, nullptr);
  const experiments::Score learned = t.scoreOn(shipped, experiments::kFirstTestSeed + 20, 2, nullptr);
  ASSERT_TRUE(constant.ok && learned.ok);
  EXPECT_LT(learned.score, 0.5 * constant.score);
}
