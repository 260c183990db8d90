#include "app/sweep_panel.hpp"

#include <imgui.h>
#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>
#include "app/ui_style.hpp"
#include "app/platform.hpp"
#include "app/probe.hpp"
#include "app/recording.hpp"
#include "experiments/sweep.hpp"
#include "io/atomic_file.hpp"
#include "scenes/param_ui.hpp"
#include "sim/core/parallel.hpp"
#include "sim/core/metric.hpp"

namespace app {

namespace {
using Clock = std::chrono::steady_clock;
const ImU32 kCurveColours[] = {IM_COL32(86, 180, 233, 255), IM_COL32(230, 159, 0, 255), IM_COL32(0, 158, 115, 255),
                               IM_COL32(204, 121, 167, 255), IM_COL32(240, 228, 66, 255), IM_COL32(213, 94, 0, 255)};
}  // namespace

class SweepPanel {
 public:
  ~SweepPanel() { stopAndJoin(); }

  bool draw(scenes::Scene& scene, const std::string& sceneName);
  void writeProbe() const;
  std::string progress();
  bool running();
  const std::string& scene() const { return scene_; }
  void cancel() { cancel_ = true; }
  bool workerEnded() const { return !running_; }  // the worker sets it last

 private:
  // The sweep as set up in the controls (one parameter, one metric) or a built-in's.
  void startCustom(scenes::Scene& scene, const std::string& sceneName);
  void startBuiltin(const experiments::BuiltinSweep& b);
  void start(const experiments::SweepSpec& spec);
  void stopAndJoin();
  void collect();      // moves finished results into the table (UI thread)
  bool plot(scenes::Scene& scene);
  void exportFiles(const std::string& sceneName);

  // controls
  std::string scene_;
  int param_ = -1, metric_ = 0, steps_ = 6, seeds_ = 2, shownMetric_ = 0;
  float from_ = 0, to_ = 1, windowFrom_ = 2, windowTo_ = 6;
  // the running or last sweep
  experiments::SweepSpec spec_;
  std::vector<experiments::Job> jobs_;
  experiments::SweepTable table_;
  std::thread worker_;
  std::atomic<bool> cancel_{false}, running_{false};
  std::mutex mutex_;
  std::vector<experiments::Result> inbox_;  // results the worker delivered, not yet in the table
  size_t done_ = 0;
  Clock::time_point started_, stopPressed_;
  double stopMs_ = -1;      // Stop to the worker's end, for the tests
  std::string message_;
  // as last drawn, for the tests (window points)
  std::string hovered_, clicked_;  // the hovered point's value now; the last clicked one's
};

void SweepPanel::stopAndJoin() {
  cancel_ = true;
  if (worker_.joinable()) worker_.join();
  running_ = false;
}

void SweepPanel::start(const experiments::SweepSpec& spec) {
  stopAndJoin();
  spec_ = spec;
  jobs_ = experiments::sweepJobs(spec_);
  table_ = experiments::tableOf(spec_);
  inbox_.clear();
  done_ = 0;
  shownMetric_ = 0;
  stopMs_ = -1;
  message_.clear();
  cancel_ = false;
  running_ = true;
  started_ = Clock::now();
  // All cores but one: the live scene keeps its core and does not stutter.
  const int threads = std::max(1, sim::hardwareThreads() - 1);
  worker_ = std::thread([this, threads] {
#ifdef __linux__
    // Below the live scene in the scheduler's eyes: on a busy machine its frames come first.
    setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 5);
#endif
    experiments::RunOptions o;
    o.threads = threads;
    o.cancel = &cancel_;
    o.delivery = experiments::Delivery::AsFinished;  // the curve grows as points come in
    experiments::runJobs(jobs_, o, [this](const experiments::Result& r) {
      const std::lock_guard<std::mutex> lock(mutex_);
      inbox_.push_back(r);
    });
    running_ = false;
  });
}

void SweepPanel::startCustom(scenes::Scene& scene, const std::string& sceneName) {
  const std::span<const scenes::Param> params = scene.params();
  if (param_ < 0 || size_t(param_) >= params.size()) return;
  const scenes::Param& p = params[size_t(param_)];
  std::vector<sim::Metric> metrics;
  scene.metrics(metrics);
  if (metric_ < 0 || size_t(metric_) >= metrics.size()) return;
  char range[96];
  const double step = steps_ > 1 ? (double(to_) - double(from_)) / double(steps_ - 1) : 1.0;
  if (p.type == scenes::ParamType::Int) {
    // Whole values: the nearest integers of an even spacing, repeats dropped by the parser.
    std::string list;
    for (int i = 0; i < steps_; ++i) list += (i ? "," : "") + std::to_string(std::lround(from_ + step * i));
    std::snprintf(range, sizeof range, "%s", list.c_str());
  } else {
    std::snprintf(range, sizeof range, "%.7g:%.7g:%.7g", double(from_), double(to_), step);
  }
  char window[64];
  std::snprintf(window, sizeof window, "%.6g:%.6g", double(windowFrom_), double(windowTo_));
  const std::vector<std::string> args = {"--scene", sceneName, "--vary", std::string(p.name) + "=" + range,
                                         "--metric", metrics[size_t(metric_)].name, "--window", window,
                                         "--seeds", std::to_string(seeds_)};
  experiments::SweepSpec spec;
  std::string error;
  if (!experiments::parseSweepArgs(args, spec, error)) {
    message_ = error;
    return;
  }
  // Over the live scene's own settings: a sweep asks "what if this one value changed".
  for (const scenes::Param& q : params)
    if (&q != &p && q.get() != q.defaultValue)
      spec.sets.push_back(q.type == scenes::ParamType::Float ? experiments::assignment(q.name, q.get())  // exact
                                                             : std::string(q.name) + "=" + q.valueText());
  start(spec);
}

void SweepPanel::startBuiltin(const experiments::BuiltinSweep& b) {
  std::vector<std::string> args(b.args.begin(), b.args.end());
  experiments::SweepSpec spec;
  std::string error;
  if (!experiments::parseSweepArgs(args, spec, error)) {
    message_ = std::string(b.name) + ": " + error;
    return;
  }
  start(spec);
}

void SweepPanel::collect() {
  std::vector<experiments::Result> in;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    in.swap(inbox_);
  }
  for (const experiments::Result& r : in) {
    ++done_;
    if (!r.ok) {
      message_ = r.error;
      continue;
    }
    const std::string row = experiments::csvRow(spec_, jobs_[r.job], r.job, r);
    std::string ignored;
    experiments::addRow(table_, row.substr(0, row.size() - 1), ignored);
  }
  if (!running_ && worker_.joinable()) {
    worker_.join();
    if (stopPressed_ != Clock::time_point()) {
      stopMs_ = std::chrono::duration<double, std::milli>(Clock::now() - stopPressed_).count();
      stopPressed_ = Clock::time_point();
    }
  }
}

// The curve: mean line, min-max band, a marker per point; hover shows the numbers, a click sets the
// value (and the series' own settings) in the live scene.
bool SweepPanel::plot(scenes::Scene& scene) {
  probe::set("sweep_points_at", nlohmann::json::array());
  hovered_.clear();
  if (table_.metrics.empty()) return false;
  if (table_.metrics.size() > 1) {
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
    if (ImGui::BeginCombo("shown metric", table_.metrics[size_t(shownMetric_)].c_str())) {
      for (size_t m = 0; m < table_.metrics.size(); ++m)
        if (ImGui::Selectable(table_.metrics[m].c_str(), int(m) == shownMetric_)) shownMetric_ = int(m);
      ImGui::EndCombo();
    }
  }
  const std::vector<experiments::SweepCurve> curves = experiments::sweepCurves(table_, size_t(shownMetric_));
  const float em = ImGui::GetFontSize();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float w = std::max(ImGui::GetContentRegionAvail().x, 10 * em), h = 12 * em;
  const float left = 3.2f * em, bottom = 1.6f * em, pad = 0.6f * em;
  ImGui::InvisibleButton("sweep-plot", ImVec2(w, h));
  const bool hoveredPlot = ImGui::IsItemHovered(), clicked = ImGui::IsItemClicked(ImGuiMouseButton_Left);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p0(origin.x + left, origin.y + pad), p1(origin.x + w - pad, origin.y + h - bottom);
  const ImU32 axis = ImGui::GetColorU32(ImGuiCol_Text), grid = ImGui::GetColorU32(ImGuiCol_Separator);
  dl->AddRectFilled(p0, p1, ImGui::GetColorU32(ImGuiCol_FrameBg));
  // ranges: x over the grid's values (the sweep's axis, not only the points in so far), y over the band
  double xlo = 0, xhi = 1, ylo = 0, yhi = 1;
  bool any = false;
  const bool logX = spec_.logX, logY = spec_.logY;
  auto tx = [&](double v) { return logX ? std::log10(std::max(v, 1e-300)) : v; };
  auto ty = [&](double v) { return logY ? std::log10(std::max(v, 1e-300)) : v; };
  if (!spec_.axes.empty() && !spec_.axes[0].values.empty()) {
    const auto [lo, hi] = std::minmax_element(spec_.axes[0].values.begin(), spec_.axes[0].values.end());
    xlo = tx(*lo);
    xhi = tx(*hi);
  }
  for (const experiments::SweepCurve& c : curves)
    for (const experiments::SweepPoint& p : c.points) {
      if (!p.seeds) continue;
      ylo = any ? std::min(ylo, ty(p.min)) : ty(p.min);
      yhi = any ? std::max(yhi, ty(p.max)) : ty(p.max);
      any = true;
    }
  if (!logY && any && ylo > 0 && ylo < 0.5 * yhi) ylo = 0;
  if (!(xhi > xlo)) xhi = xlo + 1;
  if (!(yhi > ylo)) {
    yhi += 0.5;
    ylo -= 0.5;
  }
  const double ypad = 0.05 * (yhi - ylo);
  if (ylo != 0.0 || logY) ylo -= ypad;  // a quantity read from 0 keeps 0 at the bottom
  yhi += ypad;
  auto sx = [&](double v) { return p0.x + float((tx(v) - xlo) / (xhi - xlo)) * (p1.x - p0.x); };
  auto sy = [&](double v) { return p1.y - float((ty(v) - ylo) / (yhi - ylo)) * (p1.y - p0.y); };
  // axis ticks: the ends and the middle
  char buf[48];
  for (int k = 0; k <= 2; ++k) {
    const double yv = ylo + (yhi - ylo) * k / 2.0, xv = xlo + (xhi - xlo) * k / 2.0;
    const float y = p1.y - (p1.y - p0.y) * float(k) / 2.0f, x = p0.x + (p1.x - p0.x) * float(k) / 2.0f;
    dl->AddLine(ImVec2(p0.x, y), ImVec2(p1.x, y), grid);
    std::snprintf(buf, sizeof buf, "%.3g", logY ? std::pow(10.0, yv) : yv);
    dl->AddText(ImVec2(origin.x + 0.2f * em, y - 0.5f * em), axis, buf);
    std::snprintf(buf, sizeof buf, "%.3g", logX ? std::pow(10.0, xv) : xv);
    const float tw = ImGui::CalcTextSize(buf).x;
    dl->AddText(ImVec2(std::clamp(x - tw / 2, p0.x, p1.x - tw), p1.y + 0.2f * em), axis, buf);
  }
  dl->AddRect(p0, p1, axis);
  // band, line, markers; the nearest marker to the mouse within a few points is the hovered one
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const experiments::SweepPoint* nearest = nullptr;
  size_t nearestCurve = 0;
  float best = 0.8f * em * 0.8f * em;
  for (size_t c = 0; c < curves.size(); ++c) {
    const ImU32 colour = kCurveColours[c % std::size(kCurveColours)];
    const ImU32 band = (colour & 0x00FFFFFF) | (IM_COL32_A_MASK & IM_COL32(0, 0, 0, 60));
    const experiments::SweepPoint* prev = nullptr;
    for (const experiments::SweepPoint& p : curves[c].points) {
      if (!p.seeds) continue;
      if (prev) {
        const ImVec2 q[4] = {ImVec2(sx(prev->x), sy(prev->max)), ImVec2(sx(p.x), sy(p.max)), ImVec2(sx(p.x), sy(p.min)),
                             ImVec2(sx(prev->x), sy(prev->min))};
        dl->AddConvexPolyFilled(q, 4, band);
        dl->AddLine(ImVec2(sx(prev->x), sy(prev->mean)), ImVec2(sx(p.x), sy(p.mean)), colour, 2.5f);
      }
      prev = &p;
    }
    for (const experiments::SweepPoint& p : curves[c].points) {
      if (!p.seeds) continue;
      const ImVec2 at(sx(p.x), sy(p.mean));
      dl->AddCircleFilled(at, 0.28f * em, colour);
      probe::append("sweep_points_at", {std::lround(at.x), std::lround(at.y)});
      const float dx = at.x - mouse.x, dy = at.y - mouse.y;
      if (hoveredPlot && dx * dx + dy * dy < best) {
        best = dx * dx + dy * dy;
        nearest = &p;
        nearestCurve = c;
      }
    }
  }
  // the value the live scene has now, as a dashed-looking marker line
  if (!spec_.axes.empty())
    if (const scenes::Param* live = scenes::findParam(scene.params(), spec_.axes[0].param)) {
      const double v = live->get();
      if (tx(v) >= xlo && tx(v) <= xhi)
        for (float y = p0.y; y < p1.y; y += 0.6f * em)
          dl->AddLine(ImVec2(sx(v), y), ImVec2(sx(v), std::min(y + 0.3f * em, p1.y)), axis, 1.5f);
    }
  // legend under the plot when there are several curves
  for (size_t c = 0; c < curves.size() && curves.size() > 1; ++c) {
    const ImU32 colour = kCurveColours[c % std::size(kCurveColours)];
    ImGui::ColorButton(("##legend" + std::to_string(c)).c_str(), ImGui::ColorConvertU32ToFloat4(colour),
                       ImGuiColorEditFlags_NoTooltip, ImVec2(em, em));
    ImGui::SameLine();
    ImGui::TextUnformatted(curves[c].series.c_str());
  }
  if (!spec_.axes.empty())
    ImGui::TextDisabled("x: %s   y: %s", spec_.axes[0].label.c_str(),
                        std::string(sim::metricTitle(table_.metrics[size_t(shownMetric_)])).c_str());
  if (!nearest) return false;
  const std::string series = curves[nearestCurve].series;
  std::snprintf(buf, sizeof buf, "%s", nearest->xText.c_str());
  hovered_ = buf;
  ImGui::BeginTooltip();
  if (!series.empty()) ImGui::TextUnformatted(series.c_str());
  ImGui::Text("%s = %s", spec_.axes[0].param.c_str(), nearest->xText.c_str());
  ImGui::Text("%s: mean %.4g", table_.metrics[size_t(shownMetric_)].c_str(), nearest->mean);
  ImGui::Text("min %.4g, max %.4g over %d seed%s", nearest->min, nearest->max, nearest->seeds, nearest->seeds == 1 ? "" : "s");
  ImGui::TextDisabled("click: set it in the live scene");
  ImGui::EndTooltip();
  if (!clicked) return false;
  // The point's world: the sweep's own settings, the series', then the value.
  std::vector<std::string> sets = spec_.sets;
  for (const experiments::SweepSeries& s : spec_.series)
    if (s.label == series) sets.insert(sets.end(), s.sets.begin(), s.sets.end());
  sets.push_back(spec_.axes[0].param + "=" + nearest->xText);
  std::string error;
  for (const std::string& s : sets)
    if (!scenes::setParamAssignment(scene.params(), s, error)) {
      message_ = error;
      return false;
    }
  clicked_ = nearest->xText;
  message_ = "set " + spec_.axes[0].param + " = " + nearest->xText + (series.empty() ? "" : " (" + series + ")");
  return true;
}

void SweepPanel::exportFiles(const std::string& sceneName) {
  const std::string base = timestampedName(sceneName, "-sweep");
  std::string csv = table_.header + "\n", error;
  for (const experiments::SweepTable::Row& r : table_.rows) csv += r.line + "\n";
  if (!io::writeFileAtomically(base + ".csv", csv, error) ||
      !io::writeFileAtomically(base + ".svg", experiments::sweepSvg(table_, experiments::plotOptionsOf(spec_)), error)) {
    message_ = error;
    return;
  }
  message_ = platform::deliverFile(base + ".csv") + "\n" + platform::deliverFile(base + ".svg");
}

bool SweepPanel::draw(scenes::Scene& scene, const std::string& sceneName) {
  if (scene_ != sceneName) {  // another scene: its own sweep from scratch
    stopAndJoin();
    scene_ = sceneName;
    spec_ = experiments::SweepSpec();
    table_ = experiments::SweepTable();
    jobs_.clear();
    param_ = -1;
    metric_ = 0;
    message_.clear();
  }
  collect();
  const std::span<const scenes::Param> params = scene.params();
  // The first numeric parameter with a range (not N: large N makes slow jobs) is the default.
  if (param_ < 0 || size_t(param_) >= params.size()) {
    for (size_t i = 0; i < params.size() && param_ < 0; ++i)
      if (params[i].type == scenes::ParamType::Float && !params[i].noSlider) param_ = int(i);
    if (param_ < 0) param_ = 0;
    from_ = params[size_t(param_)].min;
    to_ = params[size_t(param_)].max;
  }
#if CROWDLAB_SERIAL
  ImGui::TextWrapped("Sweeps run on worker threads: use the desktop program or `crowdlab sweep`.");
  return false;
#endif
  const bool running = running_ || worker_.joinable();
  // built-in set-ups for this scene: one click runs the lecture's sweep
  for (const experiments::BuiltinSweep& b : experiments::builtinSweeps()) {
    if (sceneName != b.scene) continue;
    ImGui::BeginDisabled(running);
    if (ImGui::Button(b.title)) startBuiltin(b);
    ImGui::EndDisabled();
    scenes::panelTooltip("crowdlab sweep --builtin %s", b.name);
  }
  ImGui::BeginDisabled(running);
  const scenes::Param& p = params[size_t(param_)];
  if (ImGui::BeginCombo("parameter", p.name)) {
    for (size_t i = 0; i < params.size(); ++i) {
      const scenes::Param& q = params[i];
      if (q.type != scenes::ParamType::Float && q.type != scenes::ParamType::Int) continue;
      if (ImGui::Selectable(q.name, int(i) == param_)) {
        param_ = int(i);
        from_ = q.min;
        to_ = q.max;
      }
      scenes::panelTooltip("%s", q.label);
    }
    ImGui::EndCombo();
  }
  const scenes::Param& chosen = params[size_t(param_)];
  float range[2] = {from_, to_};
  if (ImGui::DragFloat2("from, to", range, (chosen.max - chosen.min) / 200.0f, chosen.min, chosen.max, "%.3g")) {
    from_ = std::clamp(range[0], chosen.min, chosen.max);
    to_ = std::clamp(range[1], from_, chosen.max);
  }
  ImGui::SliderInt("steps", &steps_, 2, 30);
  std::vector<sim::Metric> metrics;
  scene.metrics(metrics);
  if (metric_ >= int(metrics.size())) metric_ = 0;
  if (!metrics.empty() && ImGui::BeginCombo("metric", metrics[size_t(metric_)].name)) {
    for (size_t i = 0; i < metrics.size(); ++i)
      if (ImGui::Selectable(metrics[i].name, int(i) == metric_)) metric_ = int(i);
    ImGui::EndCombo();
  }
  ImGui::SliderInt("seeds", &seeds_, 1, 10);
  float window[2] = {windowFrom_, windowTo_};
  if (ImGui::DragFloat2("window (s)", window, 0.1f, 0.0f, 600.0f, "%.3g")) {
    windowFrom_ = std::max(0.0f, window[0]);
    windowTo_ = std::max(windowFrom_ + 0.1f, window[1]);
  }
  ImGui::EndDisabled();
  const float em = ImGui::GetFontSize();
  if (!running) {
    if (ImGui::Button("Start", ImVec2(5 * em, 0))) startCustom(scene, sceneName);
    probe::markItem("sweep_start_at");
  } else {
    if (ImGui::Button("Stop", ImVec2(5 * em, 0))) {
      stopPressed_ = Clock::now();
      cancel_ = true;
    }
    probe::markItem("sweep_stop_at");
  }
  scenes::sameLineIfFits("Export");
  ImGui::BeginDisabled(running || table_.rows.empty());
  if (ImGui::Button("Export")) exportFiles(sceneName);
  ImGui::EndDisabled();
  if (!jobs_.empty()) {
    const double elapsed = std::chrono::duration<double>(Clock::now() - started_).count();
    char progress[96];
    if (running) std::snprintf(progress, sizeof progress, "%zu/%zu jobs, %.0f s", done_, jobs_.size(), elapsed);
    else std::snprintf(progress, sizeof progress, "%zu/%zu jobs%s", done_, jobs_.size(), done_ < jobs_.size() ? " (stopped)" : "");
    scenes::sameLineIfFits(scenes::textWidth(progress));
    ImGui::TextUnformatted(progress);
  }
  const bool changed = plot(scene);
  if (!message_.empty()) ImGui::TextWrapped("%s", message_.c_str());
  return changed;
}

void SweepPanel::writeProbe() const {
  probe::set("sweep_running", running_.load());
  probe::set("sweep_jobs", jobs_.size());
  probe::set("sweep_done", done_);
  probe::set("sweep_rows", table_.rows.size());
  probe::set("sweep_stop_ms", std::lround(stopMs_));
  probe::set("sweep_param", spec_.axes.empty() ? "" : spec_.axes[0].param);
  probe::set("sweep_hovered", hovered_);
  probe::set("sweep_clicked", clicked_);
}

bool SweepPanel::running() {
  if (jobs_.empty()) return false;
  collect();  // also while the section is folded or the UI hidden
  return running_ || worker_.joinable();
}

std::string SweepPanel::progress() {
  if (jobs_.empty()) return "";
  const bool running = this->running();
  char text[64];
  std::snprintf(text, sizeof text, "sweep %s%zu/%zu", running ? "" : done_ < jobs_.size() ? "stopped " : "done ", done_,
                jobs_.size());
  return text;
}

SweepSection::SweepSection() : panel(std::make_unique<SweepPanel>()) {}
SweepSection::~SweepSection() = default;
SweepSection::SweepSection(SweepSection&&) noexcept = default;
SweepSection& SweepSection::operator=(SweepSection&&) noexcept = default;

bool drawSweepSection(SweepSection& section, scenes::Scene& scene, const std::string& sceneName) {
  if (!section.panel->scene().empty() && section.panel->scene() != sceneName) {
    // Another scene: this one's sweep is put aside as it is, the other's taken up (or a new one).
    std::unique_ptr<SweepPanel>& shelf = section.others[section.panel->scene()];
    shelf = std::move(section.panel);
    auto it = section.others.find(sceneName);
    if (it != section.others.end()) {
      section.panel = std::move(it->second);
      section.others.erase(it);
    } else {
      section.panel = std::make_unique<SweepPanel>();
    }
  }
  return section.panel->draw(scene, sceneName);
}

std::string sweepProgress(SweepSection& section) { return section.panel->progress(); }

bool sweepRunning(SweepSection& section) {
  bool any = section.panel->running();  // also takes in the shown sweep's points
  for (auto& [name, panel] : section.others) any = panel->running() || any;
  return any;
}

void writeSweepProbe(const SweepSection& section) { section.panel->writeProbe(); }

void cancelSweeps(SweepSection& section) {
  section.panel->cancel();
  for (auto& [name, panel] : section.others) panel->cancel();
}

bool sweepsEnded(const SweepSection& section) {
  bool ended = section.panel->workerEnded();
  for (const auto& [name, panel] : section.others) ended = ended && panel->workerEnded();
  return ended;
}

}  // namespace app
