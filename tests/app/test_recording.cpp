// Recording hands frames to ffmpeg: the folder name is one argument, never shell
// text, and an ffmpeg that stops reading leaves the PNGs and a running program, not a SIGPIPE.
// A stand-in `ffmpeg` on the PATH records its arguments, reads a little, then exits.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include "app_util.hpp"

namespace {
// Single quotes for the shell that runCrowdlab uses; a quote inside becomes '\''.
std::string shellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string fakeFfmpeg(const std::string& root) {
  std::string bin = root + "/bin";
  std::filesystem::create_directories(bin);
  std::ofstream(bin + "/ffmpeg") << "#!/bin/sh\n"
                                    "for a in \"$@\"; do printf '%s\\n' \"$a\"; done > \"$FAKE_FFMPEG_ARGS\"\n"
                                    "head -c 100 >/dev/null\n"
                                    "exit 1\n";
  std::filesystem::permissions(bin + "/ffmpeg", std::filesystem::perms::owner_all);
  return bin;
}
}  // namespace

TEST(Recording, FolderNameIsOneArgumentAndADeadFfmpegKeepsThePngs) {
  const std::string root = apptest::outDir() + "/recording-hostile";
  std::filesystem::remove_all(root);
  const std::string bin = fakeFfmpeg(root);
  // A quote in the name used to break the shell command (exit 141, one PNG); a quoted command in it ran.
  for (const std::string name : {"Bob's talk", "x'; touch PWNED; echo '"}) {
    const std::string dir = root + "/" + name;
    const std::string args = root + "/ffmpeg-args.txt", config = root + "/config";
    std::filesystem::remove_all(config);
    std::remove(args.c_str());
    // Run from `root`, so a command smuggled in the folder name would leave PWNED there.
    apptest::RunResult r = apptest::runCrowdlab(
        "--scene boids --frames 8 --record 5 --record-dir " + shellQuote(dir),
        "export PATH=" + shellQuote(bin) + ":\"$PATH\" FAKE_FFMPEG_ARGS=" + shellQuote(args) +
            " CROWDLAB_CONFIG_DIR=" + shellQuote(config) + " ; cd " + shellQuote(root) + " &&");
    EXPECT_EQ(r.exitCode, 0) << name << ": " << r.err;
    EXPECT_EQ(r.value("recorded"), "5") << name << ": " << r.out << r.err;
    int pngs = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir)) pngs += e.path().extension() == ".png";
    EXPECT_EQ(pngs, 5) << name;
    EXPECT_NE(r.err.find("ffmpeg stopped: the PNGs are kept"), std::string::npos) << name << ": " << r.err;
    EXPECT_EQ(r.value("frames"), "8") << name << ": the run should go on to its last frame";
    EXPECT_FALSE(std::filesystem::exists(root + "/PWNED")) << name << ": the folder name ran as a command";
    // The output is the folder's file, whole, marked as a file so no name reads as an option or protocol.
    std::string lastArg, line;
    std::ifstream in(args);
    while (std::getline(in, line)) lastArg = line;
    EXPECT_EQ(lastArg, "file:" + dir + "/recording.mp4") << name;
  }
}
