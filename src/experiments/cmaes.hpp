// CMA-ES: the covariance matrix adaptation evolution strategy, (mu/mu_w, lambda) with cumulative
// step-size adaptation (CSA) and the rank-one and rank-mu covariance updates, written from the
// equations of N. Hansen, "The CMA Evolution Strategy: A Tutorial" (arXiv:1604.00772), with its
// default strategy parameters (positive recombination weights only).
//
// Ask/tell: ask() hands out one generation of candidates, the caller evaluates them however it
// likes (in parallel: each candidate is its own job) and tell() takes the values in the same order.
// All randomness comes from one seeded generator drawn in a fixed order on the calling thread, and
// ties are broken by candidate index, so a run repeats exactly at any thread count.
//
// Bounds: by a transform, not by repair (after the boundary transformation Hansen describes). The
// strategy searches an unbounded space of normalised coordinates u, u = 0 and u = 1 being a
// parameter's lower and upper bound; a candidate's value is u mapped into [0, 1] (the identity
// inside, a parabola within 5 % of each bound, reflection beyond), then scaled into the range. The
// strategy's state never sees the bounds, and every value handed out lies inside them.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>
#include <Eigen/Dense>
#include "sim/core/rng.hpp"

namespace experiments {

struct CmaesOptions {
  std::vector<double> start;         // x0: where the search is centred, inside the bounds
  std::vector<double> lower, upper;  // the box; both empty: unbounded (u = x)
  double sigma = 0.3;                // initial step size, in normalised units (a fraction of each range)
  int lambda = 0;                    // population; 0: the default 4 + floor(3 ln n)
  uint64_t seed = 1;
  bool learnCovariance = true;       // false: c1 = c_mu = 0, only the step size adapts (an isotropic ES)
};

class Cmaes {
 public:
  // An empty `error()` after construction means the options were usable.
  explicit Cmaes(const CmaesOptions& options);

  const std::string& error() const { return error_; }
  int dimension() const { return n_; }
  int lambda() const { return lambda_; }
  int mu() const { return mu_; }

  // The next generation's candidates (values inside the bounds), lambda of them. Calling ask()
  // again before tell() returns the same ones.
  const std::vector<std::vector<double>>& ask();
  // Their objective values (to minimise), in ask()'s order; NaN counts as worse than anything.
  void tell(std::span<const double> values);

  // After tell(): the generation's best and median values, and the best ever seen.
  int generation() const { return generation_; }
  long evaluations() const { return evaluations_; }
  double sigma() const { return sigma_; }
  double generationBest() const { return generationBest_; }
  double generationMedian() const { return generationMedian_; }
  double bestValue() const { return bestValue_; }
  const std::vector<double>& best() const { return best_; }
  // The distribution's mean as a value inside the bounds.
  std::vector<double> mean() const { return toValue(mean_); }
  // Largest over smallest axis of the search distribution (sqrt of C's condition number).
  double axisRatio() const;
  // Non-empty when the search cannot make progress any more (step size vanished, C degenerate,
  // all values equal for many generations); the caller may stop.
  std::string stopReason() const;

  // A value inside the bounds from normalised coordinates (the transform described above).
  std::vector<double> toValue(const Eigen::VectorXd& u) const;

 private:
  double normal();
  void decompose();

  std::string error_;
  int n_ = 0, lambda_ = 0, mu_ = 0;
  std::vector<double> lower_, upper_;
  bool bounded_ = false;
  // Strategy parameters (the tutorial's Table 1).
  Eigen::VectorXd weights_;
  double muEff_ = 0, cSigma_ = 0, dSigma_ = 0, cC_ = 0, c1_ = 0, cMu_ = 0, chiN_ = 0;
  // State.
  Eigen::VectorXd mean_, pSigma_, pC_, axes_;  // axes_: D, the square roots of C's eigenvalues
  Eigen::MatrixXd cov_, basis_, invSqrtCov_;   // C, B, C^-1/2
  double sigma_ = 0;
  int generation_ = 0;
  long evaluations_ = 0;
  sim::Rng rng_;
  bool asked_ = false;
  std::vector<Eigen::VectorXd> steps_;  // y_k = B D z_k of the asked generation
  std::vector<std::vector<double>> candidates_;
  double generationBest_ = 0, generationMedian_ = 0, bestValue_ = 0;
  std::vector<double> best_;
  int flatGenerations_ = 0;
};

}  // namespace experiments
