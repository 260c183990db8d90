#include "sim/core/parallel.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>
#ifdef __EMSCRIPTEN__
#include <emscripten/threading.h>
#endif

namespace sim {

namespace detail {
std::atomic<uint64_t> gWorkEpoch{1};
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
const bool gHasPrefetchW = [] {
  __builtin_cpu_init();  // this may run before the runtime's own initialisation of the CPU model
  return __builtin_cpu_supports("prfchw") != 0;
}();
#else
const bool gHasPrefetchW = false;
#endif
namespace {
thread_local bool tPoolHelper = false;  // set once by each of the pool's helpers
}  // namespace
bool onPoolHelper() { return tPoolHelper; }
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

#if CROWDLAB_THREAD_POOL || !CROWDLAB_SERIAL
// The pool. On the threaded page it runs every loop: the page's main thread and up to
// CROWDLAB_THREAD_POOL - 1 workers, std::threads on the Web Workers Emscripten loads before main()
// (PTHREAD_POOL_SIZE, the same cap: cmake/web.cmake), so starting them never waits for a worker to
// load. The main browser thread may not sleep on Atomics.wait: it takes chunks itself, closes the
// loop when none is left, and spins only while a helper that joined in time is still in a chunk; a
// helper that wakes late (the browser's renderer shares the cores) joins nothing. Helpers spin a
// little after a loop (the step's next loop follows within microseconds), then sleep. On the desktop
// it runs only short regions (parallelParts), with a helper for each core but the caller's, made at
// the first region.
namespace {
struct Pool {
  std::mutex mutex;  // helpers sleep on `wake` after spinning; the caller takes it to hand out a loop
  std::condition_variable wake;
  // What a helper reads to join a loop, on one cache line of its own: the caller writes it once per
  // loop, the helper fetches it once (0.2-0.4 us between this machine's vCPUs). On lines of their own
  // the joining helper waited for five of them in turn, 1.0 us.
  // One value per loop handed to the helpers: a loop counter above 8 bits of how many workers may
  // take part (0..helpers-1). A worker that may not reads nothing else of the loop.
  alignas(64) std::atomic<uint64_t> loop{0};
  // The loop in progress: written while `open` is false, read by helpers that joined while it was true.
  struct Loop {
    void (*chunk)(void*, size_t) = nullptr;
    void* context = nullptr;
    size_t chunks = 0;
    detail::AfterPart after = nullptr;  // see parallelPartsThen
    void* afterContext = nullptr;
    bool ownPartFirst = false;  // see take
  } current;
  std::atomic<size_t> next{0};    // the next chunk to take
  // The join count and the claims of a loop of parts, on a line apart from the loop's: on the loop's
  // line (the helper spinning on it, the caller spinning on `inside` at the end of a region), a
  // 250-agent ORCA step took 72.8 ns an agent against 69.7 (10 alternating runs, Intel Xeon).
  alignas(64) std::atomic<uint64_t> taken{0};  // a bit per chunk taken, in a loop of parts (see take)
  std::atomic<int> inside{0};     // helpers joined and not yet out
  std::atomic<bool> open{false};  // helpers may join
  alignas(64) std::atomic<bool> busy{false};  // a loop holds the pool: a loop nested in one of its chunks runs alone
  std::vector<std::thread> workers;

  void grow(int helpers) {
    while (int(workers.size()) < helpers) {
      const int index = int(workers.size());
      const uint64_t now = loop.load(std::memory_order_acquire);
      workers.emplace_back([this, index, now] { work(index, now); });
    }
  }
  // The chunks a helper ran, for their `after` calls once it is out of the loop; past the first few
  // (a region has a part per thread) a chunk's call comes at once, as the caller's do.
  struct Deferred {
    size_t chunk[8];
    size_t count = 0;
  };
  // `own`: the chunk this thread takes first in a loop of parts (the caller 0, helper h h + 1), so
  // that a part runs on the same core region after region, beside the data it keeps between them (a
  // model's copy of the state, what a helper prepared for the part's next region). Taken from one
  // counter, the helper, spinning, sometimes took part 0 before the caller did: the parts changed
  // cores in 2-10 % of a 250-agent ORCA crowd's steps, and its helper prepared nothing for the next.
  Loop take(Deferred* deferred, size_t own) {
    const Loop l = current;
    auto run = [&](size_t c) {
      l.chunk(l.context, c);
      if (l.after) {
        if (deferred && deferred->count < std::size(deferred->chunk))
          deferred->chunk[deferred->count++] = c;
        else
          l.after(l.afterContext, c, false);
      }
    };
    if (l.ownPartFirst) {  // then the last part no thread has taken: a helper may be late or asleep
      const uint64_t all = l.chunks == 64 ? ~uint64_t(0) : (uint64_t(1) << l.chunks) - 1;
      uint64_t left = all & ~taken.load(std::memory_order_relaxed);
      for (size_t c = own; left;) {
        if (c >= l.chunks || !(left >> c & 1)) c = size_t(63 - std::countl_zero(left));
        const uint64_t bit = uint64_t(1) << c;
        const uint64_t before = taken.fetch_or(bit, std::memory_order_relaxed);
        if (!(before & bit)) run(c);
        left = all & ~(before | bit);
      }
      return l;
    }
    for (size_t c = next.fetch_add(1, std::memory_order_relaxed); c < l.chunks;
         c = next.fetch_add(1, std::memory_order_relaxed)) {
      run(c);
      // After the last chunk every take finds none: no need to fetch the line again to see it (a
      // short region's last part is usually the helper's, and this is on its way out).
      if (c + 1 == l.chunks) break;
    }
    return l;
  }
  // `seen`: the loop counter when the worker was made, read on the thread that made it, so a loop
  // handed out before the new thread first runs is still offered to it.
  void work(int index, uint64_t seen) {
    detail::tPoolHelper = true;
    for (;;) {
      const auto spinUntil = std::chrono::steady_clock::now() + std::chrono::microseconds(100);
      while (loop.load(std::memory_order_acquire) == seen && std::chrono::steady_clock::now() < spinUntil) {
      }
      if (loop.load(std::memory_order_acquire) == seen) {
        std::unique_lock<std::mutex> lock(mutex);
        wake.wait(lock, [&] { return loop.load(std::memory_order_acquire) != seen; });
      }
      seen = loop.load(std::memory_order_acquire);
      if (index >= int(seen & 255u)) continue;
      // Joined, then checked: the caller closes, then checks `inside` (both sequentially consistent),
      // so either it waits for this helper or this helper sees the loop closed.
      inside.fetch_add(1);
      Deferred deferred;
      Loop l;
      if (open.load()) l = take(&deferred, size_t(index) + 1);
      inside.fetch_sub(1);
      for (size_t d = 0; d < deferred.count; ++d) l.after(l.afterContext, deferred.chunk[d], true);
    }
  }
};
Pool& pool() {
  static Pool* p = new Pool;  // never destroyed: its workers live as long as the program
  return *p;
}
}  // namespace

bool detail::runOnPool(size_t chunks, void (*chunk)(void*, size_t), void* context, AfterPart after,
                       void* afterContext, bool partPerThread) {
  Pool& p = pool();
  if (p.busy.exchange(true, std::memory_order_acquire)) return false;
#if !CROWDLAB_SERIAL
  p.grow(hardwareThreads() - 1);  // the page makes its helpers before its first loop (setThreadCount)
#endif
  const int helpers = std::min(threadCount() - 1, int(p.workers.size()));
  p.current = {chunk, context, chunks, after, afterContext, partPerThread && chunks <= 64};
  p.next.store(0, std::memory_order_relaxed);
  p.taken.store(0, std::memory_order_relaxed);
  p.open.store(true);
  {
    const std::lock_guard<std::mutex> lock(p.mutex);
    const uint64_t count = (p.loop.load(std::memory_order_relaxed) >> 8) + 1;
    p.loop.store(count << 8 | uint64_t(helpers), std::memory_order_release);
  }
  p.wake.notify_all();
  p.take(nullptr, 0);
  p.open.store(false);
  // After this no helper reads the loop: those inside finish their chunks, later ones see it closed.
  while (p.inside.load() != 0) {
  }
  p.busy.store(false, std::memory_order_release);
  return true;
}
#endif

namespace {
thread_local int gCeiling = 0;  // ThreadCountCeiling's, on this thread; 0: none
// `threads` as asked (0: all cores), held to the ceiling (unused where there is one thread).
[[maybe_unused]] int underCeiling(int threads) { return gCeiling <= 0 ? threads : threads <= 0 ? gCeiling : std::min(threads, gCeiling); }
}  // namespace

#if CROWDLAB_THREAD_POOL
namespace {
bool threadsAvailable() {
#ifdef __EMSCRIPTEN__
  return emscripten_has_threading_support();
#else
  return true;
#endif
}
int gThreads = 0;  // as asked (0: all); only the page's main thread steps, so one count for all
}  // namespace
int hardwareThreads() {  // asked once, as on the desktop
  // The one-thread page is the threaded page's objects linked without threads: no worker can start.
  static const int cores = threadsAvailable() ? std::clamp(int(std::thread::hardware_concurrency()), 1, CROWDLAB_THREAD_POOL) : 1;
  return cores;
}
void leaveArenasToAbandonedWork() {}  // the page never abandons a step: it steps on its own thread
void setThreadCount(int threads) {
  gThreads = underCeiling(threads);
  pool().grow(hardwareThreads() - 1);
}
int threadCount() {
  if (pool().workers.size() + 1 < size_t(hardwareThreads())) setThreadCount(gThreads);
  return gThreads <= 0 ? hardwareThreads() : std::min(gThreads, hardwareThreads());
}
#elif CROWDLAB_SERIAL
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
  threads = underCeiling(threads);
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

ThreadCountCeiling::ThreadCountCeiling(int most) : previousCeiling_(gCeiling), previousCount_(threadCount()) {
  most = std::max(1, most);
  gCeiling = previousCeiling_ > 0 ? std::min(previousCeiling_, most) : most;
  setThreadCount(previousCount_);  // held to the ceiling now
}
ThreadCountCeiling::~ThreadCountCeiling() {
  gCeiling = previousCeiling_;
  setThreadCount(previousCount_);
}

}  // namespace sim
