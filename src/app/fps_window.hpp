// The window's side of `crowdlab fps` (fps_run.hpp drives the cases): the run's machine and clock
// from the GL driver at its start, and its result printed and written when the last case ends.
#pragma once
#include <glm/glm.hpp>
#include "app/fps_run.hpp"

namespace app {

// Fills the result's machine (GL renderer, vendor, version, threads), platform and clock. The page's
// frames are paced by the browser with its GL work in another process: there each frame is timed by
// its own work, finished (glFinish); on the desktop by the interval between frames.
void beginFpsRun(FpsDriver& fps, bool vsync);

// The table and the one line to paste on stdout, the JSON into --json's file (the page shows both).
// The exit code: 1 when the file could not be written.
int reportFpsRun(FpsDriver& fps, glm::ivec2 drawable);

}  // namespace app
