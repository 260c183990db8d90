// crowdlab: the interactive crowd-simulation scenes of the registry in one program, plus `crowdlab bench`, `crowdlab claims` and `crowdlab fps`.
#include <cstdio>
#include <string>
#include <vector>
#include "app/claims_cmd.hpp"
#include "app/cli.hpp"
#include "app/fps_cmd.hpp"
#include "app/run_modes.hpp"
#include "app/tune_cmd.hpp"
#include "app/sweep_cmd.hpp"
#include "bench/bench.hpp"
#include "scenes/scene.hpp"
#include "io/flag_reader.hpp"
#include "io/output_file.hpp"
#include "io/user_files.hpp"

namespace {
// A listing into a full disk or /dev/full is a failure with its reason, not exit 0 with nothing written.
int stdoutWritten() {
  std::string error;
  if (io::finishStdout(error)) return 0;
  std::fprintf(stderr, "crowdlab: %s\n", error.c_str());
  return 1;
}

// A command's exit code, made 1 when what it printed could not be written (`sweep --merge > /dev/full`).
int withStdout(int code) {
  const int written = stdoutWritten();
  return code == 0 ? written : code;
}
}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && args[0] == "bench") return withStdout(bench::run({args.begin() + 1, args.end()}, app::benchReportHeader));
  if (!args.empty() && args[0] == "claims") return withStdout(app::runClaims({args.begin() + 1, args.end()}));
  if (!args.empty() && args[0] == "tune") return withStdout(app::runTune({args.begin() + 1, args.end()}));
  if (!args.empty() && args[0] == "sweep") return withStdout(app::runSweep({args.begin() + 1, args.end()}));
  if (!args.empty() && args[0] == "fps") return withStdout(app::runFps({args.begin() + 1, args.end()}));
  app::Options options;
  std::string error;
  if (!app::parseOptions(args, options, error)) {
    std::fprintf(stderr, "crowdlab: %s\n%s", error.c_str(), app::usage().c_str());
    return 2;
  }
  // Parse only: the flags are read and checked (a scene name too), nothing runs.
  if (io::FlagReader::parseOnly()) {
    if (!options.scene.empty() && !scenes::findScene(options.scene)) {
      std::fprintf(stderr, "crowdlab: unknown scene %s (scenes: %s)\n%s", io::quoteText(options.scene).c_str(),
                   scenes::sceneNames().c_str(), app::usage().c_str());
      return 2;
    }
    return 0;
  }
  if (options.help) {
    std::printf("crowdlab — crowd simulation, %zu interactive scenes\n%s", scenes::registeredScenes().size(), app::usage().c_str());
    return stdoutWritten();
  }
  if (options.listScenes) {
    for (const scenes::SceneEntry& e : scenes::registeredScenes()) std::printf("%s\n", e.name);
    return stdoutWritten();
  }
  if (options.listParams) {
    const scenes::SceneEntry* entry = scenes::findScene(options.scene);
    if (!entry) {
      std::fprintf(stderr, "crowdlab: unknown scene %s (scenes: %s)\n%s", io::quoteText(options.scene).c_str(),
                   scenes::sceneNames().c_str(), app::usage().c_str());
      return 2;
    }
    auto scene = scenes::declarationsOf(*entry);
    std::printf("%s", scenes::describeParams(scene->params()).c_str());
    return stdoutWritten();
  }
  if (options.headless) return withStdout(app::runHeadless(options));
  return app::runWindow(options);
}
