#include "app/preset_names.hpp"

#include <cstdio>
#include <cstring>

namespace app {

namespace {
bool forbidden(unsigned char c) { return c < 0x20 || c == 0x7f || std::strchr("/\\:*?\"<>|%", c); }

void escape(std::string& out, unsigned char c) {
  char hex[4];
  std::snprintf(hex, sizeof hex, "%%%02X", c);
  out += hex;
}

int hexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}
}  // namespace

std::string presetFileStem(const std::string& name) {
  std::string out;
  for (size_t i = 0; i < name.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(name[i]);
    const bool last = i + 1 == name.size();
    if (forbidden(c) || (i == 0 && c == '.') || (last && (c == '.' || c == ' '))) escape(out, c);
    else out += char(c);
  }
  if (out.size() > kMaxPresetStemBytes) {
    size_t cut = kMaxPresetStemBytes;
    // Not inside a UTF-8 sequence (continuation bytes are 10xxxxxx) nor inside a %XX.
    while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;
    if (cut >= 1 && out[cut - 1] == '%') cut -= 1;
    else if (cut >= 2 && out[cut - 2] == '%') cut -= 2;
    out.resize(cut);
  }
  return out.empty() ? "preset" : out;
}

std::string presetNameOfStem(const std::string& stem) {
  std::string out;
  for (size_t i = 0; i < stem.size(); ++i) {
    int hi = -1, lo = -1;
    if (stem[i] == '%' && i + 2 < stem.size() && (hi = hexDigit(stem[i + 1])) >= 0 && (lo = hexDigit(stem[i + 2])) >= 0) {
      out += char(hi * 16 + lo);
      i += 2;
    } else {
      out += stem[i];
    }
  }
  return out;
}

}  // namespace app
