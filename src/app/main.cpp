// crowdlab: the interactive crowd-simulation scenes of the registry in one program, plus `crowdlab bench`, `crowdlab claims` and `crowdlab fps`.
#include <cstdio>
#include <string>
#include <vector>
#include "app/claims_cmd.hpp"
#include "app/cli.hpp"
#include "app/fps_cmd.hpp"
#include "app/setup.hpp"
#include "app/tune_cmd.hpp"
#include "app/sweep_cmd.hpp"
#include "bench/bench.hpp"
#include "scenes/scene.hpp"
#include "io/user_files.hpp"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && args[0] == "bench") {
    std::vector<std::string> rest(args.begin() + 1, args.end());
    bool report = false;
    for (const std::string& a : rest) report |= (a == "--report");
    return bench::run(rest, report ? app::benchReportHeader() : std::string());
  }
  if (!args.empty() && args[0] == "claims") return app::runClaims({args.begin() + 1, args.end()});
  if (!args.empty() && args[0] == "tune") return app::runTune({args.begin() + 1, args.end()});
  if (!args.empty() && args[0] == "sweep") return app::runSweep({args.begin() + 1, args.end()});
  if (!args.empty() && args[0] == "fps") return app::runFps({args.begin() + 1, args.end()});
  app::Options options;
  std::string error;
  if (!app::parseOptions(args, options, error)) {
    std::fprintf(stderr, "crowdlab: %s\n%s", error.c_str(), app::usage().c_str());
    return 2;
  }
  if (options.help) {
    std::printf("crowdlab — crowd simulation, %zu interactive scenes\n%s", scenes::registeredScenes().size(), app::usage().c_str());
    return 0;
  }
  if (options.listScenes) {
    for (const scenes::SceneEntry& e : scenes::registeredScenes()) std::printf("%s\n", e.name);
    return 0;
  }
  if (options.listParams) {
    const scenes::SceneEntry* entry = scenes::findScene(options.scene);
    if (!entry) {
      std::fprintf(stderr, "crowdlab: unknown scene %s (scenes: %s)\n%s", io::quoteText(options.scene).c_str(),
                   scenes::sceneNames().c_str(), app::usage().c_str());
      return 2;
    }
    auto scene = entry->create();
    std::printf("%s", scenes::describeParams(scene->params()).c_str());
    return 0;
  }
  if (options.headless) return app::runHeadless(options);
  return app::runWindow(options);
}
