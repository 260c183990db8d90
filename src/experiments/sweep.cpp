#include "experiments/sweep.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include "io/user_files.hpp"
#include "scenes/presets.hpp"

#ifndef CROWDLAB_VERSION_TEXT
#define CROWDLAB_VERSION_TEXT "unknown"
#endif

namespace experiments {

namespace {

// Shortest text that reads back as the same double.
std::string exact(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  // The fewest significant digits that read back exactly (Emscripten's libc++ has no floating-point
  // std::to_chars).
  char buf[40];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

bool parseDouble(const std::string& text, double& out) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text.front()))) return false;
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size();
}

bool parseWhole(const std::string& text, unsigned long long hi, unsigned long long& out) {
  if (text.empty() || text.size() > 19) return false;
  for (char c : text)
    if (c < '0' || c > '9') return false;
  out = std::strtoull(text.c_str(), nullptr, 10);
  return out <= hi;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    const size_t at = s.find(sep, start);
    out.push_back(s.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos) return out;
    start = at + 1;
  }
}

// A value written for a parameter the way --set reads it back.
std::string valueText(const scenes::Param& p, double v) {
  if (p.type == scenes::ParamType::Int) return std::to_string(std::llround(v));
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.7g", v);
  return buf;
}

struct SceneCopy {
  std::unique_ptr<scenes::Scene> scene;
  std::span<const scenes::Param> params() { return scene->params(); }
};

bool makeScene(const std::string& name, SceneCopy& copy, std::string& error) {
  const scenes::SceneEntry* entry = scenes::findScene(name);
  if (!entry) {
    error = "unknown scene " + io::quoteText(name) + " (scenes: " + scenes::sceneNames() + ")";
    return false;
  }
  copy.scene = scenes::declarationsOf(*entry);
  return true;
}

bool cleanLabel(const std::string& s) {
  for (char c : s)
    if (c == ',' || c == '"' || static_cast<unsigned char>(c) < 0x20) return false;
  return !s.empty();
}

const char* const kSweepFlags[] = {"--scene", "--vary",  "--series", "--set",  "--preset", "--start", "--metric",
                                   "--reduce", "--window", "--seeds", "--first-seed", "--log", "--slopes", "--reference", "--title"};

}  // namespace

bool isPlotFlag(const std::string& flag) {
  return flag == "--log" || flag == "--slopes" || flag == "--reference" || flag == "--title";
}

bool isSweepFlag(const std::string& flag) {
  for (const char* f : kSweepFlags)
    if (flag == f) return true;
  return false;
}

bool parseAxis(std::span<const scenes::Param> params, const std::string& text, SweepAxis& axis, std::string& error) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) {
    error = "--vary expects NAME=FROM:TO:STEP or NAME=V1,V2,..., got " + io::quoteText(text);
    return false;
  }
  axis = SweepAxis();
  axis.param = text.substr(0, eq);
  const std::string range = text.substr(eq + 1);
  const scenes::Param* p = scenes::findParam(params, axis.param);
  if (!p) {
    error = "--vary: unknown parameter " + io::quoteText(axis.param) + " (see --list-params)";
    return false;
  }
  axis.label = p->label;
  axis.numeric = p->type == scenes::ParamType::Float || p->type == scenes::ParamType::Int;
  const std::string where = "--vary " + axis.param + ": ";
  if (range.empty()) {
    error = where + "an empty grid (give FROM:TO:STEP or V1,V2,...)";
    return false;
  }
  std::vector<std::string> texts;
  if (range.find(':') != std::string::npos) {
    const std::vector<std::string> parts = split(range, ':');
    if (parts.size() != 3) {
      error = where + "expects FROM:TO:STEP (or FROM:TO:xFACTOR), got " + io::quoteText(range);
      return false;
    }
    if (!axis.numeric) {
      error = where + "is a choice (" + p->rangeText() + "); list its values: " + axis.param + "=V1,V2";
      return false;
    }
    double from = 0, to = 0, step = 0;
    const bool geometric = !parts[2].empty() && parts[2][0] == 'x';
    if (!parseDouble(parts[0], from) || !parseDouble(parts[1], to) ||
        !parseDouble(geometric ? parts[2].substr(1) : parts[2], step) || !std::isfinite(from) ||
        !std::isfinite(to) || !std::isfinite(step)) {
      error = where + "FROM, TO and STEP must be numbers, got " + io::quoteText(range);
      return false;
    }
    if (geometric) {
      if (!(step > 1.0) || !(from > 0.0) || !(to >= from)) {
        error = where + "a geometric range needs 0 < FROM <= TO and a FACTOR above 1, got " + io::quoteText(range);
        return false;
      }
      const double n = std::floor(std::log(to / from) / std::log(step) + 1e-9) + 1;
      if (n > double(kMaxSweepJobs)) {
        error = where + "more than " + std::to_string(kMaxSweepJobs) + " values";
        return false;
      }
      for (int i = 0; i < int(n); ++i) texts.push_back(valueText(*p, from * std::pow(step, i)));
    } else {
      if (step == 0.0) {
        error = where + "STEP is 0";
        return false;
      }
      if ((to - from) * step < 0.0 || (to < from)) {
        error = where + "STEP " + parts[2] + " goes the wrong way from " + parts[0] + " to " + parts[1] +
                (to < from ? " (give FROM <= TO)" : "");
        return false;
      }
      if (p->type == scenes::ParamType::Int && (from != std::floor(from) || step != std::floor(step))) {
        error = where + "a count takes whole numbers: FROM and STEP must be whole, got " + io::quoteText(range);
        return false;
      }
      const double n = std::floor((to - from) / step + 1e-9) + 1;
      if (n > double(kMaxSweepJobs)) {
        error = where + "more than " + std::to_string(kMaxSweepJobs) + " values";
        return false;
      }
      for (int i = 0; i < int(n); ++i) texts.push_back(valueText(*p, from + double(i) * step));
    }
  } else {
    texts = split(range, ',');
  }
  // Each value as the parameter would take it, within its declared limits; repeats dropped.
  std::set<std::string> seen;
  for (const std::string& t : texts) {
    if (t.empty()) {
      error = where + "an empty value in " + io::quoteText(range);
      return false;
    }
    if (!seen.insert(t).second) continue;
    const double before = p->get();
    std::string why;
    if (!scenes::setParamFromText(*p, t, why)) {
      error = "--vary " + io::quoteText(text) + ": " + why;
      return false;
    }
    const double v = p->get();
    p->set(before);
    axis.texts.push_back(t);
    axis.values.push_back(v);
  }
  return true;
}

// One drawing flag (isPlotFlag) onto the spec: a sweep and a merge read them alike.
static bool readPlotFlag(const std::string& a, const std::string& v, SweepSpec& spec, std::string& error) {
  if (a == "--title") {
    spec.title = v;
  } else if (a == "--log") {
    if (v != "x" && v != "y" && v != "xy") {
      error = "--log expects x, y or xy, got " + io::quoteText(v);
      return false;
    }
    spec.logX = v != "y";
    spec.logY = v != "x";
  } else if (a == "--slopes") {
    for (const std::string& t : split(v, ',')) {
      double k = 0;
      if (!parseDouble(t, k) || !std::isfinite(k) || std::fabs(k) > 10 || spec.slopes.size() >= 8) {
        error = "--slopes expects up to 8 numbers between -10 and 10, got " + io::quoteText(v);
        return false;
      }
      spec.slopes.push_back(k);
    }
  } else if (a == "--reference") {
    for (const std::string& t : split(v, ',')) {
      bool known = false;
      for (const ReferenceData& r : referenceData()) known = known || t == r.name;
      if (!known || spec.references.size() >= 8) {
        std::string names;
        for (const ReferenceData& r : referenceData())
          if (names.find(r.name) == std::string::npos) names += (names.empty() ? "" : ", ") + std::string(r.name);
        error = "--reference expects names of measured data (" + names + "), got " + io::quoteText(v);
        return false;
      }
      spec.references.push_back(t);
    }
  }
  return true;
}

bool parseSweepArgs(const std::vector<std::string>& args, SweepSpec& spec, std::string& error) {
  spec = SweepSpec();
  std::vector<std::string> varies, metricNames;
  std::string reduce = "mean", window;
  bool seeded = false;
  std::set<std::string> once;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (!isSweepFlag(a)) {
      error = "unknown option " + io::quoteText(a);
      return false;
    }
    if (a != "--vary" && a != "--set" && a != "--series" && !once.insert(a).second) {
      error = a + " is given more than once";
      return false;
    }
    if (i + 1 >= args.size()) {
      error = a + " needs a value";
      return false;
    }
    const std::string& v = args[++i];
    unsigned long long n = 0;
    if (a == "--scene") spec.scene = v;
    else if (a == "--vary") varies.push_back(v);
    else if (a == "--set") spec.sets.push_back(v);
    else if (a == "--preset") spec.preset = v;
    else if (a == "--start") spec.start = v;
    else if (a == "--metric") metricNames = split(v, ',');
    else if (a == "--reduce") reduce = v;
    else if (a == "--window") window = v;
    else if (a == "--series") {
      const size_t colon = v.find(':');
      SweepSeries s;
      s.label = v.substr(0, colon);
      if (colon == std::string::npos || !cleanLabel(s.label)) {
        error = "--series expects LABEL:k=v[;k=v...] with a label without commas or quotes, got " + io::quoteText(v);
        return false;
      }
      for (const std::string& set : split(v.substr(colon + 1), ';'))
        if (!set.empty()) s.sets.push_back(set);
      for (const SweepSeries& other : spec.series)
        if (other.label == s.label) {  // two curves under one label would be drawn and read back as one
          error = "--series " + io::quoteText(s.label) + " is given twice; give each series its own label";
          return false;
        }
      spec.series.push_back(s);
    } else if (a == "--seeds") {
      if (!parseWhole(v, 1000, n) || n < 1) {
        error = "--seeds expects a whole number from 1 to 1000, got " + io::quoteText(v);
        return false;
      }
      spec.seeds = int(n);
      seeded = true;
    } else if (a == "--first-seed") {
      if (!parseWhole(v, 1ULL << 62, n)) {
        error = "--first-seed expects a whole number, got " + io::quoteText(v);
        return false;
      }
      spec.firstSeed = n;
    } else if (isPlotFlag(a)) {
      if (!readPlotFlag(a, v, spec, error)) return false;
    }
  }
  (void)seeded;
  // Every seed must read back from the CSV (seeds up to 2^62), or the file would refuse its own rows.
  if (spec.firstSeed + uint64_t(spec.seeds) - 1 > (1ULL << 62)) {
    error = "--first-seed " + std::to_string(spec.firstSeed) + " with --seeds " + std::to_string(spec.seeds) +
            " runs past the largest seed, 2^62 = " + std::to_string(1ULL << 62);
    return false;
  }
  if (spec.scene.empty()) {
    error = "sweep needs --scene NAME (scenes: " + scenes::sceneNames() + ")";
    return false;
  }
  SceneCopy copy;
  if (!makeScene(spec.scene, copy, error)) return false;
  if (varies.empty()) {
    error = "sweep needs --vary NAME=FROM:TO:STEP (see --list-params for the names)";
    return false;
  }
  if (varies.size() > 2) {
    error = "at most two --vary (a curve or a heat map), got " + std::to_string(varies.size());
    return false;
  }
  for (const std::string& v : varies) {
    SweepAxis axis;
    if (!parseAxis(copy.params(), v, axis, error)) return false;
    for (const SweepAxis& other : spec.axes)
      if (other.param == axis.param) {
        error = "--vary " + axis.param + " is given twice";
        return false;
      }
    spec.axes.push_back(axis);
  }
  if (spec.axes.size() == 2 && !spec.series.empty()) {
    error = "--series draws curves over one --vary; with two --vary (a heat map) run one sweep per series";
    return false;
  }
  if (!window.empty()) {
    const std::vector<std::string> parts = split(window, ':');
    if (parts.size() != 2 || !parseDouble(parts[0], spec.from) || !parseDouble(parts[1], spec.to) ||
        !(spec.from >= 0) || !(spec.to > spec.from) || !(spec.to <= 1e6)) {
      error = "--window expects FROM:TO in simulated seconds with 0 <= FROM < TO <= 1e6, got " + io::quoteText(window);
      return false;
    }
  }
  scenes::Reduce how = scenes::Reduce::Mean;
  if (!scenes::parseReduce(reduce, how) || how == scenes::Reduce::LongestBelow || how == scenes::Reduce::TimeUntil) {
    error = "--reduce expects mean, final, min or max, got " + io::quoteText(reduce);
    return false;
  }
  if (metricNames.empty() || (metricNames.size() == 1 && metricNames[0].empty())) {
    error = "sweep needs --metric NAME[,NAME...]";
    return false;
  }
  for (const std::string& m : metricNames) {
    MetricSpec spec1{m, how, 0.0};
    const size_t colon = m.find(':');
    if (colon != std::string::npos) {
      spec1.name = m.substr(0, colon);
      if (!scenes::parseReduce(m.substr(colon + 1), spec1.reduce) || spec1.reduce == scenes::Reduce::LongestBelow ||
          spec1.reduce == scenes::Reduce::TimeUntil) {
        error = "--metric " + io::quoteText(m) + ": the reduction after ':' must be mean, final, min or max";
        return false;
      }
    }
    if (!cleanLabel(spec1.name)) {
      error = "--metric: an empty or malformed metric name in " + io::quoteText(m);
      return false;
    }
    // A column is named by its metric alone: two of one name (polarization:final,polarization) wrote two
    // columns no reader could tell apart.
    for (const MetricSpec& earlier : spec.metrics)
      if (earlier.name == spec1.name) {
        error = "--metric " + spec1.name + " is given twice (a column per metric; another reduction of it needs a sweep of its own)";
        return false;
      }
    spec.metrics.push_back(spec1);
  }
  // Names the scene's own checks cannot see: a series or --set that also names a varied parameter.
  auto varied = [&](const std::string& set) {
    for (const SweepAxis& ax : spec.axes)
      if (set.rfind(ax.param + "=", 0) == 0) return ax.param;
    return std::string();
  };
  for (const std::string& s : spec.sets)
    if (!varied(s).empty()) {
      error = "--set " + io::quoteText(s) + " sets the varied parameter " + varied(s);
      return false;
    }
  for (const SweepSeries& s : spec.series)
    for (const std::string& set : s.sets)
      if (!varied(set).empty()) {
        error = "--series " + s.label + " sets the varied parameter " + varied(set);
        return false;
      }
  const size_t jobs = sweepJobCount(spec);
  if (jobs > kMaxSweepJobs) {
    error = "the sweep has " + std::to_string(jobs) + " jobs; at most " + std::to_string(kMaxSweepJobs) +
            " (fewer values or seeds, or split it into sweeps)";
    return false;
  }
  // The first job of each series, checked in full (set-up, metrics); the grid's values were checked above.
  const std::vector<Job> all = sweepJobs(spec);
  const size_t perSeries = all.size() / std::max<size_t>(spec.series.size(), 1);
  for (size_t k = 0; k < all.size(); k += perSeries)
    if (!checkJob(all[k], error)) return false;
  return true;
}

bool readPlotFlags(const std::vector<std::string>& args, PlotOptions& options, std::string& error) {
  SweepSpec spec;
  std::set<std::string> once;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (!isPlotFlag(a)) {
      error = a + " defines the sweep's jobs; a merge takes them from the shards (only --log, --slopes, --reference and --title draw)";
      return false;
    }
    if (!once.insert(a).second) {
      error = a + " is given more than once";
      return false;
    }
    if (i + 1 >= args.size()) {
      error = a + " needs a value";
      return false;
    }
    if (!readPlotFlag(a, args[++i], spec, error)) return false;
  }
  options.logX = spec.logX;
  options.logY = spec.logY;
  options.slopes = spec.slopes;
  options.references = spec.references;
  if (!spec.title.empty()) options.title = spec.title;
  return true;
}

size_t sweepJobCount(const SweepSpec& spec) {
  size_t n = size_t(std::max(spec.seeds, 0)) * std::max<size_t>(spec.series.size(), 1);
  for (const SweepAxis& a : spec.axes) n *= a.texts.size();
  return spec.axes.empty() ? 0 : n;
}

std::vector<Job> sweepJobs(const SweepSpec& spec) {
  std::vector<Job> jobs;
  if (spec.axes.empty()) return jobs;
  const std::vector<SweepSeries> series = spec.series.empty() ? std::vector<SweepSeries>{{}} : spec.series;
  const size_t n0 = spec.axes[0].texts.size(), n1 = spec.axes.size() > 1 ? spec.axes[1].texts.size() : 1;
  jobs.reserve(sweepJobCount(spec));
  for (const SweepSeries& s : series)
    for (size_t i = 0; i < n0; ++i)
      for (size_t j = 0; j < n1; ++j)
        for (int k = 0; k < spec.seeds; ++k) {
          Job job;
          job.scene = spec.scene;
          job.preset = spec.preset;
          job.start = spec.start;
          job.sets = spec.sets;
          job.sets.insert(job.sets.end(), s.sets.begin(), s.sets.end());
          job.sets.push_back(spec.axes[0].param + "=" + spec.axes[0].texts[i]);
          if (spec.axes.size() > 1) job.sets.push_back(spec.axes[1].param + "=" + spec.axes[1].texts[j]);
          job.seed = spec.firstSeed + uint64_t(k);
          job.from = spec.from;
          job.to = spec.to;
          job.metrics = spec.metrics;
          jobs.push_back(std::move(job));
        }
  return jobs;
}

std::string csvHeader(const SweepSpec& spec) {
  std::string h = "job,scene";
  if (!spec.series.empty()) h += ",series";
  for (const SweepAxis& a : spec.axes) h += "," + a.param;
  h += ",seed";
  for (const MetricSpec& m : spec.metrics) h += "," + m.name;
  return h + "," + kExperimentColumn + "\n";
}

std::string sweepExperiment(const SweepSpec& spec) {
  // Everything that decides which jobs the rows are and what they measure, in one canonical text.
  std::string text = "crowdlab-sweep 1\nprogram " CROWDLAB_VERSION_TEXT "\nscene " + spec.scene + "\npreset " +
                     spec.preset + "\n";
  for (const scenes::BuiltinPreset& p : scenes::builtinPresets(spec.scene))
    if (spec.preset == p.file || spec.preset + ".json" == std::string(p.file)) text += std::string("preset-json ") + p.json + "\n";
  text += "start " + spec.start + "\n";
  for (const std::string& set : spec.sets) text += "set " + set + "\n";
  for (const SweepAxis& a : spec.axes) {
    text += "axis " + a.param;
    for (const std::string& t : a.texts) text += " " + t;
    text += "\n";
  }
  for (const SweepSeries& s : spec.series) {
    text += "series " + s.label;
    for (const std::string& set : s.sets) text += " " + set;
    text += "\n";
  }
  for (const MetricSpec& m : spec.metrics)
    text += "metric " + m.name + " " + scenes::reduceName(m.reduce) + " " + exact(m.level) + "\n";
  text += "window " + exact(spec.from) + " " + exact(spec.to) + "\nseeds " + std::to_string(spec.seeds) + " from " +
          std::to_string(spec.firstSeed) + "\n";
  uint64_t h = 1469598103934665603ULL;  // FNV-1a, 64 bits
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ULL;
  char hex[24];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return std::string(hex) + "/" + std::to_string(sweepJobCount(spec));
}

size_t experimentJobs(const std::string& experiment) {
  const size_t slash = experiment.find('/');
  unsigned long long n = 0;
  if (slash == std::string::npos || !parseWhole(experiment.substr(slash + 1), kMaxSweepJobs, n)) return 0;
  return size_t(n);
}

std::string csvRow(const SweepSpec& spec, const Job& job, size_t jobIndex, const Result& result) {
  std::string row = std::to_string(jobIndex) + "," + spec.scene;
  if (!spec.series.empty()) {
    const size_t perSeries = sweepJobCount(spec) / spec.series.size();
    row += "," + spec.series[jobIndex / perSeries].label;
  }
  // The varied values are the job's last assignments.
  for (size_t a = 0; a < spec.axes.size(); ++a) {
    const std::string& set = job.sets[job.sets.size() - spec.axes.size() + a];
    row += "," + set.substr(set.find('=') + 1);
  }
  row += "," + std::to_string(job.seed);
  for (size_t m = 0; m < spec.metrics.size(); ++m)
    row += "," + exact(m < result.values.size() ? result.values[m] : std::nan(""));
  return row + "," + sweepExperiment(spec) + "\n";
}

// ---- reading a sweep's CSV ----

bool addRow(SweepTable& t, const std::string& line, std::string& error) {
  const std::vector<std::string> f = split(line, ',');
  const size_t expected = 3 + (t.hasSeries ? 1 : 0) + t.params.size() + t.metrics.size() + (t.hasExperiment ? 1 : 0);
  if (f.size() != expected) {
    error = "has " + std::to_string(f.size()) + " fields, the header " + std::to_string(expected);
    return false;
  }
  SweepTable::Row r;
  unsigned long long n = 0;
  if (!parseWhole(f[0], kMaxSweepJobs, n)) {
    error = "job " + io::quoteText(f[0]) + " is not a job number";
    return false;
  }
  r.job = size_t(n);
  size_t k = 1;
  r.scene = f[k++];
  if (t.hasSeries) r.series = f[k++];
  for (size_t p = 0; p < t.params.size(); ++p) r.paramTexts.push_back(f[k++]);
  if (!parseWhole(f[k++], 1ULL << 62, n)) {
    error = "seed " + io::quoteText(f[k - 1]) + " is not a whole number";
    return false;
  }
  r.seed = n;
  for (size_t m = 0; m < t.metrics.size(); ++m) {
    double v = 0;
    const std::string& text = f[k++];
    if (text == "nan") v = std::nan("");
    else if (!parseDouble(text, v)) {
      error = t.metrics[m] + " " + io::quoteText(text) + " is not a number";
      return false;
    }
    r.values.push_back(v);
  }
  if (t.hasExperiment) r.experiment = f[k++];
  r.line = line;
  t.rows.push_back(std::move(r));
  return true;
}

bool parseSweepCsv(const std::string& text, const std::string& label, SweepTable& t, std::string& error,
                   size_t* partialBytes) {
  t = SweepTable();
  if (partialBytes) *partialBytes = 0;
  size_t end = text.size();
  if (end && text[end - 1] != '\n') {
    const size_t lastNewline = text.rfind('\n');
    end = lastNewline == std::string::npos ? 0 : lastNewline + 1;
    if (partialBytes) *partialBytes = text.size() - end;
  }
  const std::vector<std::string> lines = split(text.substr(0, end), '\n');
  if (lines.empty() || lines[0].empty()) {
    error = label + ": no header line (not a sweep CSV)";
    return false;
  }
  t.header = lines[0];
  const std::vector<std::string> cols = split(t.header, ',');
  size_t seedAt = 0;
  for (size_t i = 0; i < cols.size(); ++i)
    if (cols[i] == "seed") seedAt = i;
  t.hasSeries = cols.size() > 2 && cols[2] == "series";
  const size_t firstParam = t.hasSeries ? 3 : 2;
  if (cols.size() < 5 || cols[0] != "job" || cols[1] != "scene" || seedAt <= firstParam || seedAt + 1 >= cols.size()) {
    error = label + ": the header is not a sweep's (job,scene,[series,]params...,seed,metrics...)";
    return false;
  }
  t.hasExperiment = cols.back() == kExperimentColumn;
  t.params.assign(cols.begin() + long(firstParam), cols.begin() + long(seedAt));
  t.metrics.assign(cols.begin() + long(seedAt) + 1, cols.end() - (t.hasExperiment ? 1 : 0));
  if (t.metrics.empty()) {
    error = label + ": the header is not a sweep's (job,scene,[series,]params...,seed,metrics...)";
    return false;
  }
  for (size_t i = 1; i < lines.size(); ++i) {
    if (lines[i].empty()) {
      if (i + 1 == lines.size()) break;  // the split's tail after the last '\n'
      error = label + ":" + std::to_string(i + 1) + ": an empty line";
      return false;
    }
    std::string why;
    if (!addRow(t, lines[i], why)) {
      error = label + ":" + std::to_string(i + 1) + ": " + why;
      return false;
    }
  }
  return true;
}

bool readSweepCsv(const std::string& path, SweepTable& table, std::string& error, size_t* partialBytes) {
  std::string text;
  // A sweep of 100,000 jobs with a few metrics is some megabytes: a larger cap than presets'.
  if (io::readUserFile(path, text, error, size_t(64) << 20) != io::ReadStatus::Ok) return false;
  return parseSweepCsv(text, path, table, error, partialBytes);
}

SweepTable tableOf(const SweepSpec& spec) {
  SweepTable t;
  std::string ignored;
  parseSweepCsv(csvHeader(spec), "sweep", t, ignored);
  return t;
}

// ---- curves ----

std::vector<SweepCurve> sweepCurves(const SweepTable& table, size_t metric) {
  std::vector<SweepCurve> curves;
  // Category positions for non-numeric columns, in order of first appearance.
  std::vector<std::map<std::string, double>> categories(table.params.size());
  std::vector<bool> numeric(table.params.size(), true);
  for (const SweepTable::Row& r : table.rows)
    for (size_t p = 0; p < r.paramTexts.size() && p < numeric.size(); ++p) {
      double v = 0;
      if (!parseDouble(r.paramTexts[p], v)) numeric[p] = false;
    }
  for (const SweepTable::Row& r : table.rows) {
    if (metric >= r.values.size() || r.paramTexts.empty()) continue;
    auto curve = std::find_if(curves.begin(), curves.end(), [&](const SweepCurve& c) { return c.series == r.series; });
    if (curve == curves.end()) {
      curves.push_back({r.series, {}});
      curve = curves.end() - 1;
    }
    const std::string& yText = r.paramTexts.size() > 1 ? r.paramTexts[1] : std::string();
    auto point = std::find_if(curve->points.begin(), curve->points.end(), [&](const SweepPoint& p) {
      return p.xText == r.paramTexts[0] && p.yText == yText;
    });
    if (point == curve->points.end()) {
      SweepPoint p;
      p.xText = r.paramTexts[0];
      p.yText = yText;
      auto position = [&](size_t col, const std::string& text) {
        double v = 0;
        if (numeric[col] && parseDouble(text, v)) return v;
        auto& cats = categories[col];
        const auto it = cats.find(text);
        if (it != cats.end()) return it->second;
        const double at = double(cats.size());
        cats[text] = at;
        return at;
      };
      p.x = position(0, p.xText);
      if (r.paramTexts.size() > 1) p.y = position(1, yText);
      curve->points.push_back(p);
      point = curve->points.end() - 1;
    }
    const double v = r.values[metric];
    if (!std::isfinite(v)) continue;
    SweepPoint& p = *point;
    p.min = p.seeds ? std::min(p.min, v) : v;
    p.max = p.seeds ? std::max(p.max, v) : v;
    p.mean = (p.mean * p.seeds + v) / (p.seeds + 1);
    ++p.seeds;
  }
  for (SweepCurve& c : curves)
    std::stable_sort(c.points.begin(), c.points.end(), [](const SweepPoint& a, const SweepPoint& b) {
      return a.x != b.x ? a.x < b.x : a.y < b.y;
    });
  return curves;
}

}  // namespace experiments
