// Sweeps: one or two declared parameters over a grid, against one or more metrics, over seeds, as
// jobs for the experiment runner. The command line (`crowdlab sweep`), the built-in sweeps and the
// app's Sweep panel all build a SweepSpec here, write the same CSV and draw the same figure.
//
// CSV: one row per job, `job,scene,[series,]<parameter columns>,seed,<metric columns>`; `job` is the
// job's index in the sweep (shards and --resume key on it), numbers are written so that they read
// back exactly. Job order: series, first parameter, second parameter, seed.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>
#include "experiments/runner.hpp"

namespace experiments {

inline constexpr size_t kMaxSweepJobs = 100000;

// One varied parameter: its values as --set takes them, and as numbers for the axis (an option's
// index for a named choice, 0/1 for a switch).
struct SweepAxis {
  std::string param;
  std::string label;                 // the parameter's declared label ("corridor width (body widths)")
  std::vector<std::string> texts;
  std::vector<double> values;
  bool numeric = true;               // false: named choices, drawn as categories
};

// One curve of a comparison: extra assignments over the sweep's own (--series "NAME:k=v;k=v").
struct SweepSeries {
  std::string label;
  std::vector<std::string> sets;
};

struct SweepSpec {
  std::string scene;
  std::string preset, start;         // as a Job's
  std::vector<std::string> sets;     // fixed assignments under every job
  std::vector<SweepAxis> axes;       // one (a curve) or two (a heat map)
  std::vector<SweepSeries> series;   // none: one curve
  std::vector<MetricSpec> metrics;
  double from = 5, to = 20;          // window, simulated seconds
  int seeds = 3;
  uint64_t firstSeed = 1;
  bool logX = false, logY = false;   // axes of the figure
  std::vector<double> slopes;        // dashed guides of these slopes on log-log axes (--slopes 1,2)
  std::vector<std::string> references;  // measured data drawn under the curves (--reference weidmann)
  std::string title;                 // the figure's title ("" one from the sweep)
};

// Data from experiments a figure can draw under a metric's curves: a curve, or a band between two
// (one entry per metric it applies to; several entries may share a name).
struct ReferenceData {
  const char* name;    // --reference NAME
  const char* metric;  // the panel it is drawn in
  const char* label;   // the legend's words
  double (*low)(double x);
  double (*high)(double x);  // nullptr: a curve (low); else a band from low to high
};
std::span<const ReferenceData> referenceData();

// The flags that define a sweep, as `crowdlab sweep` takes them: --scene --vary --series --set
// --preset --start --metric --reduce --window --seeds --first-seed --log --slopes --reference --title (each followed by
// its value). Every value is checked against the scene's declarations (range, type, metric names)
// and the grid's size: false with one line.
bool parseSweepArgs(const std::vector<std::string>& args, SweepSpec& spec, std::string& error);
// True for the flags parseSweepArgs takes (all of them take a value).
bool isSweepFlag(const std::string& flag);
// The flags of those that only draw: --log, --slopes, --reference, --title.
bool isPlotFlag(const std::string& flag);

// "NAME=FROM:TO:STEP", "NAME=FROM:TO:xFACTOR" (geometric) or "NAME=V1,V2,..." for the scene's
// parameter list; every value within the parameter's declared limits.
bool parseAxis(std::span<const scenes::Param> params, const std::string& text, SweepAxis& axis, std::string& error);

size_t sweepJobCount(const SweepSpec& spec);
std::vector<Job> sweepJobs(const SweepSpec& spec);

// The CSV header line and one job's row (each ending in '\n'). The last column, `experiment`, names
// the experiment the row belongs to: "<fingerprint>/<jobs>", a hash of everything that defines the
// jobs (scene, preset and its content, start, sets, grid, series, metrics with their reductions,
// window, seeds and first seed, program version) and the sweep's job count. --resume and --merge
// take only rows of one experiment, and --merge knows from it which jobs are missing.
inline constexpr const char* kExperimentColumn = "experiment";
std::string csvHeader(const SweepSpec& spec);
std::string sweepExperiment(const SweepSpec& spec);
// The job count an experiment field names; 0 when it is malformed.
size_t experimentJobs(const std::string& experiment);
std::string csvRow(const SweepSpec& spec, const Job& job, size_t jobIndex, const Result& result);

// A sweep's CSV read back: for merging shards, resuming and drawing.
struct SweepTable {
  std::string header;                 // the header line, without '\n'
  std::vector<std::string> params;    // parameter column names
  std::vector<std::string> metrics;   // metric column names
  bool hasSeries = false;
  bool hasExperiment = false;         // the last column is `experiment` (files of older versions lack it)
  struct Row {
    size_t job = 0;
    std::string scene, series;
    std::vector<std::string> paramTexts;
    uint64_t seed = 0;
    std::vector<double> values;       // per metric
    std::string experiment;           // sweepExperiment() of the sweep that wrote it
    std::string line;                 // the row as written, without '\n'
  };
  std::vector<Row> rows;
};
// Reads a sweep CSV; a last line without its '\n' (a killed run) is dropped and reported in
// `partialBytes`. False with one line naming the file and the line for anything else malformed.
bool readSweepCsv(const std::string& path, SweepTable& table, std::string& error, size_t* partialBytes = nullptr);
bool parseSweepCsv(const std::string& text, const std::string& label, SweepTable& table, std::string& error,
                   size_t* partialBytes = nullptr);
// The table as the spec would write it (tables made from a running sweep for the panel's export).
SweepTable tableOf(const SweepSpec& spec);
bool addRow(SweepTable& table, const std::string& line, std::string& error);

// ---- the figure ----

// Mean and spread over the seeds at one grid point of one series.
struct SweepPoint {
  double x = 0, y = 0;                // axis values (y only for heat maps)
  std::string xText, yText;
  double mean = 0, min = 0, max = 0;
  int seeds = 0;
};
struct SweepCurve {
  std::string series;
  std::vector<SweepPoint> points;     // in grid order
};
// One metric's curves (one per series), from the table's rows (non-finite values left out).
std::vector<SweepCurve> sweepCurves(const SweepTable& table, size_t metric);

struct PlotOptions {
  std::string title;
  std::string scene;
  std::vector<std::string> axisLabels;   // per parameter column ("" its name)
  bool logX = false, logY = false;
  std::vector<double> slopes;            // guide k runs through curve k's first point (log-log only)
  std::vector<std::string> references;   // names in referenceData()
  std::string note;                      // the subtitle's end: window, reduction, fixed settings
  int width = 1200;                      // SVG user units; each metric gets a panel
};
// The figure as SVG: one panel per metric; one parameter: a mean line per series with its min-max
// band and markers; two: a heat map of the mean with a colour bar.
std::string sweepSvg(const SweepTable& table, const PlotOptions& options);
PlotOptions plotOptionsOf(const SweepSpec& spec);
// From a table alone (merged shards): its scene's parameter labels.
PlotOptions plotOptionsOf(const SweepTable& table);
// The drawing flags given to a merge (isPlotFlag's, with their values) onto `options`; false with
// the reason for any other flag or a bad value.
bool readPlotFlags(const std::vector<std::string>& args, PlotOptions& options, std::string& error);

// ---- built-in sweeps: the lecture's questions, one click in their scene or `--builtin NAME` ----
struct BuiltinSweep {
  const char* name;                  // "corridor-width"
  const char* scene;
  const char* title;                 // the panel's button
  std::vector<const char*> args;     // exactly what `crowdlab sweep` takes (the README prints them)
};
const std::vector<BuiltinSweep>& builtinSweeps();
const BuiltinSweep* findBuiltinSweep(const std::string& name);

}  // namespace experiments
