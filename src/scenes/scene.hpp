// The scene interface and registry: a scene's simulation side, which builds without ImGui or OpenGL.
// A scene owns its parameters and its agents, steps them and fills the agent batch; it is made with
// its context and seed, and registers itself with one line at the bottom of its file:
//   static bool registered = scenes::registerScene({"boids", "Boids playground", 2, &create});
// Its panel, mouse and keys are its window class's (scenes/scene_window.hpp), registered apart.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>
#include <glm/glm.hpp>
#include "render/agent_batch.hpp"
#include "render/camera.hpp"
#include "render/color.hpp"
#include "render/debug_draw.hpp"
#include "render/frame.hpp"
#include "scenes/params.hpp"
#include "sim/core/metric.hpp"

namespace scenes {

// What the app hands a scene: cameras, cursor, time. Owned by the app, valid for the scene's life.
struct SceneContext {
  render::Camera2D camera2D;
  render::OrbitCamera camera3D;
  glm::vec2 mouseScreen{0.0f};   // framebuffer pixels
  glm::vec2 mouseWorld{0.0f};    // 2D world units under the cursor
  bool mouseInView = false;      // over the view, not over an ImGui window
  double simTime = 0.0;          // simulated seconds since reset
  double realTime = 0.0;         // wall seconds since start (animation)
  bool paused = false;
  bool lightTheme = false;       // the light (projector) theme: the renderer darkens every colour (FrameView::ink)
  glm::vec2 viewOrigin{0.0f};    // the world viewport's top-left corner in the window, points (its size: camera2D.viewport)
  bool userView = false;         // the user zoomed, panned or orbited since the view was last fitted (app/world_view.hpp)
  render::FrameStats lastFrame;  // the renderer's figures for the previous frame (draw calls, agent timings)
  double lastRenderMs = 0.0;     // CPU time the previous frame spent drawing, UI included
};

// The latest metrics a scene took from its model, read by name by its panel, plots and metrics().
class MetricReading {
 public:
  template <class Model>
  void take(Model& model) {
    values_.clear();
    model.appendMetrics(values_);
  }
  double operator[](std::string_view name) const { return sim::metricValue(values_, name); }
  void appendTo(std::vector<sim::Metric>& out) const { out.insert(out.end(), values_.begin(), values_.end()); }

 private:
  std::vector<sim::Metric> values_;
};

enum class View { TwoD, ThreeD };

// A point of a y-up model (the corridor, the pedestrians) where the y-down 2D camera draws it, and a
// click back into the model: (x, -y) both ways.
inline glm::vec2 toView(glm::vec2 p) { return {p.x, -p.y}; }

// Sizes every scene is drawn with, for presenting to a big room: a declared parameter of each scene
// (Scene::agentScaleParam, declared once here), applied by the renderer to the whole agent batch.
struct DrawSizes {
  float agentScale = 1.0f;  // drawn glyphs times this; the simulation never sees it
};

// One key or mouse action a scene answers, for F1 and the README's key table.
struct KeyAction {
  const char* input;   // "A", "Shift+click", "Right click"
  const char* action;  // "alarm: a falcon dives into the flock"
};

class Scene {
 public:
  // The context (the app's, or a headless run's) outlives the scene; the seed is the scene's for its life.
  Scene(SceneContext& context, uint64_t seedValue) : ctx(&context), seed(seedValue) {}
  virtual ~Scene() = default;

  // Rebuilds agents from the parameters and `seed`; same seed and parameters, same frames.
  virtual void reset() = 0;
  // After reset(): the named starting state an experiment needs ("" is the plain reset; see claims.hpp),
  // e.g. a formed flock, or a falcon due at a set time. False for a name the scene does not know.
  virtual bool startState(const std::string& name) { return name.empty(); }
  // One fixed simulation step of dt seconds.
  virtual void step(float dt) = 0;
  // Measurements beyond the simulation itself (a nearest-neighbour distance, say), taken after each
  // step by the app, headless runs and tests, and timed apart from the step: a step's time is the
  // simulation's alone.
  virtual void sampleMetrics() {}
  // Fills the agent batch (one instanced draw) and the debug draw for this frame.
  virtual void draw(render::AgentBatch& agents, render::DebugDraw& debug) = 0;
  // The follow camera (key F) and "next agent" (key N), as in OpenSteerDemo, for scenes where one
  // agent can be selected. selectNextAgent() selects the next one (the first, when none is) and
  // returns true; selectedAgent() is where the selected one is now (2D: z = 0), nullopt when none.
  virtual bool selectNextAgent() { return false; }
  virtual std::optional<glm::vec3> selectedAgent() const { return std::nullopt; }

  // Every tunable parameter (see params.hpp), the base's agentScale last. Pointers stay valid for the
  // scene's life.
  std::span<const Param> params() const { return params_; }
  // Called after any parameter write (slider, --set, preset): reconcile (resize N, clamp radii).
  virtual void paramsChanged() {}
  // Appends the current metrics, mostly the model's own; names are stable (HUD plots, --metrics-csv,
  // --headless). Names ending in "_ms" are wall-clock timings: the only metrics allowed to differ
  // between two runs with the same seed.
  virtual void metrics(std::vector<sim::Metric>& out) const = 0;
  virtual size_t agentCount() const = 0;

  // The world rectangle Home frames (2D), or sets the orbit camera (3D).
  virtual void homeCamera(SceneContext& ctx) { ctx.camera2D.fit({0, 0}, {1280, 720}); }

  // What the scene is, set by its constructor: data, not virtual functions.
  const char* about = "";           // "About this scene": what it shows, a lede of at most 25 words
  const char* aboutMore = "";       // the rest: what to try, what crowdlab finds (behind "More", and in F1)
  std::span<const KeyAction> keys;  // the keys and mouse actions its window class answers (F1, the README)
  View view = View::TwoD;           // the murmuration's reset() switches it with its 2D mode

  SceneContext* const ctx;  // given at construction, never null
  const uint64_t seed;       // reset() rebuilds from it
  DrawSizes drawSizes;

 protected:
  // A scene's constructor fills params_ with its declarations, then calls this once: it appends the
  // parameters every scene has (agentScale) and writes every default.
  void declareParams() {
    params_.push_back(Param::f("agentScale", "agent size (x)", &drawSizes.agentScale, 0.5f, 4.0f, 1.0f,
                               "Draws every agent this many times larger, for a projector; the simulation is unchanged")
                          .ofScene());
    applyDefaults(params_);
  }
  std::vector<Param> params_;
  // The selected agent's look where a scene has none of its own: larger, in the selection colour,
  // inside a ring.
  void markSelected(render::AgentBatch& agents, render::DebugDraw& debug, size_t index) const {
    if (index >= agents.instances.size()) return;
    render::AgentInstance& a = agents.instances[index];
    a.color = kSelectedAgentColor;
    a.scale *= 1.6f;
    debug.circle(a.position, 0.8f * a.scale * drawSizes.agentScale, kSelectedAgentColor);
  }
  static constexpr uint32_t kSelectedAgentColor = render::rgba(255, 70, 200);  // magenta: no scene's palette uses it
};

struct SceneEntry {
  const char* name;    // command-line name: "boids"
  const char* title;   // menu title: "Boids playground"
  int order;           // teaching order; keys 1-9 follow it
  std::unique_ptr<Scene> (*create)(SceneContext& ctx, uint64_t seed);
};

bool registerScene(const SceneEntry& entry);
// Registered scenes in teaching order.
std::vector<SceneEntry> registeredScenes();
const SceneEntry* findScene(const std::string& name);
std::string sceneNames();  // "murmuration, boids, ..." for messages
// A scene made only to read what it declares (parameters, keys, about): on a context no run uses,
// with seed 1. Never reset, stepped or drawn (those get a context of their own: create).
std::unique_ptr<Scene> declarationsOf(const SceneEntry& entry);

}  // namespace scenes
