// `crowdlab bench`: named benchmark cases over the simulation core, no window.
// A case registers itself with one line:
//   static bool registered = bench::registerCase({"boids2d", "boids step, brute vs grid", &runBoids2d, 96});
// Rows print as a table and, with --csv FILE, as CSV with the header in docs/design.md (Conventions).
#pragma once
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>
#include "sim/core/lanes.hpp"
#include "sim/core/parallel.hpp"

namespace bench {

struct Options {
  std::string caseName;        // empty: every case
  std::vector<size_t> n;       // --n (repeatable or comma list); empty: the case's own list
  std::vector<int> threads;    // --threads; empty: 1 and all cores
  int steps = 200;             // measured steps
  int warmup = 20;             // unmeasured steps first
  std::string csvPath;         // --csv FILE
  std::string mode = "all";    // --mode: the rows of one kind (Case::kinds); all: every row
  bool report = false;         // --report: a shareable block (machine, GL, table)
  // --lanes: the highest kernel build allowed (auto: the CPU's best; avx2; baseline, as a CPU without AVX2)
  sim::lanes::Level lanes = sim::lanes::Level::Avx512;
  double maxMemoryBytes = 0;   // --max-memory GB; 0: the memory the system has available now
};

struct Row {
  std::string caseName;
  size_t n = 0;
  std::string mode;            // e.g. "brute", "grid", "orca"
  int threads = 1;
  int steps = 0;
  double medianMsPerStep = 0;
  double checksPerAgent = 0;   // distance checks per agent per step
  double neighborsPerAgent = 0;
  std::string extra;           // case-specific "key=value;key=value"
  double nsPerAgentStep() const { return n ? medianMsPerStep * 1e6 / double(n) : 0.0; }
  // The threads that really did the row's loop work, counted since its startRow(): a row is built
  // once its steps have run, so the count is taken here. Shown as threads_at_work= in `extra`.
  int threadsAtWork = sim::threadsAtWork();
};

using CaseFn = void (*)(const Options& options, std::vector<Row>& rows);

struct Case {
  const char* name;
  const char* description;
  CaseFn run;
  // Peak memory per agent of one row, measured (peak RSS at a million agents, less the program's
  // own, plus a tenth): what `--n` will cost is said, and refused above --max-memory, before any
  // row allocates (a run at 50 million agents grew to 5-10 GB in silence).
  double bytesPerAgent;
  // The kinds of row the case has, for --mode (e.g. grid and brute); empty: one kind.
  std::span<const std::string_view> kinds = {};
};

// Whether a case with these row kinds runs a row of `kind`: every row under --mode all or under a
// mode the case does not have, else only the rows of the kind asked.
bool wantsKind(const Options& options, std::span<const std::string_view> kinds, std::string_view kind);

bool registerCase(const Case& c);
const std::vector<Case>& cases();

// Median of per-step wall times in milliseconds.
double medianMs(std::vector<double>& samples);

// Runs options.warmup unmeasured steps, then options.steps timed ones; step(measured) does one step.
// Returns the median wall time of the measured steps in milliseconds. A row that takes longer than
// a few seconds shows a progress line on stderr, named by `label`.
double timeSteps(const Options& options, const std::function<void(bool measured)>& step,
                 const std::string& label = "");

// Prints "LABEL: step i of n, ..." on stderr every two seconds once a row has run for three: a long
// row is never silent.
class Progress {
 public:
  Progress(std::string label, int total);
  void tick(int done);  // `done` of `total` steps taken
  void finish();        // "done in N s", when progress was shown

 private:
  std::string label_;
  int total_;
  double start_, lastShown_;
  bool shown_ = false;
};

// Sets the thread count of the row about to run and starts counting the threads that do its work.
void startRow(int threads);

// The thread counts a case runs: --threads (0 = all cores), or 1 and all cores; no repeats.
std::vector<int> threadCounts(const Options& options);

// Runs `crowdlab bench ARGS...` (args exclude the word "bench"). `reportHeader`, called under --report
// only, gives lines the app adds (GL renderer and vendor when a context could be made). Returns the
// exit code: 0 ok, 1 a file could not be written, 2 bad flag or value (one line saying what is wrong,
// then the usage, on stderr).
int run(const std::vector<std::string>& args, const std::function<std::string()>& reportHeader = {});

}  // namespace bench
