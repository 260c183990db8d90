// io::OutputFile: the checks made once at open() hold until commit(): a link planted after the
// check is never followed, a stream replacing a file keeps the old one until it ends, two names of
// one file are one output.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include "io/output_file.hpp"

namespace fs = std::filesystem;

namespace {
std::string folder(const std::string& name) {
  const std::string dir = (fs::temp_directory_path() / ("crowdlab-output-" + std::to_string(::getpid()) + "-" + name)).string();
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}
std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
void write(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }
}  // namespace

// Checked, then a link planted at the name before the bytes come: the link is replaced, its target
// never written.
TEST(OutputFile, ALinkPlantedAfterTheCheckIsNeverFollowed) {
  const std::string dir = folder("planted");
  write(dir + "/keys.txt", "secret\n");
  for (const io::OutputFile::Mode mode : {io::OutputFile::Mode::Whole, io::OutputFile::Mode::Stream}) {
    const std::string target = dir + "/out-" + std::to_string(int(mode)) + ".csv";
    io::OutputFile out;
    std::string error;
    ASSERT_TRUE(out.open(target, {mode}, error)) << error;
    std::error_code ec;
    fs::remove(target, ec);  // a Stream's new file made at open: swapped for a link
    fs::create_symlink(dir + "/keys.txt", target);
    out.write("a,b\n1,2\n");
    std::string why;
    const bool committed = out.commit(why);
    EXPECT_EQ(slurp(dir + "/keys.txt"), "secret\n") << "mode " << int(mode) << ": " << why;
    if (mode == io::OutputFile::Mode::Whole) {
      EXPECT_TRUE(committed) << why;
      EXPECT_FALSE(fs::is_symlink(target));  // the rename replaced the link itself
      EXPECT_EQ(slurp(target), "a,b\n1,2\n");
    }
  }
}

// An append (a resumed sweep) opens the file that was checked: a file swapped in between is refused.
TEST(OutputFile, AppendRefusesWhatIsNotARegularFile) {
  const std::string dir = folder("append");
  ::mkfifo((dir + "/fifo").c_str(), 0600);
  io::OutputFile out;
  std::string error;
  EXPECT_FALSE(out.open(dir + "/fifo", {io::OutputFile::Mode::Append, false}, error));
  EXPECT_NE(error.find("not a regular file"), std::string::npos) << error;
  EXPECT_FALSE(out.open(dir + "/none.csv", {io::OutputFile::Mode::Append, false}, error));
  write(dir + "/rows.csv", "h\n1\n");
  ASSERT_TRUE(out.open(dir + "/rows.csv", {io::OutputFile::Mode::Append, false}, error)) << error;
  out.write("2\n");
  ASSERT_TRUE(out.commit(error)) << error;
  EXPECT_EQ(slurp(dir + "/rows.csv"), "h\n1\n2\n");
}

// A stream over an existing file writes beside it and replaces it only at commit(); abandoned, the
// old file stays and no temporary is left.
TEST(OutputFile, AStreamReplacesAFileOnlyAtTheEnd) {
  const std::string dir = folder("stream");
  write(dir + "/log.csv", "old\n");
  io::OutputFile out;
  std::string error;
  ASSERT_TRUE(out.open(dir + "/log.csv", {io::OutputFile::Mode::Stream}, error)) << error;
  out.write("new row\n");
  EXPECT_EQ(slurp(dir + "/log.csv"), "old\n");
  ASSERT_TRUE(out.commit(error)) << error;
  EXPECT_EQ(slurp(dir + "/log.csv"), "new row\n");
  ASSERT_TRUE(out.open(dir + "/log.csv", {io::OutputFile::Mode::Stream}, error)) << error;
  out.write("lost\n");
  out.abandon();
  EXPECT_EQ(slurp(dir + "/log.csv"), "new row\n");
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(dir)) files += e.is_regular_file() ? 1 : 0;
  EXPECT_EQ(files, 1u);
}

// Two names of one file (a hard link, a link of the user's own, "./x") are one output; /dev/null
// twice is not a clash.
TEST(OutputFile, SameFileIsFoundThroughLinksAndOtherSpellings) {
  const std::string dir = folder("same");
  write(dir + "/a.json", "{}\n");
  ASSERT_EQ(::link((dir + "/a.json").c_str(), (dir + "/hard.json").c_str()), 0);
  fs::create_symlink("a.json", dir + "/soft.json");
  std::string error;
  io::OutputFile a, hard, soft, dotted, fresh1, fresh2;
  ASSERT_TRUE(a.open(dir + "/a.json", {}, error)) << error;
  ASSERT_TRUE(hard.open(dir + "/hard.json", {}, error)) << error;
  ASSERT_TRUE(soft.open(dir + "/soft.json", {}, error)) << error;
  ASSERT_TRUE(dotted.open(dir + "/./a.json", {}, error)) << error;
  EXPECT_TRUE(a.sameFileAs(hard));
  EXPECT_TRUE(a.sameFileAs(soft));
  EXPECT_TRUE(a.sameFileAs(dotted));
  ASSERT_TRUE(fresh1.open(dir + "/new.svg", {}, error)) << error;
  ASSERT_TRUE(fresh2.open(dir + "/../" + fs::path(dir).filename().string() + "/new.svg", {}, error)) << error;
  EXPECT_TRUE(fresh1.sameFileAs(fresh2)) << "not yet there: the same folder and name";
  EXPECT_FALSE(a.sameFileAs(fresh1));
  EXPECT_FALSE(io::distinctOutputs({{"--csv", &a}, {"--plot", &soft}}, error));
  EXPECT_NE(error.find("--csv and --plot name the same file"), std::string::npos) << error;
  io::OutputFile null1, null2;
  ASSERT_TRUE(null1.open("/dev/null", {}, error)) << error;
  ASSERT_TRUE(null2.open("/dev/null", {}, error)) << error;
  EXPECT_TRUE(io::distinctOutputs({{"--csv", &null1}, {"--plot", &null2}}, error));
}

// A device is refused where the command takes only files, and a write error names the path and why.
TEST(OutputFile, DevicesOnlyWhereAllowedAndErrorsNameTheReason) {
  std::string error;
  io::OutputFile out;
  EXPECT_FALSE(out.open("/dev/null", {io::OutputFile::Mode::Stream, false}, error));
  EXPECT_NE(error.find("/dev/null: not a regular file"), std::string::npos) << error;
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  ASSERT_TRUE(out.open("/dev/full", {io::OutputFile::Mode::Stream}, error)) << error;
  EXPECT_FALSE(out.write("row\n"));
  EXPECT_FALSE(out.commit(error));
  EXPECT_EQ(error, "/dev/full: write failed (No space left on device)");
}
