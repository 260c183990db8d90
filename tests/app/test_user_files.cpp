// Where unnamed files go (the XDG pictures and documents folders), where the program's assets are,
// and the preset panel's rename and delete, in-process.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include "app/preset_files.hpp"
#include "app/user_dirs.hpp"
#include "app_util.hpp"

namespace {
// Sets HOME and XDG_CONFIG_HOME for the test's length, then puts them back.
struct FakeHome {
  std::string home, oldHome, oldConfig;
  bool hadConfig;
  explicit FakeHome(const std::string& name) : home(apptest::freshDir(name)) {
    oldHome = std::getenv("HOME") ? std::getenv("HOME") : "";
    hadConfig = std::getenv("XDG_CONFIG_HOME") != nullptr;
    if (hadConfig) oldConfig = std::getenv("XDG_CONFIG_HOME");
    ::setenv("HOME", home.c_str(), 1);
    ::unsetenv("XDG_CONFIG_HOME");
  }
  ~FakeHome() {
    ::setenv("HOME", oldHome.c_str(), 1);
    if (hadConfig) ::setenv("XDG_CONFIG_HOME", oldConfig.c_str(), 1);
  }
};
}  // namespace

TEST(UserDirs, PicturesAndDocumentsComeFromUserDirsDirsElseHome) {
  FakeHome fake("user-dirs-home");
  EXPECT_EQ(app::userDir(app::UserDir::Pictures), fake.home) << "no user-dirs.dirs: HOME";
  std::filesystem::create_directories(fake.home + "/.config");
  std::filesystem::create_directories(fake.home + "/Bilder");
  std::ofstream(fake.home + "/.config/user-dirs.dirs") << "# comment\nXDG_PICTURES_DIR=\"$HOME/Bilder\"\n"
                                                       << "XDG_DOCUMENTS_DIR=\"$HOME/Dokumente\"\n";
  EXPECT_EQ(app::userDir(app::UserDir::Pictures), fake.home + "/Bilder");
  EXPECT_EQ(app::userDir(app::UserDir::Documents), fake.home) << "a listed folder that does not exist: HOME";
  std::filesystem::create_directories(fake.home + "/Dokumente");
  EXPECT_EQ(app::inUserDir(app::UserDir::Documents, "a.csv"), fake.home + "/Dokumente/a.csv");
}

// The assets are found from the program's file, whatever the working folder: installed under a
// prefix (/usr/bin/crowdlab -> /usr/share/crowdlab/assets, as the .deb lays them out), or in a
// build folder of the source tree (build/crowdlab -> assets); CROWDLAB_ASSETS overrides both.
TEST(AssetsDir, FoundFromTheExecutableInstalledOrInTheSourceTree) {
  ::unsetenv("CROWDLAB_ASSETS");
  const std::string root = apptest::freshDir("assets-dir");
  std::filesystem::create_directories(root + "/usr/bin");
  std::filesystem::create_directories(root + "/usr/share/crowdlab/assets/lessons");
  EXPECT_EQ(app::assetsDirFor(root + "/usr/bin/crowdlab"), root + "/usr/share/crowdlab/assets");
  std::filesystem::create_directories(root + "/tree/build");
  EXPECT_EQ(app::assetsDirFor(root + "/tree/build/crowdlab"), "") << "no assets folder anywhere near";
  std::filesystem::create_directories(root + "/tree/assets");
  EXPECT_EQ(app::assetsDirFor(root + "/tree/build/crowdlab"), root + "/tree/assets");
  ::setenv("CROWDLAB_ASSETS", (root + "/usr/share/crowdlab/assets").c_str(), 1);
  EXPECT_EQ(app::assetsDirFor(root + "/tree/build/crowdlab"), root + "/usr/share/crowdlab/assets");
  ::unsetenv("CROWDLAB_ASSETS");
}

TEST(PresetFiles, RenameRefusesATakenNameAndDeleteRemoves) {
  const std::string dir = apptest::freshDir("preset-files");
  std::ofstream(dir + "/one.json") << "{}";
  std::ofstream(dir + "/two.json") << "{}";
  std::string to, error;
  EXPECT_FALSE(app::renameUserPreset(dir + "/one.json", "two", to, error));
  EXPECT_NE(error.find("exists already"), std::string::npos) << error;
  EXPECT_TRUE(std::filesystem::exists(dir + "/one.json")) << "nothing lost";
  ASSERT_TRUE(app::renameUserPreset(dir + "/one.json", "lecture", to, error)) << error;
  EXPECT_EQ(to, dir + "/lecture.json");
  EXPECT_FALSE(std::filesystem::exists(dir + "/one.json"));
  ASSERT_TRUE(app::deleteUserPreset(dir + "/lecture.json", error)) << error;
  EXPECT_FALSE(std::filesystem::exists(dir + "/lecture.json"));
  EXPECT_FALSE(app::deleteUserPreset(dir + "/lecture.json", error));
}
