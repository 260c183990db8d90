// The UI's style: fonts, theme and UI scale. Every change rebuilds from ImGui's default style, so any
// sequence of scale and theme changes ends exactly where a fresh start with the same choice would.
#pragma once
#include <string>

struct ImFont;

namespace app {

struct LookChoice {
  float uiScale = 1.0f;  // 1.0 - 3.0
  bool darkTheme = true;
  bool operator==(const LookChoice&) const = default;
};

// A scale for a first run on this display: at least 1.5x on screens 1080 px tall or more, where
// 15 px text is too small to read from the back of a hall. A saved setting wins over it.
float firstRunUiScale(int displayHeightPixels);

// Rebuilds the font atlas at the scaled size (crisp text) and the style from ImGui's defaults,
// then the theme's colours and the scale. Call between frames: the atlas cannot change inside one.
// `pixelsPerPoint`: drawable pixels per window point (2 on a Retina screen).
void applyLook(const LookChoice& look, float pixelsPerPoint);
// The claim banner's font: the UI typeface rasterised at the banner's size (text drawn much larger
// than its atlas is blurred), or the UI font before applyLook ran.
ImFont* bannerFont();

// Every size of the current style, as "name=value" pairs: a fresh start and any sequence of changes
// that ends at the same choice print the same line (tests, bug reports).
std::string styleSizes();

// WCAG contrast ratio of two sRGB colours (1 to 21); AA asks 4.5 for body text.
double contrastRatio(float r1, float g1, float b1, float r2, float g2, float b2);
// The lowest contrast of the panels' text colours (normal and disabled) on their background.
double panelTextContrast();
// An accent colour for text (warnings, keys) that stays readable on the current theme's panels:
// as given on dark panels, darkened on light ones.
struct Rgb { float r, g, b; };
Rgb readableAccent(Rgb onDark);

// Colours and rounding of the theme, on the current (unscaled) style.
void applyTheme(bool dark);

}  // namespace app
