// The window's probe: where widgets were drawn and what the program measured of its own picture
// (glyph sizes, contrast, panel overflow, the follow camera's error), for the window tests and for
// users' scripts. It goes only into --state-out's JSON, under "probe"; nothing of it reaches standard
// output. Places are window points, rounded: a widget's centre [x, y], an area [x, y, w, h].
// Marks belong to one frame (beginFrame empties them): a widget not drawn in the last frame has none.
// UI thread only, as ImGui itself.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include "app/layout.hpp"

namespace app::probe {

void beginFrame();
// The last frame's marks, for those this frame did not set: a panel that skips its widgets for a
// frame (a step in flight) leaves their places as they were.
void keepLastFrames();
// The last ImGui item's centre under `name` (where a test clicks it).
void markItem(const std::string& name);
// `name` = `value` for this frame.
void set(const std::string& name, nlohmann::json value);
// `value` appended to the list `name` (a plot's points, the lines kept clear of the panels).
void append(const std::string& name, nlohmann::json value);
// An area [x, y, w, h] in whole points.
nlohmann::json area(const Box& b);
// This frame's marks and values.
const nlohmann::json& marks();

}  // namespace app::probe
