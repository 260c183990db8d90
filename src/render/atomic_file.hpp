// Files written so that none is ever half-written under its real name: presets, settings, the
// metrics CSV and screenshots all go through here.
#pragma once
#include <cstdio>
#include <functional>
#include <string>
#include <string_view>

namespace render {

// Writes `bytes` to `path`.tmp beside the target, flushes and closes it, then renames it over
// `path`. On failure the temporary is removed, an existing file at `path` is left as it was, and
// `error` names `path` and why ("cannot write (...)", "write failed (...)", "cannot replace (...)").
bool writeFileAtomically(const std::string& path, std::string_view bytes, std::string& error);
// The same for content written piece by piece: `write` fills the open temporary file and returns
// false when it fails.
bool writeFileAtomically(const std::string& path, const std::function<bool(std::FILE*)>& write, std::string& error);

}  // namespace render
