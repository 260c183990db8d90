// A user preset's name and its file name. Names stay as typed, in UTF-8 ("Стая" and "Рыбы" are two
// files); only what a file system forbids is escaped as %XX: '/', '\', ':', '*', '?', '"', '<', '>',
// '|', control bytes, '%' itself, a leading '.', and a trailing '.' or space (Windows drops them).
// The list shows the name decoded again.
#pragma once
#include <string>

namespace app {

// The file name's stem for `name` (no folder, no ".json"); "preset" for an empty name. At most
// kMaxPresetStemBytes, cut at a UTF-8 character boundary.
inline constexpr size_t kMaxPresetStemBytes = 200;
std::string presetFileStem(const std::string& name);
// The name a stem was made from (a stem written by hand is shown as it is, %XX decoded).
std::string presetNameOfStem(const std::string& stem);

}  // namespace app
