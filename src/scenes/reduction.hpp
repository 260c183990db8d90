// How a window of a metric's samples becomes one number: written once, used by the claims' verdicts,
// the experiment runner's sweeps and the tuner's scores.
#pragma once
#include <cstddef>
#include <string>

namespace scenes {

// Claims and sweeps step headless scenes at this rate (the app's default simulation rate).
inline constexpr double kExperimentStep = 1.0 / 60.0;

enum class Reduce {
  Final,         // the last sample
  Mean,          // the mean over the window
  Min,
  Max,
  LongestBelow,  // the longest unbroken time (seconds) the metric stays below `level`
  TimeUntil,     // seconds from the window's opening until the metric first reaches `level`; +inf when it
                 // never does (a claim's window then ends: the picture at its end is the event)
};

// "final", "mean", "min", "max", "longest-below", "time-until" (the command line's names).
const char* reduceName(Reduce how);
bool parseReduce(const std::string& text, Reduce& out);

// True when a sample taken at `time` (the end of its step) lies in the window [from, to] of simulated
// seconds, with half a step of slack at each end.
inline bool inWindow(double time, double from, double to) {
  return time + 0.5 * kExperimentStep >= from && time <= to + 0.5 * kExperimentStep;
}

// One metric's samples inside a window, reduced as `how` asks.
class WindowReduction {
 public:
  WindowReduction() = default;
  // `from`: the window's opening, simulated seconds (TimeUntil counts from it).
  explicit WindowReduction(Reduce how, double level = 0, double from = 0) : how_(how), level_(level), from_(from) {}
  // `time`: simulated seconds since the start; samples arrive in time order.
  void add(double time, double value);
  bool any() const { return count_ > 0; }
  size_t count() const { return count_; }
  // The reduced value; NaN when no sample came.
  double value() const;
  // TimeUntil: the level has been reached (the value will not change any more).
  bool reached() const { return reachedAfter_ >= 0; }

 private:
  Reduce how_ = Reduce::Final;
  double level_ = 0, from_ = 0, reachedAfter_ = -1;
  double last_ = 0, sum_ = 0, min_ = 0, max_ = 0, belowSince_ = -1, longestBelow_ = 0;
  size_t count_ = 0;
};

}  // namespace scenes
