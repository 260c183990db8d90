// Another program started from an argument vector, never through a shell, with a pipe to its
// standard input: how recording hands frames to ffmpeg. User text (a folder name) can only ever
// be one argument; quotes, spaces and `;` in it mean nothing.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace app {

// One argument written into a Windows command line so that the C runtime's splitter
// (CommandLineToArgvW's rules) reads it back unchanged: quotes around it when it is empty or has
// blanks or quotes. Inside, n backslashes read as n unless a quote follows; before a quote 2n read
// as n, so backslashes before a quote (and before the closing one) are doubled and a quote in the
// text gets one more. The Windows branch uses it; it lives here so tests on any system check it.
template <class String>
String quoteWindowsArgument(const String& arg) {
  using Char = typename String::value_type;
  bool plain = !arg.empty();
  for (Char c : arg) plain = plain && c != Char(' ') && c != Char('\t') && c != Char('\n') && c != Char('\v') && c != Char('"');
  if (plain) return arg;
  String out(1, Char('"'));
  size_t backslashes = 0;
  for (Char c : arg) {
    if (c == Char('\\')) {
      ++backslashes;
      continue;
    }
    out.append(c == Char('"') ? backslashes * 2 + 1 : backslashes, Char('\\'));
    backslashes = 0;
    out.push_back(c);
  }
  out.append(backslashes * 2, Char('\\'));
  out.push_back(Char('"'));
  return out;
}

class PipedProcess {
 public:
  PipedProcess() = default;
  PipedProcess(const PipedProcess&) = delete;
  PipedProcess& operator=(const PipedProcess&) = delete;
  ~PipedProcess();  // closes its input and waits for it

  // What the child's standard output is: this program's, or discarded (a child whose report comes
  // back through a file, e.g. `crowdlab claims` running a claim in a hidden window).
  enum class Output { Shared, Discarded };
  // Starts argv[0], looked up on the PATH, with argv as its arguments and a pipe as its standard
  // input; stdout (unless discarded) and stderr are shared with this program, and it inherits no
  // other open file.
  // False with one line when it cannot start (for example "ffmpeg: not found on the PATH", or an
  // argument with a NUL byte). On Windows only an .exe starts (a .bat would run through cmd.exe).
  bool start(const std::vector<std::string>& argv, std::string& error, Output output = Output::Shared);
  // Started and still taking input.
  bool running() const;
  // Writes every byte. False once the program has stopped reading (it exited or closed its input):
  // the pipe is closed then, and this program carries on; a dead pipe is never a fatal signal.
  bool write(const void* data, size_t size);
  // Closes its input and waits for it to end. The exit code, 128 + the signal that ended it (on
  // Windows 255 for a crash), or -1 when it was never started.
  int finish();

 private:
#if defined(_WIN32)
  void* process_ = nullptr;  // HANDLEs
  void* input_ = nullptr;
#else
  int pid_ = -1;
  int input_ = -1;
#endif
};

}  // namespace app
