#include "scenes/reduction.hpp"

#include <algorithm>
#include <limits>

namespace scenes {

namespace {
constexpr struct {
  Reduce how;
  const char* name;
} kNames[] = {{Reduce::Final, "final"}, {Reduce::Mean, "mean"}, {Reduce::Min, "min"}, {Reduce::Max, "max"},
              {Reduce::LongestBelow, "longest-below"}, {Reduce::TimeUntil, "time-until"}};
}  // namespace

const char* reduceName(Reduce how) {
  for (const auto& n : kNames)
    if (n.how == how) return n.name;
  return "?";
}

bool parseReduce(const std::string& text, Reduce& out) {
  for (const auto& n : kNames)
    if (text == n.name) {
      out = n.how;
      return true;
    }
  return false;
}

void WindowReduction::add(double time, double v) {
  last_ = v;
  sum_ += v;
  min_ = count_ ? std::min(min_, v) : v;
  max_ = count_ ? std::max(max_, v) : v;
  ++count_;
  if (how_ == Reduce::TimeUntil && v >= level_ && reachedAfter_ < 0) reachedAfter_ = std::max(0.0, time - from_);
  if (v < level_) {
    if (belowSince_ < 0) belowSince_ = time;
    longestBelow_ = std::max(longestBelow_, time - belowSince_);
  } else {
    belowSince_ = -1;
  }
}

double WindowReduction::value() const {
  if (!count_) return std::numeric_limits<double>::quiet_NaN();
  switch (how_) {
    case Reduce::Final: return last_;
    case Reduce::Mean: return sum_ / double(count_);
    case Reduce::Min: return min_;
    case Reduce::Max: return max_;
    case Reduce::LongestBelow: return longestBelow_;
    case Reduce::TimeUntil: return reached() ? reachedAfter_ : std::numeric_limits<double>::infinity();
  }
  return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace scenes
