#include "scenes/boids_params.hpp"

namespace scenes {

std::vector<Param> boidsRuleParams(sim::BoidsParams& p, const PerceptionRange& range) {
  const sim::BoidsParams d{};
  return {
      Param::f("wSep", "separation weight", &p.wSeparation, 0, 3, d.wSeparation, "Push away from neighbours closer than the separation radius"),
      Param::f("wAli", "alignment weight", &p.wAlignment, 0, 3, d.wAlignment, "Steer towards the neighbours' mean velocity"),
      Param::f("wCoh", "cohesion weight", &p.wCohesion, 0, 3, d.wCohesion, "Steer towards the neighbours' centroid"),
      Param::f("perception", "perception radius", &p.perceptionRadius, 10, range.maxPerception, d.perceptionRadius, range.perceptionTip),
      Param::f("separation", "separation radius", &p.separationRadius, 2, range.maxSeparation, d.separationRadius, "Closer than this pushes away; kept below the perception radius"),
      Param::f("minSpeed", "min speed", &p.minSpeed, 0, 300, d.minSpeed, "Birds cannot hover: slower agents speed up to this"),
      Param::f("maxSpeed", "max speed", &p.maxSpeed, 10, 400, d.maxSpeed, "Speed limit, units per second"),
      Param::f("maxForce", "max force", &p.maxForce, 10, 2000, d.maxForce, "Steering limit, units per second squared", true),
  };
}

}  // namespace scenes
