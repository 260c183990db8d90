#include "sim/core/parallel.hpp"

#include <algorithm>
#include <chrono>
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

// Asked once: glibc answers hardware_concurrency() by reading /sys, some microseconds, and a
// ScopedThreadCount asks at every step.
int hardwareThreads() {
  static const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  return cores;
}

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

int ThreadChoice::threadsForNextRun() {
  const int all = threadCount();
  if (all == 1) {  // nothing to choose; the probe starts again when more threads are allowed
    run_ = 0;
    serial_ = true;
    return lastThreads_ = 1;
  }
  if (run_ < 2 * kProbe) serial_ = run_ < kProbe;  // probing: kProbe runs on one thread, then kProbe on all
  return lastThreads_ = serial_ ? 1 : all;
}

void ThreadChoice::took(double seconds) {
  if (run_ < kProbe) serialTimes_[run_] = seconds;
  else if (run_ < 2 * kProbe) parallelTimes_[run_ - kProbe] = seconds;
  ++run_;
  if (run_ == 2 * kProbe) {
    auto middle = [](double* times) {  // the median of kProbe (odd) times
      std::nth_element(times, times + kProbe / 2, times + kProbe);
      return times[kProbe / 2];
    };
    serial_ = middle(serialTimes_) <= middle(parallelTimes_);
  }
  if (run_ >= kPeriod) run_ = 0;
}

namespace {
double nowSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

ThreadChoice::Scope::Scope(ThreadChoice& choice)
    : choice_(choice), threads_(choice.threadsForNextRun()), start_(nowSeconds()) {}
ThreadChoice::Scope::~Scope() { choice_.took(nowSeconds() - start_); }

ScopedThreadCount::ScopedThreadCount(int threads) : previous_(threadCount()) {
  setThreadCount(std::min(threads, hardwareThreads()));
}
ScopedThreadCount::~ScopedThreadCount() { setThreadCount(previous_); }

}  // namespace sim
