#include "app/subprocess.hpp"

#include <cerrno>
#include <cstring>

#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#else
#include <csignal>
#include <mutex>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
extern char** environ;
#endif

namespace app {

PipedProcess::~PipedProcess() { finish(); }

#if defined(_WIN32)

namespace {
std::wstring widen(const std::string& s) {
  if (s.empty()) return {};
  int n = MultiByteToWideChar(CP_UTF8, 0, s.data(), int(s.size()), nullptr, 0);
  std::wstring w(size_t(n), L'\0');
  MultiByteToWideChar(CP_UTF8, 0, s.data(), int(s.size()), w.data(), n);
  return w;
}

// One argument as the C runtime's command-line splitter reads it back: quotes around it when it
// has blanks or quotes, a backslash before each quote, and backslashes doubled where they precede one.
std::wstring quoteArgument(const std::wstring& arg) {
  if (!arg.empty() && arg.find_first_of(L" \t\n\v\"") == std::wstring::npos) return arg;
  std::wstring out = L"\"";
  size_t backslashes = 0;
  for (wchar_t c : arg) {
    if (c == L'\\') { ++backslashes; continue; }
    out.append(c == L'"' ? backslashes * 2 + 1 : backslashes, L'\\');
    backslashes = 0;
    out.push_back(c);
  }
  out.append(backslashes * 2, L'\\');
  out.push_back(L'"');
  return out;
}
}  // namespace

bool PipedProcess::start(const std::vector<std::string>& argv, std::string& error) {
  finish();
  if (argv.empty()) { error = "no program to start"; return false; }
  SECURITY_ATTRIBUTES inherit{sizeof(SECURITY_ATTRIBUTES), nullptr, TRUE};
  HANDLE readEnd = nullptr, writeEnd = nullptr;
  if (!CreatePipe(&readEnd, &writeEnd, &inherit, 0)) {
    error = argv[0] + ": cannot create a pipe (error " + std::to_string(GetLastError()) + ")";
    return false;
  }
  SetHandleInformation(writeEnd, HANDLE_FLAG_INHERIT, 0);  // only the read end goes to the child
  std::wstring commandLine;
  for (const std::string& a : argv) commandLine += (commandLine.empty() ? L"" : L" ") + quoteArgument(widen(a));
  STARTUPINFOW si{};
  si.cb = sizeof si;
  si.dwFlags = STARTF_USESTDHANDLES;
  si.hStdInput = readEnd;
  si.hStdOutput = GetStdHandle(STD_OUTPUT_HANDLE);
  si.hStdError = GetStdHandle(STD_ERROR_HANDLE);
  PROCESS_INFORMATION pi{};
  BOOL ok = CreateProcessW(nullptr, commandLine.data(), nullptr, nullptr, TRUE, CREATE_NO_WINDOW, nullptr, nullptr,
                           &si, &pi);
  DWORD why = GetLastError();
  CloseHandle(readEnd);
  if (!ok) {
    CloseHandle(writeEnd);
    error = argv[0] + (why == ERROR_FILE_NOT_FOUND ? std::string(": not found on the PATH")
                                                   : ": cannot start (error " + std::to_string(why) + ")");
    return false;
  }
  CloseHandle(pi.hThread);
  process_ = pi.hProcess;
  input_ = writeEnd;
  return true;
}

bool PipedProcess::running() const { return input_ != nullptr; }

bool PipedProcess::write(const void* data, size_t size) {
  const char* p = static_cast<const char*>(data);
  while (input_ && size > 0) {
    DWORD chunk = DWORD(size > (1u << 30) ? (1u << 30) : size), written = 0;
    if (!WriteFile(input_, p, chunk, &written, nullptr)) {  // ERROR_NO_DATA / ERROR_BROKEN_PIPE: it stopped reading
      CloseHandle(input_);
      input_ = nullptr;
      return false;
    }
    p += written;
    size -= written;
  }
  return input_ != nullptr;
}

int PipedProcess::finish() {
  if (input_) { CloseHandle(input_); input_ = nullptr; }
  if (!process_) return -1;
  WaitForSingleObject(process_, INFINITE);
  DWORD code = 1;
  GetExitCodeProcess(process_, &code);
  CloseHandle(process_);
  process_ = nullptr;
  return int(code);
}

#else

namespace {
// A write to a pipe whose reader has gone raises SIGPIPE, which would end this program (exit 141)
// in the middle of a recording. Ignored, the write fails with EPIPE instead and is handled.
void ignoreSigpipe() {
  static std::once_flag once;
  std::call_once(once, [] { std::signal(SIGPIPE, SIG_IGN); });
}
}  // namespace

bool PipedProcess::start(const std::vector<std::string>& argv, std::string& error) {
  finish();
  if (argv.empty() || argv[0].empty()) { error = "no program to start"; return false; }
  ignoreSigpipe();
#if defined(__EMSCRIPTEN__)
  // A page cannot start programs: recording is hidden there, and this says why if it is reached.
  error = argv[0] + ": a web page cannot start programs";
  return false;
#else
  int fds[2];
  if (::pipe(fds) != 0) {
    error = argv[0] + ": cannot create a pipe (" + std::strerror(errno) + ")";
    return false;
  }
  // Neither end may leak into the child or into any other program started later.
  ::fcntl(fds[0], F_SETFD, FD_CLOEXEC);
  ::fcntl(fds[1], F_SETFD, FD_CLOEXEC);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[0], STDIN_FILENO);  // the copy on fd 0 is not close-on-exec
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // The child gets default signal handling back (an ignored SIGPIPE would be inherited) and no mask.
  sigset_t defaults, none;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigemptyset(&none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  const int rc = posix_spawnp(&pid, args[0], &actions, &attr, args.data(), environ);
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[0]);
  if (rc != 0) {
    ::close(fds[1]);
    error = argv[0] + (rc == ENOENT ? std::string(": not found on the PATH")
                                    : ": cannot start (" + std::string(std::strerror(rc)) + ")");
    return false;
  }
  pid_ = pid;
  input_ = fds[1];
  return true;
#endif
}

bool PipedProcess::running() const { return input_ >= 0; }

bool PipedProcess::write(const void* data, size_t size) {
  const char* p = static_cast<const char*>(data);
  while (input_ >= 0 && size > 0) {
    ssize_t n = ::write(input_, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {  // EPIPE: it stopped reading
      ::close(input_);
      input_ = -1;
      return false;
    }
    p += n;
    size -= size_t(n);
  }
  return input_ >= 0;
}

int PipedProcess::finish() {
  if (input_ >= 0) {
    ::close(input_);
    input_ = -1;
  }
  if (pid_ < 0) return -1;
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {}
  pid_ = -1;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

#endif

}  // namespace app
