#include "app/subprocess.hpp"

#include <cerrno>
#include <climits>
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

namespace {
// An argument vector that can be passed as it is: a program to start, and no NUL byte, which would
// cut an argument short without a word (a C string ends there).
bool checkArguments(const std::vector<std::string>& argv, std::string& error) {
  if (argv.empty() || argv[0].empty()) {
    error = "no program to start";
    return false;
  }
  for (const std::string& a : argv)
    if (a.find('\0') != std::string::npos) {
      error = argv[0] + ": an argument holds a NUL byte";
      return false;
    }
  return true;
}
}  // namespace

#if defined(_WIN32)

namespace {
// UTF-8 to UTF-16. False on bytes that are not UTF-8: replacing them would name another file.
bool widen(const std::string& s, std::wstring& out) {
  out.clear();
  if (s.empty()) return true;
  if (s.size() > size_t(INT_MAX)) return false;
  const int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s.data(), int(s.size()), nullptr, 0);
  if (n <= 0) return false;
  out.resize(size_t(n));
  return MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s.data(), int(s.size()), out.data(), n) == n;
}

bool isFile(const std::wstring& path) {
  const DWORD attributes = GetFileAttributesW(path.c_str());
  return attributes != INVALID_FILE_ATTRIBUTES && !(attributes & FILE_ATTRIBUTE_DIRECTORY);
}

// The program's file: `name` itself when it has a folder in it, else the first PATH folder that
// holds it; ".exe" is added to a name without an extension. Only .exe files: CreateProcess starts a
// .bat or .cmd through cmd.exe, which reads the arguments with a shell's rules. And only the PATH:
// CreateProcess's own search looks in the current folder first, where anyone may have put an ffmpeg.exe.
bool findProgram(std::wstring name, std::wstring& path, std::string& why) {
  const size_t base = name.find_last_of(L"\\/:");
  const size_t dot = name.find_last_of(L'.');
  if (dot == std::wstring::npos || (base != std::wstring::npos && dot < base)) {
    name += L".exe";
  } else if (CompareStringOrdinal(name.c_str() + dot, -1, L".exe", -1, TRUE) != CSTR_EQUAL) {
    why = ": only .exe programs start without a shell";
    return false;
  }
  if (base != std::wstring::npos) {
    path = name;
    if (isFile(path)) return true;
    why = ": not found";
    return false;
  }
  std::wstring folders(32767, L'\0');
  folders.resize(GetEnvironmentVariableW(L"PATH", folders.data(), DWORD(folders.size())));
  for (size_t from = 0; from <= folders.size();) {
    size_t to = folders.find(L';', from);
    if (to == std::wstring::npos) to = folders.size();
    std::wstring folder = folders.substr(from, to - from);
    from = to + 1;
    if (folder.size() >= 2 && folder.front() == L'"' && folder.back() == L'"') folder = folder.substr(1, folder.size() - 2);
    if (folder.empty()) continue;
    path = folder + (folder.back() == L'\\' || folder.back() == L'/' ? L"" : L"\\") + name;
    if (isFile(path)) return true;
  }
  why = ": not found on the PATH";
  return false;
}

// A copy of this program's standard output or error that the child may inherit; nullptr when there is none.
HANDLE inheritableCopy(DWORD which) {
  const HANDLE h = GetStdHandle(which);
  HANDLE copy = nullptr;
  if (h == nullptr || h == INVALID_HANDLE_VALUE ||
      !DuplicateHandle(GetCurrentProcess(), h, GetCurrentProcess(), &copy, 0, TRUE, DUPLICATE_SAME_ACCESS))
    return nullptr;
  return copy;
}

void closeIfOpen(HANDLE h) {
  if (h) CloseHandle(h);
}
}  // namespace

bool PipedProcess::start(const std::vector<std::string>& argv, std::string& error, Output outputTo) {
  finish();
  if (!checkArguments(argv, error)) return false;
  std::wstring program, commandLine;
  for (const std::string& a : argv) {
    std::wstring wide;
    if (!widen(a, wide)) {
      error = argv[0] + ": an argument is not UTF-8 text";
      return false;
    }
    if (program.empty()) program = wide;
    commandLine += (commandLine.empty() ? L"" : L" ") + quoteWindowsArgument(wide);
  }
  constexpr size_t kMaxCommandLine = 32767;  // CreateProcess's limit, with the terminating NUL
  if (commandLine.size() >= kMaxCommandLine) {
    error = argv[0] + ": the command line is too long for Windows (" + std::to_string(commandLine.size()) + " characters)";
    return false;
  }
  std::wstring file;
  std::string notFound;
  if (!findProgram(program, file, notFound)) {
    error = argv[0] + notFound;
    return false;
  }
  // Neither end is inheritable when made; the read end becomes so, and the attribute list hands the
  // child that handle and copies of our stdout and stderr only, not every inheritable handle we hold.
  HANDLE readEnd = nullptr, writeEnd = nullptr;
  if (!CreatePipe(&readEnd, &writeEnd, nullptr, 0)) {
    error = argv[0] + ": cannot create a pipe (error " + std::to_string(GetLastError()) + ")";
    return false;
  }
  SetHandleInformation(readEnd, HANDLE_FLAG_INHERIT, HANDLE_FLAG_INHERIT);
  SECURITY_ATTRIBUTES inheritable{sizeof(SECURITY_ATTRIBUTES), nullptr, TRUE};
  HANDLE output = outputTo == Output::Shared
                      ? inheritableCopy(STD_OUTPUT_HANDLE)
                      : CreateFileW(L"NUL", GENERIC_WRITE, FILE_SHARE_WRITE, &inheritable, OPEN_EXISTING, 0, nullptr);
  if (output == INVALID_HANDLE_VALUE) output = nullptr;
  const HANDLE errors = inheritableCopy(STD_ERROR_HANDLE);
  std::vector<HANDLE> inherited{readEnd};
  for (HANDLE h : {output, errors})
    if (h) inherited.push_back(h);
  SIZE_T listSize = 0;
  InitializeProcThreadAttributeList(nullptr, 1, 0, &listSize);
  std::vector<unsigned char> listMemory(listSize);
  auto* list = reinterpret_cast<LPPROC_THREAD_ATTRIBUTE_LIST>(listMemory.data());
  BOOL ok = InitializeProcThreadAttributeList(list, 1, 0, &listSize);
  DWORD why = ok ? ERROR_SUCCESS : GetLastError();
  if (ok) {
    ok = UpdateProcThreadAttribute(list, 0, PROC_THREAD_ATTRIBUTE_HANDLE_LIST, inherited.data(), inherited.size() * sizeof(HANDLE),
                                   nullptr, nullptr);
    if (!ok) why = GetLastError();
  }
  PROCESS_INFORMATION pi{};
  if (ok) {
    STARTUPINFOEXW si{};
    si.StartupInfo.cb = sizeof si;
    si.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
    si.StartupInfo.hStdInput = readEnd;
    si.StartupInfo.hStdOutput = output;
    si.StartupInfo.hStdError = errors;
    si.lpAttributeList = list;
    // The file found above, never a shell: the command line only carries the child's arguments.
    ok = CreateProcessW(file.c_str(), commandLine.data(), nullptr, nullptr, TRUE,
                        CREATE_NO_WINDOW | EXTENDED_STARTUPINFO_PRESENT, nullptr, nullptr, &si.StartupInfo, &pi);
    if (!ok) why = GetLastError();
    DeleteProcThreadAttributeList(list);
  }
  // The child has its copies; ours of its ends would keep the pipe open after it exits.
  CloseHandle(readEnd);
  closeIfOpen(output);
  closeIfOpen(errors);
  if (!ok) {
    CloseHandle(writeEnd);
    error = argv[0] + ": cannot start (error " + std::to_string(why) + ")";
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
    // Windows has no SIGPIPE: a child that exited or closed its input fails the write
    // (ERROR_BROKEN_PIPE, ERROR_NO_DATA), which is "it stopped reading".
    if (!WriteFile(input_, p, chunk, &written, nullptr) || written == 0) {
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
  // A crash ends a process with an NTSTATUS code (0xC0000005...), past INT_MAX: read as 255, so it
  // stays a failure and never looks like -1, "never started".
  return code > DWORD(INT_MAX) ? 255 : int(code);
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

bool PipedProcess::start(const std::vector<std::string>& argv, std::string& error, Output outputTo) {
  finish();
  if (!checkArguments(argv, error)) return false;
  ignoreSigpipe();
#if defined(__EMSCRIPTEN__)
  // A page cannot start programs: recording is hidden there, and this says why if it is reached.
  (void)outputTo;
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
  if (outputTo == Output::Discarded) posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
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
