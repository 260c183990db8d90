// The current scene's metrics, one row per simulation step: plotted by the HUD and written as CSV.
#pragma once
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <vector>
#include "io/atomic_file.hpp"
#include "io/output_file.hpp"
#include "sim/core/metric.hpp"

namespace app {

// In memory, for the HUD's plots and its "export CSV" button. Keeps the most recent rows: past
// kMaxRows the oldest half is dropped (and counted), so memory stays bounded on a run of days.
class MetricsLog {
 public:
  static constexpr size_t kMaxRows = 1'000'000;  // about 4.6 hours at 60 Hz

  void clear() { names_.clear(); values_.clear(); steps_.clear(); dropped_ = 0; }
  void record(uint64_t step, double simTime, const std::vector<sim::Metric>& metrics);
  size_t rows() const { return steps_.size(); }
  uint64_t droppedRows() const { return dropped_; }  // oldest rows no longer held
  const std::vector<std::string>& names() const { return names_; }
  // The last `count` values of metric `column` into out (oldest first).
  void tail(size_t column, size_t count, std::vector<float>& out) const;
  // Header "step,time,<names>" and one row per held step; written via a temporary file.
  bool writeCsv(const std::string& path, std::string& error, io::Existing existing = io::Existing::Replace) const;
  // What an export leaves out, for the person who asked for it: "" while every step is held.
  std::string droppedNote() const;

 private:
  std::vector<std::string> names_;
  std::vector<double> values_;  // rows * names_.size()
  std::vector<std::pair<uint64_t, double>> steps_;
  uint64_t dropped_ = 0;
};

// --metrics-csv, headless and in a window: rows go to the file as they are measured and are flushed
// every second, so a run that is killed keeps what it measured (a file it replaces is replaced only
// when the run ends: io::OutputFile's Stream), and a path that cannot be written fails before the run. It holds every row: no limit. Only whole rows ever reach the file: rows are
// gathered in memory and handed to the file system in one write() each flush (stdio would cut a
// row wherever its buffer filled, and a kill then left half a row that still parses as a number).
class MetricsCsvStream {
 public:
  MetricsCsvStream() = default;
  MetricsCsvStream(const MetricsCsvStream&) = delete;
  MetricsCsvStream& operator=(const MetricsCsvStream&) = delete;
  ~MetricsCsvStream();

  // Opens the file now (io::OutputFile, Stream); false with the path and the reason.
  bool open(const std::string& path, std::string& error);
  bool isOpen() const { return file_.isOpen(); }
  const io::OutputFile& file() const { return file_; }  // for the same-file check against other outputs
  // Starts the file again, empty (a new scene or a restart: the file holds the last run).
  void restart();
  // The header goes with the first row; metrics must keep their names until restart().
  void write(uint64_t step, double simTime, std::span<const sim::Metric> metrics);
  // Flushes when a second has passed since the last flush: write() calls it, and so does a window's
  // every frame, so rows written just before a pause reach the file too.
  void flushIfDue();
  // Hands every gathered row to the file now (before a run ends on a signal).
  void flush();
  // Closes without writing more; a file it created is removed (a run refused before it started).
  void discard() { pending_.clear(); file_.discard(); }
  // Flushes and closes; false with the path and the first write error's reason.
  bool close(std::string& error);

 private:
  static constexpr size_t kFlushBytes = 1 << 16;  // a long step between flushes never grows memory much

  io::OutputFile file_;
  bool headerWritten_ = false;
  std::string pending_;  // whole rows not yet written
  std::vector<std::string> names_;  // the header's
  std::chrono::steady_clock::time_point lastFlush_{};
};

}  // namespace app
