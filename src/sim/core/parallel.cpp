#include "sim/core/parallel.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace sim {

namespace detail {
std::atomic<uint64_t> gWorkEpoch{1};
}  // namespace detail
namespace {
std::mutex gAtWorkMutex;
uint64_t gAtWorkEpoch = 1;
int gAtWork = 0;
}  // namespace
void detail::markThreadAtWork(uint64_t epoch) {
  const std::lock_guard<std::mutex> lock(gAtWorkMutex);
  if (epoch == gAtWorkEpoch) ++gAtWork;  // a mark from before the last reset counts for nothing
}
void resetThreadsAtWork() {
  const std::lock_guard<std::mutex> lock(gAtWorkMutex);
  gAtWork = 0;
  gAtWorkEpoch = detail::gWorkEpoch.fetch_add(1, std::memory_order_relaxed) + 1;
}
int threadsAtWork() {
  const std::lock_guard<std::mutex> lock(gAtWorkMutex);
  return gAtWork;
}

#if CROWDLAB_SERIAL
// One thread, always: threadCount() == 1 sends every loop down its serial branch.
int hardwareThreads() { return 1; }
void setThreadCount(int) {}
void leaveArenasToAbandonedWork() {}
int threadCount() { return 1; }
#else
namespace {
// Each thread has its own count (setThreadCount acts on the calling thread; a thread that never set one
// uses all cores): the experiment runner steps many scenes at once, each on its own
// thread and each on one core, while the live scene keeps the count the user chose.
thread_local int gThreads = 0;
thread_local tbb::task_arena* gArena = nullptr;
// One arena per count, kept and shared by the threads: a scoped count switches every step, and a
// new arena would start its worker threads again each time.
std::mutex gArenasMutex;
std::map<int, std::unique_ptr<tbb::task_arena>>& arenas() {
  static std::map<int, std::unique_ptr<tbb::task_arena>> byCount;
  return byCount;
}
}  // namespace

int hardwareThreads() { return std::max(1, static_cast<int>(std::thread::hardware_concurrency())); }

void leaveArenasToAbandonedWork() {
  static std::vector<std::unique_ptr<tbb::task_arena>> left;  // still in use: never destroyed
  {
    const std::lock_guard<std::mutex> lock(gArenasMutex);
    for (auto& [count, arena] : arenas()) left.push_back(std::move(arena));
    arenas().clear();
  }
  const int count = gThreads;
  gArena = nullptr;
  if (count > 0) setThreadCount(count);
}

void setThreadCount(int threads) {
  int t = threads <= 0 ? hardwareThreads() : threads;
  if (gArena && t == gThreads) return;
  gThreads = t;
  const std::lock_guard<std::mutex> lock(gArenasMutex);
  auto& slot = arenas()[t];
  if (!slot) slot = std::make_unique<tbb::task_arena>(t);
  gArena = slot.get();
}

int threadCount() {
  if (!gArena) setThreadCount(0);
  return gThreads;
}

tbb::task_arena& arena() {
  if (!gArena) setThreadCount(0);
  return *gArena;
}
#endif

ScopedThreadCount::ScopedThreadCount(int threads) : previous_(threadCount()) {
  setThreadCount(std::min(threads, hardwareThreads()));
}
ScopedThreadCount::~ScopedThreadCount() { setThreadCount(previous_); }

}  // namespace sim
