#include "app/claims_cmd.hpp"
#include "app/flag_reader.hpp"
#include "app/run_report.hpp"
#include "app/stop_signals.hpp"

#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include "experiments/claim_runs.hpp"
#include "experiments/runner.hpp"
#include <set>
#include <sstream>
#include "app/subprocess.hpp"
#include "app/window.hpp"
#include "io/output_file.hpp"
#include "scenes/claims.hpp"
#include "io/user_files.hpp"
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#if defined(__linux__)
#include <climits>
#include <unistd.h>
#endif

namespace app {

namespace {

std::string scenesWithClaims() {
  std::string names;
  for (const scenes::SceneEntry& e : scenes::registeredScenes())
    if (!scenes::claimsOf(e.name).empty()) names += (names.empty() ? "" : ", ") + std::string(e.name);
  return names;
}

// A claim measured from frames OpenGL draws (the GPU scene's) runs in this program's own window,
// hidden, one process per seed: `crowdlab --claim ID --seed S --hidden --state-out FILE` runs the
// claim's window (its baseline first) and the state file gives back the window's values. A process
// of its own keeps a driver's crash or GL state away from this table.
#if defined(__linux__)
std::string ownProgram(std::string& error) {
  char path[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
  if (n > 0) return std::string(path, size_t(n));
  error = "cannot find this program's file (/proc/self/exe)";
  return "";
}
#endif

bool runWindowClaim(const scenes::Claim& claim, uint64_t seed, experiments::Result& result, std::string& error) {
#if defined(__linux__)
  const std::string program = ownProgram(error);
  if (program.empty()) return false;
  std::error_code ec;
  std::string folder = (std::filesystem::temp_directory_path(ec) / "crowdlab-claim-XXXXXX").string();
  if (ec || !::mkdtemp(folder.data())) {
    error = "cannot make a temporary folder for the window run (" + std::string(std::strerror(errno)) + ")";
    return false;
  }
  const std::string stateFile = folder + "/state.json";
  PipedProcess run;
  int code = -1;
  if (run.start({program, "--claim", claim.id, "--seed", std::to_string(seed), "--hidden", "--state-out", stateFile}, error,
                PipedProcess::Output::Discarded))
    code = run.finish();
  nlohmann::json state;
  if (code == 0) {
    std::ifstream in(stateFile, std::ios::binary);
    state = nlohmann::json::parse(in, nullptr, false);  // our own child's file, but still checked
  }
  std::filesystem::remove_all(folder, ec);
  if (code != 0) {
    if (error.empty()) error = "its window run ended with code " + std::to_string(code) + " (its message is above)";
    return false;
  }
  const nlohmann::json* experiment = state.is_object() && state.contains("experiment") ? &state["experiment"] : nullptr;
  if (!experiment || !experiment->contains("value") || !experiment->contains("also") ||
      (*experiment)["also"].size() != claim.also.size()) {
    error = "its window run gave no value";
    return false;
  }
  auto number = [](const nlohmann::json& v) { return v.is_number() ? v.get<double>() : std::nan(""); };
  result.ok = true;
  result.values = {number((*experiment)["value"])};
  for (const nlohmann::json& v : (*experiment)["also"]) result.values.push_back(number(v));
  return true;
#else
  (void)claim, (void)seed, (void)result;
  error = "window claims run in their own hidden window on Linux only; run crowdlab --claim ID";
  return false;
#endif
}

constexpr const char* kUsage =
    "usage: crowdlab claims [--scene NAME] [--seeds N] [--first-seed S] [--csv FILE] [--markdown FILE] | --list";

struct ClaimsOptions {
  std::string scene, csv, markdown;
  bool help = false;
  int seeds = 3;
  uint64_t firstSeed = 1;  // seeds firstSeed .. firstSeed + seeds - 1
};

bool parse(const std::vector<std::string>& args, ClaimsOptions& o, std::string& error) {
  FlagReader flags(args);
  std::string a, v;
  while (!flags.done()) {
    if (flags.peek() == "--list") {  // alone it lists the ids (runClaims)
      error = "--list takes no other options";
      return false;
    }
    if (flags.nextIs({"--help", "-h"})) {
      if (!flags.takeSwitch({"--help", "-h"}, a, error)) return false;
      o.help = true;
      continue;
    }
    if (!flags.take({"--scene", "--seeds", "--first-seed", "--csv", "--markdown"}, {}, a, v, error)) return false;
    if (a == "--scene") {
      if (!scenes::findScene(v)) {
        error = "unknown scene " + io::quoteText(v) + " (scenes: " + scenes::sceneNames() + ")";
        return false;
      }
      if (scenes::claimsOf(v).empty()) {
        error = "scene " + v + " has no claims (scenes with claims: " + scenesWithClaims() + ")";
        return false;
      }
      o.scene = v;
    } else if (a == "--csv") {
      o.csv = v;
    } else if (a == "--markdown") {
      o.markdown = v;
    } else {
      const bool seeds = a == "--seeds";
      uint64_t n = 0;
      if (!FlagReader::wholeNumber(a, v, 1, seeds ? 1000 : 1000000000, n, error)) return false;
      if (seeds) o.seeds = int(n);
      else o.firstSeed = n;
    }
  }
  return true;
}

struct Row {
  const scenes::Claim* claim;
  std::vector<double> values;               // per seed
  std::vector<std::vector<double>> also;    // per also-metric, per seed
  scenes::ClaimVerdict verdict;
};

struct Spread {
  double mean = 0, min = 0, max = 0;
  bool finite = false;
};
Spread spread(const std::vector<double>& xs) {
  Spread s;
  int n = 0;
  for (double x : xs) {
    if (!std::isfinite(x)) continue;
    s.min = n ? std::min(s.min, x) : x;
    s.max = n ? std::max(s.max, x) : x;
    s.mean += x;
    ++n;
  }
  s.finite = n > 0;
  if (n) s.mean /= n;
  return s;
}

std::string csvField(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string number(double v) {
  if (!std::isfinite(v)) return "nan";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// Three significant figures: what a reader compares in a table (the CSV keeps six).
std::string shortNumber(double v) {
  if (!std::isfinite(v)) return "n/a";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

// Table cells hold text from the registry; a '|' would end the cell.
std::string markdownCell(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c == '\n' ? ' ' : c);
  return out;
}

std::string todayUtc() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  char buf[16] = "unknown";
  if (gmtime_r(&now, &utc)) std::strftime(buf, sizeof buf, "%Y-%m-%d", &utc);
  return buf;
}

}  // namespace

int runClaims(const std::vector<std::string>& args) {
  if (args.size() == 1 && args[0] == "--list") {  // the ids, one a line, in the registry's order (scripts read it)
    if (FlagReader::parseOnly()) return 0;
    for (const scenes::Claim& claim : scenes::allClaims()) std::printf("%s\n", claim.id);
    return 0;
  }
  ClaimsOptions o;
  std::string error;
  if (!parse(args, o, error)) {
    std::fprintf(stderr, "crowdlab claims: %s (%s)\n", error.c_str(), kUsage);
    return 2;
  }
  if (FlagReader::parseOnly()) return 0;
  if (o.help) {
    std::printf("%s\n  --scene NAME   only this scene's claims (default: every scene's)\n"
                "  --seeds N      seeds per claim (default 3)\n  --first-seed S the first seed (default 1)\n"
                "  --csv FILE     also write one row per claim and metric\n"
                "  --markdown FILE  also write docs/claims.md's table (command, CPU, date at the top)\n  --list         the claims' ids, one a line\n",
                kUsage);
    return 0;
  }
  // The CSV is opened before the claims run (minutes), not after them: a FIFO nobody reads or a
  // link someone else owns fails now.
  io::OutputFile csvFile;
  if (!o.csv.empty() && !csvFile.open(o.csv, {}, error)) {
    std::fprintf(stderr, "crowdlab claims: %s\n", error.c_str());
    return 1;
  }
  io::OutputFile markdownFile;
  if ((!o.markdown.empty() && !markdownFile.open(o.markdown, {}, error)) ||
      !io::distinctOutputs({{"--csv", &csvFile}, {"--markdown", &markdownFile}}, error)) {
    std::fprintf(stderr, "crowdlab claims: %s\n", error.c_str());
    return 1;
  }
  const auto t0 = std::chrono::steady_clock::now();
  // Every claim's seeds are jobs for the experiment runner, on every core; a ratio claim's baseline
  // runs before it (a hidden row when it is not printed itself). Results come back in job order, so
  // each claim is printed as soon as its last seed is in, whatever the thread count.
  struct Planned {
    const scenes::Claim* claim;
    bool shown;
  };
  std::vector<Planned> plan;
  auto find = [&](const char* id) -> Planned* {
    for (Planned& p : plan)
      if (id == std::string(p.claim->id)) return &p;
    return nullptr;
  };
  // The headless claims first (the runner's jobs), then those measured from frames OpenGL draws
  // (runWindowClaim, one after another: they time the drawing, so they share the machine with nothing).
  size_t headlessPlanned = 0;
  for (bool window : {false, true}) {
    for (const scenes::Claim& claim : scenes::allClaims()) {
      if ((!o.scene.empty() && o.scene != claim.scene) || claim.needsWindow != window) continue;
      if (*claim.relativeTo && !find(claim.relativeTo))
        if (const scenes::Claim* base = scenes::findClaim(claim.relativeTo)) plan.push_back({base, false});
      if (Planned* p = find(claim.id)) p->shown = true;
      else plan.push_back({&claim, true});
    }
    if (!window) headlessPlanned = plan.size();
  }
  size_t shownClaims = 0;
  for (const Planned& p : plan) shownClaims += p.shown ? 1 : 0;
  std::vector<experiments::Job> jobs;
  for (size_t i = 0; i < headlessPlanned; ++i) {
    const scenes::Claim& c = *plan[i].claim;
    for (int s = 0; s < o.seeds; ++s) jobs.push_back(experiments::claimJob(c, o.firstSeed + uint64_t(s)));
  }

  std::map<std::string, std::vector<double>> raw;  // claim id -> per-seed window value, for relativeTo
  std::vector<Row> rows;
  bool mustHoldFailed = false;
  std::string failure;
  // Ctrl+C, SIGTERM (timeout, Slurm, kill) and SIGHUP stop the run as they stop a sweep: the jobs
  // under way end within a step, and a failed job stops the others the same way.
  const StopSignals stops{SIGINT, SIGTERM, SIGHUP};
  auto stopped = [] { return StopSignals::received() != 0; };
  std::vector<experiments::Result> seeds;  // the current claim's results so far
  auto onResult = [&](const experiments::Result& r) {
    if (!failure.empty()) return;
    if (!r.ok) {
      failure = "claim " + std::string(plan[r.job / size_t(o.seeds)].claim->id) + ": " + r.error;
      StopSignals::requestStop();
      return;
    }
    seeds.push_back(r);
    if (seeds.size() < size_t(o.seeds)) return;
    const Planned& p = plan[r.job / size_t(o.seeds)];
    const scenes::Claim& claim = *p.claim;
    Row row{&claim, {}, std::vector<std::vector<double>>(claim.also.size()), {}};
    std::vector<double> rawValues;
    for (size_t s = 0; s < seeds.size(); ++s) {
      const experiments::Result& run = seeds[s];
      double value = run.values[0];
      rawValues.push_back(value);
      if (*claim.relativeTo) {
        const auto it = raw.find(claim.relativeTo);
        const double baseline = it != raw.end() ? it->second[s] : 0.0;
        value = baseline > 0.0 ? value / baseline : std::nan("");
      }
      row.values.push_back(value);
      for (size_t a = 0; a < claim.also.size(); ++a) row.also[a].push_back(run.values[1 + a]);
    }
    seeds.clear();
    raw[claim.id] = rawValues;
    if (!p.shown) return;
    row.verdict = scenes::judge(claim, row.values);
    if (claim.mustHold && !row.verdict.holds) mustHoldFailed = true;

    const Spread sp = spread(row.values);
    std::printf("%-36s %s%s\n", claim.id, claim.statement, claim.mustHold ? "  [must hold]" : "");
    if (sp.finite)
      std::printf("    %s: %s (%s .. %s)  ->  %s\n", claim.rule.metric, scenes::formatValue(claim, sp.mean).c_str(),
                  number(sp.min).c_str(), number(sp.max).c_str(), row.verdict.text.c_str());
    else
      std::printf("    %s: n/a  ->  %s\n", claim.rule.metric, row.verdict.text.c_str());
    for (size_t a = 0; a < claim.also.size(); ++a) {
      const Spread s = spread(row.also[a]);
      std::printf("    also %s: %s (%s .. %s)\n", claim.also[a], number(s.mean).c_str(), number(s.min).c_str(),
                  number(s.max).c_str());
    }
    std::fflush(stdout);
    rows.push_back(std::move(row));
  };
  experiments::RunOptions run;
  run.cancel = &StopSignals::stopRequested();
  experiments::runJobs(jobs, run, onResult);
  // The window claims, where this machine can open an OpenGL window (a display; Xvfb will do).
  int notMeasured = 0;
  std::vector<std::pair<const scenes::Claim*, std::string>> unmeasured;  // for --markdown: claim, why
  std::string noWindow;
  if (failure.empty() && !stopped() && headlessPlanned < plan.size() && !withHiddenGlContext([] {}, noWindow) &&
      noWindow.empty())
    noWindow = "no OpenGL context";
  for (size_t i = headlessPlanned; i < plan.size() && failure.empty() && !stopped(); ++i) {
    const scenes::Claim& claim = *plan[i].claim;
    std::string why = noWindow;
    for (int s = 0; s < o.seeds && why.empty() && !stopped(); ++s) {
      experiments::Result r;
      r.job = i * size_t(o.seeds) + size_t(s);
      // A window run the stop reached (a signal to the process group ends it too) counts for nothing.
      if (runWindowClaim(claim, o.firstSeed + uint64_t(s), r, why) && !stopped()) onResult(r);
    }
    if (stopped()) break;
    if (why.empty()) continue;
    seeds.clear();
    if (!plan[i].shown) continue;
    ++notMeasured;  // said in its row; the claims that were measured still stand
    unmeasured.push_back({&claim, why});
    std::printf("%-36s %s\n    not measured here: %s (it needs an OpenGL window: crowdlab --claim %s)\n", claim.id,
                claim.statement, why.c_str(), claim.id);
    std::fflush(stdout);
  }
  if (!failure.empty()) {
    std::fprintf(stderr, "crowdlab claims: %s\n", failure.c_str());
    return 1;
  }
  if (const int sig = StopSignals::received()) {
    // The table is a whole document (docs/claims.md): a part of it must not replace a finished one,
    // so nothing is written and files already there stay as they were. The rows done are above.
    const bool files = !o.csv.empty() || !o.markdown.empty();
    std::fprintf(stderr, "crowdlab claims: stopped by %s after %zu of %zu claims%s\n",
                 sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "SIGHUP", rows.size(), shownClaims,
                 files ? "; --csv and --markdown not written (a part of the table would replace a whole one)" : "");
    return 128 + sig;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  int held = 0;
  for (const Row& r : rows) held += r.verdict.holds ? 1 : 0;
  std::printf("%d of %zu claims hold (%d seeds each, %.0f s)%s%s\n", held, rows.size(), o.seeds, seconds,
              notMeasured ? ("; " + std::to_string(notMeasured) + " not measured here").c_str() : "",
              mustHoldFailed ? "; a must-hold claim FAILED" : "");

  if (!o.csv.empty()) {
    // Written whole through a temporary (or straight to a device or pipe); a full disk or /dev/full
    // is an error with the path and the reason, never an empty file and exit 0.
    std::ostringstream f;
    f << "id,scene,seeds,metric,mean,min,max,verdict\n";
    auto line = [&](const Row& r, const char* metric, const std::vector<double>& xs) {
      const Spread s = spread(xs);
      f << r.claim->id << ',' << r.claim->scene << ',' << xs.size() << ',' << metric << ','
        << (s.finite ? number(s.mean) : "nan") << ',' << (s.finite ? number(s.min) : "nan") << ','
        << (s.finite ? number(s.max) : "nan") << ',' << csvField(r.verdict.text) << '\n';
    };
    for (const Row& r : rows) {
      line(r, r.claim->rule.metric, r.values);
      for (size_t a = 0; a < r.claim->also.size(); ++a) line(r, r.claim->also[a], r.also[a]);
    }
    csvFile.write(f.str());
    if (!csvFile.commit(error)) {
      std::fprintf(stderr, "crowdlab claims: %s\n", error.c_str());
      return 1;
    }
  }
  if (!o.markdown.empty()) {
    // docs/claims.md: the same rows as a table a reader scans, with the command, the machine and the
    // date that made them, so the page says where its figures come from.
    std::string command = "crowdlab claims";
    for (const std::string& a : args) command += " " + a;
    std::ostringstream f;
    f << "# What the article claims, what crowdlab measures\n\n"
      << "Generated by `" << command << "` on " << markdownCell(cpuName()) << ", " << todayUtc()
      << "; run it again rather than edit this file. Seeds " << o.firstSeed << "-"
      << o.firstSeed + uint64_t(o.seeds) - 1 << ".\n\n"
      << "Every claim of the article is an experiment button in its scene and a row here: the experiment "
         "(defaults, preset, starting state), a window of simulated time, one metric and the rule that "
         "decides. `holds with crowdlab's fix` means the article's own method does not show it and names what "
         "crowdlab changed; `article overstates` gives the number. Must-hold claims make the command exit 1 "
         "when they fail. Step-time figures (`finale.hash-*`, `gpu.*`) depend on the machine and its load; "
         "no other verdict does. Pictures: `scripts/claim-screenshots.sh` (links relative to `docs/`).\n\n"
      << "Metrics: `groups` and `largest_group_share` link agents closer than a fixed distance (murmuration 5 m, "
         "boids 30 units), never the k-neighbour graph; `velocity_fluctuation` is the RMS of each bird's velocity "
         "minus the flock's mean velocity, rotation and dilation (Cavagna et al., PNAS 2010), over the mean speed; "
         "`settled_share` counts agents inside the slowing radius below 5 % of max speed; corridor rows give "
         "throughput per minute at width 4 and, at 2.5 and 2, the ratio to the same method at width 4.\n\n"
      << "| claim | the article | crowdlab measured (mean, min – max over seeds) | verdict | picture |\n"
      << "|---|---|---|---|---|\n";
    auto idCell = [](const scenes::Claim& c) {
      return "`" + std::string(c.id) + "`" + (c.mustHold ? " (must hold)" : "");
    };
    for (const Row& r : rows) {
      const scenes::Claim& c = *r.claim;
      const Spread s = spread(r.values);
      std::string measured = std::string(c.rule.metric) + " " +
                             (s.finite ? scenes::formatValue(c, s.mean) + " (" + shortNumber(s.min) + " – " +
                                             shortNumber(s.max) + ")"
                                       : std::string("n/a"));
      for (size_t a = 0; a < c.also.size(); ++a)
        measured += (a ? ", " : "; ") + std::string(c.also[a]) + " " + shortNumber(spread(r.also[a]).mean);
      f << "| " << idCell(c) << " | " << markdownCell(c.statement) << " | " << markdownCell(measured) << " | "
        << markdownCell(r.verdict.text) << " | [picture](claims/" << c.id << ".png) |\n";
    }
    for (const auto& [claim, why] : unmeasured)
      f << "| " << idCell(*claim) << " | " << markdownCell(claim->statement) << " | not measured here: "
        << markdownCell(why) << " | needs an OpenGL window | [picture](claims/" << claim->id << ".png) |\n";
    f << "\n**" << held << " of " << rows.size() << " claims hold** (" << o.seeds << " seeds each)"
      << (notMeasured ? "; " + std::to_string(notMeasured) + " not measured here" : std::string())
      << (mustHoldFailed ? "; a must-hold claim FAILED" : "; every must-hold claim holds") << ".\n";
    markdownFile.write(f.str());
    if (!markdownFile.commit(error)) {
      std::fprintf(stderr, "crowdlab claims: %s\n", error.c_str());
      return 1;
    }
  }
  return mustHoldFailed ? 1 : 0;
}

}  // namespace app
