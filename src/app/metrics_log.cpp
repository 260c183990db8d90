#include "app/metrics_log.hpp"
#include "io/atomic_file.hpp"


namespace app {

namespace {
// One CSV line, field by field: step, time, then the values. The in-memory export and the stream
// share it.
void appendStepTime(std::string& out, uint64_t step, double simTime) {
  char field[48];
  std::snprintf(field, sizeof field, "%llu,%.6f", static_cast<unsigned long long>(step), simTime);
  out += field;
}

void appendValue(std::string& out, double value) {
  char field[32];
  std::snprintf(field, sizeof field, ",%.9g", value);
  out += field;
}

template <class Names>
void appendHeader(std::string& out, const Names& names) {
  out += "step,time";
  for (const auto& n : names) (out += ',') += n;
  out += '\n';
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

bool MetricsLog::writeCsv(const std::string& path, std::string& error, io::Existing existing) const {
  return io::writeFileAtomically(path, [&](std::FILE* f) {
    std::string line;
    appendHeader(line, names_);
    for (size_t r = 0; r < steps_.size(); ++r) {
      appendStepTime(line, steps_[r].first, steps_[r].second);
      for (size_t c = 0; c < names_.size(); ++c) appendValue(line, values_[r * names_.size() + c]);
      line += '\n';
      std::fwrite(line.data(), 1, line.size(), f);
      line.clear();
    }
    return true;  // writeFileAtomically checks the stream
  }, error, existing);
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
  if (!file_.open(path, {io::OutputFile::Mode::Stream}, error)) return false;
  headerWritten_ = false;
  pending_.clear();
  pending_.reserve(kFlushBytes + 4096);
  lastFlush_ = std::chrono::steady_clock::now();
  return true;
}

void MetricsCsvStream::restart() {
  if (!isOpen()) return;
  pending_.clear();
  file_.truncate();  // the file starts again, empty (a pipe or a device just goes on)
  headerWritten_ = false;
}

void MetricsCsvStream::write(uint64_t step, double simTime, std::span<const sim::Metric> metrics) {
  if (!isOpen()) return;
  if (!headerWritten_) {
    names_.clear();
    for (const sim::Metric& m : metrics) names_.emplace_back(m.name);
    appendHeader(pending_, names_);
    headerWritten_ = true;
  }
  appendStepTime(pending_, step, simTime);
  for (const sim::Metric& m : metrics) appendValue(pending_, m.value);
  pending_ += '\n';
  if (pending_.size() >= kFlushBytes) flush();
  else flushIfDue();
}

void MetricsCsvStream::flushIfDue() {
  if (!isOpen()) return;
  if (std::chrono::steady_clock::now() - lastFlush_ < std::chrono::seconds(1)) return;
  flush();
}

void MetricsCsvStream::flush() {
  lastFlush_ = std::chrono::steady_clock::now();
  if (!isOpen() || pending_.empty()) return;
  file_.write(pending_);  // whole rows in one write(); after an error the file keeps it for close()
  pending_.clear();
}

bool MetricsCsvStream::close(std::string& error) {
  if (!isOpen()) return true;
  flush();
  return file_.commit(error);
}

}  // namespace app
