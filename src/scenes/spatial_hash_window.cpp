// The spatial hash's window side: its panel (the search's cost, the misses, the grid) and its hover and click.
#include <imgui.h>
#include <cfloat>
#include <cstdarg>
#include "scenes/spatial_hash.hpp"
#include "scenes/param_ui.hpp"
#include "scenes/scene_window.hpp"

namespace scenes::spatial_hash {
namespace {

constexpr int kMaxHistogramBins = 40;  // bins of the panel's occupancy histogram

class SpatialHashWindow final : public SpatialHash, public scenes::SceneUi {
 public:
  using SpatialHash::SpatialHash;

  void panel() override {
    char a[32], b[32];
    const size_t n = flock_.size();
    dimWrapped("The world grows with N at constant density (2,000 agents per 1280x720), so each agent has about "
               "the same neighbours at any N: grid work grows like N, brute force like N^2.");

    scenes::sectionTitle("Cost of the last step");
    ImGui::Text("sim %.2f ms per step (mean %.2f), %d thread%s", stepMs_, stepMsAverage_, sim::threadCount(),
                sim::threadCount() == 1 ? "" : "s");
    ImGui::Text("distance checks %s per frame", scenes::withCommas(flock_.lastChecks(), a));
    ImGui::Text("checks per agent %.1f", checksPerAgent());
    ImGui::Text("neighbours found %.2f per agent (%s in all)", flock_.meanNeighbors(), scenes::withCommas(flock_.lastNeighbors(), b));
    // Headroom above the peak, so a steady value is a line below the overlay text, not on it.
    scenes::plotHistory(checksHistory_, "##checks", 0, std::max(1.0f, checksHistory_.max()) * 1.6f, ImVec2(0, 50), "checks per frame");
    scenes::plotHistory(stepMsHistory_, "##ms", 0, std::max(1.0f, stepMsHistory_.max()) * 1.6f, ImVec2(0, 50), "sim ms per step");

    scenes::sectionTitle("Neighbours missed, compared with brute force");
    if (flock_.method == sim::NeighborMethod::BruteForce) {
      ImGui::Text("missed 0: brute force tests every pair");
    } else {
      const double all = missed_ + double(flock_.lastNeighbors());
      ImGui::Text("missed %s a step (%.0f%% of all neighbours)", scenes::withCommas(uint64_t(std::llround(missed_)), a),
                  all > 0 ? 100.0 * missed_ / all : 0.0);
      if (auditSamples_ >= n)
        dimWrapped("(exact over all %zu agents, every %d steps; last at step %d, took %.1f ms outside sim ms)", n,
                   kAuditEvery, auditStep_, auditMs_);
      else
        dimWrapped("(exact on a sample of 1/%zu agents (%zu), scaled to all; every %d steps; last at step %d, took "
                   "%.1f ms outside sim ms)", auditStride_, auditSamples_, kAuditEvery, auditStep_, auditMs_);
      if (ImGui::Button("Count exactly now")) countExactly();
      scenes::panelTooltip("Brute force over every agent: N^2 distance checks (seconds at N=50,000)");
      if (exactStep_ >= 0) {
        char exact[128];
        std::snprintf(exact, sizeof exact, "exact: %s at step %d (%.0f ms)", scenes::withCommas(exactMissed_, a), exactStep_, exactMs_);
        scenes::sameLineIfFits(scenes::textWidth(exact));
        ImGui::TextUnformatted(exact);
      }
    }
    explainSearch();

    scenes::sectionTitle("Grid");
    occupancyPanel();

    scenes::sectionTitle("Hover an agent");
    scenes::legend({{"its cell", kOwnCellColor}, {"cells searched", kSearchedCellColor}});
    scenes::legend({{"candidates checked", kCandidateColor}, {"neighbours", kNeighborColor}, {"missed", kMissedColor}});
    if (hover_.id != kNone) {
      ImGui::Text("agent #%u, cell (%d, %d): %d cells searched", hover_.id, hover_.cell.x, hover_.cell.y, hover_.cellsSearched);
      ImGui::Text("%u checks, %u neighbours, %u missed", hover_.checks, hover_.neighbors, hover_.missed);
    }
    ImGui::TextDisabled("%s", pinnedId_ == kNone ? "(left click pins the hovered agent)" : "(pinned: left click lets go)");
  }

  bool onMouse(const scenes::MouseEvent& e) override {
    if (e.kind == scenes::MouseEvent::Move) mouseSeen_ = true;
    if (e.kind != scenes::MouseEvent::Down || e.button != 1) return false;
    if (hover_.id != kNone && pinnedId_ == kNone) { pinnedId_ = hover_.id; return true; }
    if (pinnedId_ != kNone) { pinnedId_ = kNone; return true; }
    return false;
  }

 private:
  double checksPerAgent() const { return flock_.size() ? double(flock_.lastChecks()) / double(flock_.size()) : 0.0; }

  void countExactly() {
    const auto t0 = Clock::now();
    exactMissed_ = flock_.countMissedNeighbors(1);
    exactMs_ = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    exactStep_ = steps_;
  }

  // Why the counters read as they do: the search's reach against the radius, and clamping.
  void explainSearch() {
    if (flock_.method == sim::NeighborMethod::BruteForce) return;
    const Grid& g = *shownGrid().grid;
    const float radius = flock_.params.searchRadius();
    const float cell = std::min(g.cellExtent().x, g.cellExtent().y);
    if (flock_.searchMode == sim::SearchMode::Classic3x3 && cell < radius) {
      ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.35f, 1), "cells smaller than the radius: 3x3 block misses neighbours");
      ImGui::TextWrapped("The block reaches only %.0f to %.0f units past the agent; neighbours up to %.0f away are lost, "
                         "so alignment and cohesion see too few and the flock falls apart.", cell, 2.0f * cell, radius);
    } else if (cell < radius) {
      const glm::ivec2 r = g.rings(radius, flock_.searchMode);
      dimWrapped("cells smaller than the radius: auto searches %d rings (%dx%d cells)", r.x, 2 * r.x + 1, 2 * r.y + 1);
    } else {
      dimWrapped("cells at least the radius: the 3x3 block holds every neighbour");
    }
    if (g.cellSizeWasClamped())
      ImGui::TextColored(ImVec4(1, 0.8f, 0.3f, 1), "cell size clamped to %.1f: %.1f would need over %u cells",
                         g.effectiveCellSize(), g.requestedCellSize(), Grid::kMaxCells);
  }

  void occupancyPanel() {
    const Grid& g = *shownGrid().grid;
    if (flock_.method == sim::NeighborMethod::BruteForce) dimWrapped("(brute force uses no grid; this is the one it would use)");
    const glm::ivec2 dims = g.cellsPerAxis();
    ImGui::Text("%d x %d cells of %.1f x %.1f", dims.x, dims.y, g.cellExtent().x, g.cellExtent().y);
    const sim::OccupancyStats st = g.occupancy();
    const int bins = std::clamp(int(st.maxPerCell) + 1, 2, kMaxHistogramBins);
    std::array<uint32_t, kMaxHistogramBins> counts{};
    g.occupancy(std::span<uint32_t>(counts.data(), size_t(bins)));
    // Bin 0 (empty cells) dwarfs the rest with small cells: it is a number, the plot starts at 1.
    for (int i = 1; i < bins; ++i) histogram_[size_t(i - 1)] = float(counts[size_t(i)]);
    ImGui::Text("agents per non-empty cell: mean %.1f, max %u", st.meanPerNonEmptyCell, st.maxPerCell);
    ImGui::Text("empty cells %.0f%%", st.cells ? 100.0 * double(st.cells - st.nonEmptyCells) / double(st.cells) : 0.0);
    char overlay[64];
    std::snprintf(overlay, sizeof overlay, "cells holding 1..%d%s agents", bins - 1, int(st.maxPerCell) >= bins ? "+" : "");
    ImGui::PlotHistogram("##occupancy", histogram_.data(), bins - 1, 0, overlay, 0.0f, FLT_MAX, ImVec2(0, 60));
    if (s_.heatMap && heatBlock_ > 1)
      dimWrapped("heat map: cells too small on screen, drawn in blocks of %dx%d; hottest block %u agents", heatBlock_, heatBlock_, heatHottest_);
    else if (s_.heatMap)
      dimWrapped("heat map: hottest cell on screen %u agents", heatHottest_);
    if (s_.showGrid && lineStride_ > 1) ImGui::TextDisabled("grid lines: every %d-th (cells are tiny on screen)", lineStride_);
  }

  static void dimWrapped(const char* format, ...) IM_FMTARGS(1) {
    va_list args;
    va_start(args, format);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrappedV(format, args);
    ImGui::PopStyleColor();
    va_end(args);
  }

  std::array<float, kMaxHistogramBins> histogram_{};
};

[[maybe_unused]] bool registered = scenes::registerSceneWindow("spatial-hash", &scenes::makeWindow<SpatialHashWindow>);

}  // namespace
}  // namespace scenes::spatial_hash
