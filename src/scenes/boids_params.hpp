// The boids rules' parameters (sim::BoidsParams: weights, radii, speed and force limits), declared
// once for the scenes that run a sim::Flock (the boids playground and the GPU scene); the weights
// alone for every scene whose model steers by the rules (the murmuration and the finale too).
#pragma once
#include <vector>
#include "scenes/params.hpp"
#include "sim/rules/boids.hpp"

namespace scenes {

struct PerceptionRange {
  float maxPerception;      // the perception slider's top
  float maxSeparation;      // the separation slider's top (scenes keep it below the perception radius)
  const char* perceptionTip;
};

// wSep, wAli, wCoh: the three rule weights of any model that steers by them (sim::BoidsWeights),
// the one declaration of them, appended to `to`.
void addBoidsWeightParams(std::vector<Param>& to, sim::BoidsWeights& w, const sim::BoidsWeights& defaults);

// wSep, wAli, wCoh, perception, separation, minSpeed, maxSpeed, maxForce, pointing into `p`,
// defaulting to sim::BoidsParams'.
std::vector<Param> boidsRuleParams(sim::BoidsParams& p, const PerceptionRange& range);

}  // namespace scenes
