// Recording for slides: screenshots, a PNG sequence, and an MP4 alongside when ffmpeg is on the PATH.
// Every file written is reported with its full path (the HUD line and stdout).
#pragma once
#include <cstdio>
#include <string>
#include <vector>
#include "app/subprocess.hpp"

namespace app {

// `crowdlab-<scene>-<local time>`: names for files the user asked for without naming them.
std::string timestampedName(const std::string& scene, const std::string& suffix);
// The absolute form of `path`, for messages (the file may not exist yet).
std::string fullPath(const std::string& path);

// A part of the framebuffer, drawable pixels, GL's way (x, y from the bottom left): the whole
// window, or the world's viewport alone.
struct PixelRect {
  int x = 0, y = 0, width = 0, height = 0;
};

// Reads that part of the current framebuffer and writes it as a PNG. `message` says what happened.
bool saveScreenshot(const std::string& path, const PixelRect& rect, std::string& message);

class Recorder {
 public:
  ~Recorder() { stop(); }
  // Starts `frames` frames of `width` x `height` into `dir` (created). False with a message on failure.
  bool start(int frames, const std::string& dir, const PixelRect& rect, std::string& message);
  // Reads the framebuffer and writes the next frame; false with a message when a write failed (recording stops).
  bool frame(std::string& message);
  // Ends the recording (closes the video); returns what was recorded, or "" when nothing was.
  std::string stop();

  bool active() const { return total_ > 0 && written_ < total_; }
  int written() const { return written_; }
  int total() const { return total_; }

 private:
  std::string dir_;
  int total_ = 0, written_ = 0;
  PixelRect rect_;
  PipedProcess video_;  // ffmpeg, fed raw RGBA frames on its stdin
  std::vector<uint8_t> pixels_;
};

}  // namespace app
