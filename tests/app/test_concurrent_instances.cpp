// Issue 29, item 11: instances quitting together sometimes failed to save their settings ("cannot
// replace (No such file or directory)": they shared one temp name). Real processes this time, not
// threads: several windows on one settings folder (XDG_CONFIG_HOME), ended by one SIGTERM each at the
// same moment; every one saves, and the file left is whole JSON from one of them.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include "app_util.hpp"

TEST(Settings, InstancesQuittingTogetherEachSaveAndLeaveValidJson) {
  if (std::system("command -v xdotool >/dev/null 2>&1") != 0) GTEST_SKIP() << "xdotool is not installed";
  const std::string dir = apptest::freshDir("concurrent-instances");
  const char* scenes[] = {"boids", "steering", "spatial-hash", "orca-corridor", "boids", "steering"};
  constexpr int kRounds = 2, kInstances = 6;
  std::ofstream drive(dir + "/drive.sh");
  drive << "unset CROWDLAB_CONFIG_DIR; export XDG_CONFIG_HOME='" << dir << "/config'\n";
  for (int round = 0; round < kRounds; ++round) {
    drive << "pids=''\n";
    for (int i = 0; i < kInstances; ++i) {
      const std::string base = dir + "/r" + std::to_string(round) + "_" + std::to_string(i);
      drive << "'" CROWDLAB_EXE "' --scene " << scenes[i] << " >'" << base << ".out' 2>'" << base << ".err' &\n"
            << "pids=\"$pids $!\"\n";
    }
    // Every window up (each has drawn a frame by then), then all told to quit in one kill.
    // Polled: `search --sync` can fail at once on an X error while other windows come and go.
    drive << "for p in $pids; do n=0; until xdotool search --pid $p >/dev/null 2>&1; do n=$((n + 1));"
          << " [ $n -lt 160 ] || exit 3; sleep 0.25; done; done\n"
          << "sleep 1; kill -TERM $pids\n"
          << "for p in $pids; do wait $p; echo \"$p rc=$?\"; done >'" << dir << "/rc" << round << ".txt'\n";
  }
  drive.close();
  // -noreset: round 0's windows are the server's last clients; without it the server resets as they
  // leave, and windows of round 1 opening meanwhile found no display (CI, at load 12).
  const int status = std::system(apptest::onOwnDisplay(dir + "/drive.sh").c_str());
  ASSERT_EQ(status, 0) << "a window did not open";
  for (int round = 0; round < kRounds; ++round) {
    const std::string rcs = apptest::slurp(dir + "/rc" + std::to_string(round) + ".txt");
    size_t zeros = 0;
    for (size_t at = rcs.find(" rc=0"); at != std::string::npos; at = rcs.find(" rc=0", at + 1)) ++zeros;
    EXPECT_EQ(zeros, size_t(kInstances)) << rcs;
    for (int i = 0; i < kInstances; ++i) {
      const std::string err = apptest::slurp(dir + "/r" + std::to_string(round) + "_" + std::to_string(i) + ".err");
      EXPECT_EQ(err.find("settings not saved"), std::string::npos) << "round " << round << ", instance " << i << ": " << err;
      EXPECT_EQ(err.find("cannot"), std::string::npos) << err;
    }
  }
  const std::string saved = apptest::slurp(dir + "/config/crowdlab/settings.json");
  nlohmann::json j = nlohmann::json::parse(saved, nullptr, /*allow_exceptions=*/false);
  ASSERT_FALSE(j.is_discarded()) << "not JSON:\n" << saved;
  ASSERT_TRUE(j.contains("lastScene")) << saved;
  const std::string last = j["lastScene"].get<std::string>();
  EXPECT_TRUE(last == "boids" || last == "steering" || last == "spatial-hash" || last == "orca-corridor") << last;
  // No temp file left behind by any of them.
  for (const auto& entry : std::filesystem::directory_iterator(dir + "/config/crowdlab"))
    EXPECT_EQ(entry.path().filename().string().find("settings.json."), std::string::npos) << entry.path();
}
