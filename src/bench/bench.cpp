// `crowdlab bench`: the case registry, the command line, and the table / CSV output.
#include "bench/bench.hpp"
#include "sim/core/metrics.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <new>
#include <string_view>
#include <thread>
#include <unistd.h>
#include <vector>
#include "sim/core/lanes.hpp"
#include "sim/core/parallel.hpp"
#include "io/flag_reader.hpp"
#include "io/output_file.hpp"

namespace bench {
namespace {

std::vector<Case>& registry() {
  static std::vector<Case> cases;
  return cases;
}

// --mode's values, from the cases' kinds: "grid, brute (boids2d); ...; or all".
std::string modesText() {
  std::string text;
  for (const Case& c : registry()) {
    if (c.kinds.empty()) continue;
    if (!text.empty()) text += "; ";
    for (size_t k = 0; k < c.kinds.size(); ++k) text += std::string(k ? ", " : "") + std::string(c.kinds[k]);
    text += std::string(" (") + c.name + ")";
  }
  return text + "; or all";
}
bool knownMode(const std::string& mode) {
  if (mode == "all") return true;
  for (const Case& c : registry())
    if (std::find(c.kinds.begin(), c.kinds.end(), mode) != c.kinds.end()) return true;
  return false;
}

const char* kUsage =
    "usage: crowdlab bench [--case NAME] [--n N[,N...]] [--threads T[,T...]] [--steps S] [--warmup W]\n"
    "                      [--mode M] [--lanes auto|avx2|baseline] [--max-memory GB] [--csv FILE]\n"
    "                      [--report] [--list] [--help]\n"
    "  --case NAME    run one case (default: every case; --list names them)\n"
    "  --n N          agent counts, repeatable or comma-separated (default: the case's own list)\n"
    "  --threads T    thread counts up to the cores', repeatable or comma-separated; 0 = all cores (default: 1 and\n"
    "                 all cores)\n"
    "  --steps S      measured steps per row (default 200)\n"
    "  --warmup W     unmeasured steps first (default 20)\n"
    "  --mode M       the rows of one kind, all (default) for every kind: boids2d grid or brute (brute\n"
    "                 force above 20,000 agents is timed on a sample and reported as brute-est);\n"
    "                 finale boids, orca or weights (curves and learned); orca-circle orca or classic (the\n"
    "                 classic implementation's circle of 250); a case without the kind runs all\n"
    "  --lanes L      auto (default: the CPU's best: AVX-512, else AVX2), avx2 (at most AVX2, as on a\n"
    "                 CPU without AVX-512) or baseline (the x86-64 baseline's kernels, as on a CPU\n"
    "                 without AVX2); each row's lanes= says which ran\n"
    "  --max-memory GB  refuse, before it starts, a row estimated to need more memory than this\n"
    "                 (default: the memory available now); rows over 1 GB say what they will use\n"
    "  --csv FILE     also write the rows as CSV\n"
    "  --report       a block to share: GL renderer, CPU model, cores, threads used, then the table\n";

const char* kCsvHeader =
    "case,n,mode,threads,steps,median_ms_per_step,ns_per_agent_step,checks_per_agent,neighbors_per_agent,extra\n";

// A whole non-negative decimal number no larger than `max`, or false.
bool parseCount(std::string_view s, uint64_t max, uint64_t& out) {
  if (s.empty() || s.size() > 12) return false;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + uint64_t(c - '0');
  }
  if (v > max) return false;
  out = v;
  return true;
}

// "a,b,c" -> numbers in [min, max]; false on any malformed or empty item.
bool parseList(std::string_view s, uint64_t min, uint64_t max, std::vector<uint64_t>& out) {
  if (s.empty()) return false;
  size_t start = 0;
  for (;;) {
    size_t comma = s.find(',', start);
    std::string_view item = s.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    uint64_t v = 0;
    if (!parseCount(item, max, v) || v < min) return false;
    out.push_back(v);
    if (comma == std::string_view::npos) return true;
    start = comma + 1;
  }
}

std::string cpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      size_t colon = line.find(':');
      if (colon != std::string::npos) {
        size_t b = line.find_first_not_of(" \t", colon + 1);
        return b == std::string::npos ? std::string("unknown") : line.substr(b);
      }
    }
  }
  return "unknown";
}

// One way, a cache line written on one core and read on another: two threads pass a counter back
// and forth. What a parallel step pays for each line its threads share (the grid one writes and
// the other reads, results read back), so it bounds how much the second core buys a small step: on
// this project's 2-vCPU virtual machines it has read 0.1 to 0.6 us, by where the host put the vCPUs,
// and a 2-thread step of 250 ORCA agents 110-140 or 170-270 ns an agent with it. 0 when there is
// one core or no threads.
double coreToCoreNs() {
#if CROWDLAB_SERIAL
  return 0.0;
#else
  if (sim::hardwareThreads() < 2) return 0.0;
  // The fastest of batches of kBatch round trips, for at most kTrips trips or kBudget: a trip on a
  // busy machine waits for the other thread to be scheduled (milliseconds), and the fastest batch is
  // the one that ran with both threads on their cores, which is the line's own cost.
  constexpr int kTrips = 60000, kBatch = 64;
  constexpr std::chrono::milliseconds kBudget{300};
  alignas(64) std::atomic<int> ball{0};
  std::thread other([&] {
    for (int i = 0;; ++i) {
      int seen;
      while ((seen = ball.load(std::memory_order_acquire)) != 2 * i + 1)
        if (seen < 0) return;  // the measurement is over
      ball.store(2 * i + 2, std::memory_order_release);
    }
  });
  const auto start = std::chrono::steady_clock::now();
  double fastest = std::numeric_limits<double>::infinity();
  for (int trips = 0; trips < kTrips && std::chrono::steady_clock::now() - start < kBudget;) {
    const auto t0 = std::chrono::steady_clock::now();
    for (const int end = trips + kBatch; trips < end; ++trips) {
      ball.store(2 * trips + 1, std::memory_order_release);
      while (ball.load(std::memory_order_acquire) != 2 * trips + 2) {
      }
    }
    const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
    fastest = std::min(fastest, ns / (2.0 * kBatch));
  }
  ball.store(-1, std::memory_order_release);
  other.join();
  return fastest;
#endif
}

// Bytes the system can give this run now without swapping (MemAvailable), else its physical
// memory; 0 when unknown.
double availableMemoryBytes() {
  std::ifstream in("/proc/meminfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("MemAvailable:", 0) == 0) return std::strtod(line.c_str() + 13, nullptr) * 1024.0;
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
  const long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
  if (pages > 0 && size > 0) return double(pages) * double(size);
#endif
  return 0;
}

std::string gigabytes(double bytes) {
  char s[32];
  std::snprintf(s, sizeof s, bytes < 0.95e9 ? "%.2f GB" : "%.1f GB", bytes / 1e9);
  return s;
}

void printTableHeader() {
  std::printf("%-12s %9s %-9s %7s %6s %11s %14s %13s %11s  %s\n", "case", "n", "mode", "threads", "steps", "ms/step",
              "ns/agent-step", "checks/agent", "nbrs/agent", "extra");
}

void printRow(const Row& r) {
  std::printf("%-12s %9zu %-9s %7d %6d %11.4f %14.2f %13.2f %11.3f  %s\n", r.caseName.c_str(), r.n, r.mode.c_str(),
              r.threads, r.steps, r.medianMsPerStep, r.nsPerAgentStep(), r.checksPerAgent, r.neighborsPerAgent,
              r.extra.c_str());
  std::fflush(stdout);
}

std::string csvField(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + "\"";
}

// One CSV row, written at once (a long benchmark keeps what it measured).
std::string csvRow(const Row& r) {
  char numbers[256];
  std::snprintf(numbers, sizeof numbers, ",%zu,%s,%d,%d,%.6f,%.3f,%.3f,%.4f,", r.n, csvField(r.mode).c_str(), r.threads,
                r.steps, r.medianMsPerStep, r.nsPerAgentStep(), r.checksPerAgent, r.neighborsPerAgent);
  return csvField(r.caseName) + numbers + csvField(r.extra) + "\n";
}

// The message as a terminal should see it: user text in it may hold control bytes (an escape
// sequence, a newline), shown as \xNN, and is cut at 300 bytes.
int fail(const std::string& what) {
  std::string shown;
  for (char c : what.substr(0, 300)) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02X", unsigned(u));
      shown += hex;
    } else {
      shown += c;
    }
  }
  if (what.size() > 300) shown += "...";
  std::fprintf(stderr, "crowdlab bench: %s\n%s", shown.c_str(), kUsage);
  return 2;
}

}  // namespace

bool registerCase(const Case& c) {
  auto& cases = registry();
  cases.push_back(c);
  // Registration order follows static initialisation, which the linker decides: list by name.
  std::sort(cases.begin(), cases.end(), [](const Case& a, const Case& b) { return std::strcmp(a.name, b.name) < 0; });
  return true;
}

const std::vector<Case>& cases() { return registry(); }

bool wantsKind(const Options& o, std::span<const std::string_view> kinds, std::string_view kind) {
  return o.mode == kind || std::find(kinds.begin(), kinds.end(), o.mode) == kinds.end();
}

double medianMs(std::vector<double>& samples) { return sim::median(samples); }

namespace {
double nowSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

Progress::Progress(std::string label, int total)
    : label_(std::move(label)), total_(total), start_(nowSeconds()), lastShown_(start_) {}

void Progress::tick(int done) {
  const double now = nowSeconds(), elapsed = now - start_;
  if (elapsed < 3.0 || now - lastShown_ < 2.0 || done <= 0) return;
  lastShown_ = now;
  shown_ = true;
  const double left = elapsed / done * (total_ - done);
  std::fprintf(stderr, "crowdlab bench: %s%sstep %d of %d, %.0f s so far, about %.0f s left\n", label_.c_str(),
               label_.empty() ? "" : ": ", done, total_, elapsed, left);
}

void Progress::finish() {
  if (shown_)
    std::fprintf(stderr, "crowdlab bench: %s%sdone in %.0f s\n", label_.c_str(), label_.empty() ? "" : ": ",
                 nowSeconds() - start_);
}

double timeSteps(const Options& options, const std::function<void(bool measured)>& step, const std::string& label) {
  using Clock = std::chrono::steady_clock;
  Progress progress(label, options.warmup + options.steps);
  for (int s = 0; s < options.warmup; ++s) {
    step(false);
    progress.tick(s + 1);
  }
  std::vector<double> ms;
  ms.reserve(size_t(std::max(options.steps, 0)));
  for (int s = 0; s < options.steps; ++s) {
    auto t0 = Clock::now();
    step(true);
    auto t1 = Clock::now();
    ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    progress.tick(options.warmup + s + 1);
  }
  progress.finish();
  return medianMs(ms);
}

void startRow(int threads) {
  sim::setThreadCount(threads);
  sim::resetThreadsAtWork();
}

std::vector<int> threadCounts(const Options& options) {
  std::vector<int> t;
  if (options.threads.empty()) {
    t = {1, sim::hardwareThreads()};
  } else {
    for (int x : options.threads) t.push_back(x <= 0 ? sim::hardwareThreads() : x);
  }
  std::vector<int> unique;
  for (int x : t)
    if (std::find(unique.begin(), unique.end(), x) == unique.end()) unique.push_back(x);
  return unique;
}

int run(const std::vector<std::string>& args, const std::function<std::string()>& reportHeader) {
  Options o;
  bool list = false, help = false;
  io::FlagReader flags(args);  // --n and --threads add up; any other flag twice is a mistake
  std::string flag, value, error;
  while (!flags.done()) {
    if (flags.nextIs({"--help", "-h", "--list", "--report"})) {
      if (!flags.takeSwitch({"--help", "-h", "--list", "--report"}, flag, error)) return fail(error);
      (flag == "--list" ? list : flag == "--report" ? o.report : help) = true;
      continue;
    }
    if (!flags.take({"--case", "--steps", "--warmup", "--mode", "--lanes", "--max-memory", "--csv"}, {"--n", "--threads"},
                    flag, value, error))
      return fail(error);
    if (flag == "--case") {
      o.caseName = value;
    } else if (flag == "--n") {
      std::vector<uint64_t> v;
      if (!parseList(value, 1, 50000000, v)) return fail("--n: '" + value + "' is not a list of agent counts 1..50000000");
      for (uint64_t x : v) o.n.push_back(size_t(x));
    } else if (flag == "--threads") {
      std::vector<uint64_t> v;
      if (!parseList(value, 0, 1024, v)) return fail("--threads: '" + value + "' is not a list of thread counts 0..1024");
      for (uint64_t x : v) o.threads.push_back(int(x));
    } else if (flag == "--steps" || flag == "--warmup") {
      uint64_t v = 0;
      const uint64_t min = flag == "--steps" ? 1 : 0;
      if (!parseCount(value, 1000000, v) || v < min)
        return fail(flag + ": '" + value + "' is not a whole number " + std::to_string(min) + "..1000000");
      (flag == "--steps" ? o.steps : o.warmup) = int(v);
    } else if (flag == "--mode") {
      if (!knownMode(value)) return fail("--mode: '" + value + "' is not " + modesText());
      o.mode = value;
    } else if (flag == "--lanes") {
      if (value != "auto" && value != "avx2" && value != "baseline")
        return fail("--lanes: '" + value + "' is not auto, avx2 or baseline");
      o.lanes = value == "baseline" ? sim::lanes::Level::Baseline
                : value == "avx2"   ? sim::lanes::Level::Avx2
                                    : sim::lanes::Level::Avx512;
    } else if (flag == "--max-memory") {
      char* end = nullptr;
      const double gb = std::strtod(value.c_str(), &end);
      if (*end != '\0' || !(gb > 0.0 && gb <= 1e6))
        return fail("--max-memory: '" + value + "' is not a size in GB above 0 (e.g. 8 or 0.5)");
      o.maxMemoryBytes = gb * 1e9;
    } else if (flag == "--csv") {
      o.csvPath = value;
    }
  }
  if (io::FlagReader::parseOnly()) return 0;
  if (help) {
    std::printf("crowdlab bench — benchmark cases over the simulation core, no window\n%s", kUsage);
    return 0;
  }
  if (list) {
    for (const Case& c : cases()) std::printf("%-12s %s\n", c.name, c.description);
    return 0;
  }
  std::vector<const Case*> selected;
  for (const Case& c : cases())
    if (o.caseName.empty() || o.caseName == c.name) selected.push_back(&c);
  if (selected.empty()) {
    std::string names;
    for (const Case& c : cases()) names += (names.empty() ? "" : ", ") + std::string(c.name);
    return fail(o.caseName.empty() ? "no benchmark cases in this build"
                                   : "unknown case '" + o.caseName + "' (cases: " + names + ")");
  }
  // What the rows will cost, before any allocates: refused above the limit (the user asked for this N
  // and gets it or a reason, never a smaller run that looks like it), said when over a gigabyte.
  const double available = availableMemoryBytes();
  const double limit = o.maxMemoryBytes > 0 ? o.maxMemoryBytes : available;
  for (const Case* c : selected)
    for (size_t n : o.n)
      if (const double need = c->bytesPerAgent * double(n); limit > 0 && need > limit) {
        std::fprintf(stderr,
                     "crowdlab bench: %s at n=%zu would need about %s of memory, more than the %s %s; nothing was "
                     "run (a smaller --n, or --max-memory GB to allow more)\n",
                     c->name, n, gigabytes(need).c_str(), gigabytes(limit).c_str(),
                     o.maxMemoryBytes > 0 ? "--max-memory allows" : "available now");
        return 2;
      }
  // A row says the threads it ran on: more than the machine has would not run (oneTBB keeps its workers
  // to the hardware's count and says so on stderr) under a label that says they did.
  for (int t : o.threads)
    if (t > sim::hardwareThreads()) {
      std::fprintf(stderr, "crowdlab bench: --threads %d: this machine runs %d thread%s at once; nothing was run (0 = all of them)\n",
                   t, sim::hardwareThreads(), sim::hardwareThreads() == 1 ? "" : "s");
      return 2;
    }
  for (const Case* c : selected)
    for (size_t n : o.n)
      if (const double need = c->bytesPerAgent * double(n); need >= 1e9)
        std::fprintf(stderr, "crowdlab bench: %s at n=%zu will use about %s of memory%s%s%s\n", c->name, n,
                     gigabytes(need).c_str(), available > 0 ? " (" : "", available > 0 ? gigabytes(available).c_str() : "",
                     available > 0 ? " available)" : "");
  // Opened before any row runs: a path that cannot be written (a FIFO nobody reads, a link someone
  // else owns) fails now; a file it replaces is replaced only when the run ends.
  io::OutputFile csv;
  if (!o.csvPath.empty()) {
    if (!csv.open(o.csvPath, {io::OutputFile::Mode::Stream}, error)) {
      std::fprintf(stderr, "crowdlab bench: %s\n", error.c_str());
      return 1;
    }
    csv.write(kCsvHeader);  // a write error is kept for the end: the benchmark goes on, the exit code says so
  }

  sim::lanes::setLevel(o.lanes);
  const std::vector<int> threads = threadCounts(o);
  if (o.report) {
    const std::string header = reportHeader ? reportHeader() : std::string();
    std::printf("%s", header.c_str());
    if (!header.empty() && header.back() != '\n') std::printf("\n");
    std::printf("CPU: %s\nhardware threads: %d\n", cpuModel().c_str(), sim::hardwareThreads());
    // Above kBusyNs no batch ran with both threads on their cores: that is the machine's load, not
    // its cache line, and the report says so instead of a figure.
    constexpr double kBusyNs = 50000.0;
    if (const double ns = coreToCoreNs(); ns > kBusyNs)
      std::printf("cache line between two cores: not measured, the cores were busy (fastest trip %.0f us)\n", ns / 1000.0);
    else if (ns > 0)
      std::printf("cache line between two cores: %.2f us one way\n", ns / 1000.0);
    std::printf("threads used:");
    for (int t : threads) std::printf(" %d", t);
    std::printf("\n\n");
  }
  printTableHeader();
  std::fflush(stdout);
  std::vector<Row> rows;
  for (const Case* c : selected) {
    rows.clear();
    try {
      c->run(o, rows);
    } catch (const std::bad_alloc&) {  // the estimate is an estimate; a limit (ulimit -v) may be lower
      std::fprintf(stderr, "crowdlab bench: %s ran out of memory; the rows above are complete\n", c->name);
      if (csv.isOpen() && !csv.commit(error)) std::fprintf(stderr, "crowdlab bench: %s\n", error.c_str());
      return 1;
    }
    for (Row& r : rows) {
      if (!r.extra.empty()) r.extra += ';';
      r.extra += "threads_at_work=";
      r.extra += std::to_string(r.threadsAtWork);
      printRow(r);
      if (csv.isOpen()) csv.write(csvRow(r));
    }
  }
  sim::setThreadCount(0);
  sim::lanes::setWide(true);
  // The CSV's write error, once: the path, the reason, exit 1 (the table on stdout is complete).
  if (csv.isOpen() && !csv.commit(error)) {
    std::fprintf(stderr, "crowdlab bench: %s\n", error.c_str());
    return 1;
  }
  return 0;
}

}  // namespace bench
