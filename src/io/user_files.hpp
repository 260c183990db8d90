// What a user hands the program: files read only when they are regular files under a size cap, and
// JSON parsed with every library error caught, no NUL bytes and bounded nesting. Presets and
// settings both read through here, so a hostile file gets the same one-line answer everywhere.
#pragma once
#include <cstddef>
#include <string>
#include <nlohmann/json_fwd.hpp>

namespace io {

// Presets and settings are a few kilobytes; a megabyte is generous.
inline constexpr size_t kMaxUserFileBytes = size_t(1) << 20;
// Deeper than any preset or settings file needs; bounds every recursive walk of a parsed value.
inline constexpr int kMaxJsonDepth = 64;

enum class ReadStatus { Ok, Missing, Failed };

// Reads the whole file into `text`. Missing: the path does not exist (error says so too).
// Failed: a folder, device, FIFO or socket, a file over maxBytes, or a read error; error is one line
// naming `path` and the reason.
ReadStatus readUserFile(const std::string& path, std::string& text, std::string& error,
                        size_t maxBytes = kMaxUserFileBytes);

// Parses `text` as one JSON document. On failure `error` says what and where (no label).
bool parseUserJson(const std::string& text, nlohmann::json& doc, std::string& error);

// User text for a message: in single quotes, cut to a few dozen characters, control bytes shown as
// \xNN so a message can never carry a terminal escape sequence.
std::string quoteText(const std::string& text);

// A short, flat quote of a value for messages: numbers, booleans and strings as JSON (strings cut
// to a few dozen characters), arrays and objects by kind only. Never recurses.
std::string jsonExcerpt(const nlohmann::json& value);

}  // namespace io
