// The one way the program writes a file a user named: whole files (presets, settings, state, SVG,
// PNG, CSV tables) and streams (sweep rows, --metrics-csv rows, bench rows). Every writer opens its
// path here, before any work, so what can go wrong with a path goes wrong at once:
//  - the path is resolved once: a symbolic link is followed only when it is the user's own or
//    root's (as the kernel's protected_symlinks does in shared folders); a folder or a socket is
//    refused;
//  - the file is then opened race-free: the target's folder is opened and every name inside it is
//    opened with O_NOFOLLOW (a link planted after the check is never followed) and checked with
//    fstat on the opened descriptor;
//  - a FIFO or a device (/dev/null, /dev/stdout) is written directly, never replaced, and only where
//    the command allows it; it is opened O_NONBLOCK, so a FIFO nobody reads fails at once instead of
//    blocking the program in open();
//  - a regular file is never replaced before its new content is complete: the bytes go to a
//    temporary beside it that is renamed over it at commit() (the old file survives a kill);
//  - every error names the path and the reason (strerror).
#pragma once
#include <sys/types.h>

#include <cstdio>
#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

namespace io {

// Replace: an existing file is replaced (settings, presets after a confirmation, --state-out).
// Keep: the write fails with "<path>: already exists" rather than replace anything (names the
// program picked itself: screenshots, exports).
enum class Existing { Replace, Keep };

class OutputFile {
 public:
  enum class Mode {
    // The content is handed over at the end (write() then commit()); a replaced file keeps its
    // permissions.
    Whole,
    // Rows written as they come. A new file is written in place, so a killed run keeps every row it
    // wrote; a file that is there already is replaced only at commit() (a killed run keeps it).
    Stream,
    // Rows added to the end of the regular file that is there (a resumed sweep); it must exist.
    Append,
  };
  struct Rules {
    Mode mode = Mode::Whole;
    bool allowSpecial = true;  // a FIFO or a device; false: only a regular file
    Existing existing = Existing::Replace;
    // Only checks a FIFO or device (whether it may be written) without opening it: opening a FIFO
    // and closing it again would end its reader's input. Outputs held open need no such care.
    bool probeSpecial = false;
  };

  OutputFile() = default;
  ~OutputFile() { abandon(); }
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Resolves, checks and opens `path`; false with one line naming the path and the reason.
  bool open(const std::string& path, const Rules& rules, std::string& error);
  bool isOpen() const { return dirFd_ >= 0 || fd_ >= 0; }
  const std::string& path() const { return path_; }
  // A regular file (not a FIFO or device): it may be read back, truncated or appended to.
  bool isRegular() const { return !direct_; }

  // Writes every byte (short writes and EINTR retried). After the first error nothing more is
  // written and the error is kept for commit().
  bool write(std::string_view bytes);
  // The same through a stdio stream, for writers that print piece by piece; `fill` returns false
  // when it fails.
  bool writeWith(const std::function<bool(std::FILE*)>& fill);
  // Empties a regular file being streamed (a restarted run); a FIFO or device just goes on.
  void truncate();
  // Ends the write: the temporary is renamed over the target (Whole, Stream replacing a file), the
  // descriptor closed. False with the path and the reason of the first failure.
  bool commit(std::string& error);
  // For a Whole output written again and again while it is held (the window's --state-out, on
  // each SIGUSR1): `bytes` become the file's whole content now (a temporary renamed over it) and the
  // output stays open for the next; a FIFO or device gets them after what it got before. False with
  // the path and the reason; the output stays open either way. Existing::Replace outputs only.
  bool rewrite(std::string_view bytes, std::string& error);
  // Ends without committing: a temporary is removed, a file that was there stays as it was.
  void abandon();
  // The same, and a new file this output created in place (a Stream) is removed too: for a command
  // refused before it wrote anything.
  void discard();

  // Whether both name one file (compared by folder and name once links are followed, and by device
  // and inode where the file exists). Devices and FIFOs never clash: /dev/null twice is fine.
  bool sameFileAs(const OutputFile& other) const;

 private:
  bool openDirect(const std::string& target, bool viaProc, std::string& error);
  bool startTemporary(std::string& error);
  bool ready();  // the descriptor to write to, made when a Whole file's content comes

  std::string path_;      // as the user gave it, for messages
  std::string name_;      // the resolved target's name inside dirFd_
  int dirFd_ = -1;        // the resolved target's folder
  int fd_ = -1;           // where write() goes: the temporary, the file itself or the device
  std::string tmpName_;   // the temporary inside dirFd_, "" when writing in place
  Rules rules_;
  bool direct_ = false;   // a FIFO or device
  bool existed_ = false;  // a regular file was at the target when opened
  bool createdInPlace_ = false;  // a Stream's new file, written under its own name
  unsigned mode_ = 0;     // its permissions, kept on replacing it
  dev_t dirDev_ = 0, dev_ = 0;
  ino_t dirIno_ = 0, ino_ = 0;  // ino_ 0: no file yet
  int errno_ = 0;         // the first write error
};

// The outputs of one command: false, with a line naming both flags, when two name the same file
// ("--csv and --plot name the same file x"). Unopened outputs are skipped.
bool distinctOutputs(std::initializer_list<std::pair<const char*, const OutputFile*>> outputs, std::string& error);

// stdout after a command printed to it: flushed and checked, so a full disk or /dev/full under a
// listing or a merge is an exit code, not a silent loss. False with "stdout: write failed (reason)".
bool finishStdout(std::string& error);

}  // namespace io
