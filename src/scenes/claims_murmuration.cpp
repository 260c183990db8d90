// The murmuration's claims of the article, beside the scene: the registry (scenes/claims.hpp)
// gathers them for the experiment buttons, the banner, `crowdlab claims` and the tests.
#include <string>
#include <vector>
#include "scenes/claims.hpp"

namespace scenes {
namespace {

std::vector<Claim> murmurationClaims() {
  std::vector<Claim> c;
  c.push_back({"murmuration.k1-chains", "murmuration", "k = 1: chains and pairs (2D)",
               "With k = 1 the flock breaks into chains and pairs", "",
               {"mode2D=true", "k=1", "roostPull=0", "roostRadius=500", "colorGroups=true", "showLinks=true", "fitFlock=true", "agentScale=4"}, "", 20.0, 10.0,
               atMost("largest_group_share", Reduce::Mean, 0.5), true});
  c.back().result = "The flock broke into {a0:0} groups; the largest holds {v:%} of the birds";
  c.back().also = {"groups"};
  c.push_back({"murmuration.k7-lively", "murmuration", "k = 7: one lively flock",
               "With k = 7 it is one living flock with waves", "", {"k=7", "colorTurning=true"}, "", 20.0, 5.0,
               atLeast("velocity_fluctuation", Reduce::Mean, 0.1), true});
  c.back().result = "Birds move inside the flock by {v:%} of its speed; the largest group holds {a0:%} of them";
  c.back().also = {"largest_group_share", "groups"};
  c.push_back({"murmuration.k30-monolith", "murmuration", "k = 30: a monolith",
               "With k = 15-30 it sets into a monolith that moves as one body", "", {"k=30", "colorTurning=true"}, "", 20.0, 5.0,
               atMost("velocity_fluctuation", Reduce::Mean, 0.8), false});
  c.back().result = "Birds move inside the flock {v:%} as much as with k = 7";
  c.back().relativeTo = "murmuration.k7-lively";
  c.back().unit = "x of k = 7";
  c.back().also = {"largest_group_share"};
  c.push_back({"murmuration.falcon-splits", "murmuration", "Falcon: the flock splits (2D)",
               "A falcon makes the flock split and merge again", "", {"mode2D=true", "k=7", "colorGroups=true", "fitFlock=true"}, "falcon", 14.0, 0.0,
               belowFor("largest_group_share", 0.7, 2.0), true});
  c.back().result = "For {v:1} s the largest part held under 70 % of the birds";
  c.back().seedShare = 2.0 / 3.0;
  c.back().unit = "s below 70 %";
  c.back().also = {"groups"};
  // The same stoop in 3D, reported only: a thin sheet of birds is holed more often than cut.
  c.push_back({"murmuration.falcon-splits-3d", "murmuration", "Falcon: the flock splits (3D)",
               "A falcon makes the flock split (3D)", "", {"k=7", "colorGroups=true"}, "falcon", 14.0, 0.0,
               belowFor("largest_group_share", 0.7, 2.0), false});
  c.back().result = "For {v:1} s the largest part held under 70 % of the birds";
  c.back().seedShare = 2.0 / 3.0;
  c.back().unit = "s below 70 %";
  c.back().also = {"groups"};
  // The merge happens later, and when it does is the claim: the window runs from 8 s (the falcon is
  // through by then) until the largest part holds 80 % of the birds again, at most 60 s; the banner's
  // verdict then is what the picture at the window's end shows.
  c.push_back({"murmuration.falcon-merges", "murmuration", "Falcon: ... and merges (2D)",
               "After the falcon the parts merge again", "", {"mode2D=true", "k=7", "colorGroups=true", "fitFlock=true"}, "falcon", 60.0, 8.0,
               {"largest_group_share", Reduce::TimeUntil, 0.8, false, 60.0}, false});
  c.back().result = "The parts merged again: one group holds 80 % of the birds {v:1} s after the falcon (at 8 s)";
  c.back().resultNever = "The parts did not merge again within 60 s: the largest holds under 80 % of the birds";
  c.back().unit = "s until 80 % in one group";
  c.back().also = {"groups"};
  return c;
}

[[maybe_unused]] bool registered = registerClaims("murmuration", &murmurationClaims);

}  // namespace
}  // namespace scenes
