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

// The value of the metric called `name`; NaN when there is none, so a misspelt name shows as "nan".
inline double metricValue(std::span<const Metric> metrics, std::string_view name) {
  for (const Metric& m : metrics)
    if (name == m.name) return m.value;
  return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace sim
