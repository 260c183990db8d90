// Another program started from an argument vector, never through a shell, with a pipe to its
// standard input: how recording hands frames to ffmpeg. User text (a folder name) can only ever
// be one argument; quotes, spaces and `;` in it mean nothing.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace app {

class PipedProcess {
 public:
  PipedProcess() = default;
  PipedProcess(const PipedProcess&) = delete;
  PipedProcess& operator=(const PipedProcess&) = delete;
  ~PipedProcess();  // closes its input and waits for it

  // Starts argv[0], looked up on the PATH, with argv as its arguments and a pipe as its standard
  // input; stdout and stderr are shared with this program. False with one line when it cannot
  // start (for example "ffmpeg: not found on the PATH").
  bool start(const std::vector<std::string>& argv, std::string& error);
  // Started and still taking input.
  bool running() const;
  // Writes every byte. False once the program has stopped reading (it exited or closed its input):
  // the pipe is closed then, and this program carries on; a dead pipe is never a fatal signal.
  bool write(const void* data, size_t size);
  // Closes its input and waits for it to end. The exit code, 128 + the signal that ended it, or -1
  // when it was never started.
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
