// Fuzz target: every input goes through the three parsers that take user text
// — a preset file, a settings file and a --set value — and must come back as a value or one line,
// never a crash, a hang or a sanitizer report. Built with libFuzzer under clang (CROWDLAB_FUZZ), and
// replayed over the seed corpus and kept crash reproducers by a plain driver in every build.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>
#include "app/settings.hpp"
#include "scenes/params.hpp"
#include "io/user_files.hpp"

namespace {
// A parameter table with every kind of parameter and the float limits that once failed (0.2, 0.05),
// under the boids scene's names so the built-in boids presets reach the value checks.
struct Table {
  int n = 300, method = 1;
  float wSep = 1, wAli = 1, wCoh = 1, perception = 50, maxForce = 240, fovAngle = 270, tau = 2, tauObst = 1;
  bool fov = false, freeze = false;
  std::vector<scenes::Param> params{
      scenes::Param::i("N", "N", &n, 10, 5000, 300, "", true),
      scenes::Param::f("wSep", "wSep", &wSep, 0, 3, 1, ""),
      scenes::Param::f("wAli", "wAli", &wAli, 0, 3, 1, ""),
      scenes::Param::f("wCoh", "wCoh", &wCoh, 0, 3, 1, ""),
      scenes::Param::f("perception", "perception", &perception, 10, 200, 50, ""),
      scenes::Param::f("maxForce", "maxForce", &maxForce, 10, 2000, 240, "", true),
      scenes::Param::f("fovAngle", "fovAngle", &fovAngle, 30, 360, 270, ""),
      scenes::Param::f("tau", "tau", &tau, 0.2f, 5, 2, ""),
      scenes::Param::f("tauObst", "tauObst", &tauObst, 0.05f, 2, 1, ""),
      scenes::Param::b("fov", "fov", &fov, false, ""),
      scenes::Param::b("freeze", "freeze", &freeze, false, ""),
      scenes::Param::e("neighbors", "neighbors", &method, "brute|grid", 1, ""),
  };
};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  Table table;
  std::string error;
  // A preset, for the scene it names (so every built-in preset passes the scene check).
  std::string scene = "boids";
  if (nlohmann::json doc; io::parseUserJson(text, doc, error) && doc.is_object() && doc.contains("scene") &&
                          doc["scene"].is_string())
    scene = doc["scene"].get<std::string>();
  scenes::loadPresetText(table.params, text, "fuzz", scene, error);
  // Settings.
  std::string warning;
  app::parseSettings(text, "fuzz", warning);
  // --set: the whole input as an assignment, and as the value of every parameter.
  scenes::setParamAssignment(table.params, text, error);
  for (const scenes::Param& p : table.params) scenes::setParamFromText(p, text, error);
  // Whatever was accepted is within its declared range.
  for (const scenes::Param& p : table.params)
    if (p.get() < p.min || p.get() > p.max) __builtin_trap();
  return 0;
}
