#include "sim/models/corridor.hpp"
#include "sim/core/metrics.hpp"

#include <algorithm>
#include <cmath>
#include "sim/rules/boids.hpp"
#include "sim/core/parallel.hpp"
#include "sim/core/rng.hpp"
#include "sim/core/metric.hpp"

namespace sim {

const char* methodName(AvoidanceMethod m) {
  switch (m) {
    case AvoidanceMethod::Separation: return "separation";
    case AvoidanceMethod::OrcaLike: return "orca-like";
    case AvoidanceMethod::Orca: return "orca";
  }
  return "?";
}

namespace {
// Each group sees the scene in its own frame: group 1's is group 0's turned by 180 degrees, so both
// walk towards +x with their right-hand side at -y. The geometry is symmetric under that turn.
Vec2 local(uint8_t group, const Vec2& v) { return group == 0 ? v : -v; }

constexpr float kLaneMargin = 0.1f;   // radii between a lane band and the wall or lane line
constexpr float kYieldRange = 3.0f;   // radii: closer than this to the agent ahead, slow down
constexpr float kSlotSpacing = 2.6f;  // radii between goal slots in the far room
}  // namespace

CorridorSim::CorridorSim(const CorridorParams& params) { reset(params); }

void CorridorSim::reset(const CorridorParams& params) {
  params_ = params;
  params_.groupSize = std::clamp(params_.groupSize, 1, 1000);
  params_.widthDiameters = std::max(params_.widthDiameters, 0.5f);
  buildGeometry();
  const size_t n = size_t(params_.groupSize) * 2;
  crowd_.resize(n);
  group_.assign(n, 0);
  for (size_t i = size_t(params_.groupSize); i < n; ++i) group_[i] = 1;
  crossed_.assign(n, 0);
  yielding_.assign(n, 0);
  goal_.assign(n, Vec2{0.0f});
  target_.assign(n, Vec2{0.0f});
  nextVelocity_.assign(n, Vec2{0.0f});
  slowTime_.assign(n, 0.0f);
  overlapCount_.assign(n, 0);
  nearestSq_.assign(n, 0.0f);
  crowd_.obstacleSet.assign(n, 0);
  crowd_.params = {params_.radius, params_.maxSpeed, params_.tau, params_.tauObst, params_.neighborDist, params_.maxNeighbors};
  time_ = roundStart_ = crossTimeSum_ = 0;
  metrics_ = {};
  metrics_.minDistanceRatio = 2.0;
  spawn();
}

void CorridorSim::buildGeometry() {
  const float r = params_.radius;
  halfLength_ = 0.5f * std::max(params_.corridorLength, 2.0f * r);
  halfWidth_ = params_.widthDiameters * r;
  // Rooms grow with the group: half a room holds the group at its start and, clear of the mouth,
  // the other group's goal slots.
  roomHalfHeight_ = std::max({12.0f * r, 2.5f * r * std::sqrt(float(params_.groupSize)), halfWidth_ + 4.0f * r});
  roomDepth_ = 2.0f * roomHalfHeight_ + 4.0f * r;
  const float hl = halfLength_, hw = halfWidth_, hh = roomHalfHeight_, back = halfLength_ + roomDepth_;
  auto& w = crowd_.obstacles;
  w.clear();
  for (float s : {-1.0f, 1.0f}) {  // left room (s = -1), right room (s = +1)
    w.push_back({{s * hl, hh}, {s * back, hh}});    // top
    w.push_back({{s * back, hh}, {s * back, -hh}});  // back
    w.push_back({{s * back, -hh}, {s * hl, -hh}});   // bottom
    w.push_back({{s * hl, hh}, {s * hl, hw}});       // front, above the mouth
    w.push_back({{s * hl, -hw}, {s * hl, -hh}});     // front, below the mouth
  }
  w.push_back({{-hl, hw}, {hl, hw}});    // corridor, upper wall
  w.push_back({{-hl, -hw}, {hl, -hw}});  // corridor, lower wall
  wallCount_ = w.size();
  // Lane guides, seen only by agents on their inner side (see step()): the lane line along the
  // centre, and in each start room a funnel arm from the mouth's outer corner down to the side
  // wall at 45 degrees, so that a group narrows to its half of the mouth like a hopper instead of
  // pressing against the front wall beside it (where a body wedged next to the mouth holds up the
  // one in line).
  guides_.clear();
  if (params_.lanes) {
    const float drop = hh - hw;
    guides_.push_back({{-back, 0.0f}, {back, 0.0f}});              // lane line
    guides_.push_back({{-hl, -hw}, {-hl - drop, -hh}});            // funnel arm, group 0 (left room)
    guides_.push_back({{hl, hw}, {hl + drop, hh}});                // funnel arm, group 1 (right room)
  }
  // Each agent sees one contiguous run of obstacles; the runs are stored one after another, walls
  // repeated: 0 walls | 1 walls + line | per group g: walls + line + arm, walls + arm.
  crowd_.obstacleSets.clear();
  crowd_.obstacleSets.push_back({0, uint32_t(wallCount_)});
  if (params_.lanes) {
    w.push_back(guides_[0]);
    crowd_.obstacleSets.push_back({0, uint32_t(wallCount_ + 1)});
    for (int g = 0; g < 2; ++g) {
      for (bool withLine : {true, false}) {
        const uint32_t begin = uint32_t(w.size());
        for (size_t k = 0; k < wallCount_; ++k) w.push_back(w[k]);
        if (withLine) w.push_back(guides_[0]);
        w.push_back(guides_[1 + g]);
        crowd_.obstacleSets.push_back({begin, uint32_t(w.size()) - begin});
      }
    }
  }

  box_.boundary = Boundary::Open;
  box_.min = Vec2{-back - 2.0f * r, -hh - 2.0f * r};
  box_.size = Vec2{2.0f * (back + 2.0f * r), 2.0f * (hh + 2.0f * r)};
}

void CorridorSim::spawn() {
  const float r = params_.radius;
  const int g = params_.groupSize;
  const float spacing = 2.5f * r;
  const int rows = std::max(1, int((roomHalfHeight_ - 3.2f * r) / spacing) + 1);  // clear of the walls
  const float back = halfLength_ + roomDepth_;
  Rng rng(params_.seed, 1000 + uint64_t(metrics_.rounds));
  for (size_t i = 0; i < size(); ++i) {
    const uint8_t grp = group_[i];
    const int k = int(i) - (grp ? g : 0);
    const int c = k / rows, row = k % rows;
    // In the group's own frame: a block at the back of the start room, in its right-hand half
    // (rows from the lane line outwards), so that the two groups' ways out never cross in a room.
    Vec2 p{-back + 1.5f * r + float(c) * spacing, -1.5f * r - float(row) * spacing};
    p += Vec2{rng.uniform(-0.2f, 0.2f), rng.uniform(-0.2f, 0.2f)} * r;
    crowd_.positions()[i] = local(grp, p);
    crowd_.velocities()[i] = Vec2{0.0f};
    crowd_.preferred()[i] = Vec2{0.0f};
    // Without lanes: the mirror image of the start slot, at the far end.
    goal_[i] = local(grp, Vec2{-p.x, p.y});
    crossed_[i] = 0;
    slowTime_[i] = 0.0f;
  }
  metrics_.arrived = 0;
}

Vec2 CorridorSim::laneBand() const {
  const float r = params_.radius, m = kLaneMargin * r;
  float lo = -halfWidth_ + r + m, hi = params_.lanes ? -(r + m) : halfWidth_ - r - m;
  if (hi < lo) lo = hi = 0.5f * (lo + hi);
  return {lo, hi};
}

float CorridorSim::progress(size_t i) const {
  // x along the way in the group's frame; an agent still off its band in the start room counts from
  // where it will join the band's line (see wayVelocity), less the distance it has left to get there.
  const float r = params_.radius;
  const Vec2 p = local(group_[i], crowd_.positions()[i]);
  const Vec2 band = laneBand();
  const float bandY = std::clamp(p.y, band.x, band.y);
  if (params_.lanes && std::fabs(p.y - bandY) > 0.5f * r && p.x < -halfLength_) {
    const Vec2 join{std::max(p.x, std::min(p.x + std::max(4.0f * r, std::fabs(p.y - bandY)), -halfLength_ - 2.0f * r)), bandY};
    return join.x - glm::length(join - p);
  }
  return p.x;
}

Vec2 CorridorSim::wayVelocity(size_t i, Vec2& aimOut) const {
  const uint8_t grp = group_[i];
  const float r = params_.radius;
  const Vec2 p = local(grp, crowd_.positions()[i]);
  if (crossed_[i]) {
    // Walk on to the goal slot, slowing within a few radii (arrive).
    aimOut = goal_[i];
    const Vec2 to = local(grp, goal_[i]) - p;
    const float d = glm::length(to);
    const float speed = params_.preferredSpeed * std::min(1.0f, d / (3.0f * r));
    return local(grp, d > 1e-4f ? to * (speed / d) : Vec2{0.0f});
  }
  // The band of heights the agent may walk in: its right-hand half with lanes, else the corridor.
  const Vec2 band = laneBand();
  const float bandY = std::clamp(p.y, band.x, band.y);
  // Pure pursuit along the horizontal line at bandY, converging at 45 degrees at most.
  const float offBand = std::fabs(p.y - bandY);
  float aimX = p.x + std::max(4.0f * r, offBand);
  // With lanes, an agent still off its band in the room joins the band's line behind the mouth,
  // not at it: pressing into the front wall beside the mouth is how a funnel clogs.
  // One already past that point heads straight for the band rather than back.
  if (params_.lanes && offBand > 0.5f * r && p.x < -halfLength_)
    aimX = std::max(p.x, std::min(aimX, -halfLength_ - 2.0f * r));
  const Vec2 aim{aimX, bandY};
  aimOut = local(grp, aim);
  return local(grp, safeNormalize(aim - p) * params_.preferredSpeed);
}

Vec2 CorridorSim::mergeVelocity(size_t i, const UniformGrid<2>& grid) const {
  const Vec2 way = way_[i];
  if (!params_.lanes || crossed_[i]) return way;
  const uint8_t grp = group_[i];
  const float r = params_.radius;
  const Vec2 p = crowd_.positions()[i];
  const Vec2 dir = safeNormalize(way);
  const Vec2 band = laneBand();
  const float py = local(grp, p).y;
  const bool merging = std::fabs(py - std::clamp(py, band.x, band.y)) > 0.5f * r;
  float speed = params_.preferredSpeed;
  Vec2 aside{0.0f};
  grid.forEachInRadius(uint32_t(~0u), p, kYieldRange * r, [&](uint32_t s, const Vec2& d, float) {
    const uint32_t j = grid.order()[s];
    if (j == i || group_[j] != grp || crossed_[j] || rank_[j] > rank_[i]) return;
    const float dist = glm::length(d);
    // j goes first. Wait for it when it is ahead (within 60 degrees of the way; an agent still
    // merging also waits for one beside it) ...
    if (glm::dot(d, dir) >= (merging ? -0.2f : 0.5f) * dist)
      speed = std::min(speed, params_.preferredSpeed * glm::clamp((dist - 2.1f * r) / ((kYieldRange - 2.1f) * r), 0.0f, 1.0f));
    // ... and when standing in its way (ahead of it, less than a body off the line it last wanted
    // to move along -- stepping aside included, so that a step aside can ask the next one to move
    // too), step aside: waiting there would hold it up for good.
    const Vec2 wayJ = safeNormalize(lastPreferred_[j]);
    if (wayJ == Vec2{0.0f}) return;
    const Vec2 fromJ = -d;
    const float along = glm::dot(fromJ, wayJ);
    const Vec2 lateral = fromJ - wayJ * along;
    if (along > 0.0f && glm::dot(lateral, lateral) < 4.4f * r * r) {
      const float l = glm::length(lateral);
      aside += (l > 1e-3f * r ? lateral / l : -perpLeft(wayJ)) * (0.5f * params_.preferredSpeed);
    }
  });
  return clampLength(dir * speed + aside, params_.preferredSpeed);
}

void CorridorSim::step(float dt) {
  const size_t n = size();
  const float r = params_.radius;
  lastDt_ = dt;
  grid_.build(crowd_.positions(), box_, 4.0f * r);

  // Order of precedence for merging: progress along the way, ties to the lower index.
  // rank[i] < rank[j]: i goes first.
  keys_.resize(n);
  rank_.resize(n);
  for (size_t i = 0; i < n; ++i) keys_[i] = {-progress(i), uint32_t(i)};
  std::sort(keys_.begin(), keys_.end());
  for (size_t k = 0; k < n; ++k) rank_[keys_[k].second] = uint32_t(k);

  way_.resize(n);
  parallelFor(n, [&](size_t i) { way_[i] = wayVelocity(i, target_[i]); }, 64);
  lastPreferred_.assign(crowd_.preferred().begin(), crowd_.preferred().end());  // same size every step: no allocation once grown
  parallelFor(n, [&](size_t i) {
    const Vec2 pref = mergeVelocity(i, grid_);
    crowd_.preferred()[i] = pref;
    yielding_[i] = !crossed_[i] && glm::length(pref) < 0.99f * params_.preferredSpeed && params_.lanes;
    const uint8_t grp = group_[i];
    const Vec2 p = local(grp, crowd_.positions()[i]);
    // A guide is a wall only for an agent (about) wholly on its inner side. The slack keeps it a
    // wall for an agent that rests against it, whose centre sits at r from it give or take
    // rounding; the sliver of overlap it allows is undone within a step at a few percent of max speed.
    uint8_t set = 0;
    if (params_.lanes && !crossed_[i]) {
      const bool line = p.y <= -0.95f * r;
      // Inside the funnel: on the far side of the arm (the line x - y = hw - hl in the group's frame,
      // through the mouth's outer corner) by about a body.
      const bool arm = p.x < -halfLength_ && (halfWidth_ - halfLength_) - (p.x - p.y) >= 0.95f * r * 1.41421356f;
      if (arm) set = uint8_t(2 + 2 * grp + (line ? 0 : 1));
      else if (line) set = 1;
    }
    crowd_.obstacleSet[i] = set;
  }, 64);

  if (params_.method == AvoidanceMethod::Orca) {
    crowd_.step(dt);
  } else {
    lesserVelocities(dt);
  }
  time_ += dt;
  afterMove(dt);
}

void CorridorSim::lesserVelocities(float dt) {
  const size_t n = size();
  const float r = params_.radius, vmax = params_.maxSpeed;
  const auto walls = this->walls();
  parallelFor(n, [&](size_t i) {
    const Vec2 p = crowd_.positions()[i], v = crowd_.velocities()[i];
    Vec2 push{0.0f};
    if (params_.method == AvoidanceMethod::Separation) {
      // Boids separation over neighbours and walls within 1.5 diameters: sum of away / distance.
      BoidsAccum<2> acc;
      auto addPush = [&](const Vec2& off, float d2) {
        if (d2 > 0.0f && std::sqrt(d2) < 3.0f * r) addSeparationPush(acc, off, d2, SeparationLaw::InverseDistance);
      };
      grid_.forEachInRadius(uint32_t(~0u), p, 3.0f * r, [&](uint32_t s, const Vec2& off, float d2) {
        if (grid_.order()[s] != i) addPush(off, d2);
      });
      for (const orca::Segment& w : walls) {
        Vec2 q;
        const float d = orca::distanceToSegment(p, w, &q);
        if (d < 3.0f * r) addPush(q - p, d * d);
      }
      push = separationRule(acc) * vmax;
    } else {
      // Time to collision from |o + w t| = 2r; before tau, a sideways push perpendicular to the line
      // of centres at contact, away from the other's side, half the effort (the other does the rest).
      const float tau = params_.tau, rr = 2.0f * r;
      grid_.forEachInRadius(uint32_t(~0u), p, params_.neighborDist, [&](uint32_t s, const Vec2& o, float d2) {
        const uint32_t j = grid_.order()[s];
        if (j == i) return;
        if (d2 < rr * rr) {
          push -= safeNormalize(o) * (0.5f * vmax);
          return;
        }
        const Vec2 w = crowd_.velocities()[j] - v;
        const float a = glm::dot(w, w), b = 2.0f * glm::dot(o, w), c = d2 - rr * rr;
        const float disc = b * b - 4.0f * a * c;
        if (a < 1e-8f || disc <= 0.0f) return;
        const float t = (-b - std::sqrt(disc)) / (2.0f * a);
        if (t < 0.0f || t >= tau) return;
        const Vec2 contact = o + w * t;
        Vec2 side = perpLeft(safeNormalize(contact));
        const Vec2 miss = o - w * (glm::dot(o, w) / a);  // the other's offset at closest approach
        float sideOfMiss = glm::dot(side, miss);
        if (std::fabs(sideOfMiss) < 1e-3f * r) sideOfMiss = glm::dot(side, perpLeft(safeNormalize(v)));  // head-on: go right
        if (sideOfMiss > 0.0f) side = -side;
        push += side * (0.5f * vmax * (tau - t) / tau);
      });
      // Walls: the same separation as above, so the comparison is about agents.
      for (const orca::Segment& wall : walls) {
        Vec2 q;
        const float d = orca::distanceToSegment(p, wall, &q);
        if (d < 2.0f * r && d > 1e-6f) push += (p - q) / d * (vmax * (2.0f * r - d) / r);
      }
    }
    nextVelocity_[i] = clampLength(crowd_.preferred()[i] + push, vmax);
  }, 64);
  for (size_t i = 0; i < n; ++i) {
    crowd_.velocities()[i] = nextVelocity_[i];
    crowd_.positions()[i] += nextVelocity_[i] * dt;
  }
}

void CorridorSim::afterMove(float dt) {
  const size_t n = size();
  const float r = params_.radius;
  const auto walls = this->walls();
  // Walls: count what went in, then put the agent back on the surface (only the lesser methods do
  // go in; the count is the figure, the correction keeps the geometry meaningful).
  for (size_t i = 0; i < n; ++i) {
    for (const orca::Segment& w : walls) {
      Vec2 q;
      const float d = orca::distanceToSegment(crowd_.positions()[i], w, &q);
      if (d >= r) continue;
      if (d < penetrationDistance(r)) ++metrics_.wallPenetrations;
      const Vec2 out = d > 1e-6f ? (crowd_.positions()[i] - q) / d : Vec2{0.0f, 1.0f};
      crowd_.positions()[i] = q + out * r;
    }
  }
  // Pairs: overlaps and the closest distance, on the new positions.
  grid_.build(crowd_.positions(), box_, 4.0f * r);
  const auto sorted = grid_.sortedPositions();
  const OverlapPair overlapping(r);
  parallelFor(n, [&](size_t k) {
    uint32_t count = 0;
    float nearest = 16.0f * r * r;
    grid_.forEachInRadius(uint32_t(k), sorted[k], 4.0f * r, [&](uint32_t j, const Vec2&, float d2) {
      nearest = std::min(nearest, d2);
      if (overlapping(uint32_t(k), j, d2)) ++count;
    });
    overlapCount_[k] = count;
    nearestSq_[k] = nearest;
  }, 64);
  float nearest = 16.0f * r * r;
  for (size_t k = 0; k < n; ++k) {
    metrics_.overlapsTotal += overlapCount_[k];
    nearest = std::min(nearest, nearestSq_[k]);
  }
  metrics_.minDistanceRatio = std::min(metrics_.minDistanceRatio, double(std::sqrt(nearest) / (2.0f * r)));

  // Crossings, goal slots, jams.
  const float back = halfLength_ + roomDepth_;
  // Goal slots: from the back wall to 6r short of the front wall, from the side wall to 2r short of
  // the lane line, so arrivals never stand where others come out of the corridor.
  const int slotCols = std::max(1, int((roomDepth_ - 7.5f * r) / (kSlotSpacing * r)) + 1);
  const int slotRows = std::max(1, int((roomHalfHeight_ - 3.5f * r) / (kSlotSpacing * r)) + 1);
  bool all = true;
  int jammed = 0;
  for (size_t i = 0; i < n; ++i) {
    const uint8_t grp = group_[i];
    if (!crossed_[i] && local(grp, crowd_.positions()[i]).x > halfLength_) {
      crossed_[i] = 1;
      ++metrics_.arrived;
      ++metrics_.crossedTotal;
      crossTimeSum_ += time_ - roundStart_;
      if (params_.lanes) {
        // The next free slot in the right-hand half of the far room, deepest first.
        const int k = (metrics_.arrived - 1) % (slotCols * slotRows);
        const int col = k / slotRows, row = k % slotRows;
        const Vec2 slot{back - 1.5f * r - float(col) * kSlotSpacing * r, -roomHalfHeight_ + 1.5f * r + float(row) * kSlotSpacing * r};
        goal_[i] = local(grp, slot);
      }
    }
    all = all && crossed_[i];
    const bool slow = glm::length(crowd_.velocities()[i]) < 0.1f * params_.preferredSpeed;
    slowTime_[i] = (!crossed_[i] && slow) ? slowTime_[i] + dt : 0.0f;
    jammed += slowTime_[i] > 2.0f;
  }
  metrics_.jammed = jammed;
  metrics_.meanCrossTime = metrics_.crossedTotal ? crossTimeSum_ / double(metrics_.crossedTotal) : 0.0;
  metrics_.throughputPerMin = time_ > 0 ? double(metrics_.crossedTotal) / (time_ / 60.0) : 0.0;
  if (all && n > 0) {
    ++metrics_.rounds;
    roundStart_ = time_;
    spawn();
  }
}

void CorridorSim::probe(size_t i, orca::Probe& out) const { crowd_.probe(i, lastDt_, out); }

constexpr MetricInfo kCorridorMetrics[] = {
    {"arrived", "arrived this round (agents)"},
    {"crossed_total", "crossed in all (agents)"},
    {"rounds", "rounds completed"},
    {"throughput_per_min", "throughput (agents per minute)", "/min"},
    {"mean_cross_time", "mean crossing time (s)", "s"},
    {"overlaps_total", "overlapping pairs (count)"},
    {"min_distance_ratio", "closest approach (share of a diameter)"},
    {"wall_penetrations", "bodies inside a wall (agent-steps)"},
    {"jammed", "jammed agents"},
};
[[maybe_unused]] const bool corridorDescribed = describeMetrics(kCorridorMetrics);

void CorridorSim::appendMetrics(std::vector<Metric>& out) const {
  out.push_back({"arrived", double(metrics_.arrived)});
  out.push_back({"crossed_total", double(metrics_.crossedTotal)});
  out.push_back({"rounds", double(metrics_.rounds)});
  out.push_back({"throughput_per_min", metrics_.throughputPerMin});
  out.push_back({"mean_cross_time", metrics_.meanCrossTime});
  out.push_back({"overlaps_total", double(metrics_.overlapsTotal)});
  out.push_back({"min_distance_ratio", metrics_.minDistanceRatio});
  out.push_back({"wall_penetrations", double(metrics_.wallPenetrations)});
  out.push_back({"jammed", double(metrics_.jammed)});
}

}  // namespace sim
