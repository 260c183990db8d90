#include "sim/core/metric.hpp"

#include <vector>

namespace sim {

namespace {
std::vector<const MetricInfo*>& described() {
  static std::vector<const MetricInfo*> infos;  // filled before main by each emitter's one line
  return infos;
}
}  // namespace

bool describeMetrics(std::span<const MetricInfo> infos) {
  for (const MetricInfo& info : infos) described().push_back(&info);
  return true;
}

const MetricInfo* metricInfo(std::string_view name) {
  for (const MetricInfo* info : described())
    if (name == info->name) return info;
  return nullptr;
}

}  // namespace sim
