// One registered scene driven the way the app drives it, without a window: created by name, its
// parameters set by name as --set sets them, reset, then stepped at 60 Hz. Shared by the scene tests.
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>
#include "scenes/params.hpp"
#include "scenes/scene.hpp"

namespace scenetest {

constexpr float kDt = 1.0f / 60.0f;

struct SceneUnderTest {
  scenes::SceneContext ctx;
  std::unique_ptr<scenes::Scene> scene;

  // `make` makes the scene from its entry; by default its simulation alone (SceneEntry::create).
  using Make = std::unique_ptr<scenes::Scene> (*)(const scenes::SceneEntry&, scenes::SceneContext&, uint64_t);
  explicit SceneUnderTest(const char* name, const std::vector<std::string>& assignments = {},
                          std::optional<uint64_t> seed = {}, Make make = nullptr) {
    const scenes::SceneEntry* entry = scenes::findScene(name);
    EXPECT_NE(entry, nullptr) << name;
    if (!entry) return;
    scene = make ? make(*entry, ctx, seed.value_or(1)) : entry->create(ctx, seed.value_or(1));
    set(assignments);
    scene->reset();
  }

  // Each assignment must be accepted; then the scene hears of the change.
  void set(const std::vector<std::string>& assignments) {
    for (const std::string& a : assignments) {
      std::string error;
      EXPECT_TRUE(scenes::setParamAssignment(scene->params(), a, error)) << a << ": " << error;
    }
    scene->paramsChanged();
  }

  void run(int steps) {
    for (int s = 0; s < steps; ++s) {
      scene->step(kDt);
      scene->sampleMetrics();
    }
  }

  double metric(const char* name) const {
    std::vector<sim::Metric> out;
    scene->metrics(out);
    for (const sim::Metric& m : out)
      if (std::string(m.name) == name) return m.value;
    ADD_FAILURE() << "no metric " << name;
    return 0.0;
  }

  const scenes::Param& param(const std::string& name) const {
    const scenes::Param* p = scenes::findParam(scene->params(), name);
    EXPECT_NE(p, nullptr) << name;
    static float dummy = 0;
    static const scenes::Param none = scenes::Param::f("none", "none", &dummy, 0, 1, 0, "none");
    return p ? *p : none;
  }
};

}  // namespace scenetest
