// Numbers as a room reads them, for panels and for figures drawn on the world.
#pragma once
#include <cstdint>
#include <cstdio>

namespace scenes {

// 1234567 -> "1,234,567" into a caller's buffer (no allocation): counts a room reads at a glance.
inline const char* withCommas(uint64_t v, char (&out)[32]) {
  char digits[24];
  const int n = std::snprintf(digits, sizeof digits, "%llu", static_cast<unsigned long long>(v));
  int o = 0;
  for (int i = 0; i < n; ++i) {
    if (i > 0 && (n - i) % 3 == 0) out[o++] = ',';
    out[o++] = digits[i];
  }
  out[o] = '\0';
  return out;
}

}  // namespace scenes
