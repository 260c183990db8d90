// writeFileAtomically, behind presets, settings, the metrics CSV and screenshots: the whole file or
// the old one, never half of one, and a failure names the target.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include "render/atomic_file.hpp"
#include "scene_test_files.hpp"

namespace {
std::string contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}
}  // namespace

TEST(AtomicFile, ReplacesTheTargetAndLeavesNoTemporary) {
  const std::string path = scenetest::tempPath("atomic.txt");
  std::string error;
  ASSERT_TRUE(render::writeFileAtomically(path, "first", error)) << error;
  ASSERT_TRUE(render::writeFileAtomically(path, std::string_view("second\0bytes", 12), error)) << error;
  EXPECT_EQ(contents(path), std::string("second\0bytes", 12));
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
}

TEST(AtomicFile, AFailedWriteKeepsTheOldFileAndNamesTheTarget) {
  const std::string path = scenetest::tempPath("atomic-keep.txt");
  std::string error;
  ASSERT_TRUE(render::writeFileAtomically(path, "old", error)) << error;
  // The writer reports a failure half way: nothing reaches the target.
  EXPECT_FALSE(render::writeFileAtomically(path, [](std::FILE* f) { std::fputs("half", f); return false; }, error));
  EXPECT_EQ(contents(path), "old");
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  EXPECT_EQ(error.rfind(path + ": write failed", 0), 0u) << error;
  // A folder where the file should go cannot be replaced.
  const std::string dir = scenetest::tempPath("atomic-dir");
  std::filesystem::create_directories(dir + "/inside");
  EXPECT_FALSE(render::writeFileAtomically(dir, "x", error));
  EXPECT_EQ(error.rfind(dir + ": cannot replace", 0), 0u) << error;
  EXPECT_FALSE(render::writeFileAtomically(scenetest::tempPath("no-such-dir/x.txt"), "x", error));
  EXPECT_NE(error.find("cannot write"), std::string::npos) << error;
}
