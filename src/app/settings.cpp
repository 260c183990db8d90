#include "app/settings.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include "io/atomic_file.hpp"
#include "io/user_files.hpp"

namespace app {

std::string configDir() {
  if (const char* dir = std::getenv("CROWDLAB_CONFIG_DIR"); dir && *dir) return dir;
#if defined(_WIN32)
  if (const char* appdata = std::getenv("APPDATA")) return std::string(appdata) + "\\crowdlab";
  return "crowdlab";
#elif defined(__APPLE__)
  if (const char* home = std::getenv("HOME")) return std::string(home) + "/Library/Application Support/crowdlab";
  return "crowdlab";
#else
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) return std::string(xdg) + "/crowdlab";
  if (const char* home = std::getenv("HOME")) return std::string(home) + "/.config/crowdlab";
  return ".crowdlab";
#endif
}

std::string settingsPath() { return configDir() + "/settings.json"; }
std::string userPresetDir(const std::string& scene) { return configDir() + "/presets/" + scene; }

bool windowPositionVisible(int x, int y, int w, const std::vector<DisplayArea>& displays) {
  constexpr int kGripW = 64, kGripH = 32;
  for (const DisplayArea& d : displays) {
    const int left = std::max(x, d.x), right = std::min(x + w, d.x + d.w);
    const int top = std::max(y, d.y), bottom = std::min(y + kGripH, d.y + d.h);
    if (right - left >= std::min(kGripW, w) && bottom - top >= kGripH / 2) return true;
  }
  return false;
}

DisplayArea clampWindowToArea(DisplayArea window, const DisplayArea& area) {
  window.w = std::clamp(window.w, 1, std::max(area.w, 1));
  window.h = std::clamp(window.h, 1, std::max(area.h, 1));
  window.x = std::clamp(window.x, area.x, area.x + area.w - window.w);
  window.y = std::clamp(window.y, area.y, area.y + area.h - window.h);
  return window;
}

bool makeDirectories(const std::string& path, std::string& error) {
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  if (ec) {
    error = path + ": cannot create folder (" + ec.message() + ")";
    return false;
  }
  return true;
}

namespace {
// A settings file the program could not take whole (a typo, a bad field, too large) is moved aside
// before anything is saved over it: `path`.bad (else .bad-2, .bad-3...), so a hand edit is never lost.
// The name it went to, or "" when it stayed (not a regular file, or the move failed).
std::string keepAside(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_regular_file(fs::symlink_status(path, ec))) return {};
  for (int k = 1; k <= 100; ++k) {
    const std::string bad = path + ".bad" + (k > 1 ? "-" + std::to_string(k) : std::string());
    if (fs::exists(fs::symlink_status(bad, ec))) continue;
    fs::rename(path, bad, ec);
    return ec ? std::string() : bad;
  }
  return {};
}
}  // namespace

Settings loadSettings(const std::string& path, std::string& warning) {
  std::string text, error;
  Settings s;
  switch (io::readUserFile(path, text, error)) {
    case io::ReadStatus::Missing: return Settings{};  // first run
    case io::ReadStatus::Failed: warning = error + "; using default settings"; break;
    case io::ReadStatus::Ok: s = parseSettings(text, path, warning); break;
  }
  if (!warning.empty()) {
    const std::string kept = keepAside(path);
    warning += kept.empty() ? "; the file is left as it is and not saved over" : "; the file is kept as " + kept;
    s.keepFile = kept.empty();
  }
  return s;
}

Settings parseSettings(const std::string& text, const std::string& label, std::string& warning) {
  Settings s;
  nlohmann::json j;
  std::string why;
  if (!io::parseUserJson(text, j, why)) {
    warning = label + ": not valid JSON (" + why + "); using default settings";
    return s;
  }
  if (!j.is_object()) {
    warning = label + ": expected a JSON object; using default settings";
    return s;
  }
  // Each field is taken only when it has the right type and a sensible value.
  std::string bad;
  auto number = [&](const char* key, double lo, double hi, auto& out) {
    if (!j.contains(key)) return;
    const auto& v = j[key];
    if (v.is_number() && std::isfinite(v.get<double>()) && v.get<double>() >= lo && v.get<double>() <= hi)
      out = static_cast<std::remove_reference_t<decltype(out)>>(v.get<double>());
    else bad += std::string(bad.empty() ? "" : ", ") + key;
  };
  auto boolean = [&](const char* key, bool& out) {
    if (!j.contains(key)) return;
    if (j[key].is_boolean()) out = j[key].get<bool>();
    else bad += std::string(bad.empty() ? "" : ", ") + key;
  };
  if (j.contains("lastScene")) {
    if (j["lastScene"].is_string()) s.lastScene = j["lastScene"].get<std::string>();
    else bad += "lastScene";
  }
  number("windowX", -100000, 100000, s.windowX);
  number("windowY", -100000, 100000, s.windowY);
  number("windowWidth", 0, 16384, s.windowWidth);  // 0: maximised (none saved)
  number("windowHeight", 0, 16384, s.windowHeight);
  number("uiScale", 1.0, 3.0, s.uiScale);
  boolean("vsync", s.vsync);
  boolean("darkTheme", s.darkTheme);
  if (!bad.empty()) warning = label + ": ignored bad field(s) " + bad + "; using defaults for them";
  return s;
}

bool saveSettings(const std::string& path, const Settings& s, std::string& error) {
  if (s.keepFile) {
    error = path + " could not be read whole at start and is left as it is (fix or remove it to save settings again)";
    return false;
  }
  std::string dir = std::filesystem::path(path).parent_path().string();
  if (!dir.empty() && !makeDirectories(dir, error)) return false;
  nlohmann::json j = {{"lastScene", s.lastScene}, {"windowX", s.windowX},         {"windowY", s.windowY},
                      {"windowWidth", s.windowWidth}, {"windowHeight", s.windowHeight}, {"uiScale", s.uiScale},
                      {"vsync", s.vsync},           {"darkTheme", s.darkTheme}};
  return io::writeFileAtomically(path, j.dump(2) + "\n", error);
}

}  // namespace app
