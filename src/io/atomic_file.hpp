// Whole files written at once (presets, settings, state files, screenshots), on top of
// io::OutputFile (output_file.hpp), which says what a path may be and what happens to it: never a
// half-written file under the real name; links, FIFOs, devices and folders handled there.
#pragma once
#include <cstdio>
#include <functional>
#include <string>
#include <string_view>
#include "io/output_file.hpp"

namespace io {

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
