#include "io/user_files.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#if defined(_WIN32)
#include <filesystem>
#include <fstream>
#else
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace io {

namespace {
std::string tooBig(const std::string& path, unsigned long long bytes, size_t maxBytes) {
  // The cap of the kind of file being read (a preset, a settings file, a sweep's CSV), not one kind's.
  const std::string cap = maxBytes >= (size_t(1) << 20) && maxBytes % (size_t(1) << 20) == 0
                              ? std::to_string(maxBytes >> 20) + " MB"
                              : std::to_string(maxBytes / 1024) + " KB";
  return path + ": too large (" + (bytes ? std::to_string(bytes) + " bytes" : std::string("more")) +
         "; a file of this kind is read up to " + cap + ")";
}
}  // namespace

#if defined(_WIN32)
ReadStatus readUserFile(const std::string& path, std::string& text, std::string& error, size_t maxBytes) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::file_status st = fs::status(path, ec);
  if (st.type() == fs::file_type::not_found) { error = path + ": no such file"; return ReadStatus::Missing; }
  if (ec) { error = path + ": cannot open (" + ec.message() + ")"; return ReadStatus::Failed; }
  if (fs::is_directory(st)) { error = path + ": is a folder, not a file"; return ReadStatus::Failed; }
  if (!fs::is_regular_file(st)) { error = path + ": not a regular file"; return ReadStatus::Failed; }
  std::ifstream in(fs::path(path), std::ios::binary);
  if (!in) { error = path + ": cannot open (" + std::strerror(errno) + ")"; return ReadStatus::Failed; }
  text.assign(maxBytes + 1, '\0');
  in.read(text.data(), std::streamsize(text.size()));
  if (in.bad()) { error = path + ": cannot read"; return ReadStatus::Failed; }
  text.resize(size_t(in.gcount()));
  if (text.size() > maxBytes) { error = tooBig(path, 0, maxBytes); return ReadStatus::Failed; }
  return ReadStatus::Ok;
}
#else
ReadStatus readUserFile(const std::string& path, std::string& text, std::string& error, size_t maxBytes) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; the type check below then refuses it.
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    const int e = errno;
    error = path + ": cannot open (" + std::strerror(e) + ")";
    return e == ENOENT ? ReadStatus::Missing : ReadStatus::Failed;
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) { error = path + ": cannot read (" + std::strerror(errno) + ")"; return ReadStatus::Failed; }
  if (S_ISDIR(st.st_mode)) { error = path + ": is a folder, not a file"; return ReadStatus::Failed; }
  if (!S_ISREG(st.st_mode)) {
    const char* kind = S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISSOCK(st.st_mode) ? "a socket" : "a device";
    error = path + ": not a regular file (" + kind + ")";
    return ReadStatus::Failed;
  }
  if (st.st_size > 0 && static_cast<unsigned long long>(st.st_size) > maxBytes) {
    error = tooBig(path, static_cast<unsigned long long>(st.st_size), maxBytes);
    return ReadStatus::Failed;
  }
  // Read one byte past the cap: a file that grew since fstat is caught too.
  text.assign(maxBytes + 1, '\0');
  size_t got = 0;
  while (got < text.size()) {
    ssize_t r = ::read(fd, text.data() + got, text.size() - got);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) { error = path + ": cannot read (" + std::strerror(errno) + ")"; return ReadStatus::Failed; }
    if (r == 0) break;
    got += size_t(r);
  }
  if (got > maxBytes) { error = tooBig(path, 0, maxBytes); return ReadStatus::Failed; }
  text.resize(got);
  return ReadStatus::Ok;
}
#endif

bool parseUserJson(const std::string& text, nlohmann::json& doc, std::string& error) {
  if (size_t nul = text.find('\0'); nul != std::string::npos) {
    error = "a NUL byte at byte " + std::to_string(nul + 1) + " (JSON text has none)";
    return false;
  }
  // Bound the nesting before the library sees it: values are copied, compared and printed
  // recursively, so a value a hundred thousand levels deep would overflow the stack.
  int depth = 0;
  bool inString = false, escaped = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) {
        error = "nested deeper than " + std::to_string(kMaxJsonDepth) + " levels at byte " + std::to_string(i + 1);
        return false;
      }
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    error = "invalid JSON at byte " + std::to_string(e.byte);
    return false;
  } catch (const nlohmann::json::out_of_range&) {
    // The library's only out_of_range while parsing: a number beyond the range of a double.
    error = "a number is too large to represent (beyond 1.8e308)";
    return false;
  } catch (const nlohmann::json::exception& e) {
    error = "invalid JSON (error " + std::to_string(e.id) + ")";
    return false;
  }
  return true;
}

namespace {
constexpr size_t kMaxQuotedChars = 40;

// The first kMaxQuotedChars bytes of s, cut on a UTF-8 character boundary; true when cut.
bool cutShort(std::string& s) {
  if (s.size() <= kMaxQuotedChars) return false;
  size_t end = kMaxQuotedChars;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  s.resize(end);
  return true;
}
}  // namespace

std::string quoteText(const std::string& text) {
  std::string s = text;
  const bool cut = cutShort(s);
  std::string out = "'";
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7F) {  // control characters (terminal escapes, NUL) are shown, not sent
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02X", u);
      out += hex;
    } else {
      out += c;
    }
  }
  return out + (cut ? "...'" : "'");
}

std::string jsonExcerpt(const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::array: return value.empty() ? "an empty array" : "an array";
    case nlohmann::json::value_t::object: return value.empty() ? "an empty object" : "an object";
    case nlohmann::json::value_t::binary: return "binary data";
    case nlohmann::json::value_t::discarded: return "nothing";
    case nlohmann::json::value_t::string: {
      std::string s = value.get_ref<const std::string&>();
      const bool cut = cutShort(s);
      return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + (cut ? "..." : "");
    }
    default: return value.dump();  // null, boolean, number: short and flat
  }
}

}  // namespace io
