// The sweeps the lecture needs, as `crowdlab sweep` arguments: one place for the panel's one-click
// set-ups, `crowdlab sweep --builtin NAME` and the README's commands. Sized to run in about a minute
// on two cores (the pedestrians' two in a few).
#include "experiments/sweep.hpp"

namespace experiments {

const std::vector<BuiltinSweep>& builtinSweeps() {
  static const std::vector<BuiltinSweep> sweeps = {
      {"corridor-width", "orca-corridor", "Throughput against width, four methods",
       {"--scene", "orca-corridor", "--vary", "width=1.5:6:0.5", "--set", "groupSize=20",
        "--series", "separation:method=separation;lanes=false", "--series", "ORCA-like (article):method=orca-like;lanes=false",
        "--series", "ORCA:method=orca;lanes=false", "--series", "ORCA + lanes:method=orca;lanes=true",
        "--metric", "throughput_per_min:final", "--window", "10:70", "--seeds", "2",
        "--title", "Corridor: throughput against width (the article's gradient)"}},
      {"boids-alignment", "boids", "Polarization against alignment weight",
       {"--scene", "boids", "--vary", "wAli=0:3:0.25", "--metric", "polarization", "--window", "10:20", "--seeds", "5",
        "--title", "Boids: polarization against the alignment weight"}},
      {"murmuration-k", "murmuration", "Fluctuation and group share against k",
       {"--scene", "murmuration", "--vary", "k=1,2,3,4,5,6,7,8,10,12,15,20,25,30", "--metric",
        "velocity_fluctuation,largest_group_share", "--window", "5:15", "--seeds", "2",
        "--title", "Murmuration: topological k against fluctuation and cohesion"}},
      {"spatial-hash-cell", "spatial-hash", "Checks and misses against cell size",
       {"--scene", "spatial-hash", "--vary", "cellSize=10,15,20,25,30,40,50,70,100,150,200", "--set", "method=grid",
        "--series", "classic 3x3:search=classic", "--series", "auto rings:search=auto", "--metric",
        "checks_per_agent,missed_neighbors", "--window", "0.5:2", "--seeds", "2", "--log", "x",
        "--title", "Spatial hash: cost and correctness against cell size (radius 50)"}},
      {"finale-n", "finale", "Step time against N, hash on and off",
       {"--scene", "finale", "--vary", "N=250:8000:x2", "--series", "hash on:hash=true", "--series",
        "hash off:hash=false", "--set", "orca=false", "--set", "threads=1", "--metric", "step_ms:min", "--window", "0.05:0.3", "--seeds", "1",
        "--log", "xy", "--slopes", "1,2", "--title", "Finale: step time against N (log-log)"}},
      {"fundamental-diagram", "pedestrians", "Speed against density, four methods and Weidmann",
       {"--scene", "pedestrians", "--vary", "density=0.25:4:0.25", "--set", "setup=corridor",
        "--series", "separation:method=separation", "--series", "ORCA:method=orca", "--series", "ORCA + lanes:method=orca-lanes",
        "--series", "social force:method=social-force", "--metric", "walking_speed:final", "--window", "10:40", "--seeds", "2",
        "--reference", "weidmann", "--title", "Pedestrians: the fundamental diagram against Weidmann (1993)"}},
      {"bottleneck-width", "pedestrians", "Bottleneck flow against door width, four methods",
       {"--scene", "pedestrians", "--vary", "doorWidth=0.8:2.4:0.2", "--set", "setup=bottleneck",
        "--series", "separation:method=separation", "--series", "ORCA:method=orca", "--series", "ORCA + lanes:method=orca-lanes",
        "--series", "social force:method=social-force", "--metric", "flow:final,specific_flow:final", "--window", "0:90",
        "--seeds", "2", "--reference", "bottleneck", "--title", "Pedestrians: bottleneck flow against door width (100 people)"}},
  };
  return sweeps;
}

const BuiltinSweep* findBuiltinSweep(const std::string& name) {
  for (const BuiltinSweep& b : builtinSweeps())
    if (name == b.name) return &b;
  return nullptr;
}

}  // namespace experiments
