// The steering playground's claims of the article, beside the scene: the registry (scenes/claims.hpp)
// gathers them for the experiment buttons, the banner, `crowdlab claims` and the tests.
#include <string>
#include <vector>
#include "scenes/claims.hpp"

namespace scenes {
namespace {

std::vector<Claim> steeringClaims() {
  std::vector<Claim> c;
  c.push_back({"steering.seek-orbits", "steering", "Seek only",
               "Seek alone overshoots the target and orbits it", "1-seek-only.json", {"trails=6", "frameTarget=true", "agentScale=0.5", "showVelocity=false"}, "", 30.0, 10.0,
               atMost("settled_share", Reduce::Mean, 0.1), true});
  c.back().result = "Only {v:%} of the agents came to rest at the target; the rest overshoot it and swing back through";
  c.back().also = {"mean_speed"};
  c.push_back({"steering.arrive-settles", "steering", "Seek + arrive",
               "Arrive: the agents stop cleanly at the target", "2-seek-arrive.json", {"trails=30"}, "", 12.5, 12.5,
               atLeast("settled_share", Reduce::Min, 0.95), true});
  c.back().result = "At least {v:%} of the agents stood still at the target the whole time";
  c.back().fix = "separation joins arrive's desired velocity instead of taking the force budget first";
  c.back().also = {"mean_speed"};
  c.push_back({"steering.smoothing-arrives", "steering", "Arrive + smoothing 0.3 s",
               "Smoothing the steering keeps a clean stop (no orbiting)", "2-seek-arrive.json", {"smoothing=0.3", "trails=30"},
               "", 12.5, 12.5, atLeast("settled_share", Reduce::Min, 0.95), true});
  c.back().result = "At least {v:%} of the agents stood still at the target the whole time";
  c.back().fix = "smoothing is a response time on the velocity, not a lag on the acceleration";
  c.back().also = {"mean_speed"};
  return c;
}

[[maybe_unused]] bool registered = registerClaims("steering", &steeringClaims);

}  // namespace
}  // namespace scenes
