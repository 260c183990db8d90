#include "experiments/cmaes.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <Eigen/Eigenvalues>

namespace experiments {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Normalised coordinates into [0, 1]: the identity inside, a parabola within kMargin of each bound
// that meets it with slope 0, and reflection beyond, periodically. At a bound the transform is
// quadratic, so an objective whose best lies on a bound stays smooth there for the strategy (a plain
// reflection would put a kink there, which ranks the other coordinates poorly).
constexpr double kMargin = 0.05;
double fold(double u) {
  if (!std::isfinite(u)) return 0.5;
  constexpr double a = kMargin, length = 1.0 + 2.0 * a;
  double s = u + a;                                // the extended interval [-a, 1 + a] starts at 0
  s -= 2.0 * length * std::floor(s / (2.0 * length));  // [0, 2 length)
  if (s > length) s = 2.0 * length - s;            // reflected into [0, length]
  const double v = s - a;                          // back in [-a, 1 + a]
  if (v < a) return (v + a) * (v + a) / (4.0 * a);
  if (v > 1.0 - a) return 1.0 - (1.0 + a - v) * (1.0 + a - v) / (4.0 * a);
  return v;
}
// The inverse on [0, 1], for the start.
double unfold(double t) {
  constexpr double a = kMargin;
  if (t < a) return std::sqrt(4.0 * a * t) - a;
  if (t > 1.0 - a) return 1.0 + a - std::sqrt(4.0 * a * (1.0 - t));
  return t;
}

}  // namespace

Cmaes::Cmaes(const CmaesOptions& o) : rng_(o.seed, 0x43a) {
  n_ = int(o.start.size());
  if (n_ == 0) {
    error_ = "nothing to tune: no parameters";
    return;
  }
  bounded_ = !o.lower.empty() || !o.upper.empty();
  if (bounded_ && (o.lower.size() != o.start.size() || o.upper.size() != o.start.size())) {
    error_ = "bounds and start differ in length";
    return;
  }
  lower_ = o.lower;
  upper_ = o.upper;
  if (!(o.sigma > 0.0) || !std::isfinite(o.sigma)) {
    error_ = "the initial step size must be positive";
    return;
  }
  mean_.resize(n_);
  for (int i = 0; i < n_; ++i) {
    const double x = o.start[size_t(i)];
    if (!std::isfinite(x)) {
      error_ = "the start is not finite";
      return;
    }
    if (bounded_) {
      const double lo = lower_[size_t(i)], hi = upper_[size_t(i)];
      if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi)) {
        error_ = "a parameter's range is empty or not finite";
        return;
      }
      if (x < lo || x > hi) {
        error_ = "the start lies outside the bounds";
        return;
      }
      mean_[i] = unfold((x - lo) / (hi - lo));
    } else {
      mean_[i] = x;
    }
  }

  // Selection and recombination: lambda, mu, the weights (Table 1, positive weights only).
  const double n = double(n_);
  lambda_ = o.lambda > 0 ? std::max(o.lambda, 2) : 4 + int(std::floor(3.0 * std::log(n)));
  mu_ = lambda_ / 2;
  weights_.resize(mu_);
  for (int i = 0; i < mu_; ++i) weights_[i] = std::log((lambda_ + 1) / 2.0) - std::log(double(i + 1));
  weights_ /= weights_.sum();
  muEff_ = 1.0 / weights_.squaredNorm();

  // Step-size control.
  cSigma_ = (muEff_ + 2.0) / (n + muEff_ + 5.0);
  dSigma_ = 1.0 + 2.0 * std::max(0.0, std::sqrt((muEff_ - 1.0) / (n + 1.0)) - 1.0) + cSigma_;
  // Covariance adaptation.
  const double alphaCov = 2.0;
  cC_ = (4.0 + muEff_ / n) / (n + 4.0 + 2.0 * muEff_ / n);
  c1_ = alphaCov / ((n + 1.3) * (n + 1.3) + muEff_);
  cMu_ = std::min(1.0 - c1_, alphaCov * (muEff_ - 2.0 + 1.0 / muEff_) / ((n + 2.0) * (n + 2.0) + alphaCov * muEff_ / 2.0));
  if (!o.learnCovariance) c1_ = cMu_ = 0.0;
  chiN_ = std::sqrt(n) * (1.0 - 1.0 / (4.0 * n) + 1.0 / (21.0 * n * n));  // E||N(0, I)||

  sigma_ = o.sigma;
  pSigma_ = Eigen::VectorXd::Zero(n_);
  pC_ = Eigen::VectorXd::Zero(n_);
  cov_ = Eigen::MatrixXd::Identity(n_, n_);
  basis_ = Eigen::MatrixXd::Identity(n_, n_);
  invSqrtCov_ = Eigen::MatrixXd::Identity(n_, n_);
  axes_ = Eigen::VectorXd::Ones(n_);
  steps_.assign(size_t(lambda_), Eigen::VectorXd::Zero(n_));
  candidates_.assign(size_t(lambda_), std::vector<double>(size_t(n_)));
  best_ = toValue(mean_);
  bestValue_ = kInf;
}

double Cmaes::normal() {
  // Box-Muller on two 53-bit uniforms (the first in (0, 1], so its log is finite). One draw per
  // call keeps the sequence a plain function of the call count.
  auto uniform53 = [&] {
    const uint64_t hi = rng_.next() >> 5, lo = rng_.next() >> 6;  // 27 + 26 bits
    return double((hi << 26) | lo) * (1.0 / 9007199254740992.0);
  };
  const double u1 = 1.0 - uniform53(), u2 = uniform53();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

std::vector<double> Cmaes::toValue(const Eigen::VectorXd& u) const {
  std::vector<double> x(static_cast<size_t>(n_));
  for (int i = 0; i < n_; ++i) {
    if (!bounded_) {
      x[size_t(i)] = u[i];
      continue;
    }
    const double lo = lower_[size_t(i)], hi = upper_[size_t(i)];
    x[size_t(i)] = std::clamp(lo + (hi - lo) * fold(u[i]), lo, hi);
  }
  return x;
}

const std::vector<std::vector<double>>& Cmaes::ask() {
  if (asked_ || !error_.empty()) return candidates_;
  // z_k ~ N(0, I), y_k = B D z_k, x_k = m + sigma y_k.
  Eigen::VectorXd z(n_);
  for (int k = 0; k < lambda_; ++k) {
    for (int i = 0; i < n_; ++i) z[i] = normal();
    steps_[size_t(k)] = basis_ * axes_.cwiseProduct(z);
    candidates_[size_t(k)] = toValue(mean_ + sigma_ * steps_[size_t(k)]);
  }
  asked_ = true;
  return candidates_;
}

void Cmaes::tell(std::span<const double> values) {
  if (!asked_ || int(values.size()) != lambda_ || !error_.empty()) return;
  asked_ = false;
  evaluations_ += lambda_;
  ++generation_;
  auto valueOf = [&](int k) {
    const double v = values[size_t(k)];
    return std::isnan(v) ? kInf : v;
  };
  // Rank by value; equal values keep the candidates' order, so the ranking is a pure function of them.
  std::vector<int> order(static_cast<size_t>(lambda_));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return valueOf(a) < valueOf(b); });
  generationBest_ = valueOf(order[0]);
  const int mid = lambda_ / 2;
  generationMedian_ =
      lambda_ % 2 ? valueOf(order[size_t(mid)]) : 0.5 * (valueOf(order[size_t(mid - 1)]) + valueOf(order[size_t(mid)]));
  if (generationBest_ < bestValue_) {
    bestValue_ = generationBest_;
    best_ = candidates_[size_t(order[0])];
  }
  flatGenerations_ = valueOf(order[size_t(mu_ - 1)]) == generationBest_ ? flatGenerations_ + 1 : 0;

  // Recombination: <y>_w = sum w_i y_{i:lambda}; m <- m + sigma <y>_w (c_m = 1).
  Eigen::VectorXd yw = Eigen::VectorXd::Zero(n_);
  for (int i = 0; i < mu_; ++i) yw += weights_[i] * steps_[size_t(order[size_t(i)])];
  mean_ += sigma_ * yw;

  // Cumulative step-size adaptation: the conjugate path, compared with its length under random selection.
  pSigma_ = (1.0 - cSigma_) * pSigma_ + std::sqrt(cSigma_ * (2.0 - cSigma_) * muEff_) * (invSqrtCov_ * yw);
  const double pSigmaNorm = pSigma_.norm();
  // h_sigma stalls the rank-one path while the step-size path is long (sigma about to grow).
  const double pathDecay = 1.0 - std::pow(1.0 - cSigma_, 2.0 * generation_);
  const bool hSigma = pSigmaNorm / std::sqrt(pathDecay) < (1.4 + 2.0 / (n_ + 1.0)) * chiN_;

  // Covariance matrix adaptation: the evolution path (rank one) and the selected steps (rank mu).
  pC_ = (1.0 - cC_) * pC_ + (hSigma ? std::sqrt(cC_ * (2.0 - cC_) * muEff_) : 0.0) * yw;
  if (c1_ > 0.0 || cMu_ > 0.0) {
    const double delta = hSigma ? 0.0 : cC_ * (2.0 - cC_);
    Eigen::MatrixXd rankMu = Eigen::MatrixXd::Zero(n_, n_);
    for (int i = 0; i < mu_; ++i) {
      const Eigen::VectorXd& y = steps_[size_t(order[size_t(i)])];
      rankMu.noalias() += weights_[i] * y * y.transpose();
    }
    // sum w_j = 1 with positive weights only.
    cov_ = (1.0 + c1_ * delta - c1_ - cMu_) * cov_ + c1_ * pC_ * pC_.transpose() + cMu_ * rankMu;
  }

  sigma_ *= std::exp((cSigma_ / dSigma_) * (pSigmaNorm / chiN_ - 1.0));
  if (c1_ > 0.0 || cMu_ > 0.0) decompose();
}

// C = B D^2 B^T, and C^-1/2 = B D^-1 B^T for the step-size path.
void Cmaes::decompose() {
  // Symmetric by construction up to rounding; make it exactly so.
  const Eigen::MatrixXd c = 0.5 * (cov_ + cov_.transpose());
  cov_ = c;
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(c);
  if (solver.info() != Eigen::Success) return;  // keep the last decomposition
  Eigen::VectorXd eig = solver.eigenvalues();
  const double largest = std::max(eig.maxCoeff(), 1e-300);
  for (int i = 0; i < n_; ++i) eig[i] = std::max(eig[i], largest * 1e-20);  // rounding can make one slightly negative
  basis_ = solver.eigenvectors();
  axes_ = eig.cwiseSqrt();
  invSqrtCov_ = basis_ * axes_.cwiseInverse().asDiagonal() * basis_.transpose();
}

double Cmaes::axisRatio() const { return axes_.maxCoeff() / axes_.minCoeff(); }

std::string Cmaes::stopReason() const {
  if (!error_.empty()) return error_;
  if (!std::isfinite(sigma_)) return "the step size is no longer finite";
  if (sigma_ * axes_.maxCoeff() < 1e-12) return "the step size fell below 1e-12 of the ranges";
  if (axisRatio() > 1e7) return "the search distribution degenerated (axis ratio above 1e7)";
  // TolFun-like: the best half ties with the best for many generations; no more information is coming.
  if (flatGenerations_ >= 10 + int(std::ceil(30.0 * n_ / lambda_))) return "the objective is flat around the best";
  return {};
}

}  // namespace experiments
