// The spatial hash's claims of the article, beside the scene: the registry (scenes/claims.hpp)
// gathers them for the experiment buttons, the banner, `crowdlab claims` and the tests.
#include <string>
#include <vector>
#include "scenes/claims.hpp"

namespace scenes {
namespace {

std::vector<Claim> spatialhashClaims() {
  std::vector<Claim> c;
  c.push_back({"spatial-hash.classic-misses", "spatial-hash", "Classic 3x3, cells of 10",
               "Cells of 10 with radius 50: agents miss their neighbours", "1-classic-3x3-breaks.json", {"showChecks=true"}, "",
               2.0, 0.5, atLeast("missed_neighbors", Reduce::Mean, 0.3), true});
  c.back().result = "The 3x3 block missed {v:0} neighbours a step (most of them: the red lines)";
  c.back().also = {"neighbors_per_agent"};
  c.push_back({"spatial-hash.auto-rings-fix", "spatial-hash", "Auto rings fix it",
               "Cells of 10 are correct again once the search covers the radius", "2-auto-rings-fix-it.json", {"showChecks=true"}, "",
               2.0, 0.5, atMost("missed_neighbors", Reduce::Max, 0.0), true});
  c.back().result = "At worst {v:0} neighbours were missed";
  c.back().fix = "auto rings: ceil(r / cellSize) rings of cells";
  c.back().also = {"neighbors_per_agent"};
  c.push_back({"spatial-hash.grid", "spatial-hash", "Grid, N = 2000",
               "The grid checks only nearby cells: about K per agent, not N", "", {"N=2000", "method=grid", "showChecks=true"}, "",
               1.0, 0.5, atMost("checks_per_agent", Reduce::Mean, 200.0), false});
  c.back().result = "With the grid each agent checks {v:0} others (of 2000)";
  c.back().unit = "checks/agent";
  c.back().cost = CostBasis::CountedWork;
  c.push_back({"spatial-hash.brute-vs-grid", "spatial-hash", "Brute force, N = 2000",
               "Brute force at N = 2000 costs an order of magnitude more than the grid", "3-brute-force.json",
               {"N=2000", "showChecks=true"}, "", 1.0, 0.5, atLeast("checks_per_agent", Reduce::Mean, 10.0), true});
  c.back().result = "Brute force checks {v:0} times as many pairs as the grid";
  c.back().relativeTo = "spatial-hash.grid";
  c.back().unit = "x the grid's checks";
  c.back().cost = CostBasis::CountedWork;
  return c;
}

[[maybe_unused]] bool registered = registerClaims("spatial-hash", &spatialhashClaims);

}  // namespace
}  // namespace scenes
