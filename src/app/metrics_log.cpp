#include "app/metrics_log.hpp"
#include "render/atomic_file.hpp"

#include <cerrno>
#include <cstring>

namespace app {

namespace {
// One CSV line: step, time, then the values. The in-memory export and the stream share it.
void printRow(std::FILE* f, uint64_t step, double simTime, const double* values, size_t count) {
  std::fprintf(f, "%llu,%.6f", static_cast<unsigned long long>(step), simTime);
  for (size_t c = 0; c < count; ++c) std::fprintf(f, ",%.9g", values[c]);
  std::fputc('\n', f);
}

void printHeader(std::FILE* f, const std::vector<std::string>& names) {
  std::fputs("step,time", f);
  for (const std::string& n : names) std::fprintf(f, ",%s", n.c_str());
  std::fputc('\n', f);
}
}  // namespace

void MetricsLog::record(uint64_t step, double simTime, const std::vector<sim::Metric>& metrics) {
  if (names_.empty())
    for (const sim::Metric& m : metrics) names_.emplace_back(m.name);
  if (metrics.size() != names_.size()) return;
  if (steps_.size() >= kMaxRows) {
    const size_t drop = steps_.size() / 2;
    steps_.erase(steps_.begin(), steps_.begin() + long(drop));
    values_.erase(values_.begin(), values_.begin() + long(drop * names_.size()));
    dropped_ += drop;
  }
  steps_.emplace_back(step, simTime);
  for (const sim::Metric& m : metrics) values_.push_back(m.value);
}

void MetricsLog::tail(size_t column, size_t count, std::vector<float>& out) const {
  out.clear();
  if (column >= names_.size()) return;
  size_t n = steps_.size(), first = n > count ? n - count : 0;
  for (size_t r = first; r < n; ++r) out.push_back(float(values_[r * names_.size() + column]));
}

bool MetricsLog::writeCsv(const std::string& path, std::string& error) const {
  return render::writeFileAtomically(path, [&](std::FILE* f) {
    printHeader(f, names_);
    for (size_t r = 0; r < steps_.size(); ++r)
      printRow(f, steps_[r].first, steps_[r].second, values_.data() + r * names_.size(), names_.size());
    return true;  // writeFileAtomically checks the stream
  }, error);
}

std::string MetricsLog::droppedNote() const {
  if (!dropped_) return {};
  return "the oldest " + std::to_string(dropped_) + " steps are not in it: the log keeps the last " +
         std::to_string(kMaxRows / 2) + " to " + std::to_string(kMaxRows) + " steps (--metrics-csv FILE keeps every step)";
}

MetricsCsvStream::~MetricsCsvStream() {
  std::string ignored;
  close(ignored);
}

bool MetricsCsvStream::open(const std::string& path, std::string& error) {
  std::string ignored;
  close(ignored);
  file_ = std::fopen(path.c_str(), "w");
  if (!file_) {
    error = path + ": cannot write (" + std::strerror(errno) + ")";
    return false;
  }
  path_ = path;
  headerWritten_ = false;
  writeErrno_ = 0;
  lastFlush_ = std::chrono::steady_clock::now();
  return true;
}

void MetricsCsvStream::restart() {
  if (!file_) return;
  std::fflush(file_);
  if (std::FILE* f = std::freopen(path_.c_str(), "w", file_)) file_ = f;
  else { file_ = nullptr; writeErrno_ = errno; }
  headerWritten_ = false;
}

void MetricsCsvStream::write(uint64_t step, double simTime, const std::vector<sim::Metric>& metrics) {
  if (!file_ || writeErrno_) return;
  if (!headerWritten_) {
    std::vector<std::string> names;
    for (const sim::Metric& m : metrics) names.emplace_back(m.name);
    printHeader(file_, names);
    headerWritten_ = true;
  }
  row_.clear();
  for (const sim::Metric& m : metrics) row_.push_back(m.value);
  printRow(file_, step, simTime, row_.data(), row_.size());
  if (std::ferror(file_) && !writeErrno_) writeErrno_ = errno ? errno : EIO;
  flushIfDue();
}

void MetricsCsvStream::flushIfDue() {
  if (!file_ || writeErrno_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - lastFlush_ < std::chrono::seconds(1)) return;
  lastFlush_ = now;
  if (std::fflush(file_) != 0) writeErrno_ = errno;
}

bool MetricsCsvStream::close(std::string& error) {
  if (!file_) {
    if (!writeErrno_) return true;
  } else {
    if (std::fflush(file_) != 0 && !writeErrno_) writeErrno_ = errno;
    if (std::fclose(file_) != 0 && !writeErrno_) writeErrno_ = errno;
    file_ = nullptr;
  }
  if (!writeErrno_) return true;
  error = path_ + ": write failed (" + std::strerror(writeErrno_) + ")";
  writeErrno_ = 0;
  return false;
}

}  // namespace app
