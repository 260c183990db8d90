// The boids playground's claims of the article, beside the scene: the registry (scenes/claims.hpp)
// gathers them for the experiment buttons, the banner, `crowdlab claims` and the tests.
#include <string>
#include <vector>
#include "scenes/claims.hpp"

namespace scenes {
namespace {

std::vector<Claim> boidsClaims() {
  std::vector<Claim> c;
  c.push_back({"boids.separation-scatters", "boids", "Separation only",
               "Separation alone: the flock scatters like dust", "1-separation-only.json", {"colorGroups=true", "showLinks=true"}, "formed-flock",
               10.0, 0.0, atMost("largest_group_share", Reduce::Final, 0.1), true});
  c.back().result = "The flock scattered: the largest group holds {v:%} of the boids ({a1:0} groups)";
  c.back().also = {"mean_nn_distance", "groups"};
  c.push_back({"boids.alignment-parade", "boids", "Alignment only",
               "Alignment alone: a parade, parallel but not held together", "2-alignment-only.json", {"colorGroups=true", "centreOnFlock=true"}, "",
               20.0, 10.0, atLeast("polarization", Reduce::Mean, 0.9), false});
  // Not a group count: the mean over the window (about 40) counts the early scatter, while the
  // picture at the verdict shows one loose sheet and its stragglers.
  c.back().result = "The boids fly parallel (polarisation {v:1} of 1); nothing pulls in the stragglers";
  c.back().also = {"groups", "largest_group_share"};
  c.push_back({"boids.cohesion-balls", "boids", "Cohesion only (classic)",
               "Cohesion alone: the crowd collapses into a pulsing ball", "3-cohesion-only.json",
               {"classicCohesion=true", "colorGroups=true", "showLinks=true"}, "", 20.0, 10.0, atMost("groups", Reduce::Mean, 45.0), true});
  c.back().result = "Cohesion pulled the boids into {v:0} clumps; the largest holds {a1:%} of them";
  c.back().also = {"mean_nn_distance", "largest_group_share"};
  c.push_back({"boids.balanced-flock", "boids", "Balanced",
               "All three in balance: a living flock", "4-balanced.json", {"centreOnFlock=true"}, "", 20.0, 10.0,
               atLeast("polarization", Reduce::Mean, 0.7), false});
  c.back().result = "The flock flies aligned (polarisation {v:1} of 1) in {a0:0} groups";
  c.back().also = {"groups", "mean_nn_distance"};
  return c;
}

[[maybe_unused]] bool registered = registerClaims("boids", &boidsClaims);

}  // namespace
}  // namespace scenes
