// The experiment runner: the same results at any thread count, in job order; the same window value
// as the claims' own tracker; a cancel stops it; a bad job is one line, not a crash.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include "experiments/runner.hpp"
#include "scenes/claims.hpp"
#include "scenes/driver.hpp"

namespace {

std::vector<experiments::Job> boidsJobs() {
  std::vector<experiments::Job> jobs;
  for (double w : {0.0, 1.0, 2.0})
    for (uint64_t seed : {1, 2}) {
      experiments::Job j;
      j.scene = "boids";
      j.sets = {"N=150", experiments::assignment("wAli", w)};
      j.seed = seed;
      j.from = 0.5;
      j.to = 1.0;
      j.metrics = {{"polarization", scenes::Reduce::Mean}, {"groups", scenes::Reduce::Final}};
      jobs.push_back(j);
    }
  return jobs;
}

std::vector<experiments::Result> runAll(const std::vector<experiments::Job>& jobs, int threads,
                                        experiments::Delivery delivery = experiments::Delivery::InJobOrder) {
  std::vector<experiments::Result> out;
  experiments::RunOptions o;
  o.threads = threads;
  o.delivery = delivery;
  experiments::runJobs(jobs, o, [&](const experiments::Result& r) { out.push_back(r); });
  return out;
}

}  // namespace

TEST(Runner, SameResultsInJobOrderAtOneAndTwoThreads) {
  const auto jobs = boidsJobs();
  const auto one = runAll(jobs, 1), two = runAll(jobs, 2);
  ASSERT_EQ(one.size(), jobs.size());
  ASSERT_EQ(two.size(), jobs.size());
  for (size_t i = 0; i < jobs.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(one[i].job, i);
    EXPECT_EQ(two[i].job, i);
    ASSERT_TRUE(one[i].ok) << one[i].error;
    ASSERT_EQ(one[i].values.size(), 2u);
    // Bit for bit, not nearly.
    EXPECT_EQ(std::memcmp(one[i].values.data(), two[i].values.data(), 2 * sizeof(double)), 0);
  }
  // The parameter is applied: alignment 0 and 2 flocks differ in polarization.
  EXPECT_NE(one[0].values[0], one[4].values[0]);
  // Each delivered once even as they finish.
  const auto loose = runAll(jobs, 2, experiments::Delivery::AsFinished);
  std::vector<int> seen(jobs.size(), 0);
  for (const auto& r : loose) ++seen[r.job];
  for (int s : seen) EXPECT_EQ(s, 1);
}

TEST(Runner, MatchesTheClaimsTracker) {
  const scenes::Claim* claim = scenes::findClaim("boids.separation-scatters");
  ASSERT_NE(claim, nullptr);
  experiments::Job j;
  j.scene = claim->scene;
  j.preset = claim->preset;
  j.sets.assign(claim->sets.begin(), claim->sets.end());
  j.start = claim->start;
  j.seed = 4;
  j.from = claim->from;
  j.to = claim->from + claim->window;
  j.metrics = {{claim->rule.metric, claim->rule.reduce, claim->rule.level}};
  const experiments::Result r = experiments::runJob(j);
  ASSERT_TRUE(r.ok) << r.error;
  // The window's way to the same number: the claim's tracker fed each step (the runner reduces only
  // the window's steps, the tracker every step it is given, ending when the window has passed).
  scenes::SceneDriver driver;
  std::string error;
  ASSERT_TRUE(driver.prepare(j.setup(), j.seed, error)) << error;
  scenes::ClaimTracker tracker;
  tracker.begin(*claim);
  driver.advance(experiments::jobSteps(j), [&](const scenes::StepTaken& taken) {
    tracker.sample(taken.simTime, driver.metrics());
    return !tracker.done();
  });
  ASSERT_TRUE(tracker.done());
  EXPECT_EQ(r.values[0], tracker.value());
}

TEST(Runner, CancelStopsAndDeliversNoHalfJobs) {
  std::vector<experiments::Job> jobs = boidsJobs();
  for (auto& j : jobs) j.to = 1000.0;  // far longer than the test
  std::atomic<bool> cancel{true};
  experiments::RunOptions o;
  o.threads = 2;
  o.cancel = &cancel;
  size_t calls = 0;
  EXPECT_EQ(experiments::runJobs(jobs, o, [&](const experiments::Result&) { ++calls; }), 0u);
  EXPECT_EQ(calls, 0u);
  const experiments::Result r = experiments::runJob(jobs[0], &cancel);
  EXPECT_TRUE(r.cancelled);
  EXPECT_FALSE(r.ok);
}

TEST(Runner, BadJobsAreOneLine) {
  experiments::Job j = boidsJobs()[0];
  std::string error;
  EXPECT_TRUE(experiments::checkJob(j, error)) << error;
  auto bad = [&](experiments::Job b, const char* expect) {
    std::string e;
    EXPECT_FALSE(experiments::checkJob(b, e));
    EXPECT_NE(e.find(expect), std::string::npos) << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
    const experiments::Result r = experiments::runJob(b);
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.error, e);
  };
  experiments::Job b = j;
  b.scene = "nope";
  bad(b, "unknown scene");
  b = j;
  b.metrics[0].name = "speediness";
  bad(b, "no metric 'speediness'");
  b = j;
  b.sets.push_back("wAli=99");
  bad(b, "wAli");
  b = j;
  b.from = 3;
  b.to = 2;
  bad(b, "window");
}
