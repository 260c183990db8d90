// The machine a `crowdlab fps` run ran on, as far as the OS tells (Linux: /proc and /sys; the
// browser: what the page knows), and whether something else kept it busy meanwhile.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "app/fps_result.hpp"

namespace app {

// CPU, cores, threads, memory, OS, power and governor; the GL strings come from the caller (the
// window's context). `threads`: the loops' threads.
FpsMachine describeMachine(const std::string& glRenderer, const std::string& glVendor, const std::string& glVersion,
                           int threads);

// What the run's CPUs did apart from the run: all CPUs' busy time (/proc/stat) less this process's
// own (its threads include the software renderer's), less the display server's (it shows the frames).
class BusyWatch {
 public:
  void start();
  // Fills loadBefore/After, othersCpu, displayServerCpu, busy and busyWhy.
  void finish(FpsMachine& m) const;

  // Other processes using more than this share of all CPUs make a run busy: a quiet desktop's
  // background stays under it, one busy loop on a 2-core machine is 0.5.
  static constexpr double kBusyShare = 0.15;
  // As does a 1-minute load average above this many per hardware thread before the run.
  static constexpr double kBusyLoadPerThread = 0.5;

 private:
  struct Sample {
    double wall = 0;
    uint64_t busyTicks = 0, totalTicks = 0;
    double selfSeconds = 0, displaySeconds = 0;
    bool ok = false;
  };
  static Sample sample();
  Sample start_;
  std::optional<double> loadBefore_;
};

}  // namespace app
