#include "app/metrics_log.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace app {

void MetricsLog::record(uint64_t step, double simTime, const std::vector<scenes::Metric>& metrics) {
  if (names_.empty())
    for (const scenes::Metric& m : metrics) names_.emplace_back(m.name);
  if (metrics.size() != names_.size() || steps_.size() >= kMaxRows) return;
  steps_.emplace_back(step, simTime);
  for (const scenes::Metric& m : metrics) values_.push_back(m.value);
}

void MetricsLog::tail(size_t column, size_t count, std::vector<float>& out) const {
  out.clear();
  if (column >= names_.size()) return;
  size_t n = steps_.size(), first = n > count ? n - count : 0;
  for (size_t r = first; r < n; ++r) out.push_back(float(values_[r * names_.size() + column]));
}

bool MetricsLog::writeCsv(const std::string& path, std::string& error) const {
  std::string tmp = path + ".tmp";
  FILE* f = std::fopen(tmp.c_str(), "w");
  if (!f) { error = path + ": cannot write (" + std::strerror(errno) + ")"; return false; }
  std::fprintf(f, "step,time");
  for (const std::string& n : names_) std::fprintf(f, ",%s", n.c_str());
  std::fprintf(f, "\n");
  for (size_t r = 0; r < steps_.size(); ++r) {
    std::fprintf(f, "%llu,%.6f", static_cast<unsigned long long>(steps_[r].first), steps_[r].second);
    for (size_t c = 0; c < names_.size(); ++c) std::fprintf(f, ",%.9g", values_[r * names_.size() + c]);
    std::fprintf(f, "\n");
  }
  bool ok = std::fflush(f) == 0;
  ok = (std::fclose(f) == 0) && ok;
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    error = path + ": write failed";
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

}  // namespace app
