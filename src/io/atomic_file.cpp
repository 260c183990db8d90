#include "io/atomic_file.hpp"

#include <cerrno>
#include <cstring>
#include <random>
#if defined(_WIN32)
#include <filesystem>
#else
#include <climits>
#include <cstdlib>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace io {

namespace {

std::string reason(int e) { return std::string(std::strerror(e)); }

// ".<name>.tmp-<12 random letters>" in `dir`: unpredictable, so nobody can plant a file or a link
// under the name before we create it (and O_EXCL would refuse it if they did).
std::string temporaryName(const std::string& dir, const std::string& name) {
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  static const char letters[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::string tmp = dir + "." + name + ".tmp-";
  for (int i = 0; i < 12; ++i) tmp += letters[rng() % (sizeof letters - 1)];
  return tmp;
}

// Splits "a/b/c.json" into "a/" and "c.json" ("" and the name when there is no folder).
void splitPath(const std::string& path, std::string& dir, std::string& name) {
  const size_t slash = path.find_last_of('/');
  dir = slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
  name = slash == std::string::npos ? path : path.substr(slash + 1);
}

// The file that `path` names once links are followed, and how it is written.
struct Target {
  enum Kind { Atomic, Direct } kind = Atomic;
  std::string path;     // where the bytes go (a link's target for Atomic)
  bool exists = false;  // Atomic: a regular file is there now
  unsigned mode = 0;    // its permissions, kept on replacing it
};

#if defined(_WIN32)
bool resolve(const std::string& path, Target& t, std::string& error) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  t.path = path;
  if (fs::is_directory(st)) { error = path + ": is a folder"; return false; }
  t.exists = fs::is_regular_file(st);
  return true;
}
#else
bool resolve(const std::string& path, Target& t, std::string& error) {
  if (path.empty()) { error = "an empty file name"; return false; }
  std::string p = path;
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0) {
      if (errno != ENOENT) { error = path + ": cannot write (" + reason(errno) + ")"; return false; }
      t = {Target::Atomic, p, false, 0};
      return true;
    }
    if (S_ISLNK(st.st_mode)) {
      if (st.st_uid != ::geteuid() && st.st_uid != 0) {
        error = path + ": is a link owned by another user; not followed (give the path it points to)";
        return false;
      }
      std::string to(4096, '\0');
      const ssize_t n = ::readlink(p.c_str(), to.data(), to.size());
      if (n <= 0 || size_t(n) >= to.size()) { error = path + ": cannot read the link (" + reason(errno) + ")"; return false; }
      to.resize(size_t(n));
      std::string dir, name;
      splitPath(p, dir, name);
      // /dev/stdout, /dev/fd/N: links into /proc, the program's own descriptors (a pipe, a terminal,
      // a file the shell opened), written through as they are.
      char real[PATH_MAX];
      const bool inProc = ::realpath(dir.empty() ? "." : dir.c_str(), real) && std::strncmp(real, "/proc/", 6) == 0;
      if (inProc || to.rfind("/proc/", 0) == 0) { t = {Target::Direct, p, true, 0}; return true; }
      p = to.front() == '/' ? to : dir + to;
      continue;
    }
    if (S_ISREG(st.st_mode)) { t = {Target::Atomic, p, true, unsigned(st.st_mode & 07777)}; return true; }
    if (S_ISDIR(st.st_mode)) { error = path + ": is a folder"; return false; }
    if (S_ISSOCK(st.st_mode)) { error = path + ": is a socket; not written"; return false; }
    t = {Target::Direct, p, true, 0};  // a device or a FIFO: written, never replaced
    return true;
  }
  error = path + ": too many levels of links";
  return false;
}
#endif

// The writer's work on an open stream, then the checks; false with the reason.
bool fill(std::FILE* f, const std::function<bool(std::FILE*)>& write, int& why) {
  errno = 0;
  bool ok = write(f) && std::fflush(f) == 0 && !std::ferror(f);
  why = errno;
  if (std::fclose(f) != 0 && ok) {
    ok = false;
    why = errno;
  }
  return ok;
}

std::string writeFailed(const std::string& path, int why) {
  return path + ": write failed" + (why ? " (" + reason(why) + ")" : std::string());
}

#if !defined(_WIN32)
bool writeDirect(const std::string& path, const Target& t, const std::function<bool(std::FILE*)>& write,
                 std::string& error) {
  // O_NONBLOCK: a FIFO nobody reads fails at once instead of hanging; O_APPEND: a file the shell
  // opened for our stdout gets the bytes after what was printed, not over it.
  const int fd = ::open(t.path.c_str(), O_WRONLY | O_APPEND | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    error = errno == ENXIO ? path + ": is a pipe with no reader" : path + ": cannot write (" + reason(errno) + ")";
    return false;
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  std::FILE* f = ::fdopen(fd, "ab");
  if (!f) {
    error = path + ": cannot write (" + reason(errno) + ")";
    ::close(fd);
    return false;
  }
  std::fflush(nullptr);  // what the program printed before goes first on a shared output
  int why = 0;
  if (!fill(f, write, why)) { error = writeFailed(path, why); return false; }
  return true;
}

// An exclusive new file beside the target; -1 with the error.
int createTemporary(const std::string& path, const Target& t, std::string& tmp, std::string& error) {
  std::string dir, name;
  splitPath(t.path, dir, name);
  for (int attempt = 0; attempt < 100; ++attempt) {
    tmp = temporaryName(dir, name);
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0666);
    if (fd >= 0) {
      if (t.exists) (void)::fchmod(fd, t.mode);  // a replaced file keeps its permissions
      return fd;
    }
    if (errno != EEXIST) break;
  }
  error = path + ": cannot write (" + reason(errno) + ")";
  return -1;
}
#endif

}  // namespace

bool writeFileAtomically(const std::string& path, const std::function<bool(std::FILE*)>& write, std::string& error,
                         Existing existing) {
  Target t;
  if (!resolve(path, t, error)) return false;
  if (t.exists && existing == Existing::Keep) {
    error = path + ": already exists";
    return false;
  }
#if defined(_WIN32)
  std::string dir, name;
  splitPath(t.path, dir, name);
  const std::string tmp = temporaryName(dir, name);
  std::FILE* f = std::fopen(tmp.c_str(), "wbx");
  if (!f) {
    error = path + ": cannot write (" + reason(errno) + ")";
    return false;
  }
  int why = 0;
  if (!fill(f, write, why)) {
    error = writeFailed(path, why);
    std::remove(tmp.c_str());
    return false;
  }
  std::error_code ec;
  if (existing == Existing::Keep && std::filesystem::exists(t.path, ec)) {
    error = path + ": already exists";
    std::remove(tmp.c_str());
    return false;
  }
  std::filesystem::rename(tmp, t.path, ec);
  if (ec) {
    error = path + ": cannot replace (" + ec.message() + ")";
    std::remove(tmp.c_str());
    return false;
  }
  return true;
#else
  if (t.kind == Target::Direct) return writeDirect(path, t, write, error);
  std::string tmp;
  const int fd = createTemporary(path, t, tmp, error);
  if (fd < 0) return false;
  std::FILE* f = ::fdopen(fd, "wb");
  if (!f) {
    error = path + ": cannot write (" + reason(errno) + ")";
    ::close(fd);
    ::unlink(tmp.c_str());
    return false;
  }
  int why = 0;
  if (!fill(f, write, why)) {
    error = writeFailed(path, why);
    ::unlink(tmp.c_str());
    return false;
  }
  if (existing == Existing::Keep) {
    // link() fails rather than replace a file that appeared meanwhile (another instance's screenshot).
    if (::link(tmp.c_str(), t.path.c_str()) == 0) {
      ::unlink(tmp.c_str());
      return true;
    }
    const int e = errno;
    if (e == EEXIST) {
      error = path + ": already exists";
      ::unlink(tmp.c_str());
      return false;
    }
    struct stat st {};
    if (::lstat(t.path.c_str(), &st) == 0) {  // no hard links here (some file systems): check, then rename
      error = path + ": already exists";
      ::unlink(tmp.c_str());
      return false;
    }
  }
  if (::rename(tmp.c_str(), t.path.c_str()) != 0) {
    error = path + ": cannot replace (" + reason(errno) + ")";
    ::unlink(tmp.c_str());
    return false;
  }
  return true;
#endif
}

bool writeFileAtomically(const std::string& path, std::string_view bytes, std::string& error, Existing existing) {
  return writeFileAtomically(
      path, [&](std::FILE* f) { return std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size(); }, error,
      existing);
}

bool checkWritable(const std::string& path, std::string& error) {
  Target t;
  if (!resolve(path, t, error)) return false;
#if defined(_WIN32)
  return true;
#else
  if (t.kind == Target::Direct) {
    // Not opened: opening a FIFO and closing it would end its reader's input.
    if (::access(t.path.c_str(), W_OK) != 0) {
      error = path + ": cannot write (" + reason(errno) + ")";
      return false;
    }
    return true;
  }
  std::string tmp;
  const int fd = createTemporary(path, t, tmp, error);
  if (fd < 0) return false;
  ::close(fd);
  ::unlink(tmp.c_str());
  return true;
#endif
}

std::string writeUnderNewName(const std::string& stem, const std::string& suffix,
                              const std::function<bool(const std::string& path, std::string& error)>& write,
                              std::string& error) {
  for (int k = 1; k <= 1000; ++k) {
    // Appended piece by piece: GCC 12 at -O3 warns falsely (-Wrestrict, its bug 105329) on the one expression.
    std::string path = stem;
    if (k > 1) {
      path += '-';
      path += std::to_string(k);
    }
    path += suffix;
    std::string why;
    if (write(path, why)) return path;
    if (why != path + ": already exists") {
      error = why;
      return {};
    }
  }
  error = stem + suffix + ": a thousand files of that name already exist";
  return {};
}

}  // namespace io
