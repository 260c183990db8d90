// Scratch files for the scene tests (presets saved, bad presets written).
#pragma once
#include <filesystem>
#include <fstream>
#include <string>

namespace scenetest {

// A path in the scene tests' folder under the system's temporary directory.
inline std::string tempPath(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / "crowdlab-scene-tests";
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

inline void writeFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

}  // namespace scenetest
