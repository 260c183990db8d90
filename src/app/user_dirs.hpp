// Where files the user asked for without naming them go: screenshots and recordings to the
// pictures folder, metric exports to the documents folder, as xdg-user-dir finds them
// ($XDG_CONFIG_HOME/user-dirs.dirs, else ~/.config/user-dirs.dirs), falling back to $HOME
// (and to the working folder without a HOME). A folder listed there but missing is not made up:
// the fallback is used instead.
#pragma once
#include <string>

namespace app {

enum class UserDir { Pictures, Documents };

// The folder for `which`, without a trailing slash.
std::string userDir(UserDir which);
// `name` inside it: the path to write a file to.
std::string inUserDir(UserDir which, const std::string& name);

// The program's own assets folder (lessons, presets as files): $CROWDLAB_ASSETS where set, else found
// from the executable so that the program runs from any working folder: `../share/crowdlab/assets`
// (installed under a prefix, as the .deb does into /usr), `../assets` (a build folder inside the
// source tree), `assets` beside it. "" when none is a folder.
std::string assetsDir();
// The same search from `executable` (a path to the program's file), for the tests.
std::string assetsDirFor(const std::string& executable);

}  // namespace app
