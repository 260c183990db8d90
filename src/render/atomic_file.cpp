#include "render/atomic_file.hpp"

#include <cerrno>
#include <cstring>

namespace render {

bool writeFileAtomically(const std::string& path, const std::function<bool(std::FILE*)>& write, std::string& error) {
  const std::string tmp = path + ".tmp";
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) {
    error = path + ": cannot write (" + std::strerror(errno) + ")";
    return false;
  }
  errno = 0;
  bool ok = write(f) && std::fflush(f) == 0 && !std::ferror(f);
  int why = errno;
  if (std::fclose(f) != 0 && ok) {
    ok = false;
    why = errno;
  }
  if (!ok) {
    error = path + ": write failed" + (why ? " (" + std::string(std::strerror(why)) + ")" : std::string());
    std::remove(tmp.c_str());
    return false;
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    error = path + ": cannot replace (" + std::strerror(errno) + ")";
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

bool writeFileAtomically(const std::string& path, std::string_view bytes, std::string& error) {
  return writeFileAtomically(
      path, [&](std::FILE* f) { return std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size(); }, error);
}

}  // namespace render
