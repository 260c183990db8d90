// writeFileAtomically, behind presets, settings, the metrics CSV, screenshots and --state-out: the
// whole file or the old one, never half of one; a temporary nobody can predict; devices, FIFOs and
// /dev/stdout written, never replaced; links followed on purpose; a failure names the target.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>
#include "io/atomic_file.hpp"
#include "scene_test_files.hpp"

namespace fs = std::filesystem;

namespace {
std::string contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// An empty folder of its own for each test.
std::string freshDir(const std::string& name) {
  const std::string dir = scenetest::tempPath("atomic-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::vector<std::string> namesIn(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}
}  // namespace

TEST(AtomicFile, ReplacesTheTargetAndLeavesNoTemporary) {
  const std::string dir = freshDir("replace");
  const std::string path = dir + "/atomic.txt";
  std::string error;
  ASSERT_TRUE(io::writeFileAtomically(path, "first", error)) << error;
  ASSERT_TRUE(io::writeFileAtomically(path, std::string_view("second\0bytes", 12), error)) << error;
  EXPECT_EQ(contents(path), std::string("second\0bytes", 12));
  EXPECT_EQ(namesIn(dir), std::vector<std::string>{"atomic.txt"});
}

TEST(AtomicFile, AFailedWriteKeepsTheOldFileAndNamesTheTarget) {
  const std::string dir = freshDir("keep");
  const std::string path = dir + "/atomic-keep.txt";
  std::string error;
  ASSERT_TRUE(io::writeFileAtomically(path, "old", error)) << error;
  // The writer reports a failure half way: nothing reaches the target.
  EXPECT_FALSE(io::writeFileAtomically(path, [](std::FILE* f) { std::fputs("half", f); return false; }, error));
  EXPECT_EQ(contents(path), "old");
  EXPECT_EQ(namesIn(dir), std::vector<std::string>{"atomic-keep.txt"});
  EXPECT_EQ(error.rfind(path + ": write failed", 0), 0u) << error;
  // A folder where the file should go is refused.
  fs::create_directories(dir + "/inside/x");
  EXPECT_FALSE(io::writeFileAtomically(dir + "/inside", "x", error));
  EXPECT_EQ(error, dir + "/inside: is a folder");
  EXPECT_FALSE(io::writeFileAtomically(dir + "/no-such-dir/x.txt", "x", error));
  EXPECT_NE(error.find("cannot write"), std::string::npos) << error;
}

// Issue 29: `ln -s precious.txt state.json.tmp` made --state-out overwrite precious.txt.
TEST(AtomicFile, APlantedLinkAtAGuessedTemporaryNameIsNeverFollowed) {
  const std::string dir = freshDir("planted");
  scenetest::writeFile(dir + "/precious.txt", "precious");
  fs::create_symlink("precious.txt", dir + "/state.json.tmp");
  fs::create_symlink("precious.txt", dir + "/.state.json.tmp");
  std::string error;
  ASSERT_TRUE(io::writeFileAtomically(dir + "/state.json", "{}", error)) << error;
  EXPECT_EQ(contents(dir + "/precious.txt"), "precious");
  EXPECT_EQ(contents(dir + "/state.json"), "{}");
  EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(dir + "/state.json")));
  EXPECT_EQ(namesIn(dir), (std::vector<std::string>{".state.json.tmp", "precious.txt", "state.json", "state.json.tmp"}));
}

// Links are followed on purpose: the file they point to is replaced, the link stays (README).
TEST(AtomicFile, ALinkIsFollowedAndStaysALink) {
  const std::string dir = freshDir("link");
  fs::create_directories(dir + "/real");
  scenetest::writeFile(dir + "/real/state.json", "old");
  ::chmod((dir + "/real/state.json").c_str(), 0600);
  fs::create_symlink("real/state.json", dir + "/link.json");
  fs::create_symlink("real/new.json", dir + "/dangling.json");
  std::string error;
  ASSERT_TRUE(io::writeFileAtomically(dir + "/link.json", "new", error)) << error;
  EXPECT_TRUE(fs::is_symlink(dir + "/link.json"));
  EXPECT_EQ(contents(dir + "/real/state.json"), "new");
  EXPECT_EQ(fs::status(dir + "/real/state.json").permissions() & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write)
      << "a replaced file keeps its permissions";
  ASSERT_TRUE(io::writeFileAtomically(dir + "/dangling.json", "created", error)) << error;
  EXPECT_TRUE(fs::is_symlink(dir + "/dangling.json"));
  EXPECT_EQ(contents(dir + "/real/new.json"), "created");
}

TEST(AtomicFile, ALinkSomeoneElseOwnsIsRefused) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to give a link another owner";
  const std::string dir = freshDir("foreign-link");
  scenetest::writeFile(dir + "/precious.txt", "precious");
  fs::create_symlink("precious.txt", dir + "/out.json");
  ASSERT_EQ(::lchown((dir + "/out.json").c_str(), 12345, 12345), 0);
  std::string error;
  EXPECT_FALSE(io::writeFileAtomically(dir + "/out.json", "{}", error));
  EXPECT_NE(error.find("owned by another user"), std::string::npos) << error;
  EXPECT_FALSE(io::checkWritable(dir + "/out.json", error));
  EXPECT_EQ(contents(dir + "/precious.txt"), "precious");
}

// A FIFO is written, not replaced; one nobody reads is refused at once instead of hanging.
TEST(AtomicFile, AFifoIsWrittenNeverReplaced) {
  const std::string dir = freshDir("fifo");
  const std::string fifo = dir + "/pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string error;
  EXPECT_FALSE(io::writeFileAtomically(fifo, "nobody reads", error));
  EXPECT_EQ(error, fifo + ": is a pipe with no reader");
  std::string got;
  std::thread reader([&] { got = contents(fifo); });
  bool written = false;
  for (int i = 0; i < 200 && !written; ++i) {  // until the reader has opened its end
    written = io::writeFileAtomically(fifo, "through the pipe", error);
    if (!written) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!written) {
    const int fd = ::open(fifo.c_str(), O_WRONLY);  // let the reader finish
    ::close(fd);
  }
  reader.join();
  EXPECT_TRUE(written) << error;
  EXPECT_EQ(got, "through the pipe");
  EXPECT_TRUE(fs::is_fifo(fifo));
  EXPECT_EQ(namesIn(dir), std::vector<std::string>{"pipe"});
}

// /dev/stdout and /dev/fd/N lead to the program's own descriptors: written through (a normal user got
// "cannot write (Permission denied)" after the whole run).
TEST(AtomicFile, DevFdIsWrittenThrough) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const std::string path = "/dev/fd/" + std::to_string(fds[1]);
  std::string error;
  EXPECT_TRUE(io::checkWritable(path, error)) << error;
  ASSERT_TRUE(io::writeFileAtomically(path, "state", error)) << error;
  ::close(fds[1]);
  char buf[16] = {};
  EXPECT_EQ(::read(fds[0], buf, sizeof buf), 5);
  EXPECT_EQ(std::string(buf), "state");
  ::close(fds[0]);
}

TEST(AtomicFile, ASocketIsRefused) {
  const std::string dir = freshDir("socket");
  const std::string path = dir + "/sock";
  const int s = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  ASSERT_LT(path.size(), sizeof addr.sun_path);
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  ASSERT_EQ(::bind(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  std::string error;
  EXPECT_FALSE(io::writeFileAtomically(path, "x", error));
  EXPECT_EQ(error, path + ": is a socket; not written");
  EXPECT_TRUE(fs::is_socket(path));
  ::close(s);
}

// As root, --state-out /dev/null and /dev/full turned the device nodes into regular files.
TEST(AtomicFile, DeviceNodesAreWrittenNeverReplaced) {
  if (::geteuid() != 0) GTEST_SKIP() << "mknod needs root: device nodes not tested as this user";
  const std::string dir = freshDir("devices");
  const std::string null = dir + "/null", full = dir + "/full";
  if (::mknod(null.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0 || ::mknod(full.c_str(), S_IFCHR | 0666, makedev(1, 7)) != 0)
    GTEST_SKIP() << "mknod refused here (" << std::strerror(errno) << "): device nodes not tested";
  std::string error;
  EXPECT_TRUE(io::writeFileAtomically(null, "gone", error)) << error;
  EXPECT_TRUE(fs::is_character_file(null));
  EXPECT_FALSE(io::writeFileAtomically(full, std::string(100000, 'x'), error));
  EXPECT_EQ(error, full + ": write failed (No space left on device)");
  EXPECT_TRUE(fs::is_character_file(full));
  EXPECT_EQ(namesIn(dir), (std::vector<std::string>{"full", "null"}));
}

// Instances quitting together each wrote settings.json.tmp: one renamed the other's away ("cannot
// replace (No such file or directory)"). Each temporary is its own now.
TEST(AtomicFile, WritersAtTheSameTimeAllSucceed) {
  const std::string dir = freshDir("concurrent");
  const std::string path = dir + "/settings.json";
  std::vector<std::thread> writers;
  std::vector<std::string> errors(8);
  for (int w = 0; w < 8; ++w)
    writers.emplace_back([&, w] {
      for (int i = 0; i < 50; ++i)
        if (std::string e; !io::writeFileAtomically(path, "writer " + std::to_string(w), e)) errors[size_t(w)] = e;
    });
  for (auto& t : writers) t.join();
  for (const std::string& e : errors) EXPECT_EQ(e, "");
  EXPECT_EQ(contents(path).rfind("writer ", 0), 0u);
  EXPECT_EQ(namesIn(dir), std::vector<std::string>{"settings.json"});
}

// Names the program picks (screenshots, exports) never replace a file: the next free one is taken.
TEST(AtomicFile, NewNamesNeverReplaceAFile) {
  const std::string dir = freshDir("new-names");
  std::string error;
  auto write = [&](const std::string& text) {
    return io::writeUnderNewName(dir + "/shot", ".png", [&](const std::string& path, std::string& e) {
      return io::writeFileAtomically(path, text, e, io::Existing::Keep);
    }, error);
  };
  EXPECT_EQ(write("one"), dir + "/shot.png");
  EXPECT_EQ(write("two"), dir + "/shot-2.png");
  EXPECT_EQ(write("three"), dir + "/shot-3.png");
  EXPECT_EQ(contents(dir + "/shot.png"), "one");
  EXPECT_EQ(contents(dir + "/shot-2.png"), "two");
  EXPECT_EQ(io::writeUnderNewName(dir + "/no-such/shot", ".png", [&](const std::string& path, std::string& e) {
              return io::writeFileAtomically(path, "x", e, io::Existing::Keep);
            }, error), "");
  EXPECT_NE(error.find("cannot write"), std::string::npos) << error;
}

// Output paths are checked before a long run, with the reason, and the check leaves nothing behind.
TEST(AtomicFile, CheckWritableNamesTheProblemAndLeavesNothing) {
  const std::string dir = freshDir("check");
  std::string error;
  EXPECT_TRUE(io::checkWritable(dir + "/out.json", error)) << error;
  EXPECT_TRUE(namesIn(dir).empty());
  EXPECT_FALSE(io::checkWritable(dir + "/nonexistent/x.json", error));
  EXPECT_EQ(error, dir + "/nonexistent/x.json: cannot write (No such file or directory)");
  EXPECT_FALSE(io::checkWritable(dir, error));
  EXPECT_EQ(error, dir + ": is a folder");
}
