#include "app/world_overlay.hpp"

#include <imgui.h>
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <vector>
#include "app/ui_style.hpp"
#include "app/probe.hpp"

namespace app {

void drawWorldLabels(const render::DebugDraw& debug, const render::FrameView& view, const WorldViewport& world,
                     float hudRight, float panelLeft) {
  probe::set("clear_labels", nlohmann::json::array());
  probe::set("world_labels", nlohmann::json::array());
  ImDrawList* dl = ImGui::GetBackgroundDrawList();
  for (const auto& t : debug.texts()) {
    const glm::vec4 clip = view.viewProjection * glm::vec4(t.position, 1.0f);
    if (clip.w <= 0) continue;
    const glm::vec2 ndc = glm::vec2(clip) / clip.w;
    ImVec2 p{world.origin.x + (ndc.x * 0.5f + 0.5f) * world.size.x,
             world.origin.y + (0.5f - ndc.y * 0.5f) * world.size.y - (t.above ? ImGui::GetFontSize() : 0.0f)};
    ImVec4 c = ImGui::ColorConvertU32ToFloat4(t.color);
    c.x *= view.ink;
    c.y *= view.ink;
    c.z *= view.ink;
    ImFont* font = t.scale != 1.0f ? bannerFont() : ImGui::GetFont();
    float size = ImGui::GetFontSize() * t.scale;
    ImVec2 extent = font->CalcTextSizeA(size, FLT_MAX, 0.0f, t.text.c_str());
    if (t.clearOfPanels) {
      // Right of the HUD, left of the scene panel, and smaller when the gap between them is
      // narrower than the line.
      const float lo = std::max(world.origin.x, hudRight) + 8.0f, hi = std::min(world.origin.x + world.size.x, panelLeft) - 8.0f;
      if (hi - lo > 64.0f && extent.x > hi - lo) {
        const float bottom = p.y + extent.y;
        size *= (hi - lo) / extent.x;
        extent = font->CalcTextSizeA(size, FLT_MAX, 0.0f, t.text.c_str());
        if (t.above) p.y = bottom - extent.y;  // it still ends where it was anchored
      }
      p.x = std::clamp(p.x, lo, std::max(lo, hi - extent.x));
      probe::append("clear_labels", probe::area({p.x, p.y, extent.x, extent.y}));
    } else if (const float right = world.origin.x + world.size.x; p.x >= world.origin.x && p.x < right) {
      // A label that starts in the world's viewport ends there: one anchored near its right edge (an
      // agent's readout) moves left rather than run on under the panel beside it.
      p.x = std::max(world.origin.x, std::min(p.x, right - extent.x - 4.0f));
    }
    probe::append("world_labels", probe::area({p.x, p.y, extent.x, extent.y}));
    if (t.scale != 1.0f)  // large type: the banner's face, rasterised large, drawn on a dark backing
      dl->AddRectFilled(ImVec2(p.x - 6, p.y - 3), ImVec2(p.x + extent.x + 6, p.y + extent.y + 3), IM_COL32(10, 12, 18, 190), 4.0f);
    dl->AddText(font, size, p, ImGui::ColorConvertFloat4ToU32(c), t.text.c_str());
  }
}

bool drawWorldMarks(const WorldViewport& world, bool paused, bool userView) {
  const float em = ImGui::GetFontSize();
  const float centreX = world.origin.x + world.size.x * 0.5f;
  probe::set("pause_mark", paused);
  probe::set("fit_control", userView);
  if (paused) {
    const float size = 1.6f * em, pad = 0.4f * size;
    const char* text = "PAUSED  (Space resumes)";
    const ImVec2 extent = ImGui::GetFont()->CalcTextSizeA(size, FLT_MAX, 0.0f, text);
    const float bar = 0.28f * size, gap = 0.22f * size, icon = 2 * bar + gap + pad;
    const float w = icon + extent.x, x0 = centreX - 0.5f * w;
    const float y = world.origin.y + world.size.y - extent.y - 2 * pad - 0.6f * em;
    ImDrawList* draw = ImGui::GetForegroundDrawList();
    // Light on dark in both themes: 15:1, and it stands out on either world.
    draw->AddRectFilled(ImVec2(x0 - pad, y), ImVec2(x0 + w + pad, y + extent.y + 2 * pad), IM_COL32(20, 22, 30, 225), 0.3f * size);
    const ImU32 ink = IM_COL32(250, 250, 250, 255);
    draw->AddRectFilled(ImVec2(x0, y + pad + 0.1f * size), ImVec2(x0 + bar, y + pad + 0.9f * size), ink);
    draw->AddRectFilled(ImVec2(x0 + bar + gap, y + pad + 0.1f * size), ImVec2(x0 + 2 * bar + gap, y + pad + 0.9f * size), ink);
    draw->AddText(ImGui::GetFont(), size, ImVec2(x0 + icon, y + pad), ink, text);
  }
  if (!userView) return false;
  ImGui::SetNextWindowPos(ImVec2(centreX, world.origin.y + 0.5f * em), ImGuiCond_Always, ImVec2(0.5f, 0.0f));
  ImGui::SetNextWindowBgAlpha(0.85f);
  ImGui::Begin("##fit", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                                     ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove);
  const bool fit = ImGui::Button("Fit (Home)");
  probe::markItem("fit_control_at");
  ImGui::End();
  return fit;
}

float agentGlyphPoints(const render::AgentBatch& batch, float agentScale, float zoom) {
  std::vector<float> lengths;
  const size_t stride = std::max<size_t>(1, batch.instances.size() / 1000);
  for (size_t i = 0; i < batch.instances.size(); i += stride) lengths.push_back(batch.instances[i].scale);
  if (batch.gpu.stateBuffer) lengths.push_back(batch.gpu.scale);
  if (lengths.empty()) return 0.0f;
  std::nth_element(lengths.begin(), lengths.begin() + std::ptrdiff_t(lengths.size() / 2), lengths.end());
  return lengths[lengths.size() / 2] * agentScale * zoom;
}

AgentsOnScreen agentsOnScreen(const render::AgentBatch& batch, const glm::mat4& viewProjection, const WorldViewport& world) {
  AgentsOnScreen s;
  glm::vec2 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
  for (const render::AgentInstance& a : batch.instances) {
    const glm::vec4 clip = viewProjection * glm::vec4(a.position, 1.0f);
    const bool out = clip.w <= 0 || std::abs(clip.x) > clip.w || std::abs(clip.y) > clip.w;
    s.outside += out;
    if (out) continue;
    const glm::vec2 ndc = glm::vec2(clip) / clip.w;
    const glm::vec2 p = world.origin + glm::vec2(ndc.x * 0.5f + 0.5f, 0.5f - ndc.y * 0.5f) * world.size;
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  if (hi.x >= lo.x) s.box = {lo.x, lo.y, hi.x - lo.x, hi.y - lo.y};
  return s;
}

}  // namespace app
