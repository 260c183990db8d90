#include "app/preset_files.hpp"

#include <filesystem>

namespace app {

namespace fs = std::filesystem;

bool renameUserPreset(const std::string& path, const std::string& newStem, std::string& renamedTo, std::string& error) {
  const fs::path from(path);
  const fs::path to = from.parent_path() / (newStem + ".json");
  std::error_code ec;
  if (to == from) {
    error = "the preset is already called " + newStem;
    return false;
  }
  if (fs::exists(to, ec)) {
    error = "a preset called " + newStem + " exists already (" + to.string() + "): choose another name";
    return false;
  }
  fs::rename(from, to, ec);
  if (ec) {
    error = "could not rename " + from.string() + ": " + ec.message();
    return false;
  }
  renamedTo = to.string();
  return true;
}

bool deleteUserPreset(const std::string& path, std::string& error) {
  std::error_code ec;
  if (!fs::remove(path, ec)) {
    error = "could not delete " + path + (ec ? ": " + ec.message() : ": it is gone already");
    return false;
  }
  return true;
}

}  // namespace app
