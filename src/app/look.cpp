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
