// Files written so that none is ever half-written under its real name: presets, settings, the
// metrics CSV, screenshots and state files all go through here.
//
// What a target path may be, and what happens to it:
//  - a regular file or nothing: the bytes go to a new temporary file beside it, created exclusively
//    under an unpredictable name (O_EXCL | O_NOFOLLOW, so a planted link is never followed), which
//    is then renamed over the target; a replaced file keeps its permissions;
//  - a device, a FIFO (pipe) or the program's own output (/dev/stdout, /dev/fd/N): written directly,
//    never replaced (`--state-out /dev/stdout` prints the state); a FIFO with no reader and a socket
//    are refused with a clear line;
//  - a symbolic link: followed on purpose when it is the user's own or root's (the file it points to
//    is replaced atomically, the link stays); a link someone else owns is refused, as the kernel's
//    protected_symlinks does in shared folders;
//  - a folder: refused.
#pragma once
#include <cstdio>
#include <functional>
#include <string>
#include <string_view>

namespace io {

// Replace: an existing file is replaced (settings, presets after a confirmation, --state-out).
// Keep: the write fails with "<path>: already exists" rather than replace anything (names the
// program picked itself: screenshots, exports).
enum class Existing { Replace, Keep };

// Writes `bytes` to `path` as described above. On failure the temporary is removed, an existing file
// at `path` is left as it was, and `error` names `path` and why ("cannot write (...)", "write failed
// (...)", "cannot replace (...)", "is a folder", ...).
bool writeFileAtomically(const std::string& path, std::string_view bytes, std::string& error,
                         Existing existing = Existing::Replace);
// The same for content written piece by piece: `write` fills the open file and returns false when
// it fails.
bool writeFileAtomically(const std::string& path, const std::function<bool(std::FILE*)>& write, std::string& error,
                         Existing existing = Existing::Replace);

// Whether writeFileAtomically could write `path` now, without writing it: the same resolution, and a
// temporary created and removed in the target's folder. For output paths given on the command line,
// checked before a long run rather than after it.
bool checkWritable(const std::string& path, std::string& error);

// A file under a name nobody has taken: `stem + suffix`, else `stem-2 + suffix`, `stem-3 + suffix`...
// `write(path, error)` writes one candidate with Existing::Keep; a candidate that exists is skipped.
// Returns the path written, or "" with the error.
std::string writeUnderNewName(const std::string& stem, const std::string& suffix,
                              const std::function<bool(const std::string& path, std::string& error)>& write,
                              std::string& error);

}  // namespace io
