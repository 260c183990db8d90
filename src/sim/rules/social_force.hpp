// The social force model, written from Helbing and Molnar, "Social force model for pedestrian
// dynamics" (Phys. Rev. E 51, 1995) and Helbing, Farkas and Vicsek, "Simulating dynamical features
// of escape panic" (Nature 407, 2000). SI units: metres, seconds, kilograms, newtons.
//
// A pedestrian i of mass m walks by
//   m dv_i/dt = m (v0_i e_i - v_i) / tau  +  sum_j f_ij  +  sum_W f_iW
// (the driving term: relax to the desired velocity within tau). Between two bodies, with
// d_ij the distance of the centres, r_ij = r_i + r_j, n_ij the unit vector from j to i, t_ij the
// tangent (-n2, n1), g(x) = x when x > 0 (in contact) and 0 otherwise:
//   f_ij = [A exp((r_ij - d_ij) / B) + k g(r_ij - d_ij)] n_ij + kappa g(r_ij - d_ij) dv_ji t_ij,
//   dv_ji = (v_j - v_i) . t_ij.
// The first term is the psychological repulsion, the body force k pushes bodies that touch apart,
// and kappa is the sliding friction of their surfaces. A wall is treated the same way from its
// nearest point (d_iW the distance, n_iW pointing from the wall to i), with friction against the
// pedestrian's own velocity along it: f_iW = [...] n_iW - kappa g(r_i - d_iW) (v_i . t_iW) t_iW.
// The 1995 paper's field of view is the weight w = lambda + (1 - lambda)(1 + cos phi) / 2 on the
// repulsion (phi: the angle between i's heading and the direction to j), as its later form writes
// it; lambda = 1 is the 2000 paper's isotropic force.
// The exponential is lanes::expOne (float arithmetic only), so pairForce and pairForceSum, its twin
// over a register of neighbours at a time, agree bit for bit on each pair.
#pragma once
#include <span>
#include "sim/core/grid.hpp"
#include "sim/core/lanes.hpp"
#include "sim/core/math.hpp"

namespace sim::sfm {

struct Params {
  float mass = 80.0f;       // kg
  float tau = 0.5f;         // s: relaxation time of the driving term
  float A = 2000.0f;        // N: strength of the repulsion between bodies
  float B = 0.08f;          // m: its range
  float wallA = 2000.0f;    // N: the same from walls
  float wallB = 0.08f;      // m
  float k = 1.2e5f;         // kg/s^2: body force (contact)
  float kappa = 2.4e5f;     // kg/(m s): sliding friction (contact)
  float lambda = 1.0f;      // weight of the repulsion from behind (1: isotropic)
  float cutoff = 1.0f;      // m: neighbours farther than this (centre to centre) are left out

  bool operator==(const Params&) const = default;
};

// The driving term m (v0 e - v) / tau; `desired` is v0 e.
inline Vec2 drivingForce(const Vec2& desired, const Vec2& velocity, const Params& p) {
  return (desired - velocity) * (p.mass / p.tau);
}

// Force on i from j. offset = x_j - x_i, distance = |offset| (> 0), radiusSum = r_i + r_j;
// heading: i's unit heading for the field-of-view weight (zero: weight 1).
inline Vec2 pairForce(const Vec2& offset, float distance, float radiusSum, const Vec2& vi, const Vec2& vj,
                      const Vec2& heading, const Params& p) {
  const Vec2 n = offset * (-1.0f / distance);  // from j to i; one division, not two
  const float overlap = radiusSum - distance;
  float repulsion = p.A * lanes::expOne(overlap / p.B);
  if (p.lambda < 1.0f) {
    const float cosPhi = -glm::dot(heading, n);  // heading against the direction to j
    repulsion *= p.lambda + (1.0f - p.lambda) * 0.5f * (1.0f + cosPhi);
  }
  Vec2 f = n * repulsion;
  if (overlap > 0.0f) {
    const Vec2 t{-n.y, n.x};
    f += n * (p.k * overlap) + t * (p.kappa * overlap * glm::dot(vj - vi, t));
  }
  return f;
}

// Force on i from a wall whose nearest point is at offset `toWall` (= point - x_i), distance > 0.
inline Vec2 wallForce(const Vec2& toWall, float distance, float radius, const Vec2& vi, const Params& p) {
  const Vec2 n = toWall * (-1.0f / distance);  // from the wall to i
  const float overlap = radius - distance;
  Vec2 f = n * (p.wallA * lanes::expOne(overlap / p.wallB));
  if (overlap > 0.0f) {
    const Vec2 t{-n.y, n.x};
    f += n * (p.k * overlap) - t * (p.kappa * overlap * glm::dot(vi, t));
  }
  return f;
}

// The sum of pairForce on a body at `self` (velocity vi, heading as pairForce takes it) from the
// candidates in `runs` (sorted indices into `axes`, whose velocity arrays hold the candidates'
// velocities), each a register of lanes at a time: candidates at distance 0 (the body itself) or
// farther than p.cutoff are left out. minImage: offsets by the minimum image (a block wrapping a
// whole axis), else by each run's shift. The same bits on every lane build (social_force.cpp).
Vec2 pairForceSum(const Vec2& self, const Vec2& vi, const Vec2& heading, float radiusSum, const CandidateAxes<2>& axes,
                  std::span<const CandidateRun<2>> runs, bool minImage, const Vec2& worldSize, const Params& p);

}  // namespace sim::sfm
