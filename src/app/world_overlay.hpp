// What the window draws over the world and measures of it, in window points: the world labels in
// the UI's font, the pause marker and the Fit control, the agents' glyph size and their box on
// screen. Free of the App: each takes the world viewport it is drawn in.
#pragma once
#include <cstddef>
#include <glm/glm.hpp>
#include "app/world_view.hpp"
#include "render/agent_batch.hpp"
#include "render/debug_draw.hpp"
#include "render/renderer.hpp"

namespace app {

// The scene's world labels (DebugDraw texts), rasterised at the UI scale like the panels. A label
// that must stay clear of the panels is kept between the HUD (`hudRight`) and the scene panel
// (`panelLeft`), and shrunk when the gap is narrower than it (each such line goes into the probe).
void drawWorldLabels(const render::DebugDraw& debug, const render::FrameView& view, const WorldViewport& world,
                     float hudRight, float panelLeft);

// On the world, with the UI hidden (Tab) too: a pause marker a room can see (bottom centre) while
// `paused`, and while `userView` (the user zoomed or panned) the control that fits the world to the
// view again (top centre). True when that control was clicked.
bool drawWorldMarks(const WorldViewport& world, bool paused, bool userView);

// How long a 2D agent glyph is drawn, in window points: the median instance's length (tail to nose)
// times agentScale times the zoom (a sample of about a thousand: it runs every frame).
float agentGlyphPoints(const render::AgentBatch& batch, float agentScale, float zoom);

// The agents of `batch` whose centre falls outside the world viewport (Home keeps it 0), and the box
// around those inside (window points): the tests' measure of the world's size.
struct AgentsOnScreen {
  size_t outside = 0;
  Box box;
};
AgentsOnScreen agentsOnScreen(const render::AgentBatch& batch, const glm::mat4& viewProjection, const WorldViewport& world);

}  // namespace app
