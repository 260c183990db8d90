#include "app/cli.hpp"
#include "app/flag_reader.hpp"

#include <cstdlib>
#include <sstream>
#include "scenes/claims.hpp"
#include "scenes/scene.hpp"
#include "io/user_files.hpp"

namespace app {

std::string usage() {
  return "usage:\n"
         "  crowdlab [--scene NAME] [--seed N] [--set k=v]... [--preset FILE] [--frames N]\n"
         "           [--screenshot FILE.png] [--width W] [--height H] [--vsync on|off] [--max-fps N] [--fullscreen]\n"
         "           [--metrics-csv FILE] [--record N --record-dir DIR] [--keys K1,K2,...]\n"
         "           [--claim ID] [--lesson NAME] [--tune OBJECTIVE] [--state-out FILE] [--hidden]\n"
         "  crowdlab --headless --scene NAME --steps N [--seed N] [--set k=v]... [--preset FILE] [--metrics-csv FILE]\n"
         "  crowdlab --scene NAME --list-params\n"
         "  crowdlab --list-scenes   (the scenes' command-line names, one a line, in teaching order)\n"
         "  crowdlab bench [--case NAME] [--n N] [--threads T] [--steps S] [--warmup W] [--mode M]\n"
         "                 [--lanes auto|avx2|baseline] [--max-memory GB] [--csv FILE] [--report]   (bench --help: each option)\n"
         "  crowdlab claims [--scene NAME] [--seeds N] [--first-seed S] [--csv FILE] [--markdown FILE] | --list\n"
         "  crowdlab tune --scene NAME --objective NAME [--params a,b,...] [--budget EVALS] [--seeds N]\n"
         "                [--test-seeds N] [--threads T] [--csv FILE] [--preset-out FILE]   (--list: the objectives)\n"
         "  crowdlab sweep --scene NAME --vary NAME=FROM:TO:STEP [--vary ...] --metric M[,M...] [--csv FILE] [--plot FILE.svg]\n"
         "                 [--shard I/N] [--resume] ... | --builtin NAME | --list-builtins | --merge A.csv B.csv ...\n"
         "scenes: " +
         scenes::sceneNames() + "\n";
}

namespace {
// Digits only: strtoll would take " 5" and "+5" but not "5 ", and a number has no spaces anyway.
bool parseInt(const std::string& flag, const std::string& text, long long lo, long long hi, long long& out,
              std::string& error) {
  bool digits = !text.empty();
  for (char c : text) digits = digits && c >= '0' && c <= '9';
  if (!digits) {
    error = flag + " expects a whole number, got " + io::quoteText(text);
    return false;
  }
  // Any number of digits: past `hi` it is out of range, never "not a whole number" (2^62 has 19).
  unsigned long long v = 0;
  bool over = false;
  for (char c : text) {
    over = over || v > (~0ull - 9) / 10;
    if (!over) v = v * 10 + unsigned(c - '0');
  }
  if (over || v < (unsigned long long)(lo) || v > (unsigned long long)(hi)) {
    if (text.size() > 24) {
      error = flag + " must be between " + std::to_string(lo) + " and " + std::to_string(hi) + ", got a " +
              std::to_string(text.size()) + "-digit number";
      return false;
    }
    error = flag + " must be between " + std::to_string(lo) + " and " + std::to_string(hi) + ", got " + text;
    return false;
  }
  out = (long long)(v);
  return true;
}
}  // namespace

bool parseOptions(const std::vector<std::string>& args, Options& o, std::string& error) {
  FlagReader flags(args);  // flags that take one value or none: a second one is a mistake, not an override
  std::string a, v;
  while (!flags.done()) {
    if (flags.nextIs({"--help", "-h", "--fullscreen", "--hidden", "--headless", "--list-params", "--list-scenes"})) {
      if (!flags.takeSwitch({"--help", "-h", "--fullscreen", "--hidden", "--headless", "--list-params", "--list-scenes"},
                            a, error))
        return false;
      (a == "--fullscreen" ? o.fullscreen
       : a == "--hidden"   ? o.hidden
       : a == "--headless" ? o.headless
       : a == "--list-params" ? o.listParams
       : a == "--list-scenes" ? o.listScenes
                              : o.help) = true;
      continue;
    }
    if (!flags.take({"--scene", "--seed", "--preset", "--frames", "--screenshot", "--width", "--height", "--vsync",
                     "--max-fps", "--steps", "--metrics-csv", "--record", "--record-dir", "--keys", "--claim", "--lesson",
                     "--state-out", "--tune"},
                    {"--set"}, a, v, error))
      return false;
    long long n = 0;
    if (a == "--scene") o.scene = v;
    else if (a == "--seed") {
      if (!parseInt(a, v, 0, (1LL << 62), n, error)) return false;
      o.seed = uint64_t(n);
    } else if (a == "--set") {
      if (v.find('=') == std::string::npos) { error = "--set expects name=value, got " + io::quoteText(v); return false; }
      o.sets.push_back(v);
    } else if (a == "--preset") o.preset = v;
    else if (a == "--frames") {
      if (!parseInt(a, v, 1, 100000000, n, error)) return false;
      o.frames = int(n);
    } else if (a == "--screenshot") o.screenshot = v;
    else if (a == "--width") {
      if (!parseInt(a, v, 320, 16384, n, error)) return false;
      o.width = int(n); o.sizeGiven = true;
    } else if (a == "--height") {
      if (!parseInt(a, v, 240, 16384, n, error)) return false;
      o.height = int(n); o.sizeGiven = true;
    } else if (a == "--vsync") {
      if (v == "on") o.vsync = true;
      else if (v == "off") o.vsync = false;
      else { error = "--vsync expects on or off, got " + io::quoteText(v); return false; }
    } else if (a == "--max-fps") {
      if (!parseInt(a, v, 0, 1000, n, error)) return false;
      o.maxFps = int(n);
    } else if (a == "--steps") {
      if (!parseInt(a, v, 1, 100000000, n, error)) return false;
      o.steps = int(n);
    } else if (a == "--metrics-csv") o.metricsCsv = v;
    else if (a == "--record") {
      if (!parseInt(a, v, 1, 100000, n, error)) return false;
      o.recordFrames = int(n);
    } else if (a == "--record-dir") o.recordDir = v;
    else if (a == "--keys") {
      std::istringstream list(v);
      for (std::string key; std::getline(list, key, ',');)
        if (!key.empty()) o.keys.push_back(key);
    } else if (a == "--claim") o.claim = v;
    else if (a == "--state-out") o.stateOut = v;
    else if (a == "--tune") o.tune = v;
    else if (a == "--lesson") o.lesson = v;
  }
  auto seen = [&](const std::string& flag) { return flags.given(flag); };
  // The environment's frame cap, where the command line gives none (the window tests set it).
  if (const char* env = std::getenv("CROWDLAB_MAX_FPS"); !seen("--max-fps") && env && *env) {
    long long n = 0;
    if (!parseInt("CROWDLAB_MAX_FPS", env, 0, 1000, n, error)) return false;
    o.maxFps = int(n);
  }
  if (o.help) return true;
  if (o.headless) {
    // Flags that only mean something with a window are refused, not silently ignored.
    if (!o.claim.empty()) { error = "--claim opens a window; `crowdlab claims` runs the claims headless"; return false; }
    for (const char* windowFlag : {"--frames", "--screenshot", "--record", "--record-dir", "--keys", "--fullscreen", "--width",
                                   "--height", "--vsync", "--max-fps", "--hidden"})
      if (seen(windowFlag)) {
        error = std::string(windowFlag) + " needs a window; drop --headless";
        return false;
      }
    if (o.scene.empty()) { error = "--headless needs --scene NAME"; return false; }
    if (o.steps == 0) { error = "--headless needs --steps N"; return false; }
  } else if (o.steps) {
    error = "--steps is for --headless runs; use --frames N with a window";
    return false;
  }
  if (o.listParams && o.scene.empty()) { error = "--list-params needs --scene NAME"; return false; }
  // A window no one sees must end by itself: after --frames N, or at the claim's verdict.
  if (o.hidden && !o.frames && o.claim.empty()) { error = "--hidden needs --frames N or --claim ID (it must end by itself)"; return false; }
  if (o.hidden && o.fullscreen) { error = "--hidden and --fullscreen contradict each other"; return false; }
  if (!o.recordDir.empty() && !o.recordFrames) { error = "--record-dir needs --record N"; return false; }
  // The file is PNG whatever its name: a name that says otherwise is refused, as sweep's --plot refuses a
  // name not ending in .svg (x.jpg held PNG bytes).
  if (!o.screenshot.empty() && !o.screenshot.ends_with(".png")) {
    error = "--screenshot writes PNG: give a FILE.png, got " + io::quoteText(o.screenshot);
    return false;
  }
  if (!o.lesson.empty() && (o.headless || !o.claim.empty() || !o.scene.empty() || !o.sets.empty() || !o.preset.empty())) {
    error = "--lesson picks each step's scene and set-up; drop --headless, --claim, --scene, --set and --preset";
    return false;
  }
  if (!o.claim.empty()) {
    // An experiment is the claim's own set-up: its scene, defaults, preset and start.
    const scenes::Claim* claim = scenes::findClaim(o.claim);
    if (!claim) { error = "unknown claim " + io::quoteText(o.claim) + " (`crowdlab claims` lists them)"; return false; }
    if (o.headless) { error = "--claim opens a window; `crowdlab claims` runs the claims headless"; return false; }
    if (!o.sets.empty() || !o.preset.empty()) { error = "--claim sets the parameters itself; drop --set and --preset"; return false; }
    if (!o.scene.empty() && o.scene != claim->scene) {
      error = "--claim " + o.claim + " runs in scene " + claim->scene + ", not " + io::quoteText(o.scene);
      return false;
    }
    o.scene = claim->scene;
  }
  return true;
}

}  // namespace app
