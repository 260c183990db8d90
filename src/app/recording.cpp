#include "app/recording.hpp"

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include "app/settings.hpp"
#include "render/renderer.hpp"

namespace app {

namespace {
// The encoder: ffmpeg reading raw RGBA frames on stdin and writing `<dir>/recording.mp4`.
// nullptr when ffmpeg is not there (the PNGs are the recording then).
std::FILE* startVideoEncoder(const std::string& dir, int width, int height) {
  if (std::system("command -v ffmpeg >/dev/null 2>&1") != 0) return nullptr;
  char cmd[1024];
  std::snprintf(cmd, sizeof(cmd),
                "ffmpeg -y -loglevel error -f rawvideo -pixel_format rgba -video_size %dx%d -framerate 60 -i - "
                "-pix_fmt yuv420p '%s/recording.mp4'",
                width, height, dir.c_str());
  return popen(cmd, "w");
}
void stopVideoEncoder(std::FILE* video) { pclose(video); }
}  // namespace

std::string timestampedName(const std::string& scene, const std::string& suffix) {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y%m%d-%H%M%S", std::localtime(&t));
  return "crowdlab-" + scene + "-" + buf + suffix;
}

std::string fullPath(const std::string& path) {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::absolute(path, ec);
  return ec ? path : p.lexically_normal().string();
}

bool saveScreenshot(const std::string& path, int width, int height, std::string& message) {
  std::vector<uint8_t> pixels;
  render::readFramebuffer(width, height, pixels);
  if (!render::writePng(path, width, height, pixels, message)) return false;
  message = "saved " + fullPath(path);
  return true;
}

bool Recorder::start(int frames, const std::string& dir, int width, int height, std::string& message) {
  stop();
  if (!makeDirectories(dir, message)) return false;
  dir_ = dir;
  total_ = frames;
  written_ = 0;
  width_ = width;
  height_ = height;
  video_ = startVideoEncoder(dir, width, height);
  message = "recording " + std::to_string(frames) + " frames to " + fullPath(dir);
  return true;
}

bool Recorder::frame(std::string& message) {
  render::readFramebuffer(width_, height_, pixels_);
  char name[64];
  std::snprintf(name, sizeof(name), "/frame_%05d.png", written_ + 1);
  if (!render::writePng(dir_ + name, width_, height_, pixels_, message)) {
    stop();
    return false;
  }
  if (video_) std::fwrite(pixels_.data(), 1, pixels_.size(), video_);
  if (++written_ >= total_) message = stop();
  return true;
}

std::string Recorder::stop() {
  if (video_) {
    stopVideoEncoder(video_);
    video_ = nullptr;
  }
  std::string said;
  if (total_) {
    said = "recorded " + std::to_string(written_) + " frames in " + fullPath(dir_);
    std::printf("recorded=%d\nrecord_dir=%s\n", written_, dir_.c_str());
  }
  total_ = 0;
  return said;
}

}  // namespace app
