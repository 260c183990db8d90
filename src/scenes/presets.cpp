#include "scenes/presets.hpp"

#include <nlohmann/json.hpp>

namespace scenes {

std::vector<BuiltinPreset> builtinPresets(const std::string& scene) {
  std::vector<BuiltinPreset> out;
  for (const BuiltinPreset& p : allBuiltinPresets())
    if (scene == p.scene) out.push_back(p);
  return out;
}

namespace {
std::string field(const BuiltinPreset& p, const char* key, const std::string& fallback) {
  nlohmann::json j = nlohmann::json::parse(p.json, nullptr, false);
  if (j.is_object() && j.contains(key) && j[key].is_string()) return j[key].get<std::string>();
  return fallback;
}
}  // namespace

std::string presetTitle(const BuiltinPreset& p) { return field(p, "name", p.file); }
std::string presetDescription(const BuiltinPreset& p) { return field(p, "description", ""); }

bool applyBuiltinPreset(std::span<const Param> params, const BuiltinPreset& p, std::string& error) {
  std::string label = std::string("built-in preset ") + p.scene + "/" + p.file;
  return loadPresetText(params, p.json, label, p.scene, error);
}

}  // namespace scenes
