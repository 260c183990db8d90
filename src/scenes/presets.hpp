// Built-in presets: assets/presets/<scene>/*.json, embedded into the binary at build time.
// Each is {"name": ..., "description": ..., "scene": ..., "params": {...}}; a preset may list only
// the parameters it changes (an experiment sets the weights and leaves N alone).
#pragma once
#include <span>
#include <string>
#include <vector>
#include "scenes/params.hpp"

namespace scenes {

struct BuiltinPreset {
  const char* scene;  // folder name = scene's command-line name
  const char* file;   // e.g. "separation-only.json"
  const char* json;
};

std::span<const BuiltinPreset> allBuiltinPresets();
std::vector<BuiltinPreset> builtinPresets(const std::string& scene);

// The preset's "name" (falls back to the file name) and "description".
std::string presetTitle(const BuiltinPreset& p);
std::string presetDescription(const BuiltinPreset& p);

bool applyBuiltinPreset(std::span<const Param> params, const BuiltinPreset& p, std::string& error);

}  // namespace scenes
