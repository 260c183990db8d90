#include "app/sweep_cmd.hpp"
#include "app/flag_reader.hpp"
#include "app/stop_signals.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <chrono>
#include <filesystem>
#include <cstdio>
#include <map>
#include <set>
#include <sys/stat.h>
#include "experiments/sweep.hpp"
#include "io/atomic_file.hpp"
#include "io/output_file.hpp"
#include "io/user_files.hpp"
#include "sim/core/parallel.hpp"

namespace app {

namespace {

constexpr const char* kUsage =
    "usage: crowdlab sweep --scene S --vary NAME=FROM:TO:STEP [--vary NAME2=...] [--set k=v]... "
    "--metric M[,M...] [--reduce mean|final|min|max] [--window FROM:TO] [--seeds N] [--first-seed S] "
    "[--series LABEL:k=v;...]... [--threads T] [--csv FILE] [--plot FILE.svg] [--log x|y|xy] [--reference weidmann|bottleneck] [--shard I/N] [--resume]"
    " | crowdlab sweep --builtin NAME [...] | crowdlab sweep --list-builtins"
    " | crowdlab sweep --merge A.csv B.csv ... [--csv OUT] [--plot FILE.svg] [--log, --slopes, --reference, --title]";

struct RunFlags {
  std::string csv, plot, builtin;
  int threads = 0;
  size_t shard = 0, shards = 1;  // this run's shard (0-based) of `shards`
  bool resume = false, listBuiltins = false, merge = false, help = false;
  std::vector<std::string> mergeFiles;
  std::vector<std::string> sweepArgs;  // for experiments::parseSweepArgs
};

bool parseFlags(const std::vector<std::string>& args, RunFlags& f, std::string& error) {
  FlagReader flags(args);
  std::string a, v;
  while (!flags.done()) {
    const std::string& next = flags.peek();
    if (flags.nextIs({"--help", "-h", "--resume", "--list-builtins"})) {
      if (!flags.takeSwitch({"--help", "-h", "--resume", "--list-builtins"}, a, error)) return false;
      (a == "--resume" ? f.resume : a == "--list-builtins" ? f.listBuiltins : f.help) = true;
      continue;
    }
    if (next == "--merge") {
      if (!flags.takeSwitch({"--merge"}, a, error)) return false;
      f.merge = true;
      for (std::string file; flags.nextPlain(file);) f.mergeFiles.push_back(file);
      if (f.mergeFiles.empty()) {
        error = "--merge needs the shards' CSV files";
        return false;
      }
      continue;
    }
    // The sweep's own flags (--vary, --set, --series, ...) may repeat; experiments::parseSweepArgs
    // reads them. This command's flags are given once.
    if (experiments::isSweepFlag(next)) {
      const std::string name = next;
      if (!flags.take({}, {name.c_str()}, a, v, error)) return false;
      f.sweepArgs.push_back(a);
      f.sweepArgs.push_back(v);
      continue;
    }
    if (!flags.take({"--csv", "--plot", "--threads", "--shard", "--builtin"}, {}, a, v, error)) return false;
    uint64_t n = 0, m = 0;
    std::string unused;
    if (a == "--csv") f.csv = v;
    else if (a == "--plot") f.plot = v;
    else if (a == "--builtin") f.builtin = v;
    else if (a == "--threads") {
      if (!FlagReader::wholeNumber(a, v, 1, 256, n, error)) return false;
      f.threads = int(n);
    } else if (a == "--shard") {
      const size_t slash = v.find('/');
      if (slash == std::string::npos || !FlagReader::wholeNumber(a, v.substr(0, slash), 1, 100000, n, unused) ||
          !FlagReader::wholeNumber(a, v.substr(slash + 1), 1, 100000, m, unused) || n > m) {
        error = "--shard expects I/N with 1 <= I <= N (e.g. 2/4), got " + io::quoteText(v);
        return false;
      }
      f.shard = size_t(n - 1);
      f.shards = size_t(m);
    }
  }
  if (f.merge && (!f.builtin.empty() || f.resume || f.shards > 1 || f.threads)) {
    error = "--merge takes only the shards' files, --csv, --plot and the drawing flags --log, --slopes, --reference, --title";
    return false;
  }
  // A merge's drawing flags, read once here (a flag that defines jobs or a bad value: before any work).
  experiments::PlotOptions checked;
  if (f.merge && !experiments::readPlotFlags(f.sweepArgs, checked, error)) return false;
  if (f.resume && f.csv.empty()) {
    error = "--resume needs --csv FILE (the file to continue)";
    return false;
  }
  if (!f.plot.empty() && !f.plot.ends_with(".svg")) {
    error = "--plot writes SVG: give a FILE.svg, got " + io::quoteText(f.plot);
    return false;
  }
  for (const std::string* path : {&f.plot, &f.csv}) {
    if (path->empty()) continue;
    const std::filesystem::path dir = std::filesystem::path(*path).parent_path();
    std::error_code ec;
    if (!dir.empty() && !std::filesystem::is_directory(dir, ec)) {
      error = "no folder " + io::quoteText(dir.string()) + " for " + io::quoteText(*path);
      return false;
    }
  }
  return true;
}

// A figure or table that could not be written at the end would cost the whole run: every output is
// opened before the first job (a FIFO nobody reads, a link someone else owns, a folder that is not
// there fail now), and two outputs may not name one file.
bool openPlot(const RunFlags& f, io::OutputFile& plot, std::string& error) {
  return f.plot.empty() || plot.open(f.plot, {io::OutputFile::Mode::Whole}, error);
}

std::string clock(double seconds) {
  const long s = long(seconds + 0.5);
  char buf[32];
  if (s >= 3600) std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  else std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
  return buf;
}

// "jobs done, elapsed, remaining": over itself on a terminal, a line every few seconds in a log.
class Progress {
 public:
  explicit Progress(size_t total) : total_(total), tty_(isatty(2) != 0), t0_(Clock::now()) {}
  void update(size_t done, bool last = false) {
    const double elapsed = std::chrono::duration<double>(Clock::now() - t0_).count();
    if (!last && !tty_ && elapsed - lastPrinted_ < 5.0) return;
    if (last && !tty_ && done == lastDone_) return;  // the line is already there
    lastPrinted_ = elapsed;
    lastDone_ = done;
    const double left = done ? elapsed / double(done) * double(total_ - done) : 0.0;
    std::fprintf(stderr, "%ssweep: %zu/%zu jobs, %s elapsed, %s%s%s", tty_ ? "\r" : "", done, total_,
                 clock(elapsed).c_str(), done ? "about " : "", done ? (clock(left) + " left").c_str() : "starting",
                 tty_ && !last ? "   " : "\n");
    std::fflush(stderr);
  }

 private:
  using Clock = std::chrono::steady_clock;
  size_t total_;
  bool tty_;
  Clock::time_point t0_;
  double lastPrinted_ = -1e9;
  size_t lastDone_ = size_t(-1);
};

int writePlot(io::OutputFile& plot, const experiments::SweepTable& table, const experiments::PlotOptions& options) {
  if (!plot.isOpen()) return 0;
  std::string error;
  if (table.rows.empty()) {
    std::fprintf(stderr, "crowdlab sweep: no rows to plot; %s not written\n", plot.path().c_str());
    plot.abandon();
    return 1;
  }
  plot.write(experiments::sweepSvg(table, options));
  if (!plot.commit(error)) {
    std::fprintf(stderr, "crowdlab sweep: %s\n", error.c_str());
    return 1;
  }
  return 0;
}

// The rows of one experiment in job order, one per job: an identical repeat is dropped, two different
// rows of one job are refused. False with the reason.
bool collectRows(const experiments::SweepTable& t, const std::string& label, const std::string& experiment,
                 std::string& scene, std::map<size_t, const experiments::SweepTable::Row*>& byJob, std::string& error) {
  if (!t.hasExperiment) {
    error = label + " names no experiment (made by an older crowdlab); run the sweep again";
    return false;
  }
  for (const experiments::SweepTable::Row& r : t.rows) {
    if (r.experiment != experiment) {
      error = label + ": the row of job " + std::to_string(r.job) + " is from another experiment (" +
              io::quoteText(r.experiment) + ", not " + experiment +
              "): another scene, grid, seeds, first seed, window, reduction, --set, preset, series or program version";
      return false;
    }
    if (scene.empty()) scene = r.scene;  // the first row's, of the first file
    if (r.scene != scene) {
      error = label + ": the row of job " + std::to_string(r.job) + " names scene " + io::quoteText(r.scene) + ", not " +
              scene;
      return false;
    }
    if (r.job >= experiments::experimentJobs(experiment)) {
      error = label + ": job " + std::to_string(r.job) + " is past the experiment's " +
              std::to_string(experiments::experimentJobs(experiment)) + " jobs";
      return false;
    }
    auto [it, fresh] = byJob.emplace(r.job, &r);
    if (!fresh && it->second->line != r.line) {
      error = label + ": job " + std::to_string(r.job) + " has two different rows";
      return false;
    }
  }
  return true;
}

// "3, 7, 12-15": job numbers, ranges joined, cut after a few dozen.
std::string jobList(const std::vector<size_t>& jobs) {
  std::string text;
  size_t shown = 0;
  for (size_t i = 0; i < jobs.size() && shown < 24; ++shown) {
    size_t j = i;
    while (j + 1 < jobs.size() && jobs[j + 1] == jobs[j] + 1) ++j;
    text += (text.empty() ? "" : ", ") + std::to_string(jobs[i]) + (j > i ? "-" + std::to_string(jobs[j]) : "");
    i = j + 1;
  }
  return shown < jobs.size() && text.size() ? text + ", ..." : text;
}

int merge(const RunFlags& f) {
  std::string error;
  std::vector<experiments::SweepTable> tables(f.mergeFiles.size());
  std::map<size_t, const experiments::SweepTable::Row*> byJob;
  std::string experiment, scene;
  for (size_t i = 0; i < f.mergeFiles.size(); ++i) {
    size_t partial = 0;
    if (!experiments::readSweepCsv(f.mergeFiles[i], tables[i], error, &partial)) {
      std::fprintf(stderr, "crowdlab sweep: %s\n", error.c_str());
      return 2;
    }
    if (partial)
      std::fprintf(stderr, "crowdlab sweep: %s ends in a half-written row (%zu bytes): its job counts as missing\n",
                   f.mergeFiles[i].c_str(), partial);
    if (i && tables[i].header != tables[0].header) {
      std::fprintf(stderr, "crowdlab sweep: %s is another sweep's (its header differs from %s's)\n",
                   f.mergeFiles[i].c_str(), f.mergeFiles[0].c_str());
      return 2;
    }
    if (experiment.empty() && !tables[i].rows.empty()) experiment = tables[i].rows.front().experiment;
    if (!collectRows(tables[i], f.mergeFiles[i], experiment, scene, byJob, error)) {
      std::fprintf(stderr, "crowdlab sweep: %s\n", error.c_str());
      return 2;
    }
  }
  if (byJob.empty()) {
    std::fprintf(stderr, "crowdlab sweep: the files hold no rows\n");
    return 1;
  }
  // The output: an existing file is replaced only when it is this experiment's (a merge run again).
  io::OutputFile out, plot;
  if (!f.csv.empty()) {
    experiments::SweepTable old;
    std::string why, text;
    const io::ReadStatus status = io::readUserFile(f.csv, text, why, size_t(64) << 20);
    std::error_code ec;
    if (status == io::ReadStatus::Failed && std::filesystem::is_regular_file(f.csv, ec)) {
      std::fprintf(stderr, "crowdlab sweep: %s\n", why.c_str());
      return 2;
    }
    if (status == io::ReadStatus::Ok && !text.empty()) {
      std::string ignored;
      std::map<size_t, const experiments::SweepTable::Row*> oldRows;
      if (!experiments::parseSweepCsv(text, f.csv, old, ignored) || old.header != tables[0].header ||
          !collectRows(old, f.csv, experiment, scene, oldRows, ignored)) {
        std::fprintf(stderr, "crowdlab sweep: %s exists and is not this sweep's merge; give another --csv file\n",
                     f.csv.c_str());
        return 2;
      }
    }
    if (!out.open(f.csv, {io::OutputFile::Mode::Whole}, error)) {
      std::fprintf(stderr, "crowdlab sweep: %s\n", error.c_str());
      return 1;
    }
  }
  if (!openPlot(f, plot, error)) {
    std::fprintf(stderr, "crowdlab sweep: %s\n", error.c_str());
    return 1;
  }
  if (!io::distinctOutputs({{"--csv", &out}, {"--plot", &plot}}, error)) {
    std::fprintf(stderr, "crowdlab sweep: %s\n", error.c_str());
    return 2;
  }
  experiments::SweepTable merged;
  merged.header = tables[0].header;
  merged.params = tables[0].params;
  merged.metrics = tables[0].metrics;
  merged.hasSeries = tables[0].hasSeries;
  merged.hasExperiment = true;
  std::string text = merged.header + "\n";
  for (const auto& [job, row] : byJob) {
    merged.rows.push_back(*row);
    text += row->line + "\n";
  }
  std::vector<size_t> missing;
  for (size_t job = 0; job < experiments::experimentJobs(experiment); ++job)
    if (!byJob.count(job)) missing.push_back(job);
  if (out.isOpen()) {
    out.write(text);
    if (!out.commit(error)) {
      std::fprintf(stderr, "crowdlab sweep: %s\n", error.c_str());
      return 1;
    }
  } else {
    std::fwrite(text.data(), 1, text.size(), stdout);
  }
  std::fprintf(stderr, "sweep: merged %zu of %zu jobs from %zu files\n", merged.rows.size(),
               experiments::experimentJobs(experiment), f.mergeFiles.size());
  if (!missing.empty())
    std::fprintf(stderr, "crowdlab sweep: %zu jobs missing: %s (run their shards again, or --resume them)\n",
                 missing.size(), jobList(missing).c_str());
  experiments::PlotOptions drawing = experiments::plotOptionsOf(merged);
  experiments::readPlotFlags(f.sweepArgs, drawing, error);  // on top of the table's labels; checked in parseFlags
  if (writePlot(plot, merged, drawing)) return 1;
  return missing.empty() ? 0 : 1;
}

}  // namespace

int runSweep(const std::vector<std::string>& args) {
  RunFlags f;
  std::string error;
  auto bad = [&](const std::string& why) {
    std::fprintf(stderr, "crowdlab sweep: %s (%s)\n", why.c_str(), kUsage);
    return 2;
  };
  if (!parseFlags(args, f, error)) return bad(error);
  if (FlagReader::parseOnly() && (f.help || f.listBuiltins || f.merge)) return 0;
  if (f.help) {
    std::printf("%s\n(flags in docs/sweeps.md; `crowdlab --scene NAME --list-params` lists the parameters)\n", kUsage);
    return 0;
  }
  if (f.listBuiltins) {
    for (const experiments::BuiltinSweep& b : experiments::builtinSweeps()) {
      std::printf("%-18s %s\n    crowdlab sweep", b.name, b.title);
      for (const char* a : b.args) {
        const std::string s = a;
        const bool quote = s.find_first_of(" ;()+") != std::string::npos;
        std::printf(" %s%s%s", quote ? "'" : "", a, quote ? "'" : "");
      }
      std::printf("\n");
    }
    return 0;
  }
  if (f.merge) return merge(f);
  if (!f.builtin.empty()) {
    const experiments::BuiltinSweep* b = experiments::findBuiltinSweep(f.builtin);
    if (!b) {
      std::string names;
      for (const experiments::BuiltinSweep& s : experiments::builtinSweeps()) names += (names.empty() ? "" : ", ") + std::string(s.name);
      return bad("unknown built-in sweep " + io::quoteText(f.builtin) + " (built-ins: " + names + ")");
    }
    // The built-in's flags first; the user's own (--seeds 5, say) replace the built-in's one.
    std::vector<std::string> merged;
    std::set<std::string> given;
    for (size_t i = 0; i + 1 < f.sweepArgs.size(); i += 2) given.insert(f.sweepArgs[i]);
    for (size_t i = 0; i + 1 < b->args.size(); i += 2) {
      const std::string flag = b->args[i];
      if (given.count(flag) && flag != "--set") continue;
      merged.push_back(flag);
      merged.push_back(b->args[i + 1]);
    }
    merged.insert(merged.end(), f.sweepArgs.begin(), f.sweepArgs.end());
    f.sweepArgs = merged;
  }
  experiments::SweepSpec spec;
  if (!experiments::parseSweepArgs(f.sweepArgs, spec, error)) return bad(error);
  const std::vector<experiments::Job> all = experiments::sweepJobs(spec);
  if (f.shard >= all.size())
    return bad("shard " + std::to_string(f.shard + 1) + "/" + std::to_string(f.shards) + " has no jobs (the sweep has " +
               std::to_string(all.size()) + ")");
  if (FlagReader::parseOnly()) return 0;
  const std::string header = experiments::csvHeader(spec);
  const std::string experiment = experiments::sweepExperiment(spec);

  // What the file already holds (--resume), checked against this sweep: the same experiment, each
  // row this sweep's job, one row a job.
  std::set<size_t> done;
  std::map<size_t, const experiments::SweepTable::Row*> kept;
  experiments::SweepTable old;
  bool rewrite = false;  // the rows are out of job order or repeated: the file is written again in order
  experiments::SweepTable table = experiments::tableOf(spec);
  io::OutputFile out, plot;
  // Outputs that cannot be written are refused before any job, as a bad flag is (exit 2).
  if (!openPlot(f, plot, error)) {
    std::fprintf(stderr, "crowdlab sweep: %s\n", error.c_str());
    return 2;
  }
  if (!f.csv.empty()) {
    struct stat st {};
    const bool exists = ::stat(f.csv.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
    if (exists && !f.resume) return bad(f.csv + " exists; --resume continues it, or give another file");
    if (exists) {
      size_t partial = 0;
      if (!experiments::readSweepCsv(f.csv, old, error, &partial)) return bad(error);
      if (old.header + "\n" != header) return bad(f.csv + " holds another sweep (its header is " + io::quoteText(old.header) + ")");
      std::string scene = spec.scene;
      if (!collectRows(old, f.csv, experiment, scene, kept, error)) return bad(error);
      for (const experiments::SweepTable::Row& r : old.rows) {
        // The row's job, scene, series, values and seed must be this sweep's: all before the metrics.
        experiments::SweepTable expect = experiments::tableOf(spec);
        std::string ignored;
        const std::string line = experiments::csvRow(spec, all[r.job], r.job, {});
        if (!experiments::addRow(expect, line.substr(0, line.size() - 1), ignored) ||
            expect.rows[0].scene != r.scene || expect.rows[0].series != r.series ||
            expect.rows[0].paramTexts != r.paramTexts || expect.rows[0].seed != r.seed)
          return bad(f.csv + ": the row of job " + std::to_string(r.job) + " is not this sweep's job");
      }
      size_t previous = 0;
      for (size_t i = 0; i < old.rows.size(); ++i) {
        rewrite = rewrite || (i && old.rows[i].job <= previous);
        previous = old.rows[i].job;
      }
      rewrite = rewrite || partial;  // a killed run's half row is cut
      for (const auto& [job, row] : kept) {
        done.insert(job);
        table.rows.push_back(*row);
      }
      if (rewrite) {
        std::string text = header;
        for (const auto& [job, row] : kept) text += row->line + "\n";
        if (!io::writeFileAtomically(f.csv, text, error)) {
          std::fprintf(stderr, "crowdlab sweep: %s\n", error.c_str());
          return 1;
        }
        std::fprintf(stderr, "sweep: %s put in job order, %zu rows kept%s\n", f.csv.c_str(), kept.size(),
                     partial ? " (a half-written last row cut; its job runs again)" : "");
      }
    }
    // Rows are added to a file being continued; a new file is written in place, row by row, so a
    // killed sweep keeps every row it finished.
    if (!out.open(f.csv, {exists ? io::OutputFile::Mode::Append : io::OutputFile::Mode::Stream, !exists}, error)) {
      std::fprintf(stderr, "crowdlab sweep: %s\n", error.c_str());
      return 2;
    }
    if (!exists && !out.write(header)) {
      std::string why;
      out.commit(why);
      std::fprintf(stderr, "crowdlab sweep: %s\n", why.c_str());
      return 1;
    }
  }
  if (!io::distinctOutputs({{"--csv", &out}, {"--plot", &plot}}, error)) {
    std::fprintf(stderr, "crowdlab sweep: %s\n", error.c_str());
    out.discard();
    return 2;
  }
  if (!out.isOpen()) std::fputs(header.c_str(), stdout);
  std::vector<experiments::Job> jobs;
  std::vector<size_t> index;  // the sweep's job number of each job run here
  for (size_t i = f.shard; i < all.size(); i += f.shards)
    if (!done.count(i)) {
      jobs.push_back(all[i]);
      index.push_back(i);
    }
  const size_t lastKept = kept.empty() ? 0 : kept.rbegin()->first;
  const bool inOrder = jobs.empty() || kept.empty() || index.front() > lastKept;

  const int threads = f.threads ? f.threads : sim::hardwareThreads();
  std::fprintf(stderr, "sweep: %s, %zu of %zu jobs to run%s on %d thread%s\n", spec.scene.c_str(), jobs.size(),
               all.size(), f.shards > 1 ? (" (shard " + std::to_string(f.shard + 1) + "/" + std::to_string(f.shards) + ")").c_str() : "",
               threads, threads == 1 ? "" : "s");
  Progress progress(jobs.size());
  size_t finished = 0;
  std::string failure;
  bool writeFailed = false;  // the file's own error comes from commit()
  // Ctrl+C, SIGTERM (timeout, a batch scheduler) and SIGHUP stop the jobs under way; every finished
  // row is in the file.
  const StopSignals stops{SIGINT, SIGTERM, SIGHUP};
  experiments::RunOptions run;
  run.threads = threads;
  run.cancel = &StopSignals::stopRequested();
  experiments::runJobs(jobs, run, [&](const experiments::Result& r) {
    if (!failure.empty() || writeFailed) return;
    if (!r.ok) {
      if (StopSignals::received()) return;  // a job cut short by the stop
      failure = "job " + std::to_string(index[r.job]) + ": " + r.error;
      StopSignals::requestStop();
      return;
    }
    const std::string row = experiments::csvRow(spec, jobs[r.job], index[r.job], r);
    // Written row by row, each whole in one write(): a killed sweep keeps every row it finished.
    if (out.isOpen() ? !out.write(row) : (std::fputs(row.c_str(), stdout) < 0 || std::fflush(stdout) != 0)) {
      if (!out.isOpen()) failure = "stdout: write failed (" + std::string(std::strerror(errno)) + ")";
      writeFailed = true;
      StopSignals::requestStop();
      return;
    }
    std::string ignored;
    experiments::addRow(table, row.substr(0, row.size() - 1), ignored);
    progress.update(++finished);
  });
  progress.update(finished, true);
  if (out.isOpen() && !out.commit(error)) failure = error;
  if (!failure.empty()) {
    std::fprintf(stderr, "crowdlab sweep: %s\n", failure.c_str());
    return 1;
  }
  if (const int sig = StopSignals::received()) {
    std::fprintf(stderr, "crowdlab sweep: stopped by signal %d after %zu of %zu jobs; --resume continues it\n", sig,
                 finished, jobs.size());
    return 128 + sig;
  }
  // Jobs that were missing before the last kept row were added after it: the file goes in job order.
  if (!inOrder && !f.csv.empty()) {
    std::sort(table.rows.begin(), table.rows.end(), [](const auto& a, const auto& b) { return a.job < b.job; });
    std::string text = header;
    for (const experiments::SweepTable::Row& r : table.rows) text += r.line + "\n";
    if (!io::writeFileAtomically(f.csv, text, error)) {
      std::fprintf(stderr, "crowdlab sweep: %s\n", error.c_str());
      return 1;
    }
  }
  return writePlot(plot, table, experiments::plotOptionsOf(spec));
}

}  // namespace app
