#include "app/lesson.hpp"

#include <imgui.h>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include "app/settings.hpp"
#include "io/user_files.hpp"
#include "scenes/claims.hpp"
#include "scenes/experiment.hpp"
#include "scenes/presets.hpp"
#include "scenes/scene.hpp"

namespace app {

double Lesson::totalSeconds() const {
  double total = 0;
  for (const LessonStep& s : steps) total += s.seconds;
  return total;
}

namespace {

bool validStem(const std::string& name) {
  if (name.empty() || name.size() > 100 || name[0] == '.') return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
  });
}

bool isPath(const std::string& nameOrPath) {
  return nameOrPath.find('/') != std::string::npos || nameOrPath.find('\\') != std::string::npos ||
         nameOrPath.ends_with(".json");
}

// One step's fields: a string field, checked for its type.
bool stringField(const nlohmann::json& step, const char* key, std::string& out, std::string& error) {
  if (!step.contains(key)) return true;
  const nlohmann::json& v = step[key];
  if (!v.is_string()) {
    error = std::string("\"") + key + "\" must be a string, got " + io::jsonExcerpt(v);
    return false;
  }
  out = v.get<std::string>();
  return true;
}

bool parseStep(const nlohmann::json& j, LessonStep& s, std::string& error) {
  if (!j.is_object()) {
    error = "a step must be an object, got " + io::jsonExcerpt(j);
    return false;
  }
  static const char* const kFields[] = {"scene", "claim", "preset", "start", "say", "see", "do", "seconds"};
  for (auto it = j.begin(); it != j.end(); ++it)
    if (std::find_if(std::begin(kFields), std::end(kFields), [&](const char* f) { return it.key() == f; }) == std::end(kFields)) {
      error = "unknown field " + io::quoteText(it.key()) + " (a step has scene, claim, preset, start, say, see, do, seconds)";
      return false;
    }
  for (auto [key, field] : {std::pair{"scene", &s.scene}, std::pair{"claim", &s.claim}, std::pair{"preset", &s.preset},
                            std::pair{"start", &s.start}, std::pair{"say", &s.say}, std::pair{"see", &s.see}, std::pair{"do", &s.act}})
    if (!stringField(j, key, *field, error)) return false;
  if (s.say.empty() || s.say.size() > 400) {
    error = "\"say\" must be one sentence of 1-400 bytes";
    return false;
  }
  if (!j.contains("seconds") || !j["seconds"].is_number() || !std::isfinite(j["seconds"].get<double>()) ||
      j["seconds"].get<double>() <= 0 || j["seconds"].get<double>() > 3600) {
    error = "\"seconds\" (the step's expected wall time) must be a number in (0, 3600]";
    return false;
  }
  s.seconds = j["seconds"].get<double>();
  if (!s.claim.empty()) {
    const scenes::Claim* claim = scenes::findClaim(s.claim);
    if (!claim) {
      error = "unknown claim " + io::quoteText(s.claim) + " (`crowdlab claims --list` lists them)";
      return false;
    }
    if (!s.preset.empty() || !s.start.empty()) {
      error = "a claim sets its own preset and start; drop \"preset\" and \"start\"";
      return false;
    }
    if (s.scene.empty()) s.scene = claim->scene;
    if (s.scene != claim->scene) {
      error = "claim " + s.claim + " runs in scene " + claim->scene + ", not " + io::quoteText(s.scene);
      return false;
    }
  }
  const scenes::SceneEntry* entry = scenes::findScene(s.scene);
  if (!entry) {
    error = s.scene.empty() ? "a step needs \"scene\" or \"claim\""
                            : "unknown scene " + io::quoteText(s.scene) + " (scenes: " + scenes::sceneNames() + ")";
    return false;
  }
  if (!s.preset.empty()) {
    if (!s.preset.ends_with(".json")) s.preset += ".json";
    const std::vector<scenes::BuiltinPreset> presets = scenes::builtinPresets(s.scene);
    if (std::none_of(presets.begin(), presets.end(), [&](const scenes::BuiltinPreset& p) { return s.preset == p.file; })) {
      error = "scene " + s.scene + " has no built-in preset " + io::quoteText(s.preset);
      return false;
    }
  }
  if (!s.start.empty()) {
    // A starting state is known only to its scene: a scene made for the check answers.
    scenes::SceneContext ctx;  // its own: a starting state may set the camera
    const std::unique_ptr<scenes::Scene> probe = entry->create(ctx, 1);
    if (!probe->startState(s.start)) {
      error = "scene " + s.scene + " has no starting state " + io::quoteText(s.start);
      return false;
    }
  }
  return true;
}

}  // namespace

bool parseLesson(const std::string& text, const std::string& name, const std::string& label, Lesson& out, std::string& error) {
  nlohmann::json doc;
  std::string why;
  auto fail = [&](const std::string& what) {
    error = "lesson " + label + ": " + what;
    return false;
  };
  if (!io::parseUserJson(text, doc, why)) return fail(why);
  if (!doc.is_object()) return fail("expected an object with \"title\" and \"steps\", got " + io::jsonExcerpt(doc));
  for (auto it = doc.begin(); it != doc.end(); ++it)
    if (it.key() != "title" && it.key() != "steps") return fail("unknown field " + io::quoteText(it.key()) + " (a lesson has title, steps)");
  Lesson lesson;
  lesson.name = name;
  if (doc.contains("title")) {
    if (!doc["title"].is_string()) return fail("\"title\" must be a string, got " + io::jsonExcerpt(doc["title"]));
    lesson.title = doc["title"].get<std::string>();
  }
  if (!doc.contains("steps") || !doc["steps"].is_array() || doc["steps"].empty())
    return fail("\"steps\" must be a non-empty array of steps");
  if (doc["steps"].size() > kMostLessonSteps) return fail("more than " + std::to_string(kMostLessonSteps) + " steps");
  for (size_t i = 0; i < doc["steps"].size(); ++i) {
    LessonStep step;
    if (!parseStep(doc["steps"][i], step, why)) return fail("step " + std::to_string(i + 1) + ": " + why);
    lesson.steps.push_back(std::move(step));
  }
  if (lesson.title.empty()) lesson.title = name;
  out = std::move(lesson);
  return true;
}

std::string userLessonDir() { return configDir() + "/lessons"; }

bool loadLesson(const std::string& nameOrPath, Lesson& out, std::string& error) {
  std::string path, name;
  if (isPath(nameOrPath)) {
    path = nameOrPath;
    name = std::filesystem::path(nameOrPath).stem().string();
  } else {
    for (const BuiltinLesson& b : builtinLessons())
      if (nameOrPath == b.name) return parseLesson(b.json, b.name, std::string("built-in ") + b.name, out, error);
    if (!validStem(nameOrPath)) {
      error = "no lesson " + io::quoteText(nameOrPath) + " (a lesson's name is its file's stem, e.g. article)";
      return false;
    }
    name = nameOrPath;
    path = userLessonDir() + "/" + nameOrPath + ".json";
  }
  std::string text;
  switch (io::readUserFile(path, text, error, kMaxLessonBytes)) {
    case io::ReadStatus::Ok: break;
    case io::ReadStatus::Missing: {
      std::string builtins;
      for (const BuiltinLesson& b : builtinLessons()) builtins += (builtins.empty() ? "" : ", ") + std::string(b.name);
      error = "no lesson " + io::quoteText(nameOrPath) + " (built-in: " + builtins + "; yours go in " + userLessonDir() + ")";
      if (isPath(nameOrPath)) error = "lesson file " + io::quoteText(path) + " does not exist";
      return false;
    }
    case io::ReadStatus::Failed: error = "lesson: " + error; return false;
  }
  return parseLesson(text, name, io::quoteText(path), out, error);
}

std::vector<std::string> lessonNames() {
  std::vector<std::string> names;
  for (const BuiltinLesson& b : builtinLessons()) names.push_back(b.name);
  std::error_code ec;
  std::vector<std::string> mine;
  for (std::filesystem::directory_iterator it(userLessonDir(), ec), end; !ec && it != end; it.increment(ec)) {
    const std::filesystem::path p = it->path();
    const std::string stem = p.stem().string();
    if (p.extension() == ".json" && validStem(stem) && std::find(names.begin(), names.end(), stem) == names.end()) mine.push_back(stem);
    if (mine.size() >= 100) break;
  }
  std::sort(mine.begin(), mine.end());
  names.insert(names.end(), mine.begin(), mine.end());
  return names;
}

bool LessonRun::next() {
  if (!active_ || index_ + 1 >= lesson_.steps.size()) return false;
  ++index_;
  return true;
}

bool LessonRun::previous() {
  if (!active_ || index_ == 0) return false;
  --index_;
  return true;
}

std::string LessonRun::progress() const {
  return "step " + std::to_string(index_ + 1) + " of " + std::to_string(lesson_.steps.size());
}

nlohmann::json LessonRun::state() const {
  const LessonStep& s = step();
  return {{"name", lesson_.name}, {"step", index_ + 1}, {"of", lesson_.steps.size()}, {"scene", s.scene}, {"claim", s.claim}};
}

LessonMenuAction drawLessonMenu(const LessonRun& run, bool blackScreen) {
  LessonMenuAction act;
  if (!ImGui::BeginMainMenuBar()) return act;  // appends to the bar the HUD drew
  if (ImGui::BeginMenu("Lesson")) {
    for (const std::string& name : lessonNames())
      if (ImGui::MenuItem(name.c_str(), nullptr, run.active() && run.lesson().name == name)) act.start = name;
    ImGui::Separator();
    if (ImGui::MenuItem("Next step", "PageDown", false, run.active() && run.index() + 1 < run.count())) act.next = true;
    if (ImGui::MenuItem("Previous step", "PageUp", false, run.active() && run.index() > 0)) act.previous = true;
    if (ImGui::MenuItem("Black screen", "B", blackScreen)) act.black = true;
    if (ImGui::MenuItem("End the lesson", nullptr, false, run.active())) act.end = true;
    ImGui::EndMenu();
  }
  ImGui::EndMainMenuBar();
  return act;
}

}  // namespace app
