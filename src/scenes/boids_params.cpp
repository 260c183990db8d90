#include "scenes/boids_params.hpp"

namespace scenes {

void addBoidsWeightParams(std::vector<Param>& to, sim::BoidsWeights& w, const sim::BoidsWeights& d) {
  to.push_back(Param::f("wSep", "separation weight", &w.separation, 0, 3, d.separation, "Push away from neighbours that come too close"));
  to.push_back(Param::f("wAli", "alignment weight", &w.alignment, 0, 3, d.alignment, "Steer towards the neighbours' mean velocity"));
  to.push_back(Param::f("wCoh", "cohesion weight", &w.cohesion, 0, 3, d.cohesion, "Steer towards the neighbours' centroid"));
}

std::vector<Param> boidsRuleParams(sim::BoidsParams& p, const PerceptionRange& range) {
  const sim::BoidsParams d{};
  std::vector<Param> out;
  addBoidsWeightParams(out, p.weights, d.weights);
  out.insert(out.end(), {
      Param::f("perception", "perception radius", &p.perceptionRadius, 10, range.maxPerception, d.perceptionRadius, range.perceptionTip).withUnit("world units"),
      Param::f("separation", "separation radius", &p.separationRadius, 2, range.maxSeparation, d.separationRadius, "Closer than this pushes away; kept below the perception radius"),
      Param::f("minSpeed", "min speed", &p.minSpeed, 0, 300, d.minSpeed, "Birds cannot hover: slower agents speed up to this"),
      Param::f("maxSpeed", "max speed", &p.maxSpeed, 10, 400, d.maxSpeed, "Speed limit, units per second").withUnit("world units/s"),
      Param::f("maxForce", "max force", &p.maxForce, 10, 2000, d.maxForce, "Steering limit, units per second squared", true),
  });
  return out;
}

}  // namespace scenes
