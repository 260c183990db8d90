#include "app/recording.hpp"

#include <cstdio>
#include <ctime>
#include <filesystem>
#include "app/settings.hpp"
#include "io/png.hpp"
#include "render/renderer.hpp"

namespace app {

namespace {
// The encoder: ffmpeg reading raw RGBA frames on stdin and writing `<dir>/recording.mp4`, started
// from an argument vector, so the folder's name is one argument whatever it holds. "file:" keeps a
// name that starts with '-' or looks like a protocol ("http:...") a plain file for ffmpeg.
// Not running when ffmpeg is not on the PATH: the PNGs are the recording then.
void startVideoEncoder(PipedProcess& video, const std::string& dir, int width, int height) {
  const std::string size = std::to_string(width) + "x" + std::to_string(height);
  std::string notStarted;
  video.start({"ffmpeg", "-y", "-loglevel", "error", "-f", "rawvideo", "-pixel_format", "rgba", "-video_size", size,
               "-framerate", "60", "-i", "-", "-pix_fmt", "yuv420p", "file:" + dir + "/recording.mp4"},
              notStarted);
}
}  // namespace

std::string timestampedName(const std::string& scene, const std::string& suffix) {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y%m%d-%H%M%S", std::localtime(&t));
  return "crowdlab-" + scene + "-" + buf + suffix;
}

std::string makeNewFolder(const std::string& stem, std::string& error) {
  for (int k = 1; k <= 1000; ++k) {
    const std::string dir = stem + (k > 1 ? "-" + std::to_string(k) : std::string());
    std::error_code ec;
    if (std::filesystem::create_directory(dir, ec)) return dir;  // false when it existed
    if (ec) {
      error = dir + ": cannot create folder (" + ec.message() + ")";
      return {};
    }
  }
  error = stem + ": a thousand folders of that name already exist";
  return {};
}

bool recordingFolderFree(const std::string& dir, std::string& error) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if ((name.rfind("frame_", 0) == 0 && entry.path().extension() == ".png") || name == "recording.mp4") {
      error = fullPath(dir) + ": holds an earlier recording (" + name +
              "); record into a new or empty folder, so the two runs' frames never mix";
      return false;
    }
  }
  return true;
}

std::string fullPath(const std::string& path) {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::absolute(path, ec);
  return ec ? path : p.lexically_normal().string();
}

namespace {
std::vector<uint8_t> pixelsOf(const PixelRect& r) {
  std::vector<uint8_t> pixels;
  render::readFramebuffer(r.width, r.height, pixels, r.x, r.y);
  return pixels;
}
}  // namespace

bool saveScreenshot(io::OutputFile& out, const PixelRect& r, std::string& message) {
  const std::vector<uint8_t> pixels = pixelsOf(r);
  const std::string path = out.path();
  if (!io::writePng(out, r.width, r.height, pixels, message)) return false;
  message = "saved " + fullPath(path);
  return true;
}

bool rewriteScreenshot(io::OutputFile& out, const PixelRect& r, std::string& error) {
  return io::rewritePng(out, r.width, r.height, pixelsOf(r), error);
}

std::string saveNewScreenshot(const std::string& stem, const PixelRect& rect, std::string& message) {
  const std::vector<uint8_t> pixels = pixelsOf(rect);
  const std::string path = io::writeUnderNewName(stem, ".png", [&](const std::string& p, std::string& error) {
    return io::writePng(p, rect.width, rect.height, pixels, error, io::Existing::Keep);
  }, message);
  if (!path.empty()) message = "saved " + fullPath(path);
  return path;
}

bool Recorder::start(int frames, const std::string& dir, const PixelRect& rect, std::string& message) {
  stop();
  if (!recordingFolderFree(dir, message) || !makeDirectories(dir, message)) return false;
  dir_ = dir;
  total_ = frames;
  written_ = 0;
  rect_ = rect;
  rect_.width -= rect_.width % 2;  // the video's yuv420p wants even sizes
  rect_.height -= rect_.height % 2;
  startVideoEncoder(video_, dir, rect_.width, rect_.height);
  message = "recording " + std::to_string(frames) + " frames to " + fullPath(dir);
  return true;
}

bool Recorder::frame(std::string& message) {
  render::readFramebuffer(rect_.width, rect_.height, pixels_, rect_.x, rect_.y);
  char name[64];
  std::snprintf(name, sizeof(name), "/frame_%05d.png", written_ + 1);
  if (!io::writePng(dir_ + name, rect_.width, rect_.height, pixels_, message)) {
    stop();
    return false;
  }
  if (video_.running() && !video_.write(pixels_.data(), pixels_.size())) {
    message = "ffmpeg stopped: the PNGs are kept in " + fullPath(dir_);
    std::fprintf(stderr, "crowdlab: %s\n", message.c_str());
  }
  if (++written_ >= total_) message = stop();
  return true;
}

std::string Recorder::stop() {
  const int videoExit = video_.finish();  // -1: there was no ffmpeg
  std::string said;
  if (total_) {
    said = "recorded " + std::to_string(written_) + " frames in " + fullPath(dir_);
    if (videoExit > 0) said += " (ffmpeg ended with code " + std::to_string(videoExit) + ": PNGs only)";
    std::printf("recorded=%d\nrecord_dir=%s\n", written_, dir_.c_str());
  }
  total_ = 0;
  return said;
}

}  // namespace app
