// A lesson: the lecture as data (assets/lessons/<name>.json, embedded into the binary like the
// presets; or a user's file). An ordered list of steps, each a scene set up one way (a claim's
// experiment, a built-in preset, a starting state, or the scene's defaults) and the one sentence the
// lecturer says over it. A presentation clicker walks it: PageDown / PageUp (Right / Left where no
// text field has the keyboard) go to the next / previous step; B blacks the screen.
#pragma once
#include <span>
#include <string>
#include <vector>
#include <nlohmann/json_fwd.hpp>

namespace app {

struct LessonStep {
  std::string scene;   // command-line scene name
  std::string claim;   // a claim id: its experiment runs, its banner shows the verdict ("" none)
  std::string preset;  // a built-in preset file of the scene, "name.json" ("" none)
  std::string start;   // the scene's starting state ("" the plain reset)
  std::string say;     // the sentence to say; shown in the banner strip
  std::string see;     // what the class should see (docs/lecture.md; optional)
  std::string act;     // "do": what the lecturer does beyond PageDown (optional)
  double seconds = 0;  // expected wall time of the step, talking included
};

struct Lesson {
  std::string name;   // the file's stem
  std::string title;
  std::vector<LessonStep> steps;
  double totalSeconds() const;
};

struct BuiltinLesson {
  const char* name;  // file stem
  const char* json;
};
// assets/lessons/*.json, embedded at build time (cmake/embed_lessons.cmake).
std::span<const BuiltinLesson> builtinLessons();

// Lessons are small; a user's file is read only up to this size.
inline constexpr size_t kMaxLessonBytes = size_t(256) << 10;
inline constexpr size_t kMostLessonSteps = 200;

// Parses and checks a lesson: every scene, claim, preset and starting state must exist. On failure
// `error` is one line naming `label` and, where it is one step's fault, the step (1-based).
bool parseLesson(const std::string& text, const std::string& name, const std::string& label, Lesson& out, std::string& error);

// NAME: a built-in lesson's stem, else <config>/lessons/NAME.json; a name holding a '/' or ending
// in ".json" is a path to a lesson file. Files are read capped and checked (io/user_files).
bool loadLesson(const std::string& nameOrPath, Lesson& out, std::string& error);
// The lessons the Lesson menu offers: the built-in ones, then the user's folder (valid stems only).
std::vector<std::string> lessonNames();
std::string userLessonDir();

// Where a running lesson stands.
class LessonRun {
 public:
  void start(Lesson lesson) {
    lesson_ = std::move(lesson);
    index_ = 0;
    active_ = !lesson_.steps.empty();
  }
  void stop() { active_ = false; }
  bool active() const { return active_; }
  // Moves one step; false at either end (the step stays).
  bool next();
  bool previous();
  const LessonStep& step() const { return lesson_.steps[index_]; }
  size_t index() const { return index_; }
  size_t count() const { return lesson_.steps.size(); }
  const Lesson& lesson() const { return lesson_; }
  std::string progress() const;  // "step 4 of 18"
  // --state-out's "lesson": {"name", "step" (1-based), "of", "scene", "claim"}.
  nlohmann::json state() const;

 private:
  Lesson lesson_;
  size_t index_ = 0;
  bool active_ = false;
};

// What the Lesson menu asked for this frame.
struct LessonMenuAction {
  std::string start;  // a lesson's name to start
  bool next = false, previous = false, black = false, end = false;
};
// The "Lesson" menu, appended to the main menu bar.
LessonMenuAction drawLessonMenu(const LessonRun& run, bool blackScreen);

}  // namespace app
