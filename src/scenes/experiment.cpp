#include "scenes/experiment.hpp"

#include "scenes/presets.hpp"
#include "io/user_files.hpp"

namespace scenes {

bool startSetup(Scene& scene, const ExperimentSetup& setup, std::string& error) {
  const std::span<const Param> params = scene.params();
  applyDefaults(params);
  if (!setup.preset.empty()) {
    bool found = false;
    for (const BuiltinPreset& p : builtinPresets(setup.scene)) {
      if (setup.preset != p.file) continue;
      found = true;
      if (!applyBuiltinPreset(params, p, error)) return false;
    }
    if (!found) {
      error = "no built-in preset " + setup.scene + "/" + io::quoteText(setup.preset);
      return false;
    }
  }
  if (!setup.presetFile.empty() && !loadPresetFile(params, setup.presetFile, setup.scene, error)) return false;
  for (const std::string& s : setup.sets)
    if (!setParamAssignment(params, s, error)) return false;
  scene.paramsChanged();
  scene.reset();
  if (!scene.startState(setup.start)) {
    error = "scene " + setup.scene + " has no starting state " + io::quoteText(setup.start);
    return false;
  }
  return true;
}

}  // namespace scenes
