// The boids scene driven like the app drives it.
#include <gtest/gtest.h>

#include "scene_under_test.hpp"

// Honest timing: the boids' nearest-neighbour metric is sampled apart from the step (the app times
// the two separately), so a step holds no O(N^2) work and leaves the metric alone.
TEST(BoidsScene, NearestNeighbourMetricIsSampledApartFromTheStep) {
  scenetest::SceneUnderTest t("boids", {"N=400"});
  const double atReset = t.metric("mean_nn_distance");
  for (int i = 0; i < 30; ++i) t.scene->step(scenetest::kDt);
  EXPECT_EQ(t.metric("mean_nn_distance"), atReset) << "the step computed the metric";
  for (int i = 0; i < 10; ++i) t.scene->sampleMetrics();
  EXPECT_NE(t.metric("mean_nn_distance"), atReset);
}
