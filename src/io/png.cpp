// PNG writing through stb_image_write (libstb-dev ships the implementation in libstb).
#include <cstdio>
#include <stb/stb_image_write.h>
#include "io/png.hpp"

namespace io {

namespace {
bool pixelsOk(int width, int height, const std::vector<uint8_t>& rgba, std::string& error) {
  if (width > 0 && height > 0 && rgba.size() >= size_t(width) * size_t(height) * 4) return true;
  error = "no pixels to write";
  return false;
}

// The PNG's bytes, in pieces, to put(to, data, size): a file's or a string's.
bool encodePng(stbi_write_func* put, void* to, int width, int height, const std::vector<uint8_t>& rgba) {
  return stbi_write_png_to_func(put, to, width, height, 4, rgba.data(), width * 4) != 0;
}

bool fillPng(std::FILE* f, int width, int height, const std::vector<uint8_t>& rgba) {
  auto put = [](void* file, void* data, int size) { std::fwrite(data, 1, size_t(size), static_cast<std::FILE*>(file)); };
  return encodePng(put, f, width, height, rgba);
}
}  // namespace

bool writePng(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba, std::string& error,
              Existing existing) {
  if (!pixelsOk(width, height, rgba, error)) return false;
  return writeFileAtomically(path, [&](std::FILE* f) { return fillPng(f, width, height, rgba); }, error, existing);
}

bool writePng(OutputFile& out, int width, int height, const std::vector<uint8_t>& rgba, std::string& error) {
  if (!pixelsOk(width, height, rgba, error)) {
    out.abandon();
    return false;
  }
  out.writeWith([&](std::FILE* f) { return fillPng(f, width, height, rgba); });
  return out.commit(error);
}

bool rewritePng(OutputFile& out, int width, int height, const std::vector<uint8_t>& rgba, std::string& error) {
  if (!pixelsOk(width, height, rgba, error)) return false;
  std::string bytes;
  auto put = [](void* to, void* data, int size) { static_cast<std::string*>(to)->append(static_cast<const char*>(data), size_t(size)); };
  if (!encodePng(put, &bytes, width, height, rgba)) {
    error = out.path() + ": PNG encoding failed";
    return false;
  }
  return out.rewrite(bytes, error);
}

}  // namespace io
