// PipedProcess: programs start from an argument vector, never a shell, and a
// program that stops reading is a failed write, not a fatal SIGPIPE.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>
#include "app/subprocess.hpp"
#include "app_util.hpp"

TEST(Subprocess, TrueStartsAndExitsZero) {
  app::PipedProcess p;
  std::string error;
  ASSERT_TRUE(p.start({"true"}, error)) << error;
  EXPECT_TRUE(p.running());
  EXPECT_EQ(p.finish(), 0);
  EXPECT_FALSE(p.running());
}

TEST(Subprocess, ExitCodeIsReported) {
  app::PipedProcess p;
  std::string error;
  ASSERT_TRUE(p.start({"false"}, error)) << error;
  EXPECT_EQ(p.finish(), 1);
}

TEST(Subprocess, CatReadsWhatIsWrittenAndEndsWhenTheInputCloses) {
  std::string dir = apptest::freshDir("subprocess-cat");
  app::PipedProcess p;
  std::string error;
  // dd copies its standard input to the file named by its argument.
  ASSERT_TRUE(p.start({"dd", "of=" + dir + "/copy.bin", "status=none"}, error)) << error;
  std::string bytes(3 << 20, 'x');  // more than a pipe buffer: writes must wait for the reader
  for (size_t i = 0; i < bytes.size(); i += 4093) bytes[i] = char('a' + i % 26);
  EXPECT_TRUE(p.write(bytes.data(), bytes.size()));
  EXPECT_EQ(p.finish(), 0);
  EXPECT_EQ(apptest::slurp(dir + "/copy.bin"), bytes);
  app::PipedProcess cat;
  ASSERT_TRUE(cat.start({"cat"}, error)) << error;
  EXPECT_EQ(cat.finish(), 0);  // nothing written: it sees end of input at once
}

TEST(Subprocess, MissingProgramIsOneLine) {
  app::PipedProcess p;
  std::string error;
  EXPECT_FALSE(p.start({"crowdlab-no-such-program"}, error));
  EXPECT_EQ(error, "crowdlab-no-such-program: not found on the PATH");
  EXPECT_FALSE(p.running());
  EXPECT_EQ(p.finish(), -1);
}

TEST(Subprocess, DeadPipeIsAFailedWriteNotASignal) {
  app::PipedProcess p;
  std::string error;
  ASSERT_TRUE(p.start({"head", "-c", "10"}, error)) << error;  // reads 10 bytes, then exits
  std::string frame(1 << 20, 'x');
  bool ok = true;
  for (int i = 0; i < 64 && ok; ++i) ok = p.write(frame.data(), frame.size());
  EXPECT_FALSE(ok) << "64 MB into a reader that stopped after 10 bytes";
  EXPECT_FALSE(p.running());
  EXPECT_FALSE(p.write("more", 4));  // and later writes fail quietly too
  EXPECT_GE(p.finish(), 0);          // it ended on its own; this process is still here to ask
}

TEST(Subprocess, ArgumentsAreNeverShellText) {
  std::string dir = apptest::freshDir("subprocess-quotes");
  // A folder with quotes, a command separator and 1000 characters in its name: one argument, as is.
  std::string name = "Bob's talk \"x'; touch PWNED; echo '$(touch PWNED2)` ";
  name += std::string(1000 - name.size(), 'n');
  ASSERT_EQ(name.size(), 1000u);
  std::string sub = dir + "/" + name.substr(0, 200);  // a file name is at most 255 bytes: nest the rest
  for (size_t at = 200; at < name.size(); at += 200) sub += "/" + name.substr(at, 200);
  std::filesystem::create_directories(sub);
  app::PipedProcess p;
  std::string error;
  ASSERT_TRUE(p.start({"dd", "of=" + sub + "/out.bin", "status=none"}, error)) << error;
  EXPECT_TRUE(p.write("hello", 5));
  EXPECT_EQ(p.finish(), 0);
  EXPECT_EQ(apptest::slurp(sub + "/out.bin"), "hello");
  EXPECT_FALSE(std::filesystem::exists("PWNED"));
  EXPECT_FALSE(std::filesystem::exists("PWNED2"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/PWNED"));
}

TEST(Subprocess, AnArgumentWithANulByteIsRefused) {
  app::PipedProcess p;
  std::string error;
  EXPECT_FALSE(p.start({"true", std::string("a\0b", 3)}, error));
  EXPECT_EQ(error, "true: an argument holds a NUL byte");  // not silently cut to "a"
  EXPECT_FALSE(p.running());
}

namespace {
// The C runtime's splitting of a Windows command line after the program name, written from the
// rules CommandLineToArgvW documents: blanks separate arguments outside quotes; a quote toggles
// quoting; 2n backslashes before a quote are n and the quote toggles, 2n+1 are n and a literal
// quote; backslashes before anything else are literal.
std::vector<std::string> splitWindowsCommandLine(const std::string& line) {
  std::vector<std::string> args;
  size_t i = 0;
  while (true) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (i == line.size()) return args;
    std::string arg;
    bool quoted = false;
    while (i < line.size() && (quoted || (line[i] != ' ' && line[i] != '\t'))) {
      size_t backslashes = 0;
      while (i < line.size() && line[i] == '\\') ++backslashes, ++i;
      if (i < line.size() && line[i] == '"') {
        arg.append(backslashes / 2, '\\');
        if (backslashes % 2) arg.push_back('"');
        else quoted = !quoted;
        ++i;
      } else {
        arg.append(backslashes, '\\');
        if (i < line.size() && (quoted || (line[i] != ' ' && line[i] != '\t'))) arg.push_back(line[i++]);
      }
    }
    args.push_back(arg);
  }
}
}  // namespace

// Item 4 on Windows: CreateProcess takes one command line, so the argument vector is quoted into it
// (the Windows code itself is only compile-checked here: windows.subprocess_compiles).
TEST(Subprocess, WindowsCommandLineReadsBackAsTheArgumentVector) {
  const std::vector<std::string> args = {
      "-y", "", "Bob's talk", R"(C:\Program Files\crowdlab\)", R"(say "hi")", R"(a\"b)", R"(a\\"b)", R"(\\server\share\x y)",
      "tab\there", R"(trailing\\)", R"(x'; touch PWNED; echo ')", "\"", R"(\)", R"(no\quotes\here)", "a & b | c > d"};
  std::string line;
  for (const std::string& a : args) line += (line.empty() ? "" : " ") + app::quoteWindowsArgument(a);
  EXPECT_EQ(splitWindowsCommandLine(line), args) << line;
  // What the rules ask of backslashes: literal unless a quote follows.
  EXPECT_EQ(app::quoteWindowsArgument(std::string(R"(C:\dir\file.mp4)")), R"(C:\dir\file.mp4)");
  EXPECT_EQ(app::quoteWindowsArgument(std::string(R"(C:\my dir\)")), R"("C:\my dir\\")");
  EXPECT_EQ(app::quoteWindowsArgument(std::string(R"(a\"b)")), R"("a\\\"b")");
  EXPECT_EQ(app::quoteWindowsArgument(std::string()), R"("")");
  EXPECT_EQ(app::quoteWindowsArgument(std::wstring(L"a b")), L"\"a b\"");
}
