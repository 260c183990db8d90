#include "sim/models/pedestrians.hpp"

#include <algorithm>
#include <cmath>
#include "sim/core/parallel.hpp"
#include "sim/core/rng.hpp"
#include "sim/rules/boids.hpp"
#include "sim/core/metric.hpp"

namespace sim {

double weidmannSpeed(double density) {
  constexpr double v0 = 1.34, gamma = 1.913, rhoMax = 5.4;
  if (!(density > 0.0)) return v0;
  if (density >= rhoMax) return 0.0;
  return v0 * (1.0 - std::exp(-gamma * (1.0 / density - 1.0 / rhoMax)));
}

const char* pedMethodName(PedMethod m) {
  switch (m) {
    case PedMethod::Separation: return "separation";
    case PedMethod::Orca: return "orca";
    case PedMethod::OrcaLanes: return "orca-lanes";
    case PedMethod::SocialForce: return "social-force";
  }
  return "?";
}

namespace {
constexpr float kCellSize = 1.0f;       // m: the grid every method queries
constexpr float kOrcaNeighborDist = 2.0f;
constexpr float kOrcaTauWalls = 0.5f;
constexpr int kOrcaNeighbors = 10;
constexpr float kKeepRightRadians = 0.5f;
constexpr float kLaneBandLength = 2.0f;  // m: ahead and behind, the band a lane order looks along
constexpr float kLaneMemory = 0.97f;     // per step: the lane count's bins remember about half a second
constexpr float kExitBeyond = 1.5f;      // m past the door: out of the simulation
constexpr float kRecentFlowSeconds = 2.0f;
constexpr float kSpawnSpacing = 0.6f;    // m: the bottleneck's starting lattice
}  // namespace

PedestrianSim::PedestrianSim(const PedestrianParams& params) { reset(params); }

void PedestrianSim::reset(const PedestrianParams& params) {
  params_ = params;
  params_.radius = std::clamp(params_.radius, 0.05f, 0.5f);
  params_.corridorWidth = std::max(params_.corridorWidth, 4.0f * params_.radius);
  params_.corridorLength = std::max(params_.corridorLength, 4.0f);
  params_.density = std::clamp(params_.density, 0.01f, 6.0f);
  params_.people = std::clamp(params_.people, 1, 5000);
  params_.substeps = std::clamp(params_.substeps, 1, 16);
  params_.maxSpeed = std::max(params_.maxSpeed, 0.1f);
  time_ = 0;
  samples_ = countSum_ = speedSum_ = 0;
  laneOrderSum_ = lanesSum_ = laneSamples_ = 0;
  metrics_ = {};
  exitTimes_.clear();
  exitTimes_.reserve(size_t(params_.people));
  buildGeometry();
  spawn();
}

void PedestrianSim::buildGeometry() {
  walls_.clear();
  if (periodic()) {
    const float hl = halfLength(), hw = halfWidth();
    // Walls longer than the corridor: with x wrapping, every agent sees them along its whole way.
    walls_.push_back({{-2.0f * hl, hw}, {2.0f * hl, hw}});
    walls_.push_back({{-2.0f * hl, -hw}, {2.0f * hl, -hw}});
    box_.boundary = Boundary::Wrap;
    box_.min = Vec2{-hl, -hw - 3.0f};  // room across, so nobody meets anybody across the y seam
    box_.size = Vec2{2.0f * hl, 2.0f * hw + 6.0f};
    roomDepth_ = roomHalfHeight_ = 0;
    return;
  }
  roomHalfHeight_ = 4.0f;
  const int rows = int((2.0f * roomHalfHeight_ - 0.8f) / kSpawnSpacing) + 1;
  const int cols = (params_.people + rows - 1) / rows;
  roomDepth_ = std::max(5.0f, 1.6f + float(cols) * kSpawnSpacing);
  const float hh = roomHalfHeight_, d = roomDepth_, hd = 0.5f * params_.doorWidth;
  walls_.push_back({{0.0f, hh}, {-d, hh}});
  walls_.push_back({{-d, hh}, {-d, -hh}});
  walls_.push_back({{-d, -hh}, {0.0f, -hh}});
  walls_.push_back({{0.0f, hh}, {0.0f, hd}});
  walls_.push_back({{0.0f, -hd}, {0.0f, -hh}});
  box_.boundary = Boundary::Open;
  box_.min = Vec2{-d - 1.0f, -hh - 1.0f};
  box_.size = Vec2{d + 1.0f + kExitBeyond + 1.0f, 2.0f * hh + 2.0f};
}

void PedestrianSim::spawn() {
  Rng rng(params_.seed, 7100);
  const float r = params_.radius;
  std::vector<Vec2> sites;
  if (periodic()) {
    const float L = params_.corridorLength, W = params_.corridorWidth;
    const size_t n = std::max<size_t>(1, size_t(std::lround(double(params_.density) * L * W)));
    // A lattice with at least n sites over the floor, centres clear of the walls; n of them at random.
    const int cols = std::max(1, int(std::ceil(std::sqrt(double(n) * L / (W - 2.0f * r)))));
    const int rows = int((n + size_t(cols) - 1) / size_t(cols));
    const float dx = L / float(cols), dy = (W - 2.0f * r) / float(rows);
    const float jitter = 0.25f * std::max(0.0f, std::min(dx, dy) - 2.0f * r);
    for (int c = 0; c < cols; ++c)
      for (int k = 0; k < rows; ++k)
        sites.push_back({-0.5f * L + (float(c) + 0.5f) * dx, -0.5f * W + r + (float(k) + 0.5f) * dy});
    for (size_t k = sites.size(); k > 1; --k) std::swap(sites[k - 1], sites[rng.below(uint32_t(k))]);
    sites.resize(n);
    for (Vec2& s : sites) s += Vec2{rng.uniform(-jitter, jitter), rng.uniform(-jitter, jitter)};
  } else {
    const float hh = roomHalfHeight_;
    const int rows = int((2.0f * hh - 0.8f) / kSpawnSpacing) + 1;
    for (int k = 0; k < params_.people; ++k) {
      const int c = k / rows, row = k % rows;
      sites.push_back({-0.8f - float(c) * kSpawnSpacing + rng.uniform(-0.05f, 0.05f),
                       -hh + 0.4f + float(row) * kSpawnSpacing + rng.uniform(-0.05f, 0.05f)});
    }
  }
  const size_t n = sites.size();
  pos_ = sites;
  vel_.assign(n, Vec2{0.0f});
  newVel_.assign(n, Vec2{0.0f});
  velByCell_.assign(n, Vec2{0.0f});
  speed0_.resize(n);
  dir_.resize(n);
  for (size_t i = 0; i < n; ++i) {
    // Box-Muller: a normal draw from two uniform ones.
    const float u1 = 1.0f - rng.uniform(), u2 = rng.uniform();
    const float z = std::sqrt(-2.0f * std::log(u1)) * std::cos(6.28318530718f * u2);
    speed0_[i] = std::clamp(params_.meanSpeed + params_.speedSpread * z, 0.3f, 2.3f);
    dir_[i] = int8_t(params_.setup == PedSetup::CounterFlow && (i % 2) ? -1 : 1);  // sites are shuffled: a random mixture
    vel_[i] = Vec2{float(dir_[i]) * speed0_[i] * (params_.setup == PedSetup::Bottleneck ? 0.0f : 0.5f), 0.0f};
  }
  laneBins_.assign(size_t(std::max(1.0f, params_.corridorWidth / r)), 0.0f);
}

Vec2 PedestrianSim::desired(size_t i) const {
  const float v0 = speed0_[i], r = params_.radius;
  const Vec2 p = pos_[i];
  Vec2 e{dir_[i] < 0 ? -1.0f : 1.0f, 0.0f};
  if (params_.setup == PedSetup::Bottleneck) {
    if (p.x < 0.0f) {
      // Towards the door: the nearest point of its opening a body's radius inside the jambs.
      const float half = std::max(0.0f, 0.5f * params_.doorWidth - r - 0.05f);
      e = safeNormalize(Vec2{0.5f, std::clamp(p.y, -half, half)} - p);
    }
  } else if (params_.setup == PedSetup::CounterFlow && params_.method == PedMethod::OrcaLanes) {
    // Keep right: steer for the right-hand half of the corridor (in the walker's own frame,
    // y' = dir * y, the right-hand half is y' < 0), along a line 1 m ahead.
    const float y = float(dir_[i]) * p.y;
    const float target = std::clamp(y, -halfWidth() + r, -r - 0.05f);
    const Vec2 local = safeNormalize(Vec2{1.0f, target - y});
    e = local * float(dir_[i]);
  }
  return e * v0;
}

void PedestrianSim::buildGrid(float cellSize) {
  grid_.build(pos_, box_, cellSize);
  const auto order = grid_.order();
  const size_t n = pos_.size();
  for (auto& axis : velAxis_) axis.resize(n + UniformGrid<2>::kAxisPadding, 0.0f);
  parallelFor(n, [&](size_t k) {
    const Vec2 v = vel_[order[k]];
    velByCell_[k] = v;
    velAxis_[0][k] = v.x;
    velAxis_[1][k] = v.y;
  }, 1024);
}

void PedestrianSim::step(float dt) {
  if (params_.method == PedMethod::SocialForce) {
    const float h = dt / float(params_.substeps);
    for (int s = 0; s < params_.substeps; ++s) socialForceStep(h);
  } else {
    velocityStep(dt);
  }
  time_ += dt;
  afterMove(dt);
  measure(dt);
}

void PedestrianSim::socialForceStep(float h) {
  const sfm::Params& sp = params_.social;
  // Cells as wide as the cutoff: the block is three rows of three cells, each row one run of
  // candidates that fills a register or two at walking densities.
  buildGrid(std::max(sp.cutoff, kCellSize));
  const float r = params_.radius, cutoff = sp.cutoff, vmax = params_.maxSpeed, accel = h / sp.mass;
  const auto sorted = grid_.sortedPositions();
  const auto order = grid_.order();
  const auto cellStart = grid_.cellStart();
  const CandidateAxes<2> axes{{grid_.sortedAxis(0).data(), grid_.sortedAxis(1).data()},
                              {velAxis_[0].data(), velAxis_[1].data()}};
  const auto rings = grid_.rings(cutoff, SearchMode::AutoRings);
  // Per cell: its block's runs once, then each of its agents against them.
  parallelFor(grid_.numCells(), [&](size_t cell) {
    const uint32_t first = cellStart[cell], last = cellStart[cell + 1];
    if (first == last) return;
    const auto block = grid_.block(grid_.cellCoord(uint32_t(cell)), rings);
    constexpr int kMaxRuns = 16;
    CandidateRun<2> runs[kMaxRuns];
    int runCount = 0;
    bool tooMany = false;
    grid_.forEachRange(block, [&](uint32_t b, uint32_t e, const Vec2& shift) {
      if (runCount < kMaxRuns) runs[runCount++] = {b, e, shift};
      else tooMany = true;
    });
    // A block of more rows than kMaxRuns (a cutoff many cells wide): every candidate in one run,
    // each by its minimum image.
    const CandidateRun<2> all{0, uint32_t(sorted.size()), Vec2{0.0f}};
    const std::span<const CandidateRun<2>> candidates =
        tooMany ? std::span<const CandidateRun<2>>(&all, 1) : std::span<const CandidateRun<2>>(runs, size_t(runCount));
    const bool minImage = tooMany || block.anyWhole();
    for (uint32_t k = first; k < last; ++k) {
      const uint32_t i = order[k];
      const Vec2 p = sorted[k], v = velByCell_[k];
      const Vec2 heading = sp.lambda < 1.0f ? safeNormalize(v) : Vec2{0.0f};
      Vec2 f = sfm::drivingForce(desired(i), v, sp);
      f += sfm::pairForceSum(p, v, heading, 2.0f * r, axes, candidates, minImage, box_.size, sp);
      for (const orca::Segment& w : walls_) {
        // Most walls are farther than the cutoff along one axis: no distance to compute.
        if (std::min(w.a.x, w.b.x) - p.x > cutoff || p.x - std::max(w.a.x, w.b.x) > cutoff ||
            std::min(w.a.y, w.b.y) - p.y > cutoff || p.y - std::max(w.a.y, w.b.y) > cutoff)
          continue;
        Vec2 q;
        const float d = orca::distanceToSegment(pos_[i], w, &q);
        if (d < cutoff && d > 0.0f) f += sfm::wallForce(q - pos_[i], d, r, v, sp);
      }
      newVel_[i] = clampLength(v + f * accel, vmax);
    }
  }, 16);
  parallelFor(pos_.size(), [&](size_t i) {
    vel_[i] = newVel_[i];
    pos_[i] += vel_[i] * h;
    box_.applyBounds(pos_[i], vel_[i]);
  }, 1024);
}

void PedestrianSim::velocityStep(float dt) {
  buildGrid(kCellSize);
  const size_t n = pos_.size();
  const float r = params_.radius, vmax = params_.maxSpeed;
  const auto sorted = grid_.sortedPositions();
  const auto order = grid_.order();
  const orca::Params op{r, vmax, params_.orcaTau, kOrcaTauWalls, kOrcaNeighborDist, kOrcaNeighbors};
  const bool lanes = params_.method == PedMethod::OrcaLanes;
  parallelFor(n, [&](size_t k) {
    const uint32_t i = order[k];
    const Vec2 p = sorted[k], v = velByCell_[k];
    Vec2 pref = desired(i);
    if (params_.method == PedMethod::Separation) {
      // Boids separation over neighbours and walls within 1.5 diameters, as strong as walking.
      BoidsAccum<2> acc;
      auto addPush = [&](const Vec2& off, float d2) {
        if (d2 > 0.0f && d2 < 9.0f * r * r) addSeparationPush(acc, off, d2, SeparationLaw::InverseDistance);
      };
      grid_.forEachInRadius(uint32_t(k), p, 3.0f * r, [&](uint32_t, const Vec2& off, float d2) { addPush(off, d2); });
      for (const orca::Segment& w : walls_) {
        Vec2 q;
        const float d = orca::distanceToSegment(pos_[i], w, &q);
        if (d < 3.0f * r) addPush(q - pos_[i], d * d);
      }
      newVel_[i] = clampLength(pref + separationRule(acc) * speed0_[i], vmax);
      return;
    }
    if (lanes) pref = orca::keepRightWhenBlocked(pref, v, kKeepRightRadians);
    newVel_[i] = orca::newVelocity(uint32_t(k), pos_[i], v, pref, grid_, std::span<const Vec2>(velByCell_), walls_, op, dt).velocity;
  }, 16);
  parallelFor(n, [&](size_t i) {
    vel_[i] = newVel_[i];
    pos_[i] += vel_[i] * dt;
    box_.applyBounds(pos_[i], vel_[i]);
  }, 1024);
}

void PedestrianSim::afterMove(float /*dt*/) {
  const float r = params_.radius;
  // Methods without a body force can end a step inside a wall: put the body back on its surface,
  // so the geometry (and the density it makes) stays what it is.
  if (params_.method != PedMethod::SocialForce) {
    for (size_t i = 0; i < pos_.size(); ++i)
      for (const orca::Segment& w : walls_) {
        Vec2 q;
        const float d = orca::distanceToSegment(pos_[i], w, &q);
        if (d >= r) continue;
        const Vec2 out = d > 1e-6f ? (pos_[i] - q) / d : Vec2{-1.0f, 0.0f};
        pos_[i] = q + out * r;
      }
  }
  if (params_.setup != PedSetup::Bottleneck) return;
  // Through the door: the crossing time counts once (dir_ marks it), and past kExitBeyond the
  // walker leaves the simulation (kept in order, so the arrays stay deterministic).
  size_t kept = 0;
  for (size_t i = 0; i < pos_.size(); ++i) {
    if (dir_[i] == 1 && pos_[i].x > 0.0f) {
      dir_[i] = 2;
      exitTimes_.push_back(time_);
    }
    if (pos_[i].x > kExitBeyond) continue;
    pos_[kept] = pos_[i];
    vel_[kept] = vel_[i];
    speed0_[kept] = speed0_[i];
    dir_[kept] = dir_[i];
    ++kept;
  }
  pos_.resize(kept);
  vel_.resize(kept);
  newVel_.resize(kept);
  velByCell_.resize(kept);
  speed0_.resize(kept);
  dir_.resize(kept);
}

void PedestrianSim::measure(float /*dt*/) {
  PedestrianMetrics& m = metrics_;
  const float r = params_.radius;
  if (params_.setup == PedSetup::Bottleneck) {
    m.exited = int(exitTimes_.size());
    const size_t lo = size_t(0.1 * params_.people), hi = size_t(std::ceil(0.9 * params_.people)) - 1;
    const size_t last = std::min(exitTimes_.size(), hi + 1);
    if (last > lo + 1 && exitTimes_[last - 1] > exitTimes_[lo])
      m.flow = double(last - 1 - lo) / (exitTimes_[last - 1] - exitTimes_[lo]);
    m.specificFlow = m.flow / std::max(double(params_.doorWidth), 1e-6);
    if (m.exited == params_.people) m.evacuationTime = exitTimes_.back();
    int recent = 0;
    for (auto it = exitTimes_.rbegin(); it != exitTimes_.rend() && *it > time_ - kRecentFlowSeconds; ++it) ++recent;
    m.flowNow = recent / double(kRecentFlowSeconds);
    return;
  }
  // The measurement area, now.
  const float area = 2.0f * kAreaHalfLength * params_.corridorWidth;
  int count = 0, touching = 0;
  double speed = 0;
  const auto order = grid_.order();
  const size_t n = pos_.size();
  // The grid is from the start of the last (sub)step; the offsets it gives are recomputed here.
  for (size_t k = 0; k < n; ++k) {
    const uint32_t i = order[k];
    if (std::fabs(pos_[i].x) > kAreaHalfLength) continue;
    ++count;
    speed += double(vel_[i].x) * double(dir_[i]);
    bool touches = false;
    grid_.forEachInRadius(uint32_t(k), grid_.sortedPositions()[k], 3.0f * r, [&](uint32_t j, const Vec2&, float) {
      const Vec2 d = box_.delta(pos_[i], pos_[order[j]]);
      touches = touches || glm::dot(d, d) < (0.99f * 2.0f * r) * (0.99f * 2.0f * r);
    });
    touching += touches;
  }
  m.densityNow = count / double(area);
  m.speedNow = count ? speed / count : 0.0;
  if (time_ + 1e-6 >= params_.warmup) {
    samples_ += 1;
    countSum_ += count;
    speedSum_ += speed;
    m.density = countSum_ / (samples_ * area);
    m.meanSpeed = countSum_ > 0 ? speedSum_ / countSum_ : 0.0;
    m.specificFlow = m.density * m.meanSpeed;
    m.weidmann = weidmannSpeed(m.density);
    m.weidmannError = m.weidmann > 0 ? std::fabs(m.meanSpeed / m.weidmann - 1.0) : 0.0;
    m.overlapShare = (m.overlapShare * (samples_ - 1) + (count ? double(touching) / count : 0.0)) / samples_;
  }
  if (params_.setup != PedSetup::CounterFlow) return;
  // Lanes, measured. Band order: for each walker, (same - opposite) / (same + opposite) over the
  // others in its lateral band (|dy| < r, within 2 m along); the mean is 0 for a random mixture
  // and 1 when every band walks one way. Lane count: the corridor's width in bins of r, each
  // holding the net walking direction of the bodies whose centres lie in it (remembered over about
  // half a second); a lane is a run of bins of one sign.
  double orderSum = 0;
  int counted = 0;
  for (size_t k = 0; k < n; ++k) {
    const uint32_t i = order[k];
    int same = 0, opposite = 0;
    grid_.forEachInRadius(uint32_t(k), grid_.sortedPositions()[k], kLaneBandLength, [&](uint32_t j, const Vec2&, float) {
      const uint32_t o = order[j];
      const Vec2 d = box_.delta(pos_[i], pos_[o]);
      if (std::fabs(d.y) >= r || std::fabs(d.x) > kLaneBandLength) return;
      (dir_[o] == dir_[i] ? same : opposite)++;
    });
    if (same + opposite == 0) continue;
    orderSum += double(same - opposite) / double(same + opposite);
    ++counted;
  }
  const double bandOrder = counted ? orderSum / counted : 0.0;
  const size_t bins = laneBins_.size();
  for (float& b : laneBins_) b *= kLaneMemory;
  for (size_t i = 0; i < n; ++i) {
    const float t = (pos_[i].y + halfWidth()) / params_.corridorWidth;
    laneBins_[std::min(bins - 1, size_t(std::clamp(t, 0.0f, 1.0f) * float(bins)))] += float(dir_[i]);
  }
  int lanes = 0, sign = 0;
  for (float b : laneBins_) {
    const int s = b > 0.5f ? 1 : b < -0.5f ? -1 : 0;
    if (s != 0 && s != sign) {
      ++lanes;
      sign = s;
    }
  }
  if (time_ + 1e-6 >= params_.warmup) {
    laneSamples_ += 1;
    laneOrderSum_ += bandOrder;
    lanesSum_ += lanes;
    m.laneOrder = laneOrderSum_ / laneSamples_;
    m.lanes = lanesSum_ / laneSamples_;
  }
}

constexpr MetricInfo kPedestrianMetrics[] = {
    {"density", "density in the measurement area (persons/m^2)", "/m^2"},
    {"walking_speed", "walking speed (m/s)", "m/s"},
    {"specific_flow", "specific flow (persons/(m s))", "/(m s)"},
    {"weidmann_speed", "Weidmann's speed at this density (m/s)", "m/s"},
    {"weidmann_error", "off Weidmann's speed (share)"},
    {"density_now", "density now (persons/m^2)", "/m^2"},
    {"speed_now", "walking speed now (m/s)", "m/s"},
    {"overlap_share", "bodies touching (share)", "", 0.0, 1.0},
    {"lane_order", "lane order (0 mixed, 1 lanes)", "", 0.0, 1.0},
    {"lanes", "lanes across the corridor"},
    {"exited", "out of the room (persons)"},
    {"flow", "flow (persons/s)", "/s"},
    {"specific_flow_off_band", "specific flow outside the experiments' band (persons/(m s))", "/(m s)"},
    {"evacuation_time", "everyone out after (s)", "s"},
    {"flow_now", "flow over the last 2 s (persons/s)", "/s"},
    {"agents", "walkers in the simulation"},
};
[[maybe_unused]] const bool pedestriansDescribed = describeMetrics(kPedestrianMetrics);

void PedestrianSim::appendMetrics(std::vector<Metric>& out) const {
  const PedestrianMetrics& m = metrics_;
  out.push_back({"density", m.density});
  out.push_back({"walking_speed", m.meanSpeed});
  out.push_back({"specific_flow", m.specificFlow});
  out.push_back({"weidmann_speed", m.weidmann});
  out.push_back({"weidmann_error", m.weidmannError});
  out.push_back({"density_now", m.densityNow});
  out.push_back({"speed_now", m.speedNow});
  out.push_back({"overlap_share", m.overlapShare});
  out.push_back({"lane_order", m.laneOrder});
  out.push_back({"lanes", m.lanes});
  out.push_back({"exited", double(m.exited)});
  out.push_back({"flow", m.flow});
  // How far the specific flow lies outside the experiments' band (0 inside it): a claim's one number.
  const double off = params_.setup == PedSetup::Bottleneck ? std::max({0.0, kBottleneckFlowLow - m.specificFlow, m.specificFlow - kBottleneckFlowHigh}) : 0.0;
  out.push_back({"specific_flow_off_band", off});
  out.push_back({"evacuation_time", m.evacuationTime});
  out.push_back({"flow_now", m.flowNow});
  out.push_back({"agents", double(pos_.size())});
}

}  // namespace sim
