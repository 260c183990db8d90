// Every model returns its metrics as named values: each name once, each value finite, and
// metricValue finds each by its name.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>
#include "sim/core/metric.hpp"
#include "sim/models/corridor.hpp"
#include "sim/models/finale.hpp"
#include "sim/models/flock.hpp"
#include "sim/models/murmuration.hpp"
#include "sim/models/steering_world.hpp"

using namespace sim;

namespace {

constexpr float kDt = 1.0f / 60.0f;

void expectNamedOnce(const std::vector<Metric>& metrics, const char* model) {
  SCOPED_TRACE(model);
  EXPECT_FALSE(metrics.empty());
  std::set<std::string> names;
  for (const Metric& m : metrics) {
    ASSERT_NE(m.name, nullptr);
    EXPECT_FALSE(std::string(m.name).empty());
    EXPECT_TRUE(names.insert(m.name).second) << m.name << " twice";
    EXPECT_TRUE(std::isfinite(m.value)) << m.name;
    EXPECT_EQ(metricValue(metrics, m.name), m.value) << m.name;
  }
}

template <class Model>
std::vector<Metric> appended(Model& model) {
  std::vector<Metric> out;
  model.appendMetrics(out);
  return out;
}

}  // namespace

TEST(Metric, ValueByNameAndNaNForAnUnknownName) {
  const std::vector<Metric> m = {{"a", 1.0}, {"b", 2.0}};
  EXPECT_EQ(metricValue(m, "b"), 2.0);
  EXPECT_TRUE(std::isnan(metricValue(m, "c")));
}

TEST(Metric, EveryModelNamesEachMetricOnce) {
  Flock<2> flock;
  flock.world.size = Vec2{400.0f, 300.0f};
  flock.method = NeighborMethod::Grid;
  flock.spawn(200, 1);
  flock.step(kDt);
  expectNamedOnce(appended(flock), "flock");
  std::vector<Metric> search;
  flock.appendSearchMetrics(search);
  expectNamedOnce(search, "flock search");
  EXPECT_EQ(metricValue(search, "checks_per_frame"), double(flock.lastChecks()));

  Murmuration<2> birds2;
  birds2.spawn(200, 1);
  birds2.step(kDt);
  expectNamedOnce(appended(birds2), "murmuration 2D");
  Murmuration<3> birds3;
  birds3.spawn(200, 1);
  birds3.step(kDt);
  const std::vector<Metric> m3 = appended(birds3);
  expectNamedOnce(m3, "murmuration 3D");
  EXPECT_EQ(metricValue(m3, "groups"), double(birds3.measure().groups));

  CorridorSim corridor;
  corridor.step(kDt);
  expectNamedOnce(appended(corridor), "corridor");

  SteeringWorld steering;
  steering.reset(1);
  steering.step(kDt);
  expectNamedOnce(appended(steering), "steering world");

  FinaleSim finale;
  finale.world = FinaleSim::worldFor(300);
  finale.spawn(300, 1);
  finale.step(kDt);
  const std::vector<Metric> f = appended(finale);
  expectNamedOnce(f, "finale");
  EXPECT_EQ(metricValue(f, "mean_neighbors"), finale.metrics().meanNeighbors);
}
