#include "app/look.hpp"

#include <imgui.h>
#include <backends/imgui_impl_opengl3.h>
#include <algorithm>
#include <cstdio>

namespace app {

float firstRunUiScale(int displayHeightPixels) {
  if (displayHeightPixels >= 2160) return 2.0f;
  if (displayHeightPixels >= 1080) return 1.5f;
  return 1.0f;
}

void applyTheme(bool dark) {
  if (dark) ImGui::StyleColorsDark();
  else ImGui::StyleColorsLight();
  ImGuiStyle& st = ImGui::GetStyle();
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

void applyLook(const LookChoice& look, float pixelsPerPoint) {
  const float scale = std::clamp(look.uiScale, 1.0f, 3.0f);
  pixelsPerPoint = std::max(1.0f, pixelsPerPoint);
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  const float points = 15.0f * scale;
  ImFont* font = nullptr;
  for (const char* path : {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/System/Library/Fonts/SFNS.ttf",
                           "C:\\Windows\\Fonts\\segoeui.ttf"}) {
    if (std::FILE* f = std::fopen(path, "rb")) {
      std::fclose(f);
      font = io.Fonts->AddFontFromFileTTF(path, points * pixelsPerPoint);
      if (font) break;
    }
  }
  if (!font) {
    // No TTF on this system: ImGui's built-in font, rasterised at the scaled size.
    ImFontConfig config;
    config.SizePixels = 13.0f * scale * pixelsPerPoint;
    io.Fonts->AddFontDefault(&config);
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
