// The finale's learned weight function: the third source's ai_force_weights(position, velocity),
// made real and measured. A small multilayer perceptron per agent, from what the agent sees to
// multipliers of the three rule weights:
//   inputs (7, each in [0, 1] or [-1, 1]): local density, the neighbours' mean speed, alignment
//     with them, distance to the target, heading towards it, own speed, the separation push;
//   8 hidden units, softsign (a / (1 + |a|): smooth, bounded, no exponential);
//   3 outputs through softplus, divided by softplus(0): the separation, alignment and cohesion
//     multipliers, so a network of zeros multiplies by exactly 1 (the constant weights).
// 91 weights. The network is written once over a number type: a float for one agent (the
// reference), a lane register for eight (the step), with the same operations in the same order,
// so both give the same bits. softplus uses its own exp and log1p (Taylor series after range
// reduction) so that it needs only + - * / and a compare: no library call per lane.
#pragma once
#include <array>
#include <cmath>
#include <cstdint>

namespace sim {

struct LearnedWeights {
  static constexpr int kInputs = 7, kHidden = 8, kOutputs = 3;
  // Per hidden unit its kInputs weights, then its bias; then per output its kHidden weights, then its bias.
  static constexpr int kCount = kHidden * (kInputs + 1) + kOutputs * (kHidden + 1);
  std::array<float, kCount> w{};  // all zero: every multiplier 1

  bool operator==(const LearnedWeights&) const = default;
};

// The number type for one agent.
struct ScalarOps {
  using F = float;
  static F splat(float x) { return x; }
  static F atLeast(F x, float lo) { return x > lo ? x : lo; }  // NaN gives lo
  static F abs(F x) { return std::fabs(x); }
  static F sqrt(F x) { return std::sqrt(x); }
};

template <class Ops>
struct LearnedNet {
  using F = typename Ops::F;
  static constexpr int kInputs = LearnedWeights::kInputs, kHidden = LearnedWeights::kHidden,
                       kOutputs = LearnedWeights::kOutputs;

  // What one agent sees. count: neighbours within the perception radius; velocitySum: their
  // velocities summed; velocity: its own; toTarget: target - position; separation: the rules'
  // separation sum (boids push, length about the crush).
  [[gnu::always_inline]] static inline void features(F count, F velocitySumX, F velocitySumY, F vx, F vy, F toTargetX,
                                                     F toTargetY, F separationX, F separationY, float maxSpeed,
                                                     float slowingRadius, F (&in)[kInputs]) {
    const F one = Ops::splat(1.0f);
    const F invCount = one / Ops::atLeast(count, 1.0f);  // no neighbours: their sums are zero
    const F mx = velocitySumX * invCount, my = velocitySumY * invCount;
    const F meanSpeed = Ops::sqrt(mx * mx + my * my);
    const F speed = Ops::sqrt(vx * vx + vy * vy);
    const F distance = Ops::sqrt(toTargetX * toTargetX + toTargetY * toTargetY);
    const F push = Ops::sqrt(separationX * separationX + separationY * separationY);
    const F invMaxSpeed = Ops::splat(1.0f / maxSpeed);
    in[0] = count / (count + Ops::splat(8.0f));
    in[1] = meanSpeed * invMaxSpeed;
    in[2] = (vx * mx + vy * my) / (speed * meanSpeed + one);
    in[3] = distance / (distance + Ops::splat(slowingRadius + 1.0f));
    in[4] = (vx * toTargetX + vy * toTargetY) / (speed * distance + one);
    in[5] = speed * invMaxSpeed;
    in[6] = push / (push + one);
  }

  // log(1 + e^x), to about 1e-6 relative, finite for any input (NaN gives log 2).
  [[gnu::always_inline]] static inline F softplus(F x) {
    const F one = Ops::splat(1.0f);
    // e^t for t = -|x| >= -24 (beyond, e^t < 4e-11 adds nothing to the result's float): e^(t/32)
    // by its Taylor series to degree 9 (|t/32| <= 0.75), squared five times.
    const F t = Ops::atLeast(Ops::splat(0.0f) - Ops::abs(x), -24.0f);
    const F r = t * Ops::splat(1.0f / 32.0f);
    F e = one;
    for (int k = 9; k >= 1; --k) e = one + r * Ops::splat(1.0f / float(k)) * e;
    for (int k = 0; k < 5; ++k) e = e * e;
    // log(1 + e) = 2 atanh(s), s = e / (2 + e) <= 1/3, by its series to s^13.
    const F s = e / (Ops::splat(2.0f) + e), s2 = s * s;
    F series = Ops::splat(1.0f / 13.0f);
    for (int k = 11; k >= 1; k -= 2) series = Ops::splat(1.0f / float(k)) + s2 * series;
    return Ops::atLeast(x, 0.0f) + Ops::splat(2.0f) * s * series;
  }

  // The three multipliers for one set of inputs.
  [[gnu::always_inline]] static inline void multipliers(const LearnedWeights& net, const F (&in)[kInputs],
                                                        F (&out)[kOutputs]) {
    const F one = Ops::splat(1.0f);
    const float* w = net.w.data();
    F hidden[kHidden];
    for (int h = 0; h < kHidden; ++h, w += kInputs + 1) {
      F a = Ops::splat(w[kInputs]);
      for (int i = 0; i < kInputs; ++i) a = a + Ops::splat(w[i]) * in[i];
      hidden[h] = a / (one + Ops::abs(a));
    }
    const F atZero = softplus(Ops::splat(0.0f));  // divided by itself: exactly 1 for a zero output
    for (int k = 0; k < kOutputs; ++k, w += kHidden + 1) {
      F o = Ops::splat(w[kHidden]);
      for (int h = 0; h < kHidden; ++h) o = o + Ops::splat(w[h]) * hidden[h];
      out[k] = softplus(o) / atZero;
    }
  }
};

}  // namespace sim
