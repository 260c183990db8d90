#include "app/sweep_cmd.hpp"
#include "app/flag_reader.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <cstdio>
#include <map>
#include <set>
#include <sys/stat.h>
#include "experiments/sweep.hpp"
#include "io/atomic_file.hpp"
#include "io/user_files.hpp"
#include "sim/core/parallel.hpp"

namespace app {

namespace {

constexpr const char* kUsage =
    "usage: crowdlab sweep --scene S --vary NAME=FROM:TO:STEP [--vary NAME2=...] [--set k=v]... "
    "--metric M[,M...] [--reduce mean|final|min|max] [--window FROM:TO] [--seeds N] [--first-seed S] "
    "[--series LABEL:k=v;...]... [--threads T] [--csv FILE] [--plot FILE.svg] [--log x|y|xy] [--reference weidmann|bottleneck] [--shard I/N] [--resume]"
    " | crowdlab sweep --builtin NAME [...] | crowdlab sweep --list-builtins"
    " | crowdlab sweep --merge A.csv B.csv ... [--csv OUT] [--plot FILE.svg]";

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
    if (next == "--help" || next == "-h" || next == "--resume" || next == "--list-builtins") {
      (next == "--resume" ? f.resume : next == "--list-builtins" ? f.listBuiltins : f.help) = true;
      flags.skip();
      continue;
    }
    if (next == "--merge") {
      f.merge = true;
      flags.skip();
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
  if (f.merge && (!f.builtin.empty() || !f.sweepArgs.empty() || f.resume || f.shards > 1 || f.threads)) {
    error = "--merge takes only the shards' files, --csv and --plot";
    return false;
  }
  if (f.resume && f.csv.empty()) {
    error = "--resume needs --csv FILE (the file to continue)";
    return false;
  }
  if (!f.plot.empty() && !f.plot.ends_with(".svg")) {
    error = "--plot writes SVG: give a FILE.svg, got " + io::quoteText(f.plot);
    return false;
  }
  // A figure or table that could not be written at the end would cost the whole run: say so now.
  for (const std::string* path : {&f.plot, &f.csv}) {
    if (path->empty()) continue;
    const std::filesystem::path dir = std::filesystem::path(*path).parent_path();
    std::error_code ec;
    if (!dir.empty() && !std::filesystem::is_directory(dir, ec)) {
      error = "no folder " + io::quoteText(dir.string()) + " for " + io::quoteText(*path);
      return false;
    }
    if (!io::checkWritable(*path, error)) return false;  // a folder we may not write, a read-only disk
  }
  return true;
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

std::string withoutMetrics(std::string line, size_t metrics) {
  for (size_t m = 0; m < metrics; ++m) line = line.substr(0, line.rfind(','));
  return line;
}

int writePlot(const std::string& path, const experiments::SweepTable& table, const experiments::PlotOptions& options) {
  if (path.empty()) return 0;
  std::string error;
  if (table.rows.empty()) {
    std::fprintf(stderr, "crowdlab sweep: no rows to plot; %s not written\n", path.c_str());
    return 1;
  }
  if (!io::writeFileAtomically(path, experiments::sweepSvg(table, options), error)) {
    std::fprintf(stderr, "crowdlab sweep: %s\n", error.c_str());
    return 1;
  }
  return 0;
}

int merge(const RunFlags& f) {
  std::string error;
  experiments::SweepTable merged;
  std::map<size_t, const experiments::SweepTable::Row*> byJob;
  std::vector<experiments::SweepTable> tables(f.mergeFiles.size());
  for (size_t i = 0; i < f.mergeFiles.size(); ++i) {
    size_t partial = 0;
    if (!experiments::readSweepCsv(f.mergeFiles[i], tables[i], error, &partial)) {
      std::fprintf(stderr, "crowdlab sweep: %s\n", error.c_str());
      return 2;
    }
    if (partial)
      std::fprintf(stderr, "crowdlab sweep: %s ends in a half-written row (%zu bytes), left out\n", f.mergeFiles[i].c_str(), partial);
    if (i && tables[i].header != tables[0].header) {
      std::fprintf(stderr, "crowdlab sweep: %s is another sweep's (its header differs from %s's)\n",
                   f.mergeFiles[i].c_str(), f.mergeFiles[0].c_str());
      return 2;
    }
    for (const experiments::SweepTable::Row& r : tables[i].rows) {
      auto [it, fresh] = byJob.emplace(r.job, &r);
      if (!fresh && it->second->line != r.line) {
        std::fprintf(stderr, "crowdlab sweep: job %zu differs between two files (%s)\n", r.job, f.mergeFiles[i].c_str());
        return 2;
      }
    }
  }
  merged.header = tables[0].header;
  merged.params = tables[0].params;
  merged.metrics = tables[0].metrics;
  merged.hasSeries = tables[0].hasSeries;
  std::string out = merged.header + "\n";
  size_t expected = 0, missing = 0;
  for (const auto& [job, row] : byJob) {
    missing += job - expected;
    expected = job + 1;
    merged.rows.push_back(*row);
    out += row->line + "\n";
  }
  if (!f.csv.empty()) {
    if (!io::writeFileAtomically(f.csv, out, error)) {
      std::fprintf(stderr, "crowdlab sweep: %s\n", error.c_str());
      return 1;
    }
  } else {
    std::fwrite(out.data(), 1, out.size(), stdout);
  }
  std::fprintf(stderr, "sweep: merged %zu rows from %zu files%s\n", merged.rows.size(), f.mergeFiles.size(),
               missing ? (", " + std::to_string(missing) + " jobs missing before the last").c_str() : "");
  if (writePlot(f.plot, merged, experiments::plotOptionsOf(merged))) return 1;
  return missing ? 1 : 0;
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
  const std::string header = experiments::csvHeader(spec);

  // What the file already holds (--resume), checked against this sweep.
  std::set<size_t> done;
  experiments::SweepTable table = experiments::tableOf(spec);
  if (!f.csv.empty()) {
    struct stat st {};
    const bool exists = ::stat(f.csv.c_str(), &st) == 0;
    if (exists && !f.resume && st.st_size > 0)
      return bad(f.csv + " exists; --resume continues it, or give another file");
    if (exists && f.resume && st.st_size > 0) {
      experiments::SweepTable old;
      size_t partial = 0;
      if (!experiments::readSweepCsv(f.csv, old, error, &partial)) return bad(error);
      if (old.header + "\n" != header) return bad(f.csv + " holds another sweep (its header is " + io::quoteText(old.header) + ")");
      for (const experiments::SweepTable::Row& r : old.rows) {
        // The row's job, scene, series, values and seed must be this sweep's: all before the metrics.
        const std::string expect =
            r.job < all.size() ? experiments::csvRow(spec, all[r.job], r.job, {}) : std::string();
        if (expect.empty() || withoutMetrics(expect.substr(0, expect.size() - 1), spec.metrics.size()) !=
                                  withoutMetrics(r.line, spec.metrics.size()))
          return bad(f.csv + ": the row of job " + std::to_string(r.job) + " is not this sweep's job");
        done.insert(r.job);
        table.rows.push_back(r);
      }
      if (partial) {
        // A killed run's half row: cut it, so the rows appended now start on a line of their own.
        if (::truncate(f.csv.c_str(), off_t(st.st_size) - off_t(partial)) != 0) {
          std::fprintf(stderr, "crowdlab sweep: cannot cut the half-written last row of %s\n", f.csv.c_str());
          return 1;
        }
        std::fprintf(stderr, "sweep: %s ended in a half-written row; it runs again\n", f.csv.c_str());
      }
    }
  }
  std::vector<experiments::Job> jobs;
  std::vector<size_t> index;  // the sweep's job number of each job run here
  for (size_t i = f.shard; i < all.size(); i += f.shards)
    if (!done.count(i)) {
      jobs.push_back(all[i]);
      index.push_back(i);
    }

  std::FILE* out = stdout;
  if (!f.csv.empty()) {
    const bool append = !done.empty();
    out = std::fopen(f.csv.c_str(), append ? "ab" : "wb");
    if (!out) {
      std::fprintf(stderr, "crowdlab sweep: cannot write %s\n", f.csv.c_str());
      return 1;
    }
    if (!append && (std::fputs(header.c_str(), out) < 0 || std::fflush(out) != 0)) {
      std::fprintf(stderr, "crowdlab sweep: cannot write %s\n", f.csv.c_str());
      std::fclose(out);
      return 1;
    }
  } else {
    std::fputs(header.c_str(), stdout);
  }
  const int threads = f.threads ? f.threads : sim::hardwareThreads();
  std::fprintf(stderr, "sweep: %s, %zu of %zu jobs to run%s on %d thread%s\n", spec.scene.c_str(), jobs.size(),
               all.size(), f.shards > 1 ? (" (shard " + std::to_string(f.shard + 1) + "/" + std::to_string(f.shards) + ")").c_str() : "",
               threads, threads == 1 ? "" : "s");
  Progress progress(jobs.size());
  size_t finished = 0;
  std::string failure;
  std::atomic<bool> stop{false};
  experiments::RunOptions run;
  run.threads = threads;
  run.cancel = &stop;
  experiments::runJobs(jobs, run, [&](const experiments::Result& r) {
    if (!failure.empty()) return;
    if (!r.ok) {
      failure = "job " + std::to_string(index[r.job]) + ": " + r.error;
      stop = true;
      return;
    }
    const std::string row = experiments::csvRow(spec, jobs[r.job], index[r.job], r);
    // Flushed row by row: a killed sweep keeps every row it finished.
    if (std::fputs(row.c_str(), out) < 0 || std::fflush(out) != 0) {
      failure = "cannot write " + (f.csv.empty() ? std::string("the output") : f.csv);
      stop = true;
      return;
    }
    std::string ignored;
    experiments::addRow(table, row.substr(0, row.size() - 1), ignored);
    progress.update(++finished);
  });
  progress.update(finished, true);
  if (out != stdout && std::fclose(out) != 0 && failure.empty()) failure = "cannot write " + f.csv;
  if (!failure.empty()) {
    std::fprintf(stderr, "crowdlab sweep: %s\n", failure.c_str());
    return 1;
  }
  return writePlot(f.plot, table, experiments::plotOptionsOf(spec));
}

}  // namespace app
