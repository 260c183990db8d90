#include "app/probe.hpp"

#include <imgui.h>
#include <cmath>

namespace app::probe {
namespace {
nlohmann::json& current() {
  static nlohmann::json frame = nlohmann::json::object();
  return frame;
}
nlohmann::json& last() {
  static nlohmann::json frame = nlohmann::json::object();
  return frame;
}
}  // namespace

void beginFrame() {
  last() = std::move(current());
  current() = nlohmann::json::object();
}

void keepLastFrames() {
  for (const auto& [name, value] : last().items())
    if (!current().contains(name)) current()[name] = value;
}

void markItem(const std::string& name) {
  const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
  current()[name] = {std::lround(0.5f * (lo.x + hi.x)), std::lround(0.5f * (lo.y + hi.y))};
}

void set(const std::string& name, nlohmann::json value) { current()[name] = std::move(value); }

void append(const std::string& name, nlohmann::json value) {
  nlohmann::json& list = current()[name];
  if (!list.is_array()) list = nlohmann::json::array();
  list.push_back(std::move(value));
}

nlohmann::json area(const Box& b) {
  return {std::lround(b.x), std::lround(b.y), std::lround(b.w), std::lround(b.h)};
}

const nlohmann::json& marks() { return current(); }

}  // namespace app::probe
