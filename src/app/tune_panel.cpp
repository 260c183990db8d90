#include "app/tune_panel.hpp"

#include <imgui.h>
#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>
#endif
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>
#include <nlohmann/json.hpp>
#include "app/ui_style.hpp"
#include "app/platform.hpp"
#include "app/preset_names.hpp"
#include "app/probe.hpp"
#include "app/settings.hpp"
#include "experiments/tuner.hpp"
#include "io/atomic_file.hpp"
#include "scenes/param_ui.hpp"
#include "sim/core/parallel.hpp"

namespace app {

namespace {

constexpr int kTestSeeds = 3;  // held-out seeds the panel scores the best on when a search ends

// Dim text wrapped to the panel's width.
void dimWrapped(const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("%s", text.c_str());
  ImGui::PopStyleColor();
}


}  // namespace

struct TunePanel::Impl {
  // What the search shares with the panel, under `mutex`.
  struct Shared {
    std::mutex mutex;
    bool running = false;
    std::vector<std::pair<double, double>> history;  // per generation: best, median
    std::vector<std::string> bestSets;  // the group modes and the best values, as assignments
    double bestScore = NAN, sigma = 0, heldOutStart = NAN, heldOutBest = NAN;
    long evaluations = 0;
    std::string status, presetText, objective;
  };

  std::string scene;
  int objective = 0, paramsChoice = 0;  // 0: the objective's own parameters, k: its group k - 1
  int budget = 64, seeds = 2;
  bool openRequested = false;
  std::string requestedObjective;
  char saveName[64] = "tuned";
  std::string message;
  int applied = 0;
  std::shared_ptr<Shared> shared = std::make_shared<Shared>();
  std::atomic<bool> cancel{false};
  std::thread worker;

  void stop() {
    cancel.store(true);
    if (worker.joinable()) worker.join();
    cancel.store(false);
  }

  void start(const experiments::Objective& o) {
    stop();
    experiments::TuneSettings s;
    s.scene = o.scene;
    s.objective = o.name;
    if (paramsChoice > 0 && size_t(paramsChoice) <= o.groups.size()) s.params = {o.groups[size_t(paramsChoice - 1)].name};
    s.budget = budget;
    s.seeds = seeds;
    s.testSeeds = kTestSeeds;
    s.threads = std::max(1, sim::hardwareThreads() - 1);  // one core stays with the live scene
    shared = std::make_shared<Shared>();
    shared->running = true;
    shared->objective = o.name;
    shared->status = "starting";
    worker = std::thread([s, sh = shared, &cancel = cancel] {
#ifdef __linux__
      // Below the live scene in the scheduler's eyes, as the Sweep section's worker.
      setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 5);
#endif
      experiments::Tuner t(s);
      auto publish = [&](const std::string& status) {
        const std::lock_guard<std::mutex> lock(sh->mutex);
        sh->status = status;
      };
      if (!t.error().empty()) {
        const std::lock_guard<std::mutex> lock(sh->mutex);
        sh->status = t.error();
        sh->running = false;
        return;
      }
      publish("generation 1 running");
      while (t.step(&cancel, nullptr)) {
        const experiments::GenerationSummary& g = t.lastGeneration();
        std::vector<std::string> sets = t.sets();
        for (const std::string& a : t.assignments(t.best())) sets.push_back(a);
        const std::string preset = t.presetText(t.best(), t.bestScore(), nullptr, "the app's Tune section");
        const std::lock_guard<std::mutex> lock(sh->mutex);
        sh->history.push_back({g.best, g.median});
        sh->bestSets = sets;
        sh->bestScore = t.bestScore().score;
        sh->sigma = g.sigma;
        sh->evaluations = g.evaluations;
        sh->presetText = preset;
        char line[96];
        std::snprintf(line, sizeof line, "generation %d done, %ld evaluations", g.generation, g.evaluations);
        sh->status = line;
      }
      std::string reason = t.stopReason();
      if (!cancel.load() && t.hasBest()) {
        publish(reason + "; scoring on held-out seeds...");
        const experiments::Score start = t.scoreOn(t.startValues(), experiments::kFirstTestSeed, kTestSeeds, &cancel);
        const experiments::Score best = t.scoreOn(t.best(), experiments::kFirstTestSeed, kTestSeeds, &cancel);
        if (start.ok && best.ok) {
          const std::string preset = t.presetText(t.best(), t.bestScore(), &best, "the app's Tune section");
          const std::lock_guard<std::mutex> lock(sh->mutex);
          sh->heldOutStart = start.score;
          sh->heldOutBest = best.score;
          sh->presetText = preset;
        }
      }
      const std::lock_guard<std::mutex> lock(sh->mutex);
      sh->status = reason;
      sh->running = false;
    });
  }

  // Best (green) and median (grey) per generation, scaled to what was seen.
  void plot(const std::vector<std::pair<double, double>>& history) {
    const float width = ImGui::GetContentRegionAvail().x, height = 5.0f * ImGui::GetFrameHeight();
    const ImVec2 o = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(o, ImVec2(o.x + width, o.y + height), IM_COL32(30, 33, 40, 255));
    double lo = INFINITY, hi = -INFINITY;
    for (const auto& [best, median] : history)
      for (double v : {best, median})
        if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
    if (history.size() >= 1 && hi >= lo) {
      if (hi - lo < 1e-12) hi = lo + 1.0;
      const size_t n = history.size();
      auto at = [&](size_t g, double v) {
        const float x = o.x + 4.0f + (width - 8.0f) * (n > 1 ? float(g) / float(n - 1) : 0.5f);
        const float y = o.y + height - 4.0f - (height - 8.0f) * float((std::clamp(v, lo, hi) - lo) / (hi - lo));
        return ImVec2(x, y);
      };
      for (int line = 1; line >= 0; --line) {
        const ImU32 colour = line == 0 ? IM_COL32(90, 220, 120, 255) : IM_COL32(160, 165, 180, 255);
        for (size_t g = 0; g < n; ++g) {
          const double v = line == 0 ? history[g].first : history[g].second;
          if (!std::isfinite(v)) continue;
          if (g > 0 && std::isfinite(line == 0 ? history[g - 1].first : history[g - 1].second))
            dl->AddLine(at(g - 1, line == 0 ? history[g - 1].first : history[g - 1].second), at(g, v), colour, 2.0f);
          dl->AddCircleFilled(at(g, v), 2.5f, colour);
        }
      }
      char text[64];
      std::snprintf(text, sizeof text, "%.4g", hi);
      dl->AddText(ImVec2(o.x + 4, o.y + 2), IM_COL32(200, 200, 210, 255), text);
      std::snprintf(text, sizeof text, "%.4g", lo);
      dl->AddText(ImVec2(o.x + 4, o.y + height - ImGui::GetTextLineHeight() - 2), IM_COL32(200, 200, 210, 255), text);
    }
    ImGui::Dummy(ImVec2(width, height));
    ImGui::TextColored(ImVec4(0.35f, 0.86f, 0.47f, 1), "best");
    scenes::sameLineIfFits(scenes::textWidth("median"));
    ImGui::TextColored(ImVec4(0.63f, 0.65f, 0.7f, 1), "median");
    scenes::sameLineIfFits(scenes::textWidth("score per generation (lower is better)"));
    ImGui::TextDisabled("score per generation (lower is better)");
  }
};

TunePanel::TunePanel() : impl_(std::make_unique<Impl>()) {}
TunePanel::~TunePanel() { stop(); }
void TunePanel::stop() {
  // Every search is asked first, then each is waited for: the waits overlap.
  impl_->cancel.store(true);
  for (auto& [name, m] : shelved_) m->cancel.store(true);
  impl_->stop();
  for (auto& [name, m] : shelved_) m->stop();
}

void TunePanel::cancel() {
  impl_->cancel.store(true);
  for (auto& [name, m] : shelved_) m->cancel.store(true);
}

void TunePanel::open(const std::string& objective) {
  impl_->openRequested = true;
  impl_->requestedObjective = objective;
}

bool TunePanel::draw(scenes::Scene& scene, const std::string& sceneName) {
  const std::vector<const experiments::Objective*> objectives = experiments::objectivesOf(sceneName);
  if (objectives.empty()) return false;
  if (!impl_->scene.empty() && impl_->scene != sceneName) {
    // Another scene: this scene's search is put aside as it is, the other's taken up (or a new one).
    std::unique_ptr<Impl> shown = std::move(impl_);
    auto it = shelved_.find(sceneName);
    if (it != shelved_.end()) {
      impl_ = std::move(it->second);
      shelved_.erase(it);
    } else {
      impl_ = std::make_unique<Impl>();
      impl_->openRequested = shown->openRequested;
      impl_->requestedObjective = shown->requestedObjective;
    }
    shelved_[shown->scene] = std::move(shown);
  }
  Impl& m = *impl_;
  if (m.scene != sceneName) {
    m.stop();
    m.scene = sceneName;
    m.objective = 0;
    m.paramsChoice = 0;
    m.shared = std::make_shared<Impl::Shared>();
  }
  if (m.openRequested) {
    for (size_t k = 0; k < objectives.size(); ++k)
      if (m.requestedObjective == objectives[k]->name) m.objective = int(k);
    ImGui::SetNextItemOpen(true);
    m.openRequested = false;
  }
  const bool open = ImGui::CollapsingHeader("Tune");
  probe::markItem("tune_header_at");
  if (!open) return false;
  bool changed = false;
  ImGui::PushID("tune");
  Impl::Shared& sh = *m.shared;
  std::unique_lock<std::mutex> lock(sh.mutex);
  const bool running = sh.running;
  m.objective = std::clamp(m.objective, 0, int(objectives.size()) - 1);
  const experiments::Objective& o = *objectives[size_t(m.objective)];

  ImGui::BeginDisabled(running);
  if (ImGui::BeginCombo("objective", o.name)) {
    for (size_t k = 0; k < objectives.size(); ++k)
      if (ImGui::Selectable(objectives[k]->name, int(k) == m.objective)) m.objective = int(k), m.paramsChoice = 0;
    ImGui::EndCombo();
  }
  std::string ownParams;
  for (const char* p : o.params) ownParams += (ownParams.empty() ? "" : ", ") + std::string(p);
  const std::string current = m.paramsChoice == 0 ? ownParams : o.groups[size_t(m.paramsChoice - 1)].name;
  if (ImGui::BeginCombo("tunes", current.c_str())) {
    if (ImGui::Selectable(ownParams.c_str(), m.paramsChoice == 0)) m.paramsChoice = 0;
    for (size_t g = 0; g < o.groups.size(); ++g)
      if (ImGui::Selectable(o.groups[g].name, m.paramsChoice == int(g) + 1)) m.paramsChoice = int(g) + 1;
    ImGui::EndCombo();
  }
  ImGui::InputInt("budget (evaluations)", &m.budget, 8, 64);
  m.budget = std::clamp(m.budget, 8, 100000);
  ImGui::InputInt("training seeds", &m.seeds, 1, 1);
  m.seeds = std::clamp(m.seeds, 1, 20);
  ImGui::EndDisabled();
  ImGui::TextWrapped("%s", o.sentence);
  dimWrapped("score: " + experiments::describeScore(o));

  if (!running) {
    if (ImGui::Button("Start")) {
      lock.unlock();
      m.start(o);
      ImGui::PopID();
      return false;
    }
  } else if (ImGui::Button("Stop")) {
    m.cancel.store(true);  // asked, not waited for: Start comes back when the search has ended
  }
  probe::markItem("tune_start_at");
  scenes::sameLineIfFits(scenes::textWidth(sh.status.c_str()));
  ImGui::TextDisabled("%s", sh.status.c_str());
  if (sh.objective == o.name || sh.history.empty()) m.plot(sh.history);
  // Both lines always take one line each, so the buttons below stay where they are.
  if (std::isfinite(sh.bestScore))
    ImGui::Text("best %.4g (%ld evaluations, sigma %.3g)", sh.bestScore, sh.evaluations, sh.sigma);
  else
    ImGui::TextDisabled("no best yet");
  if (!std::isfinite(sh.heldOutBest)) {
    ImGui::TextDisabled("held-out seeds: scored when the search ends");
  } else {
    const bool better = sh.heldOutBest < sh.heldOutStart;
    const Rgb c = readableAccent(better ? Rgb{0.4f, 0.9f, 0.5f} : Rgb{1.0f, 0.55f, 0.4f});
    ImGui::TextColored(ImVec4(c.r, c.g, c.b, 1), "held-out: start %.4g, tuned %.4g%s", sh.heldOutStart,
                       sh.heldOutBest, better ? "" : " (no better)");
    if (!better)
      scenes::panelTooltip("The tuned values do not beat the start on seeds the search never saw: they fit the training seeds only.");
  }
  ImGui::BeginDisabled(sh.bestSets.empty());
  if (ImGui::Button("Apply best")) {
    std::string error;
    for (const std::string& a : sh.bestSets)
      if (!scenes::setParamAssignment(scene.params(), a, error)) break;
    m.message = error.empty() ? "applied the best so far to the live scene" : error;
    if (error.empty()) ++m.applied;
    changed = true;
  }
  probe::markItem("tune_apply_at");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.4f);
  ImGui::InputText("##tunedname", m.saveName, sizeof m.saveName);
  scenes::sameLineIfFits("Save as preset");
  if (ImGui::Button("Save as preset")) {
    std::string error;
    // The name as typed (UTF-8 kept, app/preset_names.hpp); never over an existing preset: "name-2"...
    const std::string dir = userPresetDir(sceneName);
    std::string path;
    if (makeDirectories(dir, error))
      path = io::writeUnderNewName(dir + "/" + presetFileStem(m.saveName[0] ? m.saveName : "tuned"), ".json",
                                       [&](const std::string& p, std::string& e) {
                                         return io::writeFileAtomically(p, sh.presetText, e, io::Existing::Keep);
                                       }, error);
    if (!path.empty()) {
      m.message = "saved " + path + " (objective, scores and seeds inside)";
      platform::persistFiles();
    } else {
      m.message = error;
    }
  }
  ImGui::EndDisabled();
  dimWrapped("Apply puts the tuned values in; the experiment's own set-up (e.g. N) is not applied.");
  if (!m.message.empty()) ImGui::TextWrapped("%s", m.message.c_str());
  ImGui::PopID();
  return changed;
}

bool TunePanel::running() const {
  auto runs = [](const Impl& m) {
    const std::lock_guard<std::mutex> lock(m.shared->mutex);
    return m.shared->running;
  };
  bool any = runs(*impl_);
  for (const auto& [name, m] : shelved_) any = any || runs(*m);  // a shelved scene's search uses the cores too
  return any;
}

std::string TunePanel::progress() const {
  Impl::Shared& sh = *impl_->shared;  // the search writes it: the lock, even here
  const std::lock_guard<std::mutex> lock(sh.mutex);
  if (sh.objective.empty()) return "";  // never started
  const size_t generations = sh.history.size();
  char text[64];
  std::snprintf(text, sizeof text, "%s: %zu generation%s", sh.running ? "tuning" : "tuned", generations,
                generations == 1 ? "" : "s");
  return text;
}

void TunePanel::writeState(nlohmann::json& out) const {
  const Impl& m = *impl_;
  const std::lock_guard<std::mutex> lock(m.shared->mutex);
  nlohmann::json history = nlohmann::json::array();
  for (const auto& [best, median] : m.shared->history) history.push_back({best, median});
  out["tune"] = {{"running", m.shared->running},
                 {"objective", m.shared->objective},
                 {"generations", m.shared->history.size()},
                 {"history", history},
                 {"best_score", std::isfinite(m.shared->bestScore) ? m.shared->bestScore : 0.0},
                 {"applied", m.applied},
                 {"status", m.shared->status}};
}

}  // namespace app
