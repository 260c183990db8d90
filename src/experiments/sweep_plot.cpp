// The sweep's figure as SVG: written by hand (no plotting library), sized for a slide: 1200 units
// wide, text of 18-28 units, colours that stay apart for colour-blind readers (Okabe and Ito).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include "experiments/sweep.hpp"
#include "scenes/scene.hpp"
#include "sim/core/metric.hpp"
#include "sim/models/pedestrians.hpp"

namespace experiments {

namespace {

const char* const kPalette[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"};

std::string esc(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else if (c == '"') out += "&quot;";
    else if (static_cast<unsigned char>(c) >= 0x20) out += c;
  }
  return out;
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

// A tick's text: short, no trailing zeros, thousands as 10k.
std::string tickText(double v) {
  char buf[32];
  const double a = std::fabs(v);
  if (a >= 1e4 && std::fmod(a, 1000.0) == 0.0) std::snprintf(buf, sizeof buf, "%gk", v / 1000.0);
  else if (a != 0.0 && (a < 1e-3 || a >= 1e6)) std::snprintf(buf, sizeof buf, "%.0e", v);
  else std::snprintf(buf, sizeof buf, "%g", std::round(v * 1e6) / 1e6);
  return buf;
}

// Round numbers covering [lo, hi]: steps of 1, 2 or 5 times a power of ten, about `target` of them.
std::vector<double> niceTicks(double lo, double hi, int target) {
  if (!(hi > lo)) {
    const double pad = lo == 0.0 ? 1.0 : std::fabs(lo) * 0.1;
    lo -= pad;
    hi += pad;
  }
  const double raw = (hi - lo) / target;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * mag >= raw) {
      step = m * mag;
      break;
    }
  std::vector<double> ticks;
  const long first = long(std::floor(lo / step + 1e-9)), last = long(std::ceil(hi / step - 1e-9));
  for (long k = first; k <= last; ++k) ticks.push_back(k == 0 ? 0.0 : double(k) * step);
  return ticks;
}

std::vector<double> logTicks(double lo, double hi) {
  std::vector<double> ticks;
  const int a = int(std::floor(std::log10(lo) + 1e-9)), b = int(std::ceil(std::log10(hi) - 1e-9));
  for (int e = a; e <= b; ++e) {
    for (double m : {1.0, 2.0, 5.0}) {
      if (b - a > 3 && m != 1.0) continue;  // many decades: decades only
      const double t = m * std::pow(10.0, e);
      if (t >= lo * 0.999 && t <= hi * 1.001) ticks.push_back(t);
    }
  }
  if (ticks.size() < 2) {
    ticks = {std::pow(10.0, a), std::pow(10.0, b)};
    if (a == b) ticks[1] = std::pow(10.0, b + 1);
  }
  return ticks;
}

struct Scale {
  double lo = 0, hi = 1, p0 = 0, p1 = 1;  // data range -> pixel range
  bool log = false;
  double operator()(double v) const {
    const double t = log ? (std::log10(v) - std::log10(lo)) / (std::log10(hi) - std::log10(lo)) : (v - lo) / (hi - lo);
    return p0 + t * (p1 - p0);
  }
};

// The axis range and ticks for `values` (positive only on a log axis).
void fitAxis(std::vector<double> values, bool log, Scale& s, std::vector<double>& ticks, bool fromZero,
             bool wholeDecades = false) {
  if (log) values.erase(std::remove_if(values.begin(), values.end(), [](double v) { return !(v > 0); }), values.end());
  if (values.empty()) values = {log ? 1.0 : 0.0, log ? 10.0 : 1.0};
  double lo = *std::min_element(values.begin(), values.end()), hi = *std::max_element(values.begin(), values.end());
  if (log) {
    if (wholeDecades) {  // the values' axis ends on decades, so both ends carry a number
      lo = std::pow(10.0, std::floor(std::log10(lo) + 1e-9));
      hi = std::pow(10.0, std::ceil(std::log10(hi) - 1e-9));
    }
    ticks = logTicks(lo, hi);
    s.lo = std::min(lo, ticks.front());
    s.hi = std::max(hi, ticks.back());
    if (s.hi / s.lo < 1.5) s.hi = s.lo * 10.0;
  } else {
    if (fromZero && lo > 0 && lo < 0.5 * hi) lo = 0;  // a quantity starting near 0 is read against 0
    ticks = niceTicks(lo, hi, 6);
    s.lo = ticks.front();
    s.hi = ticks.back();
  }
  s.log = log;
}

struct Palette {
  // Viridis at a few stops, linearly between: dark purple (low) to yellow (high).
  static std::string at(double t) {
    static const double stops[][3] = {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
    t = std::clamp(t, 0.0, 1.0) * 4.0;
    const int i = std::min(int(t), 3);
    const double f = t - i;
    char buf[16];
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x", int(stops[i][0] + f * (stops[i + 1][0] - stops[i][0])),
                  int(stops[i][1] + f * (stops[i + 1][1] - stops[i][1])),
                  int(stops[i][2] + f * (stops[i + 1][2] - stops[i][2])));
    return buf;
  }
};

struct Svg {
  std::string out;
  void text(double x, double y, const std::string& s, int size, const char* anchor = "start", const char* extra = "") {
    out += "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" font-size=\"" + std::to_string(size) + "\" text-anchor=\"" +
           anchor + "\"" + extra + ">" + esc(s) + "</text>\n";
  }
  void line(double x0, double y0, double x1, double y1, const char* stroke, double width, const char* extra = "") {
    out += "<line x1=\"" + num(x0) + "\" y1=\"" + num(y0) + "\" x2=\"" + num(x1) + "\" y2=\"" + num(y1) +
           "\" stroke=\"" + stroke + "\" stroke-width=\"" + num(width) + "\"" + extra + "/>\n";
  }
};

int seedsOf(const SweepTable& t) {
  std::map<uint64_t, int> seeds;
  for (const SweepTable::Row& r : t.rows) seeds[r.seed] = 1;
  return int(seeds.size());
}

}  // namespace

std::span<const ReferenceData> referenceData() {
  static const ReferenceData data[] = {
      {"weidmann", "walking_speed", "Weidmann (1993)", [](double rho) { return sim::weidmannSpeed(rho); }, nullptr},
      {"bottleneck", "flow", "experiments: 1.6-2.2 /(m s)",
       [](double w) { return sim::kBottleneckFlowLow * w; }, [](double w) { return sim::kBottleneckFlowHigh * w; }},
      {"bottleneck", "specific_flow", "experiments: 1.6-2.2 /(m s)", [](double) { return sim::kBottleneckFlowLow; },
       [](double) { return sim::kBottleneckFlowHigh; }},
  };
  return data;
}

namespace {
std::unique_ptr<scenes::Scene> sceneNamed(const std::string& name) {
  const scenes::SceneEntry* entry = scenes::findScene(name);
  return entry ? scenes::declarationsOf(*entry) : nullptr;
}

// `unit` is the parameter's, from its declaration.
std::string axisTitle(const std::string& param, const std::string& label, const std::string& unit) {
  // The name once: "agents (N)" already names N.
  std::string t = label.empty() ? param
                  : label.find("(" + param + ")") != std::string::npos ? label
                                                                      : label + " [" + param + "]";
  if (!unit.empty() && label.find('(') == std::string::npos) t += " (" + unit + ")";
  return t;
}
}  // namespace

PlotOptions plotOptionsOf(const SweepTable& table) {
  PlotOptions o;
  if (!table.rows.empty()) o.scene = table.rows[0].scene;
  std::unique_ptr<scenes::Scene> scene = sceneNamed(o.scene);
  for (const std::string& p : table.params) {
    const scenes::Param* d = scene ? scenes::findParam(scene->params(), p) : nullptr;
    o.axisLabels.push_back(axisTitle(p, d ? d->label : "", d ? d->unit : ""));
  }
  return o;
}

PlotOptions plotOptionsOf(const SweepSpec& spec) {
  PlotOptions o;
  o.scene = spec.scene;
  std::unique_ptr<scenes::Scene> scene = sceneNamed(spec.scene);
  for (const SweepAxis& a : spec.axes) {
    const scenes::Param* d = scene ? scenes::findParam(scene->params(), a.param) : nullptr;
    o.axisLabels.push_back(axisTitle(a.param, a.label, d ? d->unit : ""));
  }
  o.logX = spec.logX;
  o.logY = spec.logY;
  o.slopes = spec.slopes;
  o.references = spec.references;
  o.title = spec.title;
  char note[160];
  std::string reductions;
  for (const MetricSpec& m : spec.metrics)
    if (reductions.find(scenes::reduceName(m.reduce)) == std::string::npos)
      reductions += (reductions.empty() ? "" : "/") + std::string(scenes::reduceName(m.reduce));
  std::snprintf(note, sizeof note, "%s over %g-%g s simulated", reductions.c_str(), spec.from, spec.to);
  o.note = note;
  for (const std::string& s : spec.sets) o.note += ", " + s;
  return o;
}

std::string sweepSvg(const SweepTable& table, const PlotOptions& options) {
  const bool heat = table.params.size() == 2;
  const double W = options.width, panelH = heat ? 600 : 560, top = 96;
  const double left = 130, right = heat ? 190 : 290, plotTop = 30, plotBottom = 110;
  const double H = top + panelH * double(table.metrics.size()) + 10;
  const int seeds = seedsOf(table);
  Svg svg;
  svg.out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(W) + "\" height=\"" + num(H) +
            "\" viewBox=\"0 0 " + num(W) + " " + num(H) + "\" font-family=\"DejaVu Sans, Arial, sans-serif\">\n";
  svg.out += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  std::string title = options.title;
  if (title.empty()) {
    std::string metrics;
    for (const std::string& m : table.metrics) metrics += (metrics.empty() ? "" : ", ") + m;
    title = options.scene + ": " + metrics + " against " + table.params[0] + (heat ? " and " + table.params[1] : "");
  }
  svg.text(W / 2, 40, title, 28, "middle", " font-weight=\"bold\"");
  char sub[400];
  std::snprintf(sub, sizeof sub, "scene %s, %d seed%s per point, %zu runs%s%s%s", options.scene.c_str(), seeds,
                seeds == 1 ? "" : "s", table.rows.size(), options.note.empty() ? "" : "; ", options.note.c_str(),
                heat ? "; colour: mean over seeds" : "");
  svg.text(W / 2, 72, sub, 18, "middle", " fill=\"#444\"");

  for (size_t m = 0; m < table.metrics.size(); ++m) {
    const double y0 = top + panelH * double(m) + plotTop, y1 = top + panelH * double(m + 1) - plotBottom;
    const double x0 = left, x1 = W - right;
    const std::vector<SweepCurve> curves = sweepCurves(table, m);
    std::vector<double> xs, ys, vs;
    std::map<double, std::string> xCats, yCats;
    bool xNumeric = true, yNumeric = true;
    for (const SweepCurve& c : curves)
      for (const SweepPoint& p : c.points) {
        xs.push_back(p.x);
        ys.push_back(p.y);
        char* end = nullptr;
        std::strtod(p.xText.c_str(), &end);
        if (*end || p.xText.empty()) xNumeric = false;
        xCats[p.x] = p.xText;
        if (heat) {
          std::strtod(p.yText.c_str(), &end);
          if (*end || p.yText.empty()) yNumeric = false;
          yCats[p.y] = p.yText;
        }
        if (p.seeds) {
          vs.push_back(p.min);
          vs.push_back(p.max);
        }
      }
    const std::string xTitle = options.axisLabels.size() > 0 ? options.axisLabels[0] : table.params[0];
    // The measured data drawn in this panel (a curve or a band over the sweep's x range).
    std::vector<const ReferenceData*> refs;
    if (!heat)
      for (const std::string& name : options.references)
        for (const ReferenceData& r : referenceData())
          if (name == r.name && table.metrics[m] == r.metric) refs.push_back(&r);
    for (const ReferenceData* r : refs)
      for (double x : xs) {
        vs.push_back(r->low(x));
        if (r->high) vs.push_back(r->high(x));
      }
    svg.out += "<g>\n";
    if (!heat) {
      Scale sx{0, 1, x0, x1}, sy{0, 1, y1, y0};
      std::vector<double> xt, yt;
      fitAxis(xs, options.logX && xNumeric, sx, xt, false);
      if (!sx.log) {  // markers at the ends stay inside the frame
        const double pad = 0.03 * (sx.hi - sx.lo);
        sx.lo -= pad;
        sx.hi += pad;
      } else {
        sx.lo /= 1.15;
        sx.hi *= 1.15;
      }
      fitAxis(vs, options.logY, sy, yt, true, true);
      sx.p0 = x0;
      sx.p1 = x1;
      sy.p0 = y1;
      sy.p1 = y0;
      if (!xNumeric) {  // categories: evenly spaced, half a slot of margin
        sx.lo = -0.5;
        sx.hi = double(xCats.size()) - 0.5;
        xt.clear();
        for (const auto& c : xCats) xt.push_back(c.first);
      }
      // grid and ticks
      for (double t : yt) {
        const double y = sy(t);
        svg.line(x0, y, x1, y, "#ddd", 1);
        svg.text(x0 - 10, y + 6, tickText(t), 18, "end");
      }
      for (double t : xt) {
        const double x = sx(t);
        svg.line(x, y0, x, y1, "#eee", 1);
        svg.line(x, y1, x, y1 + 8, "#000", 1.5);
        svg.text(x, y1 + 30, xNumeric ? tickText(t) : xCats[t], 18, "middle");
      }
      svg.out += "<rect x=\"" + num(x0) + "\" y=\"" + num(y0) + "\" width=\"" + num(x1 - x0) + "\" height=\"" +
                 num(y1 - y0) + "\" fill=\"none\" stroke=\"#000\" stroke-width=\"1.5\"/>\n";
      svg.text((x0 + x1) / 2, y1 + 68, xTitle, 22, "middle");
      svg.text(0, 0, std::string(sim::metricTitle(table.metrics[m])), 22, "middle",
               (" transform=\"translate(" + num(34) + "," + num((y0 + y1) / 2) + ") rotate(-90)\"").c_str());
      // Reference data first, under the curves, clipped to the frame.
      const std::string clip = "clip" + std::to_string(m);
      if (!refs.empty())
        svg.out += "<clipPath id=\"" + clip + "\"><rect x=\"" + num(x0) + "\" y=\"" + num(y0) + "\" width=\"" +
                   num(x1 - x0) + "\" height=\"" + num(y1 - y0) + "\"/></clipPath>\n";
      for (const ReferenceData* r : refs) {
        constexpr int kSamples = 120;
        std::string lowLine, highLine;
        for (int k = 0; k <= kSamples; ++k) {
          const double x = sx.lo + (sx.hi - sx.lo) * double(k) / kSamples;
          if (sx.log && !(x > 0)) continue;
          lowLine += num(sx(x)) + "," + num(sy(r->low(x))) + " ";
        }
        if (r->high) {
          for (int k = kSamples; k >= 0; --k) {
            const double x = sx.lo + (sx.hi - sx.lo) * double(k) / kSamples;
            if (sx.log && !(x > 0)) continue;
            highLine += num(sx(x)) + "," + num(sy(r->high(x))) + " ";
          }
          svg.out += "<polygon clip-path=\"url(#" + clip + ")\" points=\"" + lowLine + highLine +
                     "\" fill=\"#2ca02c\" fill-opacity=\"0.15\" stroke=\"#2ca02c\" stroke-width=\"1.5\" stroke-dasharray=\"6,4\"/>\n";
        } else {
          svg.out += "<polyline clip-path=\"url(#" + clip + ")\" points=\"" + lowLine +
                     "\" fill=\"none\" stroke=\"#222\" stroke-width=\"3\" stroke-dasharray=\"10,6\"/>\n";
        }
      }
      auto visible = [&](const SweepPoint& p) {
        return p.seeds > 0 && (!sx.log || p.x > 0) && (!sy.log || (p.min > 0 && p.max > 0));
      };
      for (size_t c = 0; c < curves.size(); ++c) {
        const char* colour = kPalette[c % std::size(kPalette)];
        std::string band, upper, lower, line;
        std::vector<const SweepPoint*> pts;
        for (const SweepPoint& p : curves[c].points)
          if (visible(p)) pts.push_back(&p);
        for (const SweepPoint* p : pts) upper += num(sx(p->x)) + "," + num(sy(p->max)) + " ";
        for (auto it = pts.rbegin(); it != pts.rend(); ++it) lower += num(sx((*it)->x)) + "," + num(sy((*it)->min)) + " ";
        for (const SweepPoint* p : pts) line += num(sx(p->x)) + "," + num(sy(p->mean)) + " ";
        if (seeds > 1 && pts.size() > 1)
          svg.out += "<polygon points=\"" + upper + lower + "\" fill=\"" + colour + "\" fill-opacity=\"0.18\" stroke=\"none\"/>\n";
        if (pts.size() > 1)
          svg.out += "<polyline points=\"" + line + "\" fill=\"none\" stroke=\"" + colour + "\" stroke-width=\"3\"/>\n";
        for (const SweepPoint* p : pts) {
          if (seeds > 1)
            svg.line(sx(p->x), sy(p->min), sx(p->x), sy(p->max), colour, 1.5, " stroke-opacity=\"0.6\"");
          svg.out += "<circle cx=\"" + num(sx(p->x)) + "\" cy=\"" + num(sy(p->mean)) + "\" r=\"5.5\" fill=\"" + colour +
                     "\" stroke=\"white\" stroke-width=\"1.5\"><title>" + esc(curves[c].series) + " " +
                     esc(table.params[0]) + "=" + esc(p->xText) + ": mean " + tickText(p->mean) + ", min " +
                     tickText(p->min) + ", max " + tickText(p->max) + "</title></circle>\n";
        }
      }
      // slope guides through each curve's first point: on log-log axes a power law is a straight line
      if (sx.log && sy.log)
        for (size_t k = 0; k < options.slopes.size(); ++k) {
          const SweepCurve& c = curves[std::min(k, curves.size() - 1)];
          const SweepPoint* first = nullptr;
          for (const SweepPoint& p : c.points)
            if (visible(p) && p.mean > 0) {
              first = &p;
              break;
            }
          if (!first) continue;
          const double slope = options.slopes[k];
          const double xEnd = sx.hi, yEnd = first->mean * std::pow(xEnd / first->x, slope);
          double xa = first->x, ya = first->mean, xb = xEnd, yb = yEnd;
          if (yb > sy.hi) {  // cut at the top of the plot
            xb = first->x * std::pow(sy.hi / first->mean, 1.0 / slope);
            yb = sy.hi;
          }
          svg.line(sx(xa), sy(ya), sx(xb), sy(yb), "#666", 2, " stroke-dasharray=\"8,6\"");
          svg.text(sx(xb) - 6, sy(yb) + 22, "slope " + tickText(slope), 18, "end", " fill=\"#444\"");
        }
      // legend, right of the plot
      double ly = y0 + 20;
      const double lx = x1 + 24;
      for (size_t c = 0; c < curves.size(); ++c) {
        const char* colour = kPalette[c % std::size(kPalette)];
        svg.line(lx, ly, lx + 36, ly, colour, 3);
        svg.out += "<circle cx=\"" + num(lx + 18) + "\" cy=\"" + num(ly) + "\" r=\"5.5\" fill=\"" + colour + "\"/>\n";
        svg.text(lx + 46, ly + 7, curves[c].series.empty() ? "mean over seeds" : curves[c].series, 19);
        ly += 32;
      }
      for (const ReferenceData* r : refs) {
        if (r->high)
          svg.out += "<rect x=\"" + num(lx) + "\" y=\"" + num(ly - 10) +
                     "\" width=\"36\" height=\"20\" fill=\"#2ca02c\" fill-opacity=\"0.15\" stroke=\"#2ca02c\" stroke-dasharray=\"6,4\"/>\n";
        else
          svg.line(lx, ly, lx + 36, ly, "#222", 3, " stroke-dasharray=\"10,6\"");
        // Long labels on two lines: the legend column is narrow.
        const std::string label = r->label;
        const size_t cut = label.size() > 18 ? label.rfind(' ', 18) : std::string::npos;
        svg.text(lx + 46, ly + 7, cut == std::string::npos ? label : label.substr(0, cut), 19);
        if (cut != std::string::npos) {
          svg.text(lx + 46, ly + 31, label.substr(cut + 1), 19);
          ly += 24;
        }
        ly += 32;
      }
      if (seeds > 1) {
        svg.out += "<rect x=\"" + num(lx) + "\" y=\"" + num(ly - 10) + "\" width=\"36\" height=\"20\" fill=\"#555\" fill-opacity=\"0.18\"/>\n";
        svg.text(lx + 46, ly + 7, "min-max over", 19);
        svg.text(lx + 46, ly + 31, std::to_string(seeds) + " seeds", 19);
        ly += 56;
      }
      if (sx.log || sy.log) svg.text(lx, ly + 7, std::string("log scale: ") + (sx.log && sy.log ? "x and y" : sx.log ? "x" : "y"), 17, "start", " fill=\"#444\"");
    } else {
      // heat map: cells at the grid's points, the mean's colour
      std::vector<double> xv, yv;
      for (const auto& c : xCats) xv.push_back(c.first);
      for (const auto& c : yCats) yv.push_back(c.first);
      const double cw = (x1 - x0) / double(xv.size()), ch = (y1 - y0) / double(yv.size());
      double lo = 0, hi = 1;
      bool any = false;
      for (const SweepPoint& p : curves.empty() ? std::vector<SweepPoint>{} : curves[0].points)
        if (p.seeds) {
          lo = any ? std::min(lo, p.mean) : p.mean;
          hi = any ? std::max(hi, p.mean) : p.mean;
          any = true;
        }
      if (!(hi > lo)) hi = lo + 1;
      if (!curves.empty())
        for (const SweepPoint& p : curves[0].points) {
          const size_t i = size_t(std::find(xv.begin(), xv.end(), p.x) - xv.begin());
          const size_t j = size_t(std::find(yv.begin(), yv.end(), p.y) - yv.begin());
          const double cx = x0 + cw * double(i), cy = y1 - ch * double(j + 1);
          const std::string fill = p.seeds ? Palette::at((p.mean - lo) / (hi - lo)) : "#ccc";
          svg.out += "<rect x=\"" + num(cx) + "\" y=\"" + num(cy) + "\" width=\"" + num(cw + 0.5) + "\" height=\"" +
                     num(ch + 0.5) + "\" fill=\"" + fill + "\"><title>" + esc(table.params[0]) + "=" + esc(p.xText) +
                     ", " + esc(table.params[1]) + "=" + esc(p.yText) + ": mean " + tickText(p.mean) + " (min " +
                     tickText(p.min) + ", max " + tickText(p.max) + ")</title></rect>\n";
          if (xv.size() <= 12 && yv.size() <= 12 && p.seeds) {
            const double t = (p.mean - lo) / (hi - lo);
            char v[32];
            std::snprintf(v, sizeof v, "%.3g", p.mean);
            svg.text(cx + cw / 2, cy + ch / 2 + 6, v, 17, "middle", t > 0.6 ? " fill=\"#000\"" : " fill=\"#fff\"");
          }
        }
      const size_t every = std::max<size_t>(1, xv.size() / 10), everyY = std::max<size_t>(1, yv.size() / 10);
      for (size_t i = 0; i < xv.size(); i += every)
        svg.text(x0 + cw * (double(i) + 0.5), y1 + 30, xCats[xv[i]], 18, "middle");
      for (size_t j = 0; j < yv.size(); j += everyY)
        svg.text(x0 - 10, y1 - ch * (double(j) + 0.5) + 6, yCats[yv[j]], 18, "end");
      svg.out += "<rect x=\"" + num(x0) + "\" y=\"" + num(y0) + "\" width=\"" + num(x1 - x0) + "\" height=\"" +
                 num(y1 - y0) + "\" fill=\"none\" stroke=\"#000\" stroke-width=\"1.5\"/>\n";
      svg.text((x0 + x1) / 2, y1 + 68, xTitle, 22, "middle");
      const std::string yTitle = options.axisLabels.size() > 1 ? options.axisLabels[1] : table.params[1];
      svg.text(0, 0, yTitle, 22, "middle",
               (" transform=\"translate(" + num(34) + "," + num((y0 + y1) / 2) + ") rotate(-90)\"").c_str());
      // colour bar with the metric's name
      const double bx = x1 + 30, bw = 28;
      for (int k = 0; k < 50; ++k) {
        const double t0 = double(k) / 50.0;
        svg.out += "<rect x=\"" + num(bx) + "\" y=\"" + num(y1 - (y1 - y0) * (t0 + 0.02)) + "\" width=\"" + num(bw) +
                   "\" height=\"" + num((y1 - y0) / 50.0 + 1) + "\" fill=\"" + Palette::at(t0) + "\"/>\n";
      }
      for (double t : niceTicks(lo, hi, 5)) {
        if (t < lo - 1e-12 || t > hi + 1e-12) continue;
        const double y = y1 - (y1 - y0) * (t - lo) / (hi - lo);
        svg.line(bx + bw, y, bx + bw + 6, y, "#000", 1.5);
        svg.text(bx + bw + 10, y + 6, tickText(t), 17);
      }
      svg.text(0, 0, std::string(sim::metricTitle(table.metrics[m])) + ", mean", 20, "middle",
               (" transform=\"translate(" + num(W - 18) + "," + num((y0 + y1) / 2) + ") rotate(-90)\"").c_str());
      (void)yNumeric;
    }
    svg.out += "</g>\n";
  }
  svg.out += "</svg>\n";
  return svg.out;
}

}  // namespace experiments
