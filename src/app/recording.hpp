// Recording for slides: screenshots, a PNG sequence, and an MP4 alongside when ffmpeg is on the PATH.
// Every file written is reported with its full path (the HUD line and stdout).
#pragma once
#include <cstdio>
#include <string>
#include <vector>
#include "app/subprocess.hpp"
#include "io/output_file.hpp"

namespace app {

// `crowdlab-<scene>-<local time>`: names for files the user asked for without naming them. Two in
// the same second are told apart by saveNewScreenshot / makeNewFolder / writeUnderNewName ("-2").
std::string timestampedName(const std::string& scene, const std::string& suffix);
// A new folder `stem`, else `stem-2`, `stem-3`...: never one that exists. "" with the error.
std::string makeNewFolder(const std::string& stem, std::string& error);
// A recording goes only into a folder that holds no other recording's frames (frame_*.png,
// recording.mp4): false with a line saying so. A folder that does not exist yet is fine.
bool recordingFolderFree(const std::string& dir, std::string& error);
// The absolute form of `path`, for messages (the file may not exist yet).
std::string fullPath(const std::string& path);

// A part of the framebuffer, drawable pixels, GL's way (x, y from the bottom left): the whole
// window, or the world's viewport alone.
struct PixelRect {
  int x = 0, y = 0, width = 0, height = 0;
};

// Reads that part of the current framebuffer and writes it as a PNG into `out` (--screenshot, opened
// before the window) and commits it. `message` says what happened.
bool saveScreenshot(io::OutputFile& out, const PixelRect& rect, std::string& message);
// The same, the output kept open for the next picture and the one at the end (a snapshot on SIGUSR1).
bool rewriteScreenshot(io::OutputFile& out, const PixelRect& rect, std::string& error);
// The same under `stem.png`, else `stem-2.png`...: never over an existing file. The path, or "".
std::string saveNewScreenshot(const std::string& stem, const PixelRect& rect, std::string& message);

class Recorder {
 public:
  ~Recorder() { stop(); }
  // Starts `frames` frames of `rect` into `dir` (created). False with a message on failure, and when
  // `dir` holds another recording's frames (recordingFolderFree).
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
