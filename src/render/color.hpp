// Colours as packed RGBA8 (r in the lowest byte), the layout the instance buffers upload as-is.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <glm/glm.hpp>

namespace render {

constexpr uint32_t rgba(uint8_t r, uint8_t g, uint8_t b, uint8_t a = 255) {
  return uint32_t(r) | (uint32_t(g) << 8) | (uint32_t(b) << 16) | (uint32_t(a) << 24);
}
inline uint32_t rgbaf(float r, float g, float b, float a = 1.0f) {
  auto c = [](float v) { return uint8_t(glm::clamp(v, 0.0f, 1.0f) * 255.0f + 0.5f); };
  return rgba(c(r), c(g), c(b), c(a));
}
constexpr uint32_t withAlpha(uint32_t c, uint8_t a) { return (c & 0x00FFFFFFu) | (uint32_t(a) << 24); }
// The inverse of rgba(): (r, g, b, a) in [0, 1].
inline glm::vec4 unpackRgba(uint32_t c) {
  return glm::vec4(float(c & 0xFF), float((c >> 8) & 0xFF), float((c >> 16) & 0xFF), float(c >> 24)) / 255.0f;
}

// Hue in [0,1) to a saturated colour: used to tell groups and cells apart.
inline uint32_t hueColor(float hue, float saturation = 0.65f, float value = 0.95f, float alpha = 1.0f) {
  float h = (hue - std::floor(hue)) * 6.0f;
  float c = value * saturation, x = c * (1.0f - std::abs(std::fmod(h, 2.0f) - 1.0f)), m = value - c;
  float r = 0, g = 0, b = 0;
  if (h < 1) { r = c; g = x; } else if (h < 2) { r = x; g = c; } else if (h < 3) { g = c; b = x; }
  else if (h < 4) { g = x; b = c; } else if (h < 5) { r = x; b = c; } else { r = c; b = x; }
  return rgbaf(r + m, g + m, b + m, alpha);
}

// A colour chosen for a dark background, for a light one (the projector theme): more saturated,
// then darkened until its relative luminance is at most `maxLuminance`, so hues survive. 0.18 gives
// at least 3.5:1 on the light world (agents, lines: what agent.frag and debug.frag do on the GPU);
// 0.12 at least 4.5:1 on the light panels (text). Alpha is kept.
inline uint32_t inkOnLight(uint32_t c, float maxLuminance) {
  const glm::vec4 v = unpackRgba(c);
  const glm::vec3 rgb(v);
  const float top = std::max(std::max(rgb.x, rgb.y), std::max(rgb.z, 1e-3f));
  const glm::vec3 s = rgb * rgb / top;
  const glm::vec3 linear = glm::pow(s, glm::vec3(2.2f));
  const float l = glm::dot(linear, glm::vec3(0.2126f, 0.7152f, 0.0722f));
  const glm::vec3 out = l > maxLuminance ? s * std::pow(maxLuminance / l, 1.0f / 2.2f) : s;
  return rgbaf(out.x, out.y, out.z, v.w);
}

namespace colors {
constexpr uint32_t white = rgba(255, 255, 255);
constexpr uint32_t red = rgba(235, 64, 52);
constexpr uint32_t green = rgba(80, 220, 100);
constexpr uint32_t blue = rgba(70, 140, 255);
constexpr uint32_t yellow = rgba(250, 210, 60);
constexpr uint32_t orange = rgba(255, 150, 40);
constexpr uint32_t purple = rgba(190, 90, 255);
constexpr uint32_t cyan = rgba(60, 220, 230);
constexpr uint32_t grey = rgba(130, 136, 150);
constexpr uint32_t agent = rgba(200, 215, 235);
}  // namespace colors

}  // namespace render
