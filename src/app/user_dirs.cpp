#include "app/user_dirs.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace app {

namespace {
std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

// The value of `key` in user-dirs.dirs: lines `XDG_PICTURES_DIR="$HOME/Pictures"`; "$HOME/" is the
// only substitution the format allows. "" when absent.
std::string fromUserDirsFile(const std::string& key, const std::string& home) {
  std::string config = env("XDG_CONFIG_HOME");
  if (config.empty()) config = home + "/.config";
  std::ifstream in(config + "/user-dirs.dirs");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(key + "=", 0) != 0) continue;
    std::string value = line.substr(key.size() + 1);
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
    if (value.rfind("$HOME", 0) == 0) value = home + value.substr(5);
    else if (value.empty() || value.front() != '/') return "";  // only absolute paths or $HOME/... are valid
    while (value.size() > 1 && value.back() == '/') value.pop_back();
    return value;
  }
  return "";
}
}  // namespace

std::string userDir(UserDir which) {
  const std::string home = env("HOME");
  if (home.empty()) return ".";
  const std::string dir = fromUserDirsFile(which == UserDir::Pictures ? "XDG_PICTURES_DIR" : "XDG_DOCUMENTS_DIR", home);
  std::error_code ec;
  if (!dir.empty() && std::filesystem::is_directory(dir, ec)) return dir;
  return home;
}

std::string inUserDir(UserDir which, const std::string& name) { return userDir(which) + "/" + name; }

std::string assetsDirFor(const std::string& executable) {
  std::error_code ec;
  const std::string fromEnv = env("CROWDLAB_ASSETS");
  if (!fromEnv.empty() && std::filesystem::is_directory(fromEnv, ec)) return fromEnv;
  if (executable.empty()) return "";
  const std::filesystem::path bin = std::filesystem::path(executable).parent_path();
  for (const std::filesystem::path& candidate :
       {bin / ".." / "share" / "crowdlab" / "assets", bin / ".." / "assets", bin / "assets"}) {
    if (std::filesystem::is_directory(candidate, ec)) return candidate.lexically_normal().string();
  }
  return "";
}

std::string assetsDir() {
  std::error_code ec;
  // The program's file, links resolved: /usr/bin/crowdlab, or build/crowdlab in a source tree.
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return assetsDirFor(ec ? std::string() : self.string());
}

}  // namespace app
