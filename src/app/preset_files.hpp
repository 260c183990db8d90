// The user's preset files, managed from the scene panel: rename and delete (saving is
// scenes::savePresetFile). Messages name the file; nothing is overwritten by a rename.
#pragma once
#include <string>

namespace app {

// Renames `path` to `<its folder>/<newStem>.json`; false with a message when the name is taken,
// the same, or the rename fails (the file is then as it was).
bool renameUserPreset(const std::string& path, const std::string& newStem, std::string& renamedTo, std::string& error);
// Removes the preset file; false with a message when it cannot.
bool deleteUserPreset(const std::string& path, std::string& error);

}  // namespace app
