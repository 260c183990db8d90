// The current scene's metrics, one row per simulation step: plotted by the HUD and written as CSV.
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include "scenes/scene.hpp"

namespace app {

class MetricsLog {
 public:
  void clear() { names_.clear(); values_.clear(); steps_.clear(); }
  void record(uint64_t step, double simTime, const std::vector<scenes::Metric>& metrics);
  size_t rows() const { return steps_.size(); }
  const std::vector<std::string>& names() const { return names_; }
  // The last `count` values of metric `column` into out (oldest first).
  void tail(size_t column, size_t count, std::vector<float>& out) const;
  // Header "step,time,<names>" and one row per recorded step; written via a temporary file.
  bool writeCsv(const std::string& path, std::string& error) const;

 private:
  static constexpr size_t kMaxRows = 1'000'000;  // about 4.6 hours at 60 Hz
  std::vector<std::string> names_;
  std::vector<double> values_;  // rows * names_.size()
  std::vector<std::pair<uint64_t, double>> steps_;
};

}  // namespace app
