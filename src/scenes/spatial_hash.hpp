// Scene 3 — Spatial hash: the uniform grid behind every later scene, made visible.
// A boids flock (the core's Flock<2>) finds its neighbours by brute force or on the grid; the panel
// shows what each search costs (exact distance checks) and what it loses (neighbours missed
// compared with brute force), and hovering an agent shows the cells and candidates of its query. The
// simulation side; its panel and input: spatial_hash_window.cpp.
#pragma once
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include "render/color.hpp"
#include "scenes/plot_history.hpp"
#include "scenes/number_text.hpp"
#include "scenes/scene.hpp"
#include "sim/models/flock.hpp"
#include "sim/core/grid.hpp"
#include "sim/core/parallel.hpp"
#include "sim/core/rng.hpp"
#include "sim/core/metric.hpp"

namespace scenes::spatial_hash {

using sim::Vec2;
using Grid = sim::UniformGrid<2>;
using Clock = std::chrono::steady_clock;

// The density every N is spawned at: 2,000 agents on 1280 x 720 (about 17 within radius 50).
constexpr float kBaseCount = 2000.0f;
constexpr Vec2 kBaseWorld{1280.0f, 720.0f};
constexpr int kAuditEvery = 30;            // steps between missed-neighbour audits
constexpr double kAuditBudget = 5e5;       // brute-force checks one audit may spend (about a millisecond):
                                           // exact up to N=707, a sample of 1/8 agents at N=2,000
constexpr size_t kHeatCellBudget = 20000;  // filled rectangles the heat map draws at most
constexpr float kMinHeatPixels = 6.0f;     // smaller cells are merged into blocks: colour, not noise
constexpr float kMinLinePixels = 4.0f;     // closer grid lines merge into a grey fill
constexpr float kPickPixels = 8.0f;        // how near the cursor an agent must be to be hovered
constexpr size_t kHues = 64;                // heading colours, tabulated
constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

// Colours of the hover view; the panel legend uses the same ones.
constexpr uint32_t kOwnCellColor = render::rgba(255, 150, 40, 90);
constexpr uint32_t kSearchedCellColor = render::rgba(70, 140, 255, 55);
constexpr uint32_t kCandidateColor = render::rgba(90, 160, 255);
constexpr uint32_t kNeighborColor = render::rgba(250, 220, 60);
constexpr uint32_t kMissedColor = render::rgba(255, 60, 60);

// The scene's own settings; the search the flock runs is set on the flock itself.
struct SceneSettings {
  int count;
  int distribution;  // 0 uniform, 1 clustered
  bool showGrid, heatMap;
  bool showChecks;  // the checks themselves: one agent's lines to every agent it tests, checks per cell, the step time
};

// Cold to hot: dark blue, cyan, yellow, red.
inline uint32_t heatColor(float t) {
  static constexpr glm::vec3 stops[] = {{0.12f, 0.2f, 0.55f}, {0.15f, 0.75f, 0.8f}, {0.98f, 0.85f, 0.25f}, {0.95f, 0.22f, 0.15f}};
  t = std::clamp(t, 0.0f, 1.0f) * 3.0f;
  int i = std::min(int(t), 2);
  glm::vec3 c = glm::mix(stops[i], stops[i + 1], t - float(i));
  return render::rgbaf(c.x, c.y, c.z, 0.6f);
}

class SpatialHash : public scenes::Scene {
 public:
  SpatialHash(scenes::SceneContext& context, uint64_t seedValue) : Scene(context, seedValue) {
    using scenes::Param;
    params_ = {
        Param::i("N", "agents (N)", &s_.count, 100, 50000, 2000, "Number of boids; the world grows with N at constant density", true).withUnit("agents").ofScene(),
        Param::e("method", "neighbour search", &flock_.method, "brute|grid", sim::NeighborMethod::Grid, "brute: test all N-1 others (N^2 per step); grid: only the agents in nearby cells"),
        Param::f("cellSize", "cell size", &flock_.cellSize, 10, 200, 50, "Grid cell edge, world units; the classic choice equals the perception radius", true).withUnit("world units"),
        Param::f("perception", "perception radius", &flock_.params.perceptionRadius, 10, 200, 50, "Who counts as a neighbour").withUnit("world units"),
        Param::e("search", "search mode", &flock_.searchMode, "auto|classic", sim::SearchMode::AutoRings, "auto: as many rings of cells as the radius needs (exact); classic: always the 3x3 block"),
        Param::e("distribution", "distribution", &s_.distribution, "uniform|clustered", 0, "clustered: half the agents penned in one corner, one dense region").ofScene(),
        Param::b("grid", "grid overlay", &s_.showGrid, true, "Draw the cell lines").ofScene(),
        Param::b("heat", "heat map", &s_.heatMap, false, "Fill each cell by the number of agents it holds").ofScene(),
        Param::b("showChecks", "show the checks", &s_.showChecks, false,
                 "One agent's line to every agent it tests, each cell filled by the checks its agents make "
                 "(one scale for every method: brute force glows red), and the step time in large type").ofScene(),
    };
    declareParams();
    about = kAbout;
    aboutMore = kAboutMore;
    keys = kKeys;
    flock_.world.boundary = sim::Boundary::Wrap;
    for (size_t h = 0; h < kHues; ++h) {
      hues_[h] = render::hueColor(float(h) / float(kHues), 0.3f, 0.9f);
      dimHues_[h] = render::hueColor(float(h) / float(kHues), 0.3f, 0.55f);
    }
  }

  ~SpatialHash() override;  // spatial_hash.cpp: the class's vtable is built there once

  void reset() override {
    deriveSeparation();
    const float worldScale = std::sqrt(float(s_.count) / kBaseCount);
    flock_.world.min = Vec2(0.0f);
    flock_.world.size = sim::worldForDensity(s_.count, kBaseWorld.x * kBaseWorld.y / kBaseCount);
    agentScale_ = std::clamp(9.0f * std::cbrt(worldScale), 6.0f, 16.0f);  // about 3 pixels when N=50,000 is framed
    flock_.spawn(size_t(s_.count), seed);
    if (s_.distribution == 1) {
      // The pen: a disk of 1/16 of the world near the bottom-left corner (the HUD covers the top-left);
      // even ids spawn and stay in it.
      penRadius_ = std::sqrt(flock_.world.size.x * flock_.world.size.y / (16.0f * 3.14159265f));
      penCenter_ = Vec2(penRadius_ * 1.15f, flock_.world.size.y - penRadius_ * 1.15f);
      sim::Rng rng(seed, 3);
      for (size_t i = 0; i < flock_.size(); i += 2)
        flock_.setAgent(i, penCenter_ + rng.unitVec2() * (penRadius_ * std::sqrt(rng.uniform())), flock_.velocities()[i]);
    }
    spawnedCount_ = s_.count;
    spawnedDistribution_ = s_.distribution;
    steps_ = 0;
    stepMs_ = stepMsAverage_ = 0;
    checksHistory_.clear();
    stepMsHistory_.clear();
    exactStep_ = -1;
    pinnedId_ = kNone;
    stepGridValid_ = false;
    viewGridDirty_ = true;
    exactStep_ = -1;  // counted for other settings
    audit();
  }

  void step(float dt) override {
    const auto t0 = Clock::now();
    flock_.step(dt);
    if (s_.distribution == 1) keepPenned();
    stepMs_ = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    stepMsAverage_ = steps_ == 0 ? stepMs_ : 0.9 * stepMsAverage_ + 0.1 * stepMs_;
    ++steps_;
    stepGridValid_ = flock_.method == sim::NeighborMethod::Grid;
    viewGridDirty_ = true;
    checksHistory_.push(float(flock_.lastChecks()));
    stepMsHistory_.push(float(stepMs_));
    if (steps_ - auditStep_ >= kAuditEvery) audit();
  }

  void draw(render::AgentBatch& agents, render::DebugDraw& debug) override {
    using namespace render;
    const size_t n = flock_.size();
    agents.shape = AgentShape::Arrow2D;
    agents.instances.resize(n);
    if (s_.showChecks && pinnedId_ == kNone && n) pinnedId_ = flock_.ids()[nearestTo(flock_.world.center())];
    const bool highlight = hoverWanted();
    const auto& palette = highlight ? dimHues_ : hues_;
    sim::parallelFor(n, [&](size_t i) {
      const Vec2 v = flock_.velocities()[i];
      // Coloured by heading, muted so the hover colours stand out; a table, as 50,000 hue conversions show up.
      const float turn = std::atan2(v.y, v.x) * (1.0f / 6.2831853f) + 1.0f;
      const uint32_t color = palette[size_t(turn * float(kHues)) % kHues];
      agents.instances[i] = {glm::vec3(flock_.positions()[i], 0), glm::vec3(v, 0), agentScale_, 0.0f, color};
    }, 4096);
    debug.rect(flock_.world.min, flock_.world.max(), rgba(70, 76, 90));
    if (s_.distribution == 1) debug.circle(penCenter_, penRadius_, rgba(255, 150, 40, 160));
    hover_ = {};
    lineStride_ = heatBlock_ = 1;
    if (s_.showChecks) drawStepFigures(debug);
    if (!s_.showGrid && !s_.heatMap && !highlight) return;

    const ShownGrid g = shownGrid();
    const ViewRect view = visibleRect();
    if (s_.showChecks) drawChecksPerCell(*g.grid, view, debug);
    else if (s_.heatMap) drawHeatMap(*g.grid, view, debug);
    if (s_.showGrid) drawGridLines(*g.grid, view, debug);
    if (highlight) drawHover(g, agents, debug);
  }

  static constexpr scenes::KeyAction kKeys[] = {{"Hover", "the query of the agent under the cursor"},
                                                {"Click", "pin / unpin that agent"}};

  void paramsChanged() override {
    deriveSeparation();
    if (s_.count != spawnedCount_ || s_.distribution != spawnedDistribution_) {
      // The world is sized for N and the distribution is a spawn pattern: start over, framed.
      reset();
      if (ctx) homeCamera(*ctx);
      return;
    }
    stepGridValid_ = false;
    viewGridDirty_ = true;
    exactStep_ = -1;  // counted for other settings
    audit();
  }

  void metrics(std::vector<sim::Metric>& out) const override {
    flock_.appendSearchMetrics(out);
    out.push_back({"missed_neighbors", missed_});
  }
  size_t agentCount() const override { return flock_.size(); }

  // The lede the panel shows; the rest behind its "More" and in the F1 help.
  static constexpr const char* kAbout = "Brute force checks all N^2 pairs of agents; a uniform grid checks only nearby cells. Watch the counters as you change the cell size.";
  static constexpr const char* kAboutMore =
           "Every boid needs the others within its perception radius. Brute force tests all N-1 of them: N^2 "
           "distance checks per step. The uniform grid sorts agents into cells every step and tests only the agents "
           "in the cells the radius touches. Watch the counters as you change the cell size, the search mode and "
           "the distribution; hover an agent to see its query. The article's cellSize = 10 failure: with the "
           "textbook 3x3 block the agents miss most neighbours (first experiment); crowdlab's default search "
           "visits ceil(r / cellSize) rings of cells and misses none (second).";

  void homeCamera(scenes::SceneContext& c) override { c.camera2D.fit(flock_.world.min, flock_.world.max()); }

 protected:
  struct ViewRect { Vec2 lo, hi; };
  // The grid the overlays show and the index convention of its sorted agents.
  struct ShownGrid {
    const Grid* grid;
    bool sortedIsCurrent;  // sorted index k is flock index k (the step's own grid)
  };
  struct HoverInfo {
    uint32_t id = kNone;
    glm::ivec2 cell{0};
    int cellsSearched = 0;
    uint32_t checks = 0, neighbors = 0, missed = 0;
  };

  // This scene is about the search, so separation follows the perception radius.
  void deriveSeparation() {
    sim::BoidsParams& p = flock_.params;
    p.separationRadius = sim::BoidsParams{}.separationRadius;
    p = p.normalized();
  }

  // Even ids stay inside the pen: an agent that leaves it is put back on its rim, its velocity
  // reflected inwards. Boids rules still act; the pen only keeps the dense region dense.
  void keepPenned() {
    const float r2 = penRadius_ * penRadius_;
    sim::parallelFor(flock_.size(), [&](size_t i) {
      if (flock_.ids()[i] % 2 != 0) return;
      const Vec2 d = flock_.positions()[i] - penCenter_;
      const float d2 = glm::dot(d, d);
      if (d2 <= r2) return;
      const Vec2 outward = d / std::sqrt(d2);
      Vec2 v = flock_.velocities()[i];
      const float away = glm::dot(v, outward);
      if (away > 0.0f) v -= 2.0f * away * outward;
      flock_.setAgent(i, penCenter_ + outward * penRadius_, v);
    }, 4096);
  }

  // Missed neighbours on a sample small enough to cost about kAuditBudget checks, scaled to all agents.
  void audit() {
    const size_t n = flock_.size();
    auditStride_ = std::max<size_t>(1, size_t(std::ceil(double(n) * double(n) / kAuditBudget)));
    auditSamples_ = n ? (n + auditStride_ - 1) / auditStride_ : 0;
    const auto t0 = Clock::now();
    const uint64_t missed = flock_.countMissedNeighbors(auditStride_);
    auditMs_ = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    missed_ = auditSamples_ ? double(missed) * double(n) / double(auditSamples_) : 0.0;
    auditStep_ = steps_;
  }

  // After a grid step the flock's own grid is exactly what the step searched; otherwise a grid of
  // the current positions, built at most once per step (what the next step would search).
  ShownGrid shownGrid() {
    if (stepGridValid_) return {&flock_.grid(), true};
    if (viewGridDirty_) {
      viewGrid_.build(flock_.positions(), flock_.world, flock_.cellSize);
      viewGridDirty_ = false;
    }
    return {&viewGrid_, false};
  }

  ViewRect visibleRect() const {
    if (!ctx) return {flock_.world.min, flock_.world.max()};
    const render::Camera2D& c = ctx->camera2D;
    const Vec2 half = c.viewport * 0.5f / c.zoom;
    return {glm::max(c.center - half, flock_.world.min), glm::min(c.center + half, flock_.world.max())};
  }

  float zoom() const { return ctx ? ctx->camera2D.zoom : 1.0f; }

  bool hoverWanted() const {
    return pinnedId_ != kNone || (ctx && mouseSeen_ && ctx->mouseInView && insideWorld(ctx->mouseWorld));
  }
  bool insideWorld(Vec2 p) const {
    return p.x >= flock_.world.min.x && p.y >= flock_.world.min.y && p.x < flock_.world.max().x && p.y < flock_.world.max().y;
  }

  // Visible cells [first, last) per axis.
  void visibleCells(const Grid& g, const ViewRect& view, glm::ivec2& first, glm::ivec2& last) const {
    const Vec2 ext = g.cellExtent();
    const glm::ivec2 dims = g.cellsPerAxis();
    for (int k = 0; k < 2; ++k) {
      first[k] = std::clamp(int(std::floor((view.lo[k] - flock_.world.min[k]) / ext[k])), 0, dims[k]);
      last[k] = std::clamp(int(std::ceil((view.hi[k] - flock_.world.min[k]) / ext[k])), first[k], dims[k]);
    }
  }

  void drawGridLines(const Grid& g, const ViewRect& view, render::DebugDraw& debug) {
    const Vec2 ext = g.cellExtent();
    lineStride_ = std::max(1, int(std::ceil(kMinLinePixels / (std::min(ext.x, ext.y) * zoom()))));
    glm::ivec2 first, last;
    visibleCells(g, view, first, last);
    const uint32_t color = render::rgba(140, 150, 175, 70);
    const Vec2 o = flock_.world.min;
    for (int x = first.x / lineStride_ * lineStride_; x <= last.x; x += lineStride_)
      debug.line(Vec2(o.x + float(x) * ext.x, view.lo.y), Vec2(o.x + float(x) * ext.x, view.hi.y), color);
    for (int y = first.y / lineStride_ * lineStride_; y <= last.y; y += lineStride_)
      debug.line(Vec2(view.lo.x, o.y + float(y) * ext.y), Vec2(view.hi.x, o.y + float(y) * ext.y), color);
  }

  // Visible cells filled by count; blocks of k x k cells when cells are tiny on screen or too many.
  void drawHeatMap(const Grid& g, const ViewRect& view, render::DebugDraw& debug) {
    glm::ivec2 first, last;
    visibleCells(g, view, first, last);
    const double visible = double(last.x - first.x) * double(last.y - first.y);
    const Vec2 ext = g.cellExtent(), worldMax = flock_.world.max();
    const int bySize = int(std::ceil(kMinHeatPixels / (std::min(ext.x, ext.y) * zoom())));
    heatBlock_ = std::max({1, bySize, int(std::ceil(std::sqrt(visible / double(kHeatCellBudget))))});
    const int k = heatBlock_;
    first = first / k * k;  // blocks aligned to the world, so they do not shimmer as the camera pans
    const glm::ivec2 blocks = (last - first + k - 1) / k;
    heatSums_.assign(size_t(blocks.x) * size_t(blocks.y), 0u);
    uint32_t hottest = 1;
    for (int y = first.y; y < last.y; ++y)
      for (int x = first.x; x < last.x; ++x) {
        uint32_t& sum = heatSums_[size_t((y - first.y) / k) * size_t(blocks.x) + size_t((x - first.x) / k)];
        sum += g.cellCount(g.cellIndex({x, y}));
        hottest = std::max(hottest, sum);
      }
    for (int by = 0; by < blocks.y; ++by)
      for (int bx = 0; bx < blocks.x; ++bx) {
        const uint32_t sum = heatSums_[size_t(by) * size_t(blocks.x) + size_t(bx)];
        if (sum == 0) continue;
        const Vec2 lo = g.cellMin({first.x + bx * k, first.y + by * k});
        const Vec2 hi = glm::min(lo + ext * float(k), worldMax);
        debug.filledRect(lo, hi, heatColor(std::sqrt(float(sum) / float(hottest))));  // sqrt: sparse cells stay visible
      }
    heatHottest_ = hottest;
  }

  size_t nearestTo(const Vec2& at) const {
    size_t best = 0;
    float bestD2 = std::numeric_limits<float>::max();
    for (size_t i = 0; i < flock_.size(); ++i) {
      const Vec2 d = flock_.world.delta(at, flock_.positions()[i]);
      if (glm::dot(d, d) < bestD2) { bestD2 = glm::dot(d, d); best = i; }
    }
    return best;
  }

  // Each visible cell filled by the distance checks its agents make per step, on one scale for every
  // method (log, from 1 to N per agent): brute force's N - 1 per agent glows red, the grid's stays cool.
  void drawChecksPerCell(const Grid& g, const ViewRect& view, render::DebugDraw& debug) {
    glm::ivec2 first, last;
    visibleCells(g, view, first, last);
    const Vec2 ext = g.cellExtent(), worldMax = flock_.world.max();
    const bool brute = flock_.method == sim::NeighborMethod::BruteForce;
    const float radius = flock_.params.searchRadius();
    const double scale = std::log(double(std::max<size_t>(flock_.size(), 2)));
    const double cells = double(last.x - first.x) * double(last.y - first.y);
    const int k = std::max(1, int(std::ceil(std::sqrt(cells / double(kHeatCellBudget)))));
    for (int y = first.y; y < last.y; y += k)
      for (int x = first.x; x < last.x; x += k) {
        const uint32_t here = g.cellCount(g.cellIndex({x, y}));
        if (here == 0) continue;
        double perAgent = double(flock_.size()) - 1.0;
        if (!brute) {
          uint32_t candidates = 0;
          const Vec2 centre = g.cellMin({x, y}) + ext * 0.5f;
          g.forEachRange(g.block(centre, radius, flock_.searchMode),
                         [&](uint32_t begin, uint32_t end, const Vec2&) { candidates += end - begin; });
          perAgent = double(candidates) - 1.0;
        }
        const Vec2 lo = g.cellMin({x, y});
        debug.filledRect(lo, glm::min(lo + ext * float(k), worldMax), heatColor(float(std::log(std::max(perAgent, 1.0)) / scale)));
      }
  }

  // The step's cost in large type in the world's corner: the two methods' pictures differ as their numbers do.
  void drawStepFigures(render::DebugDraw& debug) const {
    char a[32], line[160];
    const bool brute = flock_.method == sim::NeighborMethod::BruteForce;
    std::snprintf(line, sizeof line, "%s\n%s checks a step\n%.1f ms a step", brute ? "brute force" : "grid",
                  scenes::withCommas(flock_.lastChecks(), a), stepMsAverage_);
    const ViewRect view = visibleRect();
    debug.bigText(view.lo + Vec2(12.0f, 12.0f) / zoom(), line, render::colors::white, 2.2f);
  }

  // The query the hovered (or pinned) agent makes: its cell, the cells searched, every candidate
  // checked and the neighbours accepted; with classic 3x3, also the neighbours brute force finds
  // that the block missed.
  void drawHover(const ShownGrid& g, render::AgentBatch& agents, render::DebugDraw& debug) {
    const Grid& grid = *g.grid;
    auto agentOf = [&](uint32_t k) { return g.sortedIsCurrent ? k : grid.order()[k]; };
    const auto sorted = grid.sortedPositions();
    const sim::World<2>& world = flock_.world;

    // The agent, by its current position (the step's grid holds where agents were a step ago).
    size_t index = flock_.size();
    if (pinnedId_ != kNone) {
      index = flock_.indexOfId(pinnedId_);
      if (index >= flock_.size()) pinnedId_ = kNone;
    } else {
      const float reach = kPickPixels / zoom();
      float best = reach * reach;
      for (size_t i = 0; i < flock_.size(); ++i) {
        const Vec2 d = flock_.positions()[i] - ctx->mouseWorld;
        const float d2 = glm::dot(d, d);
        if (d2 < best) { best = d2; index = i; }
      }
    }
    if (index >= flock_.size() || flock_.size() != sorted.size()) return;
    uint32_t self = uint32_t(index);
    if (!g.sortedIsCurrent) self = uint32_t(std::find(grid.order().begin(), grid.order().end(), self) - grid.order().begin());

    const Vec2 p = sorted[self];
    const float radius = flock_.params.searchRadius(), perception = flock_.params.perceptionRadius;
    const bool brute = flock_.method == sim::NeighborMethod::BruteForce;
    const glm::ivec2 cell = grid.cellOf(grid.inside(p));
    const Vec2 ext = grid.cellExtent();
    hover_.id = flock_.ids()[agentOf(self)];
    hover_.cell = cell;
    auto isNeighbor = [&](uint32_t j, Vec2& offset) {
      offset = world.delta(p, sorted[j]);
      const float d2 = glm::dot(offset, offset);
      return d2 > 0.0f && std::sqrt(d2) <= perception;  // what the step counts as a neighbour
    };

    // What the search checks. Marks accepted neighbours so the brute-force pass can tell missed ones.
    accepted_.clear();
    marks_.resize(sorted.size());
    Vec2 offset;
    const Vec2 from = flock_.positions()[agentOf(self)];
    const uint32_t testedColor = render::rgba(235, 235, 245, 45);
    auto tested = [&](uint32_t j) {  // "show the checks": a faint line to every agent tested
      if (s_.showChecks) debug.line(from, from + world.delta(from, sorted[j]), testedColor);
    };
    if (brute) {
      hover_.checks = uint32_t(sorted.size() - 1);
      for (uint32_t j = 0; j < sorted.size(); ++j) {
        if (j == self) continue;
        tested(j);
        if (isNeighbor(j, offset)) accepted_.push_back(j);
      }
    } else {
      const auto block = grid.block(p, radius, flock_.searchMode);
      grid.forEachCell(block, [&](const glm::ivec2& c) {
        debug.filledRect(grid.cellMin(c), grid.cellMin(c) + ext, c == cell ? kOwnCellColor : kSearchedCellColor);
        hover_.cellsSearched++;
      });
      grid.forEachRange(block, [&](uint32_t begin, uint32_t end, const Vec2&) {
        for (uint32_t j = begin; j < end; ++j) {
          if (j == self) continue;
          hover_.checks++;
          tested(j);
          if (isNeighbor(j, offset)) accepted_.push_back(j);
          else agents.instances[agentOf(j)].color = kCandidateColor;
        }
      });
    }
    const Vec2 at = flock_.positions()[agentOf(self)];
    for (uint32_t j : accepted_) {
      marks_[j] = 1;
      agents.instances[agentOf(j)].color = kNeighborColor;
      debug.line(at, at + world.delta(at, flock_.positions()[agentOf(j)]), render::withAlpha(kNeighborColor, 90));
    }
    hover_.neighbors = uint32_t(accepted_.size());
    if (!brute) {
      for (uint32_t j = 0; j < sorted.size(); ++j) {
        if (j == self || marks_[j] || !isNeighbor(j, offset)) continue;
        hover_.missed++;
        agents.instances[agentOf(j)].color = kMissedColor;
        debug.line(at, at + world.delta(at, flock_.positions()[agentOf(j)]), render::withAlpha(kMissedColor, 160));
      }
    }
    for (uint32_t j : accepted_) marks_[j] = 0;

    render::AgentInstance& me = agents.instances[agentOf(self)];
    me.color = render::colors::white;
    me.scale = agentScale_ * 1.6f;
    debug.circle(at, perception, render::rgba(255, 255, 255, 150));
    char label[96];
    if (hover_.missed) std::snprintf(label, sizeof label, "%u checks, %u found, %u missed", hover_.checks, hover_.neighbors, hover_.missed);
    else std::snprintf(label, sizeof label, "%u checks, %u neighbours", hover_.checks, hover_.neighbors);
    debug.text(at + Vec2(perception * 0.75f, -perception * 0.75f), label, render::colors::white);
  }

  SceneSettings s_{};
  sim::Flock<2> flock_;
  Grid viewGrid_;
  // mouseSeen_: set by the window class's onMouse (a move), so only a window's cursor hovers.
  bool viewGridDirty_ = true, stepGridValid_ = false, mouseSeen_ = false;
  int spawnedCount_ = -1, spawnedDistribution_ = -1;
  float agentScale_ = 9.0f;
  Vec2 penCenter_{0.0f};
  float penRadius_ = 0.0f;

  int steps_ = 0;
  double stepMs_ = 0, stepMsAverage_ = 0;
  scenes::PlotHistory checksHistory_, stepMsHistory_;

  int auditStep_ = 0;
  size_t auditStride_ = 1, auditSamples_ = 0;
  double missed_ = 0, auditMs_ = 0;
  int exactStep_ = -1;
  uint64_t exactMissed_ = 0;
  double exactMs_ = 0;

  uint32_t pinnedId_ = kNone;
  HoverInfo hover_;
  std::vector<uint32_t> accepted_;
  std::vector<uint8_t> marks_;
  std::vector<uint32_t> heatSums_;
  uint32_t heatHottest_ = 0;
  int lineStride_ = 1, heatBlock_ = 1;
  std::array<uint32_t, kHues> hues_{}, dimHues_{};
};

}  // namespace scenes::spatial_hash
