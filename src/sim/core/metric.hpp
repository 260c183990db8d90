// One named measurement of a model's state. Every model returns its metrics as a list of these;
// the HUD plots them, --headless prints them, --metrics-csv writes them and scenes read them, all
// by name, so a name is stable once it is out.
#pragma once
#include <limits>
#include <span>
#include <string_view>

namespace sim {

struct Metric {
  const char* name;  // a string literal: stable, and valid for the program's life
  double value;
};

// What a metric is, for the people who read it: declared once, beside the code that emits it, and
// read by the HUD (unit, plot range) and the sweep plots (axis titles).
struct MetricInfo {
  const char* name;
  const char* label;              // what it measures, with its unit: "throughput (agents per minute)"
  const char* unit = "";          // after a value: "ms", "/min", "m/s" ("" a count or a ratio)
  double plotLo = 0.0, plotHi = 0.0;  // a fixed plot range; equal: from the values
};

// Each emitter describes its metrics with one line beside them:
//   [[maybe_unused]] const bool described = sim::describeMetrics(kCorridorMetrics);
// The first description of a name stands (two models that emit one name mean one thing by it).
bool describeMetrics(std::span<const MetricInfo> infos);
const MetricInfo* metricInfo(std::string_view name);  // nullptr: nobody described it
// The label to show for a metric: its description's, else its name.
inline std::string_view metricTitle(std::string_view name) {
  const MetricInfo* info = metricInfo(name);
  return info ? std::string_view(info->label) : name;
}

// The value of the metric called `name`; NaN when there is none, so a misspelt name shows as "nan".
inline double metricValue(std::span<const Metric> metrics, std::string_view name) {
  for (const Metric& m : metrics)
    if (name == m.name) return m.value;
  return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace sim
