#include "io/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

namespace io {

namespace {

std::string reason(int e) { return std::string(std::strerror(e ? e : EIO)); }

// "a/b/c.json" -> "a/" and "c.json" ("" and the name when there is no folder).
void splitPath(const std::string& path, std::string& dir, std::string& name) {
  const size_t slash = path.find_last_of('/');
  dir = slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
  name = slash == std::string::npos ? path : path.substr(slash + 1);
}

// What `path` names once the links it may follow are followed.
struct Target {
  enum Kind { Absent, Regular, Special, Proc } kind = Absent;
  std::string path;
  struct stat st {};
};

bool resolve(const std::string& path, Target& t, std::string& error) {
  std::string p = path;
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0) {
      if (errno != ENOENT) {
        error = path + ": cannot write (" + reason(errno) + ")";
        return false;
      }
      t.kind = Target::Absent;
      t.path = p;
      return true;
    }
    if (S_ISLNK(st.st_mode)) {
      if (st.st_uid != ::geteuid() && st.st_uid != 0) {
        error = path + ": is a link owned by another user; not followed (give the path it points to)";
        return false;
      }
      std::string to(PATH_MAX, '\0');
      const ssize_t n = ::readlink(p.c_str(), to.data(), to.size());
      if (n <= 0 || size_t(n) >= to.size()) {
        error = path + ": cannot read the link (" + reason(errno) + ")";
        return false;
      }
      to.resize(size_t(n));
      std::string dir, name;
      splitPath(p, dir, name);
      // /dev/stdout, /dev/fd/N: links into /proc, the program's own descriptors (a pipe, a terminal,
      // a file the shell opened), written through as they are.
      char real[PATH_MAX];
      const bool inProc = ::realpath(dir.empty() ? "." : dir.c_str(), real) && std::strncmp(real, "/proc/", 6) == 0;
      if (inProc || to.rfind("/proc/", 0) == 0) {
        t.kind = Target::Proc;
        t.path = p;
        return true;
      }
      p = to.front() == '/' ? to : dir + to;
      continue;
    }
    if (S_ISDIR(st.st_mode)) {
      error = path + ": is a folder";
      return false;
    }
    if (S_ISSOCK(st.st_mode)) {
      error = path + ": is a socket; not written";
      return false;
    }
    t.kind = S_ISREG(st.st_mode) ? Target::Regular : Target::Special;
    t.path = p;
    t.st = st;
    return true;
  }
  error = path + ": too many levels of links";
  return false;
}

// ".<name>.tmp-<12 random letters>": unpredictable, so nobody can plant a file or a link under the
// name before it is created (and O_EXCL would refuse it if they did).
std::string temporaryName(const std::string& name) {
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  static const char letters[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::string tmp = "." + name + ".tmp-";
  for (int i = 0; i < 12; ++i) tmp += letters[rng() % (sizeof letters - 1)];
  return tmp;
}

void clearNonBlocking(int fd) { ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK); }

}  // namespace

bool OutputFile::openDirect(const std::string& target, bool viaProc, std::string& error) {
  // O_NONBLOCK: a FIFO nobody reads fails at once (ENXIO) instead of hanging; O_APPEND: a file the
  // shell opened for our stdout gets the bytes after what was printed, not over it. A /proc link is
  // the kernel's own and is followed; any other name is opened without following a link.
  const int flags = O_WRONLY | O_APPEND | O_NOCTTY | O_NONBLOCK | O_CLOEXEC;
  fd_ = viaProc ? ::open(target.c_str(), flags) : ::openat(dirFd_, name_.c_str(), flags | O_NOFOLLOW);
  if (fd_ < 0) {
    error = errno == ENXIO   ? path_ + ": is a pipe with no reader"
            : errno == ELOOP ? path_ + ": became a link while it was opened; not followed"
                             : path_ + ": cannot write (" + reason(errno) + ")";
    return false;
  }
  struct stat st {};
  if (::fstat(fd_, &st) != 0 || S_ISDIR(st.st_mode) || S_ISSOCK(st.st_mode) || (!viaProc && S_ISREG(st.st_mode))) {
    error = path_ + ": changed while it was opened; not written";
    ::close(fd_);
    fd_ = -1;
    return false;
  }
  clearNonBlocking(fd_);
  direct_ = true;
  dev_ = st.st_dev;
  ino_ = st.st_ino;
  return true;
}

bool OutputFile::startTemporary(std::string& error) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    tmpName_ = temporaryName(name_);
    fd_ = ::openat(dirFd_, tmpName_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0666);
    if (fd_ >= 0) {
      if (existed_) (void)::fchmod(fd_, mode_);  // a replaced file keeps its permissions
      return true;
    }
    if (errno != EEXIST) break;
  }
  error = path_ + ": cannot write (" + reason(errno) + ")";
  tmpName_.clear();
  return false;
}

bool OutputFile::open(const std::string& path, const Rules& rules, std::string& error) {
  abandon();
  path_ = path;
  name_.clear();
  rules_ = rules;
  direct_ = existed_ = createdInPlace_ = false;
  mode_ = 0;
  dirDev_ = dev_ = 0;
  dirIno_ = ino_ = 0;
  errno_ = 0;
  if (path.empty()) {
    error = "an empty file name";
    return false;
  }
  Target t;
  if (!resolve(path, t, error)) return false;
  const bool special = t.kind == Target::Special || t.kind == Target::Proc;
  if (special && !rules.allowSpecial) {
    error = path + ": not a regular file (a device, a pipe or the program's own output); give a file";
    return false;
  }
  if (rules.mode == Mode::Append && t.kind != Target::Regular) {
    error = path + ": cannot be continued (" + (special ? "not a regular file" : "it does not exist") + ")";
    return false;
  }
  if (special && rules.probeSpecial) {
    if (::access(t.path.c_str(), W_OK) == 0) return true;
    error = path + ": cannot write (" + reason(errno) + ")";
    return false;
  }
  if (t.kind == Target::Proc) return openDirect(t.path, true, error);
  std::string dir;
  splitPath(t.path, dir, name_);
  dirFd_ = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  struct stat dst {};
  if (dirFd_ < 0 || ::fstat(dirFd_, &dst) != 0) {
    error = path + ": cannot write (" + reason(errno) + ")";
    abandon();
    return false;
  }
  dirDev_ = dst.st_dev;
  dirIno_ = dst.st_ino;
  if (t.kind == Target::Special) return openDirect(t.path, false, error) || (abandon(), false);

  // A regular file or none. What is there now, looked at inside the opened folder without following
  // a link: a link planted since the check is refused, never followed.
  struct stat now {};
  if (::fstatat(dirFd_, name_.c_str(), &now, AT_SYMLINK_NOFOLLOW) == 0) {
    if (!S_ISREG(now.st_mode)) {
      error = path + ": changed while it was opened (no longer a regular file); not written";
      abandon();
      return false;
    }
    existed_ = true;
    mode_ = unsigned(now.st_mode & 07777);
    dev_ = now.st_dev;
    ino_ = now.st_ino;
  }
  if (existed_ && rules.existing == Existing::Keep) {
    error = path + ": already exists";
    abandon();
    return false;
  }
  switch (rules.mode) {
    case Mode::Whole: {
      // Only checked now (a folder we may not write, a read-only disk); the temporary is made when
      // the content comes, so a long run leaves nothing beside the target meanwhile.
      if (!startTemporary(error)) {
        abandon();
        return false;
      }
      ::close(fd_);
      fd_ = -1;
      ::unlinkat(dirFd_, tmpName_.c_str(), 0);
      tmpName_.clear();
      return true;
    }
    case Mode::Stream:
      if (existed_) return startTemporary(error) || (abandon(), false);
      fd_ = ::openat(dirFd_, name_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0666);
      createdInPlace_ = fd_ >= 0;
      break;
    case Mode::Append:
      fd_ = ::openat(dirFd_, name_.c_str(), O_WRONLY | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
      break;
  }
  struct stat st {};
  if (fd_ < 0 || ::fstat(fd_, &st) != 0) {
    error = errno == EEXIST || errno == ELOOP ? path + ": changed while it was opened; not written"
                                              : path + ": cannot write (" + reason(errno) + ")";
    abandon();
    return false;
  }
  if (!S_ISREG(st.st_mode) || (rules.mode == Mode::Append && (st.st_dev != t.st.st_dev || st.st_ino != t.st.st_ino))) {
    error = path + ": changed while it was opened; not written";
    abandon();
    return false;
  }
  clearNonBlocking(fd_);
  dev_ = st.st_dev;
  ino_ = st.st_ino;
  return true;
}

bool OutputFile::ready() {
  if (errno_) return false;
  if (fd_ < 0 && dirFd_ >= 0 && rules_.mode == Mode::Whole) {
    std::string error;
    if (!startTemporary(error)) {
      errno_ = errno ? errno : EIO;
      return false;
    }
  }
  if (fd_ < 0) errno_ = EBADF;
  return fd_ >= 0;
}

bool OutputFile::writeWith(const std::function<bool(std::FILE*)>& fill) {
  if (!ready()) return false;
  const int copy = ::dup(fd_);
  std::FILE* f = copy >= 0 ? ::fdopen(copy, "ab") : nullptr;
  if (!f) {
    errno_ = errno ? errno : EIO;
    if (copy >= 0) ::close(copy);
    return false;
  }
  errno = 0;
  bool ok = fill(f) && std::fflush(f) == 0 && !std::ferror(f);
  int why = errno;
  if (std::fclose(f) != 0 && ok) {
    ok = false;
    why = errno;
  }
  if (!ok) errno_ = why ? why : EIO;
  return ok;
}

bool OutputFile::write(std::string_view bytes) {
  if (!ready()) return false;
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd_, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      errno_ = n < 0 ? errno : EIO;
      return false;
    }
    done += size_t(n);
  }
  return true;
}

void OutputFile::truncate() {
  if (fd_ < 0 || direct_) return;
  if (::ftruncate(fd_, 0) == 0) ::lseek(fd_, 0, SEEK_SET);
}

bool OutputFile::commit(std::string& error) {
  if (!isOpen()) {
    error = path_ + ": not open";
    return false;
  }
  if (!errno_ && fd_ < 0 && rules_.mode == Mode::Whole) write({});  // an empty file is a file too
  if (fd_ >= 0) {
    if (::close(fd_) != 0 && !errno_) errno_ = errno;
    fd_ = -1;
  }
  if (errno_) {
    error = path_ + ": write failed (" + reason(errno_) + ")";
    abandon();
    return false;
  }
  if (!tmpName_.empty()) {
    if (rules_.existing == Existing::Keep) {
      // link() fails rather than replace a file that appeared meanwhile (another instance's screenshot).
      if (::linkat(dirFd_, tmpName_.c_str(), dirFd_, name_.c_str(), 0) != 0) {
        const int e = errno;
        struct stat st {};
        if (e == EEXIST || ::fstatat(dirFd_, name_.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) {
          error = path_ + ": already exists";
          abandon();
          return false;
        }
        // No hard links on this file system: checked above, so a rename is as good.
        if (::renameat(dirFd_, tmpName_.c_str(), dirFd_, name_.c_str()) != 0) {
          error = path_ + ": cannot write (" + reason(errno) + ")";
          abandon();
          return false;
        }
      }
    } else if (::renameat(dirFd_, tmpName_.c_str(), dirFd_, name_.c_str()) != 0) {
      // A rename replaces whatever is at the name, a link planted there included: never follows it.
      error = path_ + ": cannot replace (" + reason(errno) + ")";
      abandon();
      return false;
    }
    ::unlinkat(dirFd_, tmpName_.c_str(), 0);  // after link(): the temporary's name goes
    tmpName_.clear();
  }
  abandon();
  return true;
}

bool OutputFile::rewrite(std::string_view bytes, std::string& error) {
  if (!isOpen() || rules_.mode != Mode::Whole || rules_.existing != Existing::Replace) {
    error = path_ + ": not open for rewriting";
    return false;
  }
  write(bytes);
  if (!direct_ && fd_ >= 0) {
    if (::close(fd_) != 0 && !errno_) errno_ = errno;
    fd_ = -1;
  }
  if (errno_) {
    error = path_ + ": write failed (" + reason(errno_) + ")";
    errno_ = 0;  // the next write may get through (space freed); this one is lost, the old file kept
    if (!direct_ && !tmpName_.empty()) ::unlinkat(dirFd_, tmpName_.c_str(), 0);
    tmpName_.clear();
    return false;
  }
  if (direct_) return true;
  const bool renamed = ::renameat(dirFd_, tmpName_.c_str(), dirFd_, name_.c_str()) == 0;
  if (!renamed) {
    error = path_ + ": cannot replace (" + reason(errno) + ")";
    ::unlinkat(dirFd_, tmpName_.c_str(), 0);
  }
  tmpName_.clear();
  // The next temporaries keep the permissions of the file as it is now, as for any replaced file.
  struct stat st {};
  if (renamed && ::fstatat(dirFd_, name_.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode)) {
    existed_ = true;
    mode_ = unsigned(st.st_mode & 07777);
    dev_ = st.st_dev;
    ino_ = st.st_ino;
  }
  return renamed;
}

void OutputFile::abandon() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!tmpName_.empty() && dirFd_ >= 0) ::unlinkat(dirFd_, tmpName_.c_str(), 0);
  tmpName_.clear();
  if (dirFd_ >= 0) ::close(dirFd_);
  dirFd_ = -1;
}

void OutputFile::discard() {
  if (createdInPlace_ && dirFd_ >= 0) ::unlinkat(dirFd_, name_.c_str(), 0);
  createdInPlace_ = false;
  abandon();
}

bool OutputFile::sameFileAs(const OutputFile& o) const {
  if (!isOpen() || !o.isOpen() || direct_ || o.direct_) return false;
  if (ino_ && o.ino_ && dev_ == o.dev_ && ino_ == o.ino_) return true;
  return dirDev_ == o.dirDev_ && dirIno_ == o.dirIno_ && name_ == o.name_;
}

bool distinctOutputs(std::initializer_list<std::pair<const char*, const OutputFile*>> outputs, std::string& error) {
  for (auto a = outputs.begin(); a != outputs.end(); ++a)
    for (auto b = a + 1; b != outputs.end(); ++b)
      if (a->second && b->second && a->second->sameFileAs(*b->second)) {
        error = std::string(a->first) + " and " + b->first + " name the same file (" + a->second->path() +
                "); one would replace the other";
        return false;
      }
  return true;
}

bool finishStdout(std::string& error) {
  errno = 0;
  const bool ok = std::fflush(stdout) == 0 && !std::ferror(stdout);
  if (ok) return true;
  error = "stdout: write failed (" + reason(errno) + ")";
  return false;
}

}  // namespace io
