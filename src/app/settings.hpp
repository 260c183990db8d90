// User settings that persist across runs (last scene, window, UI scale, vsync, theme) and the
// per-user folders (XDG on Linux, %APPDATA% on Windows, Application Support on macOS).
#pragma once
#include <string>
#include <vector>

namespace app {

struct Settings {
  std::string lastScene;
  int windowX = -1, windowY = -1;  // -1: centred
  int windowWidth = 0, windowHeight = 0;  // 0: none saved yet, the window opens maximised
  float uiScale = 0.0f;            // 1.0 - 3.0; 0: never chosen, the first run picks one from the display
  bool vsync = true;
  bool darkTheme = true;
  // The file could not be taken whole and could not be moved aside (a link, as a dotfiles folder
  // makes): it stays as the user wrote it, and saveSettings never writes defaults over it.
  bool keepFile = false;
};

// $CROWDLAB_CONFIG_DIR if set (tests), else the platform's per-user config folder + "/crowdlab".
std::string configDir();
std::string settingsPath();
std::string userPresetDir(const std::string& scene);

// Missing file: defaults, no warning. An unreadable, oversized or corrupt file, or a bad field:
// defaults for what is wrong and a one-line warning; the file is moved aside to settings.json.bad
// (the warning says where), so the next save never overwrites a hand-edited file.
Settings loadSettings(const std::string& path, std::string& warning);
// The same from text in memory; `label` names the source in the warning.
Settings parseSettings(const std::string& text, const std::string& label, std::string& warning);
// Written to a temporary file, then renamed: never a half-written settings file. Refused (false,
// with the reason) for settings whose file is kept (keepFile).
bool saveSettings(const std::string& path, const Settings& s, std::string& error);

// Whether a window at (x, y) of w x h would show a grip of its title bar (64 x 32 points of its top
// edge) on one of the displays (x, y, w, h each): a saved position off every display (a projector
// unplugged, another machine's settings) is dropped, or the window would open invisible.
struct DisplayArea {
  int x, y, w, h;
};
bool windowPositionVisible(int x, int y, int w, const std::vector<DisplayArea>& displays);
// A saved window moved, and shrunk where it must be, to lie wholly inside a display's work area (a
// window saved taller than the work area had its bottom rows off-screen on every later start).
DisplayArea clampWindowToArea(DisplayArea window, const DisplayArea& area);

// Creates a folder and its parents; false with a message on failure.
bool makeDirectories(const std::string& path, std::string& error);

}  // namespace app
