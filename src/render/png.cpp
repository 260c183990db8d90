// PNG writing through stb_image_write (libstb-dev ships the implementation in libstb).
#include <cstdio>
#include <stb/stb_image_write.h>
#include "render/renderer.hpp"

namespace render {

bool writePng(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba, std::string& error) {
  if (width <= 0 || height <= 0 || rgba.size() < size_t(width) * size_t(height) * 4) {
    error = "no pixels to write";
    return false;
  }
  // Write beside the target, then rename: a crash never leaves a half-written PNG under the real name.
  std::string tmp = path + ".tmp";
  if (!stbi_write_png(tmp.c_str(), width, height, 4, rgba.data(), width * 4)) {
    error = "cannot write " + path;
    std::remove(tmp.c_str());
    return false;
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    error = "cannot rename " + tmp + " to " + path;
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

}  // namespace render
