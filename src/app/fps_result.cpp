#include "app/fps_result.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include "io/user_files.hpp"

#ifndef CROWDLAB_VERSION
#define CROWDLAB_VERSION "unknown"
#endif
#ifndef CROWDLAB_BUILD_TYPE
#define CROWDLAB_BUILD_TYPE "unknown"
#endif

namespace app {

const std::vector<FpsCase>& fpsCases() {
  // Every case from seed 1 with nothing following the mouse: the finale's target wanders on its own
  // path, the murmuration's camera holds still. The boids scene stops at 5,000 agents, so 50,000
  // boids run in the gpu scene's CPU step (the same rules on the same grid). threads=64: the
  // finale's loops on every core the machine has (its default is 2).
  static const std::vector<FpsCase> cases = {
      {"boids-5k", "boids", {"N=5000"}, false},
      {"boids-50k", "gpu", {"N=50000", "sim=cpu"}, false},
      {"finale-10k-orca", "finale", {"N=10000", "orca=true", "wander=true", "threads=64"}, false},
      {"finale-100k", "finale", {"N=100000", "orca=false", "wander=true", "threads=64"}, false},
      {"murmuration-20k", "murmuration", {"N=20000", "autoRotate=false"}, false},
      {"gpu-200k", "gpu", {"N=200000", "sim=gpu"}, true},
  };
  return cases;
}

const FpsCase* findFpsCase(const std::string& name) {
  for (const FpsCase& c : fpsCases())
    if (name == c.name) return &c;
  return nullptr;
}

FpsPlan fpsPlan(bool quick) {
  // Sized on a 2-core machine drawing with llvmpipe (docs/fps.md has its line): the full run within
  // 90 s, the quick one within 30 s, scene set-ups included.
  return quick ? FpsPlan{true, 5, 30, 3.0, 1} : FpsPlan{false, 15, 150, 2.4, 5};
}

std::string crowdlabVersion() { return CROWDLAB_VERSION; }
std::string crowdlabBuildType() { return CROWDLAB_BUILD_TYPE; }

namespace {
double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double at = p * double(v.size() - 1);
  const size_t lo = size_t(std::floor(at)), hi = std::min(v.size() - 1, lo + 1);
  return v[lo] + (v[hi] - v[lo]) * (at - double(lo));
}
// To `step` (0.01, 0.001), by dividing by a whole number: 560 * 0.01 would print as 5.6000000000000005.
double rounded(double v, double step) {
  const double scale = std::round(1.0 / step);
  return std::round(v * scale) / scale;
}
std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}
// Quotes in a line's quoted value would end it early; a GL or CPU string never needs them.
std::string lineText(std::string s) {
  std::replace(s.begin(), s.end(), '"', '\'');
  for (char& c : s)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  return s;
}
nlohmann::json orNull(const std::optional<double>& v, double step) {
  return v ? nlohmann::json(rounded(*v, step)) : nlohmann::json(nullptr);
}
}  // namespace

void summariseCase(FpsCaseResult& out, const std::vector<double>& frameMs, const std::vector<double>& simMs,
                   const std::vector<double>& renderMs) {
  out.frames = int(frameMs.size());
  out.frameMs = percentile(frameMs, 0.5);
  out.fpsMedian = out.frameMs > 0 ? 1000.0 / out.frameMs : 0;
  const double slow = percentile(frameMs, 0.99);
  out.fpsLow1 = slow > 0 ? 1000.0 / slow : 0;
  out.simMs = percentile(simMs, 0.5);
  out.renderMs = percentile(renderMs, 0.5);
}

bool isSoftwareRenderer(const std::string& glRenderer) {
  std::string r = glRenderer;
  std::transform(r.begin(), r.end(), r.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  for (const char* cpu : {"llvmpipe", "softpipe", "swiftshader", "software", "swrast", "basic render"})
    if (r.find(cpu) != std::string::npos) return true;
  return false;
}

namespace {
nlohmann::json passFps(const FpsCaseResult& c) {
  nlohmann::json out = nlohmann::json::array();
  for (double f : c.passFps) out.push_back(rounded(f, 0.01));
  return out;
}
}  // namespace

nlohmann::json fpsJson(const FpsResult& r) {
  const FpsMachine& m = r.machine;
  nlohmann::json cases = nlohmann::json::array();
  for (const FpsCaseResult& c : r.cases)
    cases.push_back({{"name", c.name},
                     {"scene", c.scene},
                     {"agents", c.agents},
                     {"frames", c.frames},
                     {"fps_median", rounded(c.fpsMedian, 0.01)},
                     {"fps_low_1pct", rounded(c.fpsLow1, 0.01)},
                     {"frame_ms", rounded(c.frameMs, 0.001)},
                     {"sim_ms", rounded(c.simMs, 0.001)},
                     {"render_ms", rounded(c.renderMs, 0.001)},
                     {"draw_calls", c.drawCalls},
                     {"pass_fps", passFps(c)},
                     {"skipped", c.skipped}});
  return {
      {"format", "crowdlab-fps"},
      {"format_version", r.format},
      {"crowdlab", {{"version", r.version}, {"build_type", r.buildType}, {"platform", r.platform}}},
      {"run",
       {{"width", r.width}, {"height", r.height}, {"vsync", r.vsync}, {"frame_clock", r.frameClock}, {"quick", r.plan.quick},
        {"warmup_frames", r.plan.warmupFrames}, {"frames", r.plan.frames}, {"case_seconds", r.plan.caseSeconds},
        {"passes", r.plan.passes},
        {"seconds", rounded(r.seconds, 0.01)}}},
      {"machine",
       {{"cpu", m.cpu}, {"cpu_signature", m.cpuSignature}, {"cores", m.cores}, {"threads", m.threads},
        {"memory_gb", rounded(m.memoryGb, 0.1)}, {"gl_renderer", m.glRenderer}, {"gl_vendor", m.glVendor},
        {"gl_version", m.glVersion}, {"software_renderer", m.softwareRenderer}, {"os", m.os}, {"power", m.power},
        {"governor", m.governor}, {"load_before", orNull(m.loadBefore, 0.01)}, {"load_after", orNull(m.loadAfter, 0.01)},
        {"others_cpu", orNull(m.othersCpu, 0.001)}, {"display_server_cpu", orNull(m.displayServerCpu, 0.001)},
        {"busy", m.busy}, {"busy_why", m.busyWhy}}},
      {"cases", cases},
      {"line", fpsLine(r)},
  };
}

std::string fpsLine(const FpsResult& r) {
  const FpsMachine& m = r.machine;
  std::string line = "crowdlab-fps " + std::to_string(r.format) + " v" + r.version + " " + r.buildType + " " + r.platform + " " +
                     std::to_string(r.width) + "x" + std::to_string(r.height) + " vsync=" + (r.vsync ? "on" : "off") +
                     (r.plan.quick ? " quick" : " full");
  for (const FpsCaseResult& c : r.cases)
    line += " " + c.name + "=" + (c.skipped.empty() ? fixed(c.fpsMedian, 1) + "/" + fixed(c.fpsLow1, 1) : std::string("skip"));
  line += " | cpu=\"" + lineText(m.cpu.empty() ? "unknown" : m.cpu) + "\" threads=" + std::to_string(m.threads) + " gl=\"" +
          lineText(m.glRenderer) + "\"" + (m.softwareRenderer ? " sw=1" : " sw=0") + " os=\"" + lineText(m.os) + "\"" +
          " busy=" + (m.busy ? "yes" : "no");
  return line;
}

std::string fpsTable(const FpsResult& r) {
  std::string out;
  char row[256];
  std::snprintf(row, sizeof row, "%-16s %8s %7s %9s %9s %8s %9s %6s %6s\n", "case", "agents", "frames", "fps", "1% low",
                "sim ms", "render ms", "draws", "");
  out += row;
  for (const FpsCaseResult& c : r.cases) {
    if (!c.skipped.empty()) {
      std::snprintf(row, sizeof row, "%-16s %8s skipped: %s\n", c.name.c_str(), "-", c.skipped.c_str());
    } else {
      std::snprintf(row, sizeof row, "%-16s %8zu %7d %9.1f %9.1f %8.2f %9.2f %6d\n", c.name.c_str(), c.agents, c.frames,
                    c.fpsMedian, c.fpsLow1, c.simMs, c.renderMs, c.drawCalls);
    }
    out += row;
  }
  const FpsMachine& m = r.machine;
  out += "machine: " + m.cpu + (m.cpuSignature.empty() ? "" : " (" + m.cpuSignature + ")") + ", " +
         (m.cores ? std::to_string(m.cores) + " cores, " : "") + std::to_string(m.threads) + " threads used" +
         (m.memoryGb > 0 ? ", " + fixed(m.memoryGb, 1) + " GB" : "") + "\n";
  out += "GL: " + m.glRenderer + " (" + m.glVendor + "), " + m.glVersion + (m.softwareRenderer ? "  [software renderer: the CPU draws]" : "") + "\n";
  out += "OS: " + m.os + (m.power.empty() ? "" : ", power " + m.power) + (m.governor.empty() ? "" : ", governor " + m.governor) + "\n";
  out += "run: crowdlab " + r.version + " (" + r.buildType + ", " + r.platform + "), " + std::to_string(r.width) + "x" +
         std::to_string(r.height) + ", vsync " + (r.vsync ? "on" : "off") + ", " + (r.plan.quick ? "quick" : "full") + ", " +
         fixed(r.seconds, 1) + " s";
  if (m.loadBefore) out += ", load " + fixed(*m.loadBefore, 2) + " before";
  if (m.loadAfter) out += " / " + fixed(*m.loadAfter, 2) + " after";
  if (m.othersCpu) out += ", other processes " + fixed(*m.othersCpu * 100, 0) + " % of the CPUs";
  if (m.displayServerCpu) out += " (display server " + fixed(*m.displayServerCpu * 100, 0) + " %)";
  out += "\n";
  if (m.busy) out += "BUSY: " + m.busyWhy + ": these figures are not a quiet machine's\n";
  return out;
}

namespace {
void collectKeys(const nlohmann::json& j, const std::string& prefix, std::set<std::string>& out, int depth) {
  if (depth > io::kMaxJsonDepth) return;
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) collectKeys(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), out, depth + 1);
  } else if (j.is_array() && !j.empty() && j.front().is_object()) {
    for (const nlohmann::json& e : j) collectKeys(e, prefix + "[]", out, depth + 1);
  } else {
    out.insert(prefix);
  }
}
}  // namespace

std::vector<std::string> fpsJsonKeys(const nlohmann::json& doc) {
  std::set<std::string> keys;
  collectKeys(doc, "", keys, 0);
  return {keys.begin(), keys.end()};
}

std::vector<std::string> fpsJsonKeys() {
  FpsResult r;
  r.cases.push_back({});
  return fpsJsonKeys(fpsJson(r));
}

namespace {
// "key=value" and "key=\"value with spaces\"" tokens, and bare words.
std::vector<std::string> lineTokens(const std::string& line) {
  std::vector<std::string> tokens;
  std::string cur;
  bool quoted = false, any = false;
  for (char c : line) {
    if (c == '"') {
      quoted = !quoted;
      any = true;
    } else if ((c == ' ' || c == '\t' || c == '\r' || c == '\n') && !quoted) {
      if (any) tokens.push_back(cur);
      cur.clear();
      any = false;
    } else {
      cur += c;
      any = true;
    }
  }
  if (any) tokens.push_back(cur);
  return tokens;
}

bool number(const std::string& text, double& out) {
  if (text.empty() || text.size() > 24) return false;
  size_t used = 0;
  try {
    out = std::stod(text, &used);
  } catch (...) {
    return false;
  }
  return used == text.size() && std::isfinite(out) && out >= 0;
}

template <class T>
bool field(const nlohmann::json& obj, const char* key, T& out, std::string& error, const std::string& where) {
  const auto it = obj.find(key);
  if (it == obj.end()) {
    error = where + " has no \"" + key + "\"";
    return false;
  }
  try {
    out = it->get<T>();
  } catch (...) {
    error = where + "." + key + " is not what it should be: " + io::jsonExcerpt(*it);
    return false;
  }
  return true;
}
}  // namespace

bool parseFpsJson(const nlohmann::json& doc, FpsResult& out, std::string& error) {
  if (!doc.is_object() || doc.value("format", "") != "crowdlab-fps") {
    error = "not a crowdlab fps result (no \"format\": \"crowdlab-fps\")";
    return false;
  }
  if (!field(doc, "format_version", out.format, error, "the result")) return false;
  if (out.format != kFpsFormat) {
    error = "a result of format " + std::to_string(out.format) + "; this crowdlab (" + crowdlabVersion() + ") reads format " +
            std::to_string(kFpsFormat);
    return false;
  }
  const auto object = [&](const char* key, nlohmann::json& o) {
    const auto it = doc.find(key);
    if (it == doc.end() || !it->is_object()) {
      error = std::string("the result has no \"") + key + "\" object";
      return false;
    }
    o = *it;
    return true;
  };
  nlohmann::json crowdlab, run, machine;
  if (!object("crowdlab", crowdlab) || !object("run", run) || !object("machine", machine)) return false;
  if (!field(crowdlab, "version", out.version, error, "crowdlab") || !field(crowdlab, "build_type", out.buildType, error, "crowdlab") ||
      !field(crowdlab, "platform", out.platform, error, "crowdlab") || !field(run, "width", out.width, error, "run") ||
      !field(run, "height", out.height, error, "run") || !field(run, "vsync", out.vsync, error, "run") ||
      !field(run, "quick", out.plan.quick, error, "run") || !field(run, "frames", out.plan.frames, error, "run") ||
      !field(run, "warmup_frames", out.plan.warmupFrames, error, "run") || !field(run, "seconds", out.seconds, error, "run"))
    return false;
  out.frameClock = run.value("frame_clock", "");
  if (!field(run, "passes", out.plan.passes, error, "run")) return false;
  FpsMachine& m = out.machine;
  if (!field(machine, "cpu", m.cpu, error, "machine") || !field(machine, "threads", m.threads, error, "machine") ||
      !field(machine, "gl_renderer", m.glRenderer, error, "machine") || !field(machine, "busy", m.busy, error, "machine"))
    return false;
  m.cpuSignature = machine.value("cpu_signature", "");
  m.glVendor = machine.value("gl_vendor", "");
  m.glVersion = machine.value("gl_version", "");
  m.os = machine.value("os", "");
  m.softwareRenderer = machine.value("software_renderer", false);
  m.busyWhy = machine.value("busy_why", "");
  const auto cases = doc.find("cases");
  if (cases == doc.end() || !cases->is_array() || cases->empty()) {
    error = "the result has no cases";
    return false;
  }
  for (const nlohmann::json& c : *cases) {
    FpsCaseResult cr;
    if (!c.is_object() || !field(c, "name", cr.name, error, "a case")) {
      if (error.empty()) error = "a case is not an object";
      return false;
    }
    if (!findFpsCase(cr.name)) {
      error = "unknown case " + io::quoteText(cr.name) + " (this crowdlab's cases are those of `crowdlab fps --list`)";
      return false;
    }
    const std::string where = "case " + cr.name;
    if (!field(c, "fps_median", cr.fpsMedian, error, where) || !field(c, "fps_low_1pct", cr.fpsLow1, error, where) ||
        !field(c, "skipped", cr.skipped, error, where) || !field(c, "frames", cr.frames, error, where))
      return false;
    cr.scene = c.value("scene", "");
    cr.agents = c.value("agents", size_t(0));
    cr.simMs = c.value("sim_ms", 0.0);
    cr.renderMs = c.value("render_ms", 0.0);
    cr.frameMs = c.value("frame_ms", 0.0);
    cr.drawCalls = c.value("draw_calls", 0);
    if (const auto passes = c.find("pass_fps"); passes != c.end() && passes->is_array())
      for (const nlohmann::json& f : *passes)
        if (f.is_number()) cr.passFps.push_back(f.get<double>());
    out.cases.push_back(cr);
  }
  return true;
}

bool parseFpsLine(const std::string& line, FpsResult& out, std::string& error) {
  const std::vector<std::string> t = lineTokens(line);
  if (t.size() < 8 || t[0] != "crowdlab-fps") {
    error = "not a crowdlab fps line (it starts with \"crowdlab-fps\")";
    return false;
  }
  double format = 0;
  if (!number(t[1], format) || format != double(kFpsFormat)) {
    error = "a line of format " + io::quoteText(t[1]) + "; this crowdlab (" + crowdlabVersion() + ") reads format " +
            std::to_string(kFpsFormat);
    return false;
  }
  if (t[2].size() < 2 || t[2][0] != 'v') {
    error = "no version in the line (expected v<version> after the format, got " + io::quoteText(t[2]) + ")";
    return false;
  }
  out.version = t[2].substr(1);
  out.buildType = t[3];
  out.platform = t[4];
  const size_t x = t[5].find('x');
  double w = 0, h = 0;
  if (x == std::string::npos || !number(t[5].substr(0, x), w) || !number(t[5].substr(x + 1), h)) {
    error = "no size in the line (expected WxH, got " + io::quoteText(t[5]) + ")";
    return false;
  }
  out.width = int(w);
  out.height = int(h);
  out.vsync = t[6] == "vsync=on";
  out.plan.quick = t[7] == "quick";
  size_t i = 8;
  for (; i < t.size() && t[i] != "|"; ++i) {
    const size_t eq = t[i].find('=');
    const std::string name = t[i].substr(0, eq);
    if (eq == std::string::npos) {
      error = "a case without figures in the line: " + io::quoteText(t[i]);
      return false;
    }
    if (!findFpsCase(name)) {
      error = "unknown case " + io::quoteText(name) + " (this crowdlab's cases are those of `crowdlab fps --list`)";
      return false;
    }
    FpsCaseResult c;
    c.name = name;
    const std::string v = t[i].substr(eq + 1);
    const size_t slash = v.find('/');
    if (v == "skip") {
      c.skipped = "skipped";
    } else if (slash == std::string::npos || !number(v.substr(0, slash), c.fpsMedian) || !number(v.substr(slash + 1), c.fpsLow1)) {
      error = "case " + name + ": expected FPS/LOW, got " + io::quoteText(v);
      return false;
    }
    out.cases.push_back(c);
  }
  if (out.cases.empty()) {
    error = "the line has no cases";
    return false;
  }
  for (++i; i < t.size(); ++i) {
    const size_t eq = t[i].find('=');
    if (eq == std::string::npos) continue;
    const std::string key = t[i].substr(0, eq), value = t[i].substr(eq + 1);
    double n = 0;
    if (key == "cpu") out.machine.cpu = value;
    else if (key == "threads" && number(value, n)) out.machine.threads = int(n);
    else if (key == "gl") out.machine.glRenderer = value;
    else if (key == "sw") out.machine.softwareRenderer = value == "1";
    else if (key == "os") out.machine.os = value;
    else if (key == "busy") out.machine.busy = value == "yes";
  }
  return true;
}

}  // namespace app
