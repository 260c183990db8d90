// Results pinned, as Box2D's determinism test pins its hash: every scene's agents after a fixed
// number of headless steps on a fixed seed, at one and at two threads, must give the digest below.
// A change that alters a scene's results must update its digest in the same commit and say why in
// the commit message; a change that should not alter results (a refactor, a faster kernel) keeps
// them all. The same digest must come from one and two threads, and from every build of the lane
// kernels the CPU runs (baseline, AVX2, AVX-512).
#include <gtest/gtest.h>

#include <map>
#include <string>
#include "scenes/digest.hpp"
#include "scenes/params.hpp"
#include "scenes/scene.hpp"
#include "sim/core/lanes.hpp"
#include "sim/core/parallel.hpp"

namespace {

constexpr int kSteps = 90;
constexpr uint64_t kSeed = 1;

// scene -> agentsDigest after kSteps steps of 1/60 s on seed kSeed, with the scene's defaults.
const std::map<std::string, std::string> kPinned = {
    {"murmuration", "593e42eec331c5d3"},
    {"boids", "7654c5f87098263c"},
    {"spatial-hash", "f06ce6fdf4034216"},
    {"orca-corridor", "dca1b0735f2cfdc9"},
    {"steering", "fe01cda166969c06"},
    {"finale", "d2ad7608d48c846b"},
    {"gpu", "fcdf4404a772cc26"},
    {"pedestrians", "611e5e4ab21f710a"},
};

std::string digestAfterSteps(const std::string& name, int threads, sim::lanes::Level lanes = sim::lanes::best()) {
  sim::ScopedThreadCount count(threads);
  sim::lanes::setLevel(lanes);
  // A scene with its own thread count (the finale) takes it as a parameter.
  std::vector<std::string> sets;
  if (scenes::findParam(scenes::declarationsOf(*scenes::findScene(name))->params(), "threads"))
    sets.push_back("threads=" + std::to_string(threads));
  std::string error;
  const std::string digest = scenes::digestAfterSteps(name, kSeed, kSteps, sets, error);
  EXPECT_EQ(error, "");
  sim::lanes::setWide(true);
  return digest;
}

}  // namespace

TEST(Digests, EveryScenesResultsArePinnedAtOneAndTwoThreads) {
  sim::lanes::setWide(true);
  if (!sim::lanes::wide())
    std::printf("no AVX2 kernels on this CPU or build (%s): the AVX2 = baseline comparison is skipped\n",
                sim::lanes::name());
  std::string table;
  bool allMatch = true;
  for (const scenes::SceneEntry& e : scenes::registeredScenes()) {
    SCOPED_TRACE(e.name);
    const std::string one = digestAfterSteps(e.name, 1), two = digestAfterSteps(e.name, 2);
    EXPECT_EQ(one, two) << "the thread count changed the results";
    // Without AVX2 kernels only the baseline runs: said once above.
    sim::lanes::setWide(true);
    for (const sim::lanes::Level level : sim::lanes::available()) {  // the best gave `one`; the others
      if (level != sim::lanes::best()) {
        EXPECT_EQ(one, digestAfterSteps(e.name, 1, level)) << "lanes " << int(level) << " and the CPU's best differ";
      }
    }
    const auto pinned = kPinned.find(e.name);
    ASSERT_NE(pinned, kPinned.end()) << "a new scene: pin its digest in kPinned";
    if (pinned->second != one) allMatch = false;
    EXPECT_EQ(pinned->second, one) << "results changed: if on purpose, update kPinned and say why in the commit";
    table += "    {\"" + std::string(e.name) + "\", \"" + one + "\"},\n";
  }
  if (!allMatch) std::printf("digests now (for kPinned):\n%s", table.c_str());
}
