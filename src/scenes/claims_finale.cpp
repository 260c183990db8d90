// The finale's claims of the article, beside the scene: the registry (scenes/claims.hpp)
// gathers them for the experiment buttons, the banner, `crowdlab claims` and the tests.
#include <string>
#include <vector>
#include "scenes/claims.hpp"

namespace scenes {
namespace {

std::vector<Claim> finaleClaims() {
  std::vector<Claim> c;
  // The cost of the search judged by the distance checks counted (a busy machine changes a step's time,
  // never its checks); the step's time is reported beside it.
  c.push_back({"finale.hash-on", "finale", "Hash on, N = 12000",
               "With the spatial hash a big crowd steps fast", "", {"N=12000", "hash=true", "showStepCost=true"}, "", 0.1, 0.05,
               atMost("checks_per_agent", Reduce::Mean, 1e9), false});
  c.back().result = "With the hash each agent checks {v:0} others a step; a step takes {a0:1} ms";
  c.back().unit = "checks/agent";
  c.back().also = {"step_ms"};
  c.back().cost = CostBasis::CountedWork;
  c.push_back({"finale.hash-off", "finale", "Hash off, N = 12000",
               "Turn the hash off and the frame rate collapses", "", {"N=12000", "hash=false", "showStepCost=true"}, "", 0.1, 0.05,
               atLeast("checks_per_agent", Reduce::Mean, 10.0), true});
  c.back().result = "Without the hash a step makes {v:0} times the distance checks ({a0:0} ms a step)";
  c.back().relativeTo = "finale.hash-on";
  c.back().unit = "x the checks";
  c.back().also = {"step_ms"};
  c.back().cost = CostBasis::CountedWork;
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
