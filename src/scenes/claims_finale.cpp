// The finale's claims of the article, beside the scene: the registry (scenes/claims.hpp)
// gathers them for the experiment buttons, the banner, `crowdlab claims` and the tests.
#include <string>
#include <vector>
#include "scenes/claims.hpp"

namespace scenes {
namespace {

std::vector<Claim> finaleClaims() {
  std::vector<Claim> c;
  // Step times: the fastest step of the window on each side, so a busy machine's pre-emptions do not
  // decide the ratio (the usual benchmarking practice).
  c.push_back({"finale.hash-on", "finale", "Hash on, N = 12000",
               "With the spatial hash a big crowd steps fast", "", {"N=12000", "hash=true", "showStepCost=true"}, "", 0.1, 0.05,
               atMost("step_ms", Reduce::Min, 1e9), false});
  c.back().result = "With the hash one step takes {v:1} ms";
  c.back().unit = "ms/step";
  c.push_back({"finale.hash-off", "finale", "Hash off, N = 12000",
               "Turn the hash off and the frame rate collapses", "", {"N=12000", "hash=false", "showStepCost=true"}, "", 0.1, 0.05,
               atLeast("step_ms", Reduce::Min, 10.0), true});
  c.back().result = "Without the hash a step takes {v:1} times as long";
  c.back().relativeTo = "finale.hash-on";
  c.back().unit = "x slower";
  c.push_back({"finale.orca-on", "finale", "ORCA on",
               "With ORCA dense groups stay collision free", "", {"orca=true", "showOverlaps=true"}, "", 15.0, 5.0,
               atMost("overlaps_total", Reduce::Max, 0.0), true});
  c.back().result = "At most {v:0} pairs of agents overlapped";
  c.push_back({"finale.orca-off", "finale", "ORCA off",
               "Turn ORCA off and dense groups stick together", "", {"orca=false", "showOverlaps=true"}, "", 15.0, 5.0,
               atLeast("overlaps_total", Reduce::Mean, 1.0), true});
  c.back().result = "On average {v:0} pairs of agents overlapped";
  c.back().unit = "overlapping pairs";
  return c;
}

[[maybe_unused]] bool registered = registerClaims("finale", &finaleClaims);

}  // namespace
}  // namespace scenes
