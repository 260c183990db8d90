// Parallel loops over agents. Every loop body reads the previous state and writes only its own
// agent's slot, so the result does not depend on the thread count or the schedule.
// Without oneTBB (CROWDLAB_SERIAL: the browser builds) every loop runs on the calling thread in index
// order, unless CROWDLAB_THREAD_POOL names a thread count: then (the threaded page, Emscripten
// pthreads) loops are cut into chunks of `grain` that a small pool of std::threads and the calling
// thread take in turn (parallel.cpp), and a loop nested in one of those chunks runs on its chunk's
// thread. On the desktop, loops run on oneTBB, and short regions (parallelParts) on that same pool.
// By the rule above the results are the same in every case.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#if !CROWDLAB_SERIAL
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#endif

namespace sim {

// 0 means "all cores". Takes effect for every later parallelFor.
void setThreadCount(int threads);
int threadCount();        // threads parallelFor uses now
int hardwareThreads();    // cores the machine offers (1 in a serial build)
// Work started from now on gets new arenas (on the calling thread at once, on a new thread at its
// first loop); the old ones stay, never freed, with whatever still runs in them: a step the app
// abandoned (a scene switch during a slow step). Otherwise a new scene's loops would share the old
// step's arena and wait behind its long chunks.
void leaveArenasToAbandonedWork();
#if !CROWDLAB_SERIAL
tbb::task_arena& arena();
#endif

// Runs with `threads` (clamped to the cores there are) while alive, then puts back the count
// before it: a scene's own thread setting never outlives its step.
class ScopedThreadCount {
 public:
  explicit ScopedThreadCount(int threads);
  ~ScopedThreadCount();
  ScopedThreadCount(const ScopedThreadCount&) = delete;
  ScopedThreadCount& operator=(const ScopedThreadCount&) = delete;

 private:
  int previous_;
};

// While alive, every count asked for on this thread (setThreadCount, ScopedThreadCount, a scene's own
// setting such as the finale's `threads`) is held to at most `most`, then the count before comes
// back. The experiment runner's jobs run on one core each this way: a job beside the window never
// enters the arenas the live scene's loops use, where those loops would wait for its long chunks.
class ThreadCountCeiling {
 public:
  explicit ThreadCountCeiling(int most);
  ~ThreadCountCeiling();
  ThreadCountCeiling(const ThreadCountCeiling&) = delete;
  ThreadCountCeiling& operator=(const ThreadCountCeiling&) = delete;

 private:
  int previousCeiling_, previousCount_;
};

// The threads that did some loop's work since resetThreadsAtWork(): how many threads a benchmark
// row really ran on, not just how many it asked for. Each loop chunk marks its thread, once per
// reset (a relaxed load and a compare; one atomic OR a thread).
void resetThreadsAtWork();
int threadsAtWork();
namespace detail {
using AfterPart = void (*)(void* context, size_t part, bool onHelper);  // see parallelPartsThen
extern const bool gHasPrefetchW;  // the CPU has PREFETCHW (prefetchForWrite)
extern std::atomic<uint64_t> gWorkEpoch;
void markThreadAtWork(uint64_t epoch);
// Whether the calling thread is one of the pool's helpers (a oneTBB worker or the caller is not;
// oneTBB's own thread index cannot tell: a helper that once ran a oneTBB loop, a region nested in one
// of its parts, has one too).
bool onPoolHelper();
inline void noteThreadAtWork() {
  thread_local uint64_t marked = 0;
  const uint64_t epoch = gWorkEpoch.load(std::memory_order_relaxed);
  if (marked == epoch) return;
  marked = epoch;
  markThreadAtWork(epoch);
}
#if CROWDLAB_THREAD_POOL || !CROWDLAB_SERIAL
// Runs chunk(context, c) for every c in [0, chunks) on the pool and the calling thread and returns
// true when all are done; returns false at once, having run nothing, when the pool is busy: the
// loop is nested in one of its chunks, or another thread's loop holds it (the page steps on one
// thread; on the desktop the experiment runner steps scenes on several).
// `after`, when given, is called once for every chunk (see parallelPartsThen). With `partPerThread`
// the caller takes chunk 0 first and helper h chunk h + 1 (see parallelPartsThen).
bool runOnPool(size_t chunks, void (*chunk)(void* context, size_t c), void* context, AfterPart after = nullptr,
               void* afterContext = nullptr, bool partPerThread = false);
template <class Body>
bool poolRange(size_t n, size_t grain, Body& body, AfterPart after = nullptr, void* afterContext = nullptr,
               bool partPerThread = false) {
  auto run = [&](size_t c) {
    noteThreadAtWork();
    body(c * grain, std::min(n, (c + 1) * grain));
  };
  return runOnPool((n + grain - 1) / grain, [](void* r, size_t c) { (*static_cast<decltype(run)*>(r))(c); }, &run,
                   after, afterContext, partPerThread);
}
#endif
}  // namespace detail

// Asks for the cache lines of [begin, begin + bytes) in the state a store needs, ahead of the stores
// (x86's PREFETCHW where the CPU has it; elsewhere nothing). For lines another core has read since
// this one last wrote them: each store to such a line waits for the other core to drop its copy (a
// round trip, 0.1-0.6 us between this machine's vCPUs), and x86 commits stores in order, so the
// waits of a loop's stores come one after another; asked for at once, they overlap.
inline void prefetchForWrite(const void* begin, size_t bytes) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  if (!detail::gHasPrefetchW || bytes == 0) return;
  const uintptr_t first = reinterpret_cast<uintptr_t>(begin) & ~uintptr_t(63);
  const uintptr_t last = reinterpret_cast<uintptr_t>(begin) + bytes;
  for (uintptr_t line = first; line < last; line += 64)
    asm volatile("prefetchw (%0)" : : "r"(line));  // a hint: it reads nothing and cannot fault
#else
  (void)begin;
  (void)bytes;
#endif
}

template <class Body>
void parallelFor(size_t n, Body&& body, size_t grain = 128) {
  if (n == 0) return;
  if (threadCount() == 1 || n <= grain) {
    detail::noteThreadAtWork();
    for (size_t i = 0; i < n; ++i) body(i);
    return;
  }
#if CROWDLAB_THREAD_POOL
  auto range = [&](size_t begin, size_t end) {
    for (size_t i = begin; i != end; ++i) body(i);
  };
  if (!detail::poolRange(n, grain, range)) range(0, n);  // nested in a chunk of the pool: this thread
#elif !CROWDLAB_SERIAL
  arena().execute([&] {
    tbb::parallel_for(tbb::blocked_range<size_t>(0, n, grain), [&](const tbb::blocked_range<size_t>& r) {
      detail::noteThreadAtWork();
      for (size_t i = r.begin(); i != r.end(); ++i) body(i);
    });
  });
#endif
}

// Range version: body(begin, end) for loops that keep per-chunk accumulators.
template <class Body>
void parallelForRange(size_t n, Body&& body, size_t grain = 128) {
  if (n == 0) return;
  if (threadCount() == 1 || n <= grain) {
    detail::noteThreadAtWork();
    body(size_t(0), n);
    return;
  }
#if CROWDLAB_THREAD_POOL
  if (!detail::poolRange(n, grain, body)) body(size_t(0), n);  // nested in a chunk of the pool: this thread
#elif !CROWDLAB_SERIAL
  arena().execute([&] {
    tbb::parallel_for(tbb::blocked_range<size_t>(0, n, grain), [&](const tbb::blocked_range<size_t>& r) {
      detail::noteThreadAtWork();
      body(r.begin(), r.end());
    });
  });
#endif
}

// A short region: body(begin, end) over parts [0, parts), a part to a thread (part 0 the caller's,
// part h + 1 helper h's when it is there to take it), for parts of some microseconds to a few
// hundred (the ORCA crowd's step below a few thousand agents). On the desktop they run on the pool's
// helpers, which spin for 100 us after each region before they sleep: a spinning helper joins a
// region several times sooner than a oneTBB worker joins a loop, which matters in a step of tens
// of microseconds (docs/performance.md). Long loops stay on oneTBB: a helper spinning beside its
// workers would take a core from them. A region nested in a chunk
// of the pool, or met while another thread's region holds it, runs as parallelForRange does.
//
// With `after` (parallelPartsThen), after(afterContext, p, onHelper) comes once for every part p: a
// part that ran on one of the pool's helpers gets it on that helper once it has left the region,
// while the caller goes on (onHelper true: work for the part's next region, done beside what the
// caller does between regions); every other part gets it on the caller before this returns
// (onHelper false). `afterContext` must outlive the helpers' calls, so it is never on the caller's stack.
template <class Body>
void parallelPartsThen(size_t parts, Body&& body, detail::AfterPart after, void* afterContext) {
  if (parts == 0) return;
  if (threadCount() == 1 || parts == 1) {
    detail::noteThreadAtWork();
    body(size_t(0), parts);
  } else {
#if CROWDLAB_THREAD_POOL || !CROWDLAB_SERIAL
    if (detail::poolRange(parts, 1, body, after, afterContext, true)) return;
#endif
    parallelForRange(parts, body, 1);
  }
  if (after)
    for (size_t p = 0; p < parts; ++p) after(afterContext, p, false);
}
template <class Body>
void parallelParts(size_t parts, Body&& body) {
  parallelPartsThen(parts, body, nullptr, nullptr);
}

}  // namespace sim
