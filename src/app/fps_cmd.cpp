#include "app/fps_cmd.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>

#include "app/cli.hpp"
#include "app/flag_reader.hpp"
#include "app/fps_run.hpp"
#include "app/run_modes.hpp"
#include "io/atomic_file.hpp"
#include "io/user_files.hpp"

namespace app {

namespace {

constexpr const char* kUsage =
    "usage: crowdlab fps [--size WxH] [--quick] [--json FILE] [--cases a,b,...]\n"
    "       crowdlab fps --compare A.json B.txt ... [--plot FILE.svg]   (results: JSON files, or text with pasted lines)\n"
    "       crowdlab fps --list | --keys\n";

struct FpsFlags {
  int width = 1920, height = 1080;
  bool quick = false, list = false, keys = false, help = false, compare = false;
  std::string json, plot, cases;
  std::vector<std::string> compareFiles;
};

bool parseSize(const std::string& v, int& w, int& h, std::string& error) {
  const size_t x = v.find('x');
  uint64_t a = 0, b = 0;
  std::string unused;
  if (x == std::string::npos || !FlagReader::wholeNumber("--size", v.substr(0, x), 320, 16384, a, unused) ||
      !FlagReader::wholeNumber("--size", v.substr(x + 1), 240, 16384, b, unused)) {
    error = "--size expects WIDTHxHEIGHT from 320x240 to 16384x16384, got " + io::quoteText(v);
    return false;
  }
  w = int(a);
  h = int(b);
  return true;
}

bool parseFlags(const std::vector<std::string>& args, FpsFlags& f, std::string& error) {
  FlagReader flags(args);
  std::string a, v;
  while (!flags.done()) {
    const std::string& next = flags.peek();
    if (next == "--quick" || next == "--list" || next == "--keys" || next == "--help" || next == "-h") {
      (next == "--quick" ? f.quick : next == "--list" ? f.list : next == "--keys" ? f.keys : f.help) = true;
      flags.skip();
      continue;
    }
    if (next == "--compare") {
      f.compare = true;
      flags.skip();
      for (std::string file; flags.nextPlain(file);) f.compareFiles.push_back(file);
      if (f.compareFiles.empty()) {
        error = "--compare needs result files (JSON, or text with pasted lines)";
        return false;
      }
      continue;
    }
    if (!flags.take({"--size", "--json", "--plot", "--cases"}, {}, a, v, error)) return false;
    if (a == "--size" && !parseSize(v, f.width, f.height, error)) return false;
    if (a == "--json") f.json = v;
    if (a == "--plot") f.plot = v;
    if (a == "--cases") f.cases = v;
  }
  if (!f.plot.empty() && !f.compare) {
    error = "--plot draws a comparison: give it with --compare";
    return false;
  }
  if (!f.plot.empty() && !f.plot.ends_with(".svg")) {
    error = "--plot writes SVG: give a FILE.svg, got " + io::quoteText(f.plot);
    return false;
  }
  if (f.compare && (!f.json.empty() || !f.cases.empty() || f.quick)) {
    error = "--compare reads results; --json, --cases and --quick belong to a run";
    return false;
  }
  return true;
}

// The cases named by --cases (all when empty), in the standard order.
bool chosenCases(const std::string& list, std::vector<const FpsCase*>& out, std::string& error) {
  if (list.empty()) {
    for (const FpsCase& c : fpsCases()) out.push_back(&c);
    return true;
  }
  std::vector<std::string> names;
  for (size_t start = 0; start <= list.size();) {
    const size_t comma = std::min(list.find(',', start), list.size());
    names.push_back(list.substr(start, comma - start));
    start = comma + 1;
  }
  for (const std::string& name : names)
    if (!findFpsCase(name)) {
      error = "unknown case " + io::quoteText(name) + " (crowdlab fps --list names them)";
      return false;
    }
  for (const FpsCase& c : fpsCases())
    if (std::find(names.begin(), names.end(), c.name) != names.end()) out.push_back(&c);
  return true;
}

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string label(size_t i) { return std::string(1, char('A' + i % 26)) + (i >= 26 ? std::to_string(i / 26) : ""); }

// One file's results: a JSON result, or every pasted line in a text file.
bool readResults(const std::string& path, std::vector<FpsResult>& out, std::string& error) {
  std::string text;
  if (io::readUserFile(path, text, error) != io::ReadStatus::Ok) return false;
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && text[first] == '{') {
    nlohmann::json doc;
    FpsResult r;
    if (!io::parseUserJson(text, doc, error) || !parseFpsJson(doc, r, error)) {
      error = path + ": " + error;
      return false;
    }
    r.source = path;
    out.push_back(r);
    return true;
  }
  size_t found = 0, lineNo = 0;
  for (size_t start = 0; start < text.size();) {
    const size_t end = std::min(text.find('\n', start), text.size());
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    ++lineNo;
    const size_t at = line.find("crowdlab-fps ");
    if (at == std::string::npos) continue;
    FpsResult r;
    if (!parseFpsLine(line.substr(at), r, error)) {
      error = path + ":" + std::to_string(lineNo) + ": " + error;
      return false;
    }
    r.source = path + ":" + std::to_string(lineNo);
    out.push_back(r);
    ++found;
  }
  if (!found) {
    error = path + ": not a crowdlab fps result (neither its JSON nor a line starting \"crowdlab-fps\")";
    return false;
  }
  return true;
}

const FpsCaseResult* caseIn(const FpsResult& r, const std::string& name) {
  for (const FpsCaseResult& c : r.cases)
    if (c.name == name) return &c;
  return nullptr;
}

std::string machineLabel(const FpsResult& r) {
  std::string s = (r.machine.cpu.empty() ? "cpu unknown" : r.machine.cpu) + ", " +
                  (r.machine.glRenderer.empty() ? "GL unknown" : r.machine.glRenderer) + (r.machine.softwareRenderer ? " (software)" : "") +
                  ", " + r.platform + " " + std::to_string(r.width) + "x" + std::to_string(r.height) + (r.plan.quick ? ", quick" : "");
  if (r.machine.busy) s += ", BUSY";
  return s;
}

// What differs between two runs beyond the machine, for a note under the table.
std::string setupDifferences(const FpsResult& a, const FpsResult& b) {
  std::vector<std::string> d;
  if (a.width != b.width || a.height != b.height)
    d.push_back("size " + std::to_string(b.width) + "x" + std::to_string(b.height) + " vs " + std::to_string(a.width) + "x" +
                std::to_string(a.height));
  if (a.plan.quick != b.plan.quick) d.push_back(b.plan.quick ? "a quick run vs a full one" : "a full run vs a quick one");
  if (a.buildType != b.buildType) d.push_back("build " + b.buildType + " vs " + a.buildType);
  if (a.vsync != b.vsync) d.push_back(std::string("vsync ") + (b.vsync ? "on" : "off"));
  std::string out;
  for (const std::string& s : d) out += (out.empty() ? "" : ", ") + s;
  return out;
}

std::vector<std::string> caseNamesOf(const std::vector<FpsResult>& runs) {
  std::vector<std::string> names;
  for (const FpsCase& c : fpsCases())
    for (const FpsResult& r : runs)
      if (caseIn(r, c.name)) {
        names.push_back(c.name);
        break;
      }
  return names;
}

std::string xml(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '"') out += "&quot;";
    else if (static_cast<unsigned char>(c) >= 0x20) out += c;
  }
  return out;
}

int compare(const FpsFlags& f) {
  std::vector<FpsResult> runs;
  std::string error;
  for (const std::string& path : f.compareFiles)
    if (!readResults(path, runs, error)) {
      std::fprintf(stderr, "crowdlab fps: %s\n", error.c_str());
      return 2;
    }
  // Another version's cases may be set up differently: its figures are not this version's to compare.
  for (const FpsResult& r : runs)
    if (r.version != crowdlabVersion()) {
      std::fprintf(stderr, "crowdlab fps: %s: a result of crowdlab %s, this is %s (the cases may be set up differently); "
                   "run both machines with one version\n", r.source.c_str(), io::quoteText(r.version).c_str(), crowdlabVersion().c_str());
      return 2;
    }
  std::printf("%s", fpsCompareTable(runs).c_str());
  if (!f.plot.empty()) {
    if (!io::writeFileAtomically(f.plot, fpsCompareSvg(runs), error)) {
      std::fprintf(stderr, "crowdlab fps: %s\n", error.c_str());
      return 1;
    }
    std::printf("plot=%s\n", f.plot.c_str());
  }
  return 0;
}

}  // namespace

std::string fpsCompareTable(const std::vector<FpsResult>& runs) {
  std::string out;
  for (size_t i = 0; i < runs.size(); ++i) out += label(i) + ": " + machineLabel(runs[i]) + "  [" + runs[i].source + "]\n";
  char cell[128];
  std::snprintf(cell, sizeof cell, "%-16s", "case");
  out += cell;
  for (size_t i = 0; i < runs.size(); ++i) {
    std::snprintf(cell, sizeof cell, " %16s", (label(i) + " fps (1% low)").c_str());
    out += cell;
    if (i > 0) {
      std::snprintf(cell, sizeof cell, " %7s", (label(i) + "/" + label(0)).c_str());
      out += cell;
    }
  }
  out += "\n";
  for (const std::string& name : caseNamesOf(runs)) {
    std::snprintf(cell, sizeof cell, "%-16s", name.c_str());
    out += cell;
    const FpsCaseResult* first = caseIn(runs[0], name);
    for (size_t i = 0; i < runs.size(); ++i) {
      const FpsCaseResult* c = caseIn(runs[i], name);
      const std::string figure = !c ? "-" : !c->skipped.empty() ? "skipped" : fixed(c->fpsMedian, 1) + " (" + fixed(c->fpsLow1, 1) + ")";
      std::snprintf(cell, sizeof cell, " %16s", figure.c_str());
      out += cell;
      if (i == 0) continue;
      const bool both = c && first && c->skipped.empty() && first->skipped.empty() && first->fpsMedian > 0;
      std::snprintf(cell, sizeof cell, " %7s", both ? (fixed(c->fpsMedian / first->fpsMedian, 2) + "x").c_str() : "-");
      out += cell;
    }
    out += "\n";
  }
  for (size_t i = 1; i < runs.size(); ++i)
    if (const std::string d = setupDifferences(runs[0], runs[i]); !d.empty())
      out += "note: " + label(i) + " differs from " + label(0) + " in more than the machine: " + d + "\n";
  for (size_t i = 0; i < runs.size(); ++i)
    if (runs[i].machine.busy)
      out += "note: " + label(i) + " ran on a busy machine" + (runs[i].machine.busyWhy.empty() ? "" : " (" + runs[i].machine.busyWhy + ")") + "\n";
  return out;
}

std::string fpsCompareSvg(const std::vector<FpsResult>& runs) {
  static const char* kColors[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#9c755f"};
  const std::vector<std::string> names = caseNamesOf(runs);
  const double barW = 22, gap = 28, left = 60, top = 50, plotH = 260;
  const double groupW = std::max(barW * double(runs.size()) + gap, 110.0);  // room for the case's name under it
  size_t longest = 0;
  for (size_t i = 0; i < runs.size(); ++i) longest = std::max(longest, (label(i) + ": " + machineLabel(runs[i])).size());
  const double width = std::max({left + groupW * double(names.size()) + 20, left + 18 + 7.0 * double(longest) + 20, 560.0});
  const double legendH = 18.0 * double(runs.size());
  const double height = top + plotH + 70 + legendH;
  double most = 1.0;
  for (const std::string& name : names) {
    const FpsCaseResult* first = caseIn(runs[0], name);
    for (const FpsResult& r : runs)
      if (const FpsCaseResult* c = caseIn(r, name); c && first && c->skipped.empty() && first->skipped.empty() && first->fpsMedian > 0)
        most = std::max(most, c->fpsMedian / first->fpsMedian);
  }
  const double top_ = std::ceil(most * 1.15 * 2) / 2;  // the axis ends on a half
  auto y = [&](double ratio) { return top + plotH * (1.0 - ratio / top_); };
  std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + fixed(width, 0) + "\" height=\"" + fixed(height, 0) +
                  "\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  s += "<text x=\"" + fixed(left, 0) + "\" y=\"22\" font-size=\"15\">crowdlab fps: median FPS relative to " + label(0) +
       " (on each bar: its FPS)</text>\n";
  for (double r = 0; r <= top_ + 1e-9; r += top_ > 4 ? 1.0 : 0.5) {
    s += "<line x1=\"" + fixed(left, 0) + "\" x2=\"" + fixed(width - 20, 0) + "\" y1=\"" + fixed(y(r), 1) + "\" y2=\"" + fixed(y(r), 1) +
         "\" stroke=\"" + (r == 1.0 ? "#444" : "#ddd") + "\"/>\n";
    s += "<text x=\"" + fixed(left - 6, 0) + "\" y=\"" + fixed(y(r) + 4, 1) + "\" text-anchor=\"end\">" + fixed(r, 1) + "x</text>\n";
  }
  for (size_t k = 0; k < names.size(); ++k) {
    const double x0 = left + (groupW - barW * double(runs.size())) / 2 + groupW * double(k);
    const FpsCaseResult* first = caseIn(runs[0], names[k]);
    for (size_t i = 0; i < runs.size(); ++i) {
      const FpsCaseResult* c = caseIn(runs[i], names[k]);
      const double x = x0 + barW * double(i);
      if (!c || !c->skipped.empty() || !first || !first->skipped.empty() || first->fpsMedian <= 0) {
        s += "<text x=\"" + fixed(x + barW / 2, 1) + "\" y=\"" + fixed(y(0) - 4, 1) + "\" text-anchor=\"middle\" fill=\"#888\">-</text>\n";
        continue;
      }
      const double ratio = c->fpsMedian / first->fpsMedian;
      s += "<rect x=\"" + fixed(x + 1, 1) + "\" y=\"" + fixed(y(ratio), 1) + "\" width=\"" + fixed(barW - 2, 1) + "\" height=\"" +
           fixed(y(0) - y(ratio), 1) + "\" fill=\"" + kColors[i % 8] + "\"/>\n";
      const double ly = y(ratio) - 4;
      s += "<text transform=\"translate(" + fixed(x + barW / 2 + 4, 1) + "," + fixed(ly, 1) +
           ") rotate(-90)\" font-size=\"10\">" + fixed(c->fpsMedian, c->fpsMedian < 10 ? 1 : 0) + "</text>\n";
    }
    s += "<text x=\"" + fixed(x0 + barW * double(runs.size()) / 2, 1) + "\" y=\"" + fixed(y(0) + 18, 1) + "\" text-anchor=\"middle\">" +
         xml(names[k]) + "</text>\n";
  }
  for (size_t i = 0; i < runs.size(); ++i) {
    const double ly = top + plotH + 45 + 18.0 * double(i);
    s += "<rect x=\"" + fixed(left, 0) + "\" y=\"" + fixed(ly - 10, 1) + "\" width=\"12\" height=\"12\" fill=\"" + kColors[i % 8] + "\"/>\n";
    s += "<text x=\"" + fixed(left + 18, 0) + "\" y=\"" + fixed(ly, 1) + "\">" + xml(label(i) + ": " + machineLabel(runs[i])) + "</text>\n";
  }
  return s + "</svg>\n";
}

int runFps(const std::vector<std::string>& args) {
  FpsFlags f;
  std::string error;
  if (!parseFlags(args, f, error)) {
    std::fprintf(stderr, "crowdlab fps: %s\n%s", error.c_str(), kUsage);
    return 2;
  }
  if (FlagReader::parseOnly()) return 0;
  if (f.help) {
    std::printf("%s", kUsage);
    return 0;
  }
  if (f.list) {
    for (const FpsCase& c : fpsCases()) {
      std::string sets;
      for (const std::string& s : c.sets) sets += " " + s;
      std::printf("%-16s %s%s%s\n", c.name, c.scene, sets.c_str(), c.needsCompute ? "   (needs OpenGL 4.3 compute)" : "");
    }
    return 0;
  }
  if (f.keys) {
    for (const std::string& k : fpsJsonKeys()) std::printf("%s\n", k.c_str());
    return 0;
  }
  if (f.compare) return compare(f);
  std::vector<const FpsCase*> cases;
  if (!chosenCases(f.cases, cases, error)) {
    std::fprintf(stderr, "crowdlab fps: %s\n", error.c_str());
    return 2;
  }
  Options o;
  o.scene = cases.front()->scene;  // the window opens on the first case's scene; each case then sets its own
  o.seed = 1;
  o.width = f.width;
  o.height = f.height;
  o.sizeGiven = true;
  o.vsync = false;
  o.fps = std::make_shared<FpsDriver>(fpsPlan(f.quick), cases);
  if (!f.json.empty() && !o.fps->json().open(f.json, {}, error)) {  // held until the run's end
    std::fprintf(stderr, "crowdlab fps: %s\n", error.c_str());
    return 1;
  }
  return runWindow(o);
}

}  // namespace app
