// A lesson drives the lecture (src/app/lesson.hpp): a clicker's PageDown / PageUp (Right / Left in a
// lesson) walk its steps, each a full restart into its scene's set-up; B blacks the screen; a bad lesson
// file is one line and exit 2 before any window opens.
#include <fstream>
#include <nlohmann/json.hpp>
#include "app_util.hpp"

namespace {

nlohmann::json readJson(const std::string& path) {
  const std::string text = apptest::slurp(path);
  return text.empty() ? nlohmann::json() : nlohmann::json::parse(text, nullptr, false);
}

// A config folder with settings at UI scale 1 and, when given, the user's lesson `name`.
std::string configWith(const std::string& dirName, const std::string& lessonName = "", const std::string& lessonText = "") {
  const std::string dir = apptest::freshDir(dirName);
  std::ofstream(dir + "/settings.json") << "{\"uiScale\": 1.0}";
  if (!lessonName.empty()) {
    std::filesystem::create_directories(dir + "/lessons");
    std::ofstream(dir + "/lessons/" + lessonName + ".json") << lessonText;
  }
  return dir;
}

struct Walk {
  apptest::RunResult run;
  nlohmann::json state;
};
Walk walk(const std::string& config, const std::string& lesson, const std::string& keys, const std::string& name, int frames = 8,
          const std::string& extra = "") {
  const std::string state = apptest::outDir() + "/lesson-" + name + ".json";
  std::filesystem::remove(state);
  Walk w;
  w.run = apptest::runCrowdlab("--lesson " + lesson + (keys.empty() ? "" : " --keys " + keys) + " --frames " + std::to_string(frames) +
                                   " --width 1280 --height 720 --state-out '" + state + "' " + extra,
                               "CROWDLAB_CONFIG_DIR='" + config + "'");
  w.state = readJson(state);
  return w;
}

}  // namespace

// The brief's check: PageDown twice reaches step 3 of the article's lesson, in that step's scene and
// set-up; PageUp goes back to step 2.
TEST(Lesson, ArticlePageDownTwiceReachesStepThreeAndPageUpGoesBack) {
  const nlohmann::json article = readJson(std::string(CROWDLAB_SOURCE_DIR) + "/assets/lessons/article.json");
  ASSERT_TRUE(article.is_object() && article["steps"].size() >= 3);
  const std::string config = configWith("lesson-article");
  auto expectAt = [&](const Walk& w, size_t step) {
    ASSERT_EQ(w.run.exitCode, 0) << w.run.err;
    ASSERT_TRUE(w.state.contains("lesson")) << w.state.dump();
    const nlohmann::json& lesson = w.state["lesson"];
    const nlohmann::json& want = article["steps"][step - 1];
    EXPECT_EQ(lesson["name"], "article");
    EXPECT_EQ(lesson["step"], step);
    EXPECT_EQ(lesson["of"], article["steps"].size());
    const std::string claim = want.value("claim", "");
    EXPECT_EQ(lesson["claim"], claim);
    EXPECT_EQ(w.state["experiment"]["claim"], claim);  // the step's claim runs
    if (want.contains("scene")) {
      EXPECT_EQ(lesson["scene"], want["scene"]);
    }
    EXPECT_EQ(w.state["scene"], lesson["scene"]);  // the window shows the step's scene
    EXPECT_EQ(w.run.value("scene"), lesson["scene"].get<std::string>());
    // The step's sentence is on the banner strip.
    EXPECT_NE(w.state["experiment"]["banner"].get<std::string>().find(want["say"].get<std::string>()), std::string::npos)
        << w.state["experiment"]["banner"];
  };
  expectAt(walk(config, "article", "PageDown,PageDown", "article-3"), 3);
  expectAt(walk(config, "article", "PageDown,PageDown,PageUp", "article-2"), 2);
  expectAt(walk(config, "article", "", "article-1"), 1);
}

// Right / Left walk a lesson too (some clickers send them), across scenes; each step is its set-up
// (the preset applied); past the last step PageDown stays; B blacks the whole window and B again
// brings the world back.
TEST(Lesson, ClickerKeysWalkAcrossScenesAndBBlacksTheScreen) {
  const std::string tour = R"({"title": "tour", "steps": [
    {"claim": "boids.separation-scatters", "say": "One.", "seconds": 30},
    {"scene": "steering", "preset": "4-avoidance", "say": "Two.", "seconds": 30},
    {"scene": "finale", "say": "Three.", "seconds": 30}]})";
  const std::string config = configWith("lesson-tour", "tour", tour);
  Walk second = walk(config, "tour", "Right", "tour-2");
  ASSERT_EQ(second.run.exitCode, 0) << second.run.err;
  EXPECT_EQ(second.state["lesson"]["step"], 2);
  EXPECT_EQ(second.state["scene"], "steering");
  EXPECT_EQ(second.state["params"]["wander"], true);  // the preset's
  EXPECT_EQ(second.state["params"]["avoid"], true);
  EXPECT_EQ(second.state["experiment"]["claim"], "");  // step 1's claim ended with it
  Walk end = walk(config, "tour", "PageDown,Right,PageDown,PageDown", "tour-end");
  EXPECT_EQ(end.state["lesson"]["step"], 3);
  EXPECT_EQ(end.state["scene"], "finale");
  Walk back = walk(config, "tour", "PageDown,PageDown,Left,Left", "tour-back");
  EXPECT_EQ(back.state["lesson"]["step"], 1);
  EXPECT_EQ(back.state["scene"], "boids");
  EXPECT_EQ(back.state["experiment"]["claim"], "boids.separation-scatters");

  const std::string black = apptest::outDir() + "/lesson-black.png";
  Walk dark = walk(config, "tour", "b", "tour-black", 6, "--screenshot '" + black + "'");
  ASSERT_EQ(dark.run.exitCode, 0) << dark.run.err;
  EXPECT_EQ(dark.state["black_screen"], true);
  const apptest::ImageStats stats = apptest::pngStats(black);
  EXPECT_GT(stats.dominantFraction, 0.999) << "the black screen must cover the whole window";
  Walk light = walk(config, "tour", "b,b", "tour-unblack", 6, "--screenshot '" + black + "'");
  EXPECT_EQ(light.state["black_screen"], false);
  EXPECT_LT(apptest::pngStats(black).dominantFraction, 0.99);
}

// A bad lesson: one line saying what and where, exit 2, before any window (no display needed).
TEST(Lesson, ABadLessonFileIsOneLineAndExitTwo) {
  const struct {
    const char* name;
    std::string text;
    const char* mention;
  } bad[] = {
      {"not-json", "{\"steps\": [", "lesson"},
      {"unknown-claim", R"({"steps": [{"claim": "boids.no-such-claim", "say": "x", "seconds": 5}]})", "step 1: unknown claim"},
      {"unknown-scene", R"({"steps": [{"scene": "boids", "say": "x", "seconds": 5}, {"scene": "nope", "say": "y", "seconds": 5}]})",
       "step 2: unknown scene"},
      {"no-sentence", R"({"steps": [{"scene": "boids", "seconds": 5}]})", "\"say\""},
      {"bad-preset", R"({"steps": [{"scene": "boids", "preset": "zzz", "say": "x", "seconds": 5}]})", "no built-in preset"},
      {"bad-start", R"({"steps": [{"scene": "boids", "start": "upside-down", "say": "x", "seconds": 5}]})", "no starting state"},
      {"claim-and-preset", R"({"steps": [{"claim": "boids.cohesion-balls", "preset": "1-separation-only", "say": "x", "seconds": 5}]})",
       "drop \"preset\""},
      {"wrong-scene", R"({"steps": [{"scene": "steering", "claim": "boids.cohesion-balls", "say": "x", "seconds": 5}]})", "runs in scene boids"},
      {"no-time", R"({"steps": [{"scene": "boids", "say": "x"}]})", "\"seconds\""},
      {"unknown-field", R"({"steps": [{"scene": "boids", "say": "x", "seconds": 5, "colour": 1}]})", "unknown field"},
      {"empty", "", "lesson"},
      {"too-big", std::string(300 * 1024, ' '), "lesson"},
  };
  for (const auto& b : bad) {
    const std::string config = configWith(std::string("lesson-bad-") + b.name, b.name, b.text);
    for (const std::string& how : {std::string(b.name), config + "/lessons/" + b.name + ".json"}) {
      const apptest::RunResult r = apptest::runCrowdlab("--lesson '" + how + "' --frames 5", "SDL_VIDEODRIVER=none CROWDLAB_CONFIG_DIR='" + config + "'");
      EXPECT_EQ(r.exitCode, 2) << b.name << ": " << r.err;
      EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << b.name << ": one line, got:\n" << r.err;
      EXPECT_NE(r.err.find(b.mention), std::string::npos) << b.name << " should mention " << b.mention << ":\n" << r.err;
      EXPECT_TRUE(r.out.empty()) << b.name << ": no window ran:\n" << r.out;
    }
  }
  const apptest::RunResult missing = apptest::runCrowdlab("--lesson no-such-lesson", "SDL_VIDEODRIVER=none");
  EXPECT_EQ(missing.exitCode, 2);
  EXPECT_NE(missing.err.find("no lesson 'no-such-lesson' (built-in: article"), std::string::npos) << missing.err;
  apptest::expectRefused("--lesson article --claim boids.cohesion-balls", "--lesson picks");
}
