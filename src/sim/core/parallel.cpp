#include "sim/core/parallel.hpp"

#include <algorithm>
#include <memory>
#include <thread>

namespace sim {
namespace {
int gThreads = 0;
std::unique_ptr<tbb::task_arena> gArena;
}  // namespace

int hardwareThreads() { return std::max(1, static_cast<int>(std::thread::hardware_concurrency())); }

void setThreadCount(int threads) {
  int t = threads <= 0 ? hardwareThreads() : threads;
  if (gArena && t == gThreads) return;
  gThreads = t;
  gArena = std::make_unique<tbb::task_arena>(t);
}

int threadCount() {
  if (!gArena) setThreadCount(0);
  return gThreads;
}

tbb::task_arena& arena() {
  if (!gArena) setThreadCount(0);
  return *gArena;
}

}  // namespace sim
