// CMA-ES on known functions: it reaches 1e-8 on the sphere and on Rosenbrock in 10 dimensions
// within the evaluation counts typical for the default strategy, it learns the shape of a rotated
// ellipsoid (an isotropic strategy with the covariance update switched off does not), it stays in
// its box, and a run repeats exactly for a seed, whatever the thread count of the evaluations.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <vector>
#include <Eigen/Dense>
#include "experiments/cmaes.hpp"
#include "sim/core/parallel.hpp"
#include "sim/core/rng.hpp"

using experiments::Cmaes;
using experiments::CmaesOptions;

namespace {

using Objective = std::function<double(const std::vector<double>&)>;

struct RunResult {
  double best = 0;
  long evaluations = 0;
  std::vector<double> trace;  // every value, in evaluation order
};

// Asks and tells until `target` or `budget`; the evaluations of a generation run in parallel.
RunResult minimise(const CmaesOptions& options, const Objective& f, double target, long budget) {
  Cmaes es(options);
  EXPECT_EQ(es.error(), "");
  RunResult r;
  while (es.evaluations() < budget && es.bestValue() > target && es.stopReason().empty()) {
    const auto& xs = es.ask();
    std::vector<double> values(xs.size());
    sim::parallelFor(xs.size(), [&](size_t k) { values[k] = f(xs[k]); }, 1);
    es.tell(values);
    r.trace.insert(r.trace.end(), values.begin(), values.end());
  }
  r.best = es.bestValue();
  r.evaluations = es.evaluations();
  return r;
}

double sphere(const std::vector<double>& x) {
  double s = 0;
  for (double v : x) s += v * v;
  return s;
}

double rosenbrock(const std::vector<double>& x) {
  double s = 0;
  for (size_t i = 0; i + 1 < x.size(); ++i)
    s += 100.0 * (x[i + 1] - x[i] * x[i]) * (x[i + 1] - x[i] * x[i]) + (1.0 - x[i]) * (1.0 - x[i]);
  return s;
}

// An ellipsoid of condition 1e6 whose axes are a random rotation away from the coordinate axes.
struct RotatedEllipsoid {
  Eigen::MatrixXd rotation;
  explicit RotatedEllipsoid(int n) {
    sim::Rng rng(7);
    Eigen::MatrixXd g(n, n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) g(i, j) = double(rng.uniform(-1.0f, 1.0f));
    rotation = Eigen::HouseholderQR<Eigen::MatrixXd>(g).householderQ();
  }
  double operator()(const std::vector<double>& x) const {
    const Eigen::VectorXd y = rotation * Eigen::Map<const Eigen::VectorXd>(x.data(), Eigen::Index(x.size()));
    double s = 0;
    for (Eigen::Index i = 0; i < y.size(); ++i) s += std::pow(1e6, double(i) / double(y.size() - 1)) * y[i] * y[i];
    return s;
  }
};

CmaesOptions unbounded(int n, double start, double sigma, uint64_t seed) {
  CmaesOptions o;
  o.start.assign(size_t(n), start);
  o.sigma = sigma;
  o.seed = seed;
  return o;
}

}  // namespace

// The default strategy in 10-D: lambda = 10, mu = 5.
TEST(Cmaes, DefaultPopulation) {
  Cmaes es(unbounded(10, 0.0, 1.0, 1));
  EXPECT_EQ(es.lambda(), 10);
  EXPECT_EQ(es.mu(), 5);
  EXPECT_EQ(es.ask().size(), 10u);
  EXPECT_EQ(Cmaes(unbounded(2, 0.0, 1.0, 1)).lambda(), 6);
}

// The tutorial's typical figures for the default strategy in 10-D: the sphere needs about 1,500
// evaluations for 1e-8, Rosenbrock about 6,000 (it may find the local minimum near x1 = -1 instead, on
// a few per cent of runs; these seeds do not). Budgets leave some room above those.
TEST(Cmaes, SphereIn10DReaches1e8) {
  for (uint64_t seed : {1, 2, 3}) {
    const RunResult r = minimise(unbounded(10, 1.0, 0.5, seed), sphere, 1e-8, 2500);
    EXPECT_LE(r.best, 1e-8) << "seed " << seed << " after " << r.evaluations;
  }
}

TEST(Cmaes, RosenbrockIn10DReaches1e8) {
  for (uint64_t seed : {1, 2, 3}) {
    const RunResult r = minimise(unbounded(10, 0.0, 0.5, seed), rosenbrock, 1e-8, 10000);
    EXPECT_LE(r.best, 1e-8) << "seed " << seed << " after " << r.evaluations;
  }
}

// Covariance learning: on a rotated ellipsoid of condition 1e6 the full strategy reaches 1e-8; with
// c1 = c_mu = 0 (only the step size adapts) the same budget leaves it orders of magnitude away.
TEST(Cmaes, LearnsTheShapeOfARotatedEllipsoid) {
  const RotatedEllipsoid f(10);
  CmaesOptions o = unbounded(10, 1.0, 0.5, 4);
  const RunResult learned = minimise(o, f, 1e-8, 12000);
  EXPECT_LE(learned.best, 1e-8) << "after " << learned.evaluations;
  o.learnCovariance = false;
  const RunResult isotropic = minimise(o, f, 1e-8, 12000);
  EXPECT_GT(isotropic.best, 1e-4);
}

// Every candidate lies in the box; an optimum outside it is found on its boundary.
TEST(Cmaes, StaysInsideItsBoundsAndFindsABoundaryOptimum) {
  CmaesOptions o;
  o.start = {0.5, 2.0, -1.0};
  o.lower = {0.0, 1.0, -3.0};
  o.upper = {1.0, 4.0, 0.0};
  o.sigma = 0.3;
  const std::vector<double> optimum = {2.0, 2.5, -5.0};  // x0 and x2 beyond their bounds
  Cmaes es(o);
  ASSERT_EQ(es.error(), "");
  for (int g = 0; g < 200; ++g) {
    const auto& xs = es.ask();
    std::vector<double> values;
    for (const auto& x : xs) {
      for (size_t i = 0; i < x.size(); ++i) {
        ASSERT_GE(x[i], o.lower[i]);
        ASSERT_LE(x[i], o.upper[i]);
      }
      double s = 0;
      for (size_t i = 0; i < x.size(); ++i) s += (x[i] - optimum[i]) * (x[i] - optimum[i]);
      values.push_back(s);
    }
    es.tell(values);
  }
  EXPECT_NEAR(es.best()[0], 1.0, 1e-6);
  EXPECT_NEAR(es.best()[1], 2.5, 1e-6);
  EXPECT_NEAR(es.best()[2], -3.0, 1e-6);
}

// Same seed, same run, bit for bit, with the evaluations on 1 or 2 threads; another seed differs.
TEST(Cmaes, ARunRepeatsExactlyAtAnyThreadCount) {
  const CmaesOptions o = unbounded(10, 0.0, 0.5, 11);
  RunResult one, two, again;
  {
    const sim::ScopedThreadCount threads(1);
    one = minimise(o, rosenbrock, 0.0, 600);
  }
  {
    const sim::ScopedThreadCount threads(2);
    two = minimise(o, rosenbrock, 0.0, 600);
    again = minimise(o, rosenbrock, 0.0, 600);
  }
  EXPECT_EQ(one.trace, two.trace);
  EXPECT_EQ(two.trace, again.trace);
  EXPECT_EQ(one.trace.size(), 600u);
  CmaesOptions other = o;
  other.seed = 12;
  EXPECT_NE(minimise(other, rosenbrock, 0.0, 600).trace, one.trace);
}

TEST(Cmaes, RejectsUnusableOptions) {
  CmaesOptions o;
  EXPECT_NE(Cmaes(o).error(), "");  // no parameters
  o.start = {5.0};
  o.lower = {0.0};
  o.upper = {1.0};
  EXPECT_NE(Cmaes(o).error(), "");  // start outside the box
  o.start = {0.5};
  o.upper = {0.0};
  EXPECT_NE(Cmaes(o).error(), "");  // empty range
  o.upper = {1.0};
  o.sigma = 0.0;
  EXPECT_NE(Cmaes(o).error(), "");
  o.sigma = 0.3;
  EXPECT_EQ(Cmaes(o).error(), "");
}
