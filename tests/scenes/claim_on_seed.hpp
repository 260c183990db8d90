// One claim on one seed as `crowdlab claims` runs it: its job (experiments::claimJob) through the
// experiment runner, a ratio claim divided by its baseline's raw value.
#pragma once
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>
#include "experiments/claim_runs.hpp"

struct ClaimOnSeed {
  double raw = 0;            // the window's value
  double value = 0;          // after the ratio
  std::vector<double> also;  // the `also` metrics
  bool ok = false;
  std::string error;
};

inline ClaimOnSeed runClaimOnSeed(const scenes::Claim& claim, uint64_t seed, double baseline = 0.0) {
  ClaimOnSeed out;
  const experiments::Result r = experiments::runJob(experiments::claimJob(claim, seed));
  if (!r.ok) {
    out.error = std::string("claim ") + claim.id + ": " + r.error;
    return out;
  }
  out.raw = out.value = r.values[0];
  if (*claim.relativeTo) out.value = baseline > 0.0 ? out.raw / baseline : std::nan("");
  out.also.assign(r.values.begin() + 1, r.values.end());
  out.ok = true;
  return out;
}
