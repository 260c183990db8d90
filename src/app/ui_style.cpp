#include "app/ui_style.hpp"

#include <imgui.h>
#include <backends/imgui_impl_opengl3.h>
#include <algorithm>
#include <cmath>
#include <cstdio>

namespace app {

float firstRunUiScale(int displayHeightPixels) {
  if (displayHeightPixels >= 2160) return 2.0f;
  if (displayHeightPixels >= 1080) return 1.5f;
  return 1.0f;
}

namespace {
double luminance(float r, float g, float b) {
  auto linear = [](float c) { return c <= 0.03928f ? double(c) / 12.92 : std::pow((double(c) + 0.055) / 1.055, 2.4); };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}
bool lightPanels() {
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  return luminance(bg.x, bg.y, bg.z) > 0.5;
}
}  // namespace

double contrastRatio(float r1, float g1, float b1, float r2, float g2, float b2) {
  const double a = luminance(r1, g1, b1), b = luminance(r2, g2, b2);
  return (std::max(a, b) + 0.05) / (std::min(a, b) + 0.05);
}

double panelTextContrast() {
  const ImVec4* c = ImGui::GetStyle().Colors;
  const ImVec4 bg = c[ImGuiCol_WindowBg];
  double lowest = 21.0;
  for (ImGuiCol text : {ImGuiCol_Text, ImGuiCol_TextDisabled})
    lowest = std::min(lowest, contrastRatio(c[text].x, c[text].y, c[text].z, bg.x, bg.y, bg.z));
  return lowest;
}

Rgb readableAccent(Rgb onDark) {
  if (!lightPanels()) return onDark;
  return {onDark.r * 0.55f, onDark.g * 0.45f, onDark.b * 0.45f};
}

void applyTheme(bool dark) {
  if (dark) ImGui::StyleColorsDark();
  else ImGui::StyleColorsLight();
  ImGuiStyle& st = ImGui::GetStyle();
  // Opaque docked panels; ImGui's light disabled text (0.60 grey on 0.94) is below WCAG AA.
  st.Colors[ImGuiCol_WindowBg].w = 1.0f;
  if (!dark) st.Colors[ImGuiCol_TextDisabled] = ImVec4(0.36f, 0.36f, 0.36f, 1.0f);
  st.WindowRounding = 6;
  st.FrameRounding = 4;
  st.GrabRounding = 4;
}

std::string styleSizes() {
  const ImGuiStyle& s = ImGui::GetStyle();
  std::string out;
  auto add = [&](const char* name, float v) {
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%s%s=%.3f", out.empty() ? "" : ",", name, double(v));
    out += buf;
  };
  auto add2 = [&](const char* name, ImVec2 v) {
    add(name, v.x);
    add("", v.y);
  };
  add2("WindowPadding", s.WindowPadding);
  add("WindowRounding", s.WindowRounding);
  add2("WindowMinSize", s.WindowMinSize);
  add("ChildRounding", s.ChildRounding);
  add("PopupRounding", s.PopupRounding);
  add2("FramePadding", s.FramePadding);
  add("FrameRounding", s.FrameRounding);
  add2("ItemSpacing", s.ItemSpacing);
  add2("ItemInnerSpacing", s.ItemInnerSpacing);
  add2("CellPadding", s.CellPadding);
  add2("TouchExtraPadding", s.TouchExtraPadding);
  add("IndentSpacing", s.IndentSpacing);
  add("ColumnsMinSpacing", s.ColumnsMinSpacing);
  add("ScrollbarSize", s.ScrollbarSize);
  add("ScrollbarRounding", s.ScrollbarRounding);
  add("GrabMinSize", s.GrabMinSize);
  add("GrabRounding", s.GrabRounding);
  add("LogSliderDeadzone", s.LogSliderDeadzone);
  add("TabRounding", s.TabRounding);
  add("TabMinWidthForCloseButton", s.TabMinWidthForCloseButton);
  add2("DisplayWindowPadding", s.DisplayWindowPadding);
  add2("DisplaySafeAreaPadding", s.DisplaySafeAreaPadding);
  add("MouseCursorScale", s.MouseCursorScale);
  add("WindowBorderSize", s.WindowBorderSize);
  add("FrameBorderSize", s.FrameBorderSize);
  add("FontSize", ImGui::GetIO().Fonts->Fonts.empty() ? 0.0f : ImGui::GetIO().Fonts->Fonts[0]->FontSize);
  return out;
}

namespace {
ImFont* theBannerFont = nullptr;
// The banner's text height on a 1080-line display (3.6 % of it, scene_panel.cpp), in points.
constexpr float kBannerPoints = 39.0f;
}  // namespace

ImFont* bannerFont() { return theBannerFont ? theBannerFont : ImGui::GetFont(); }

void applyLook(const LookChoice& look, float pixelsPerPoint) {
  const float scale = std::clamp(look.uiScale, 1.0f, 3.0f);
  pixelsPerPoint = std::max(1.0f, pixelsPerPoint);
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  const float points = 15.0f * scale, bannerPoints = std::max(kBannerPoints, 2.0f * points);
  ImFont* font = nullptr;
  theBannerFont = nullptr;
  for (const char* path : {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/System/Library/Fonts/SFNS.ttf",
                           "C:\\Windows\\Fonts\\segoeui.ttf"}) {
    if (std::FILE* f = std::fopen(path, "rb")) {
      std::fclose(f);
      font = io.Fonts->AddFontFromFileTTF(path, points * pixelsPerPoint);  // the first font: the UI's
      if (font) theBannerFont = io.Fonts->AddFontFromFileTTF(path, bannerPoints * pixelsPerPoint);
      if (font) break;
    }
  }
  if (!font) {
    // No TTF on this system: ImGui's built-in font, rasterised at the scaled size.
    ImFontConfig config;
    config.SizePixels = 13.0f * scale * pixelsPerPoint;
    io.Fonts->AddFontDefault(&config);
    config.SizePixels = bannerPoints * pixelsPerPoint;
    theBannerFont = io.Fonts->AddFontDefault(&config);
  }
  io.FontGlobalScale = 1.0f / pixelsPerPoint;
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  // From the defaults every time: ScaleAllSizes multiplies, so applying it to an already scaled
  // style compounds (Ctrl+= then Ctrl- used to leave huge buttons).
  ImGui::GetStyle() = ImGuiStyle();
  applyTheme(look.darkTheme);
  ImGui::GetStyle().ScaleAllSizes(scale);
}

}  // namespace app
