// The program's run modes (a window, headless) and what both need from the command line: the scene
// created from its name, seed, preset and --set, and the output files opened before any work.
#pragma once
#include <memory>
#include <string>
#include "app/cli.hpp"
#include "io/output_file.hpp"
#include "scenes/scene.hpp"

namespace app {

struct Settings;
inline constexpr const char* kDefaultScene = "murmuration";  // the first of the teaching order

// The scene a window run opens: --scene, else the settings' last scene when it still exists (a
// warning when it does not), else kDefaultScene. --set and --preset are checked against it.
std::string resolveSceneName(const Options& o, const Settings& settings, std::string& warning);

// Creates the named scene and applies the preset, then every --set, then reset().
// On a bad name, file or value: nullptr and a one-line message.
std::unique_ptr<scenes::Scene> makeScene(const std::string& name, const Options& o, scenes::SceneContext& ctx,
                                         std::string& error);
// The window's own output files, opened before the window and held until they are written: a path
// that cannot be written, or a FIFO nobody reads, fails before any work rather than at the end.
struct WindowOutputs {
  io::OutputFile state;       // --state-out: at exit, and on each SIGUSR1 (rewrite)
  io::OutputFile screenshot;  // --screenshot: the last frame's picture
};
// Opens --state-out and --screenshot into `out` and checks --record-dir (its folder is created
// here): false with one line naming the path and why.
bool openWindowOutputs(const Options& o, WindowOutputs& out, std::string& error);
int runHeadless(const Options& o);
int runWindow(const Options& o);
// For `crowdlab bench --report`: the GL renderer, from a hidden window when a display is there.
std::string benchReportHeader();

}  // namespace app
