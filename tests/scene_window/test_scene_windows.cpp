// The scenes' window side (scenes/scene_window.hpp) without a window: each scene made as the app makes
// it, its mouse and keys driven by events as the app's input hands them over, its picture read from the
// agent batch and the debug shapes. No GL context (the GPU scene falls back to its CPU flock): the
// panels themselves are checked by the app tests.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>
#include "scenes/params.hpp"
#include "scenes/scene.hpp"
#include "scenes/scene_window.hpp"
#include "../scenes/scene_under_test.hpp"

namespace {

// A scene made for a window (its window class), else as the scene tests make it.
struct WindowScene : scenetest::SceneUnderTest {
  WindowScene(const char* name, const std::vector<std::string>& assignments, std::optional<uint64_t> seed = {})
      : SceneUnderTest(name, assignments, seed, &scenes::createForWindow) {}
  scenes::SceneUi* ui() const {
    scenes::SceneUi* u = scenes::uiOf(*scene);
    EXPECT_NE(u, nullptr);
    return u;
  }
};

// The debug circle drawn around the selected agent: the only circle wider than an agent.
int selectionRings(const render::DebugDraw& debug, glm::vec2 at, float agentRadius) {
  int n = 0;
  for (const auto& c : debug.circles())
    if (c.radius > 1.2f * agentRadius && glm::distance(glm::vec2(c.center), at) < 0.01f) ++n;
  return n;
}

// Lines that start at `at`: the selected agent's lines to its neighbours and its velocity arrows.
int linesFrom(const render::DebugDraw& debug, glm::vec2 at) {
  int n = 0;
  const auto& v = debug.lines();
  for (size_t k = 0; k + 1 < v.size(); k += 2) n += glm::distance(glm::vec2(v[k].position), at) < 0.01f;
  return n;
}

}  // namespace

// Every scene has a window class: its panel and input reach the app through createForWindow, and no
// window class is registered under a name no scene has.
TEST(SceneWindows, EveryRegisteredSceneHasItsWindowClass) {
  for (const scenes::SceneEntry& e : scenes::registeredScenes()) {
    SCOPED_TRACE(e.name);
    scenes::SceneContext ctx;
    auto plain = e.create(ctx, 1);
    auto windowed = scenes::createForWindow(e, ctx, 1);
    ASSERT_TRUE(plain && windowed);
    EXPECT_EQ(scenes::uiOf(*plain), nullptr) << "the simulation class alone has no panel";
    EXPECT_NE(scenes::uiOf(*windowed), nullptr);
    EXPECT_EQ(windowed->params().size(), plain->params().size()) << "the window class declares nothing of its own";
  }
}

TEST(OrcaCorridorScene, ClickingAnAgentSelectsIt) {
  WindowScene s("orca-corridor", {"inset=on"});
  s.run(30);
  render::AgentBatch batch;
  render::DebugDraw debug;
  s.scene->draw(batch, debug);
  const float radius = float(scenes::findParam(s.scene->params(), "radius")->get());
  // Pick an agent of the west-walking group (the default selection walks east).
  const glm::vec2 target(batch.instances.back().position);
  EXPECT_EQ(selectionRings(debug, target, radius), 0);
  EXPECT_LE(linesFrom(debug, target), 1);  // at most its trail

  scenes::MouseEvent click;
  click.kind = scenes::MouseEvent::Down;
  click.button = 1;
  click.world = target + glm::vec2(0.3f * radius, -0.2f * radius);  // on its body, off centre
  EXPECT_TRUE(s.ui()->onMouse(click));
  batch.clear();
  debug.clear();
  s.scene->draw(batch, debug);
  EXPECT_EQ(selectionRings(debug, target, radius), 1);
  // With ORCA its program is probed and drawn: lines to the neighbours behind its half-planes, arrows
  // for the preferred and the chosen velocity.
  EXPECT_GE(linesFrom(debug, target), 4);

  // Empty floor is not the scene's: the app may use the click.
  click.world = {0.0f, 1e4f};
  EXPECT_FALSE(s.ui()->onMouse(click));
}

TEST(SpatialHashScene, HoverShowsTheQueryOfTheAgentUnderTheCursor) {
  WindowScene t("spatial-hash", {"N=2000", "grid=off", "heat=off"}, 7);
  t.run(2);
  render::AgentBatch batch;
  render::DebugDraw debug;
  t.scene->draw(batch, debug);
  ASSERT_EQ(batch.instances.size(), 2000u);
  EXPECT_TRUE(debug.triangles().empty());  // no overlay, nothing hovered

  const glm::vec2 at = glm::vec2(batch.instances[100].position);
  t.ctx.mouseWorld = at;
  t.ctx.mouseInView = true;
  scenes::MouseEvent move;
  move.kind = scenes::MouseEvent::Move;
  move.world = at;
  t.ui()->onMouse(move);
  batch.clear();
  debug.clear();
  t.scene->draw(batch, debug);
  EXPECT_EQ(batch.instances.size(), 2000u);
  EXPECT_GT(batch.instances[100].scale, batch.instances[0].scale);  // the hovered agent stands out
  EXPECT_EQ(debug.triangles().size(), 9u * 6u);                      // its 3x3 cells, filled
  EXPECT_EQ(debug.circles().size(), 1u);                             // its perception radius
}

TEST(SteeringScene, MouseAndKeysSetTheTargetAndEditObstacles) {
  WindowScene s("steering", {"seek=on", "arrive=on", "separate=off", "N=5"});
  scenes::MouseEvent down;
  down.kind = scenes::MouseEvent::Down;
  down.button = 1;
  down.world = {200.0f, 600.0f};  // empty ground
  EXPECT_TRUE(s.ui()->onMouse(down));
  scenes::MouseEvent up = down;
  up.kind = scenes::MouseEvent::Up;
  EXPECT_TRUE(s.ui()->onMouse(up));
  s.run(900);
  EXPECT_LT(s.metric("mean_distance_to_target"), 3.0);  // measured against the new target

  // A right-click on empty ground is not the scene's (the camera pans); on an obstacle it removes it.
  scenes::MouseEvent right = down;
  right.button = 3;
  right.world = {30.0f, 30.0f};
  EXPECT_FALSE(s.ui()->onMouse(right));
  right.world = {420.0f, 300.0f};  // the core's first default obstacle
  EXPECT_TRUE(s.ui()->onMouse(right));
  EXPECT_FALSE(s.ui()->onMouse(right));  // gone now

  // Key O drops an obstacle under the cursor; a left press on it grabs it and the drag moves it.
  s.ctx.mouseWorld = {1000.0f, 150.0f};
  EXPECT_TRUE(s.ui()->onKey('o', false));
  down.world = {1005.0f, 150.0f};
  EXPECT_TRUE(s.ui()->onMouse(down));
  scenes::MouseEvent move = down;
  move.kind = scenes::MouseEvent::Move;
  move.world = {305.0f, 650.0f};
  EXPECT_TRUE(s.ui()->onMouse(move));
  up.world = move.world;
  EXPECT_TRUE(s.ui()->onMouse(up));
  right.world = {1000.0f, 150.0f};
  EXPECT_FALSE(s.ui()->onMouse(right));  // moved away from here...
  right.world = {300.0f, 650.0f};
  EXPECT_TRUE(s.ui()->onMouse(right));   // ...to here, keeping the grab offset
}

// The compute shaders are the window side's: without a GL context it says so and the CPU flock runs.
TEST(GpuScene, WithoutAContextTheGpuChoiceFallsBackToTheCpuFlock) {
  WindowScene s("gpu", {"sim=gpu", "N=3000"});
  render::AgentBatch batch;
  render::DebugDraw debug;
  for (int i = 0; i < 10; ++i) {
    s.scene->step(scenetest::kDt);
    batch.clear();
    s.scene->draw(batch, debug);
  }
  EXPECT_EQ(batch.gpu.stateBuffer, 0u);
  EXPECT_EQ(batch.instances.size(), 3000u);
  EXPECT_EQ(scenes::findParam(s.scene->params(), "sim")->get(), 0.0);  // the toggle went back to CPU
  std::vector<sim::Metric> m;
  s.scene->metrics(m);
  for (const auto& metric : m) {
    if (std::string(metric.name) == "mean_neighbors") {
      EXPECT_GT(metric.value, 5.0);  // the flock stepped
    }
  }
}
