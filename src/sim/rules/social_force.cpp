#include "sim/rules/social_force.hpp"

namespace sim::sfm {

namespace {

// pairForce, lane for lane: the same operations in the same order, contact terms masked to the
// lanes in contact, the sums folded in the lanes' fixed order at the end.
template <class L, bool MinImage>
CROWDLAB_LANES_INLINE Vec2 sumLanes(const Vec2& self, const Vec2& vi, const Vec2& heading, float radiusSum,
                                    const CandidateAxes<2>& axes, std::span<const CandidateRun<2>> runs,
                                    const Vec2& worldSize, const Params& p) {
  using Floats = typename L::Floats;
  using Ints = typename L::Ints;
  const Floats zero = L::splat(0.0f), px = L::splat(self.x), py = L::splat(self.y);
  const Floats vix = L::splat(vi.x), viy = L::splat(vi.y), hx = L::splat(heading.x), hy = L::splat(heading.y);
  const Floats sizeX = L::splat(worldSize.x), sizeY = L::splat(worldSize.y);
  const Floats halfX = L::splat(worldSize.x * 0.5f), halfY = L::splat(worldSize.y * 0.5f);
  const Floats cutoff2 = L::splat(p.cutoff * p.cutoff), minusOne = L::splat(-1.0f), sum = L::splat(radiusSum);
  const Floats A = L::splat(p.A), B = L::splat(p.B), k = L::splat(p.k), kappa = L::splat(p.kappa);
  const bool fieldOfView = p.lambda < 1.0f;
  const Floats lambda = L::splat(p.lambda), rest = L::splat((1.0f - p.lambda) * 0.5f), one = L::splat(1.0f);
  Floats fx = zero, fy = zero;
  for (const CandidateRun<2>& run : runs) {
    const Floats shiftX = L::splat(run.shift.x), shiftY = L::splat(run.shift.y);
    auto lanesAt = [&](uint32_t j, Ints live) CROWDLAB_LANES_INLINE_LAMBDA {
      Floats ox = L::load(axes.position[0] + j) - px, oy = L::load(axes.position[1] + j) - py;
      if constexpr (MinImage) {
        ox = L::choose(ox > halfX, ox - sizeX, L::choose(ox < -halfX, ox + sizeX, ox));
        oy = L::choose(oy > halfY, oy - sizeY, L::choose(oy < -halfY, oy + sizeY, oy));
      } else {
        ox = ox + shiftX;
        oy = oy + shiftY;
      }
      const Floats d2 = ox * ox + oy * oy;
      const Ints valid = live & (d2 > zero) & (d2 <= cutoff2);
      if (!L::bits(valid)) return;
      const Floats distance = L::sqrt(L::choose(valid, d2, one));  // no NaN or infinity in dropped lanes
      const Floats inverse = minusOne / distance;
      const Floats nx = ox * inverse, ny = oy * inverse;
      const Floats overlap = sum - distance;
      Floats repulsion = A * lanes::exp<L>(overlap / B);
      if (fieldOfView) {
        const Floats cosPhi = -(hx * nx + hy * ny);
        repulsion = repulsion * (lambda + rest * (one + cosPhi));
      }
      Floats gx = nx * repulsion, gy = ny * repulsion;
      const Ints contact = valid & (overlap > zero);
      if (L::bits(contact)) {
        const Floats tx = -ny, ty = nx;
        const Floats dvx = L::load(axes.velocity[0] + j) - vix, dvy = L::load(axes.velocity[1] + j) - viy;
        const Floats body = k * overlap, friction = kappa * overlap * (dvx * tx + dvy * ty);
        gx = L::choose(contact, gx + (nx * body + tx * friction), gx);
        gy = L::choose(contact, gy + (ny * body + ty * friction), gy);
      }
      fx += L::keep(valid, gx);
      fy += L::keep(valid, gy);
    };
    uint32_t j = run.begin;
    for (; j + lanes::kLanes <= run.end; j += lanes::kLanes) lanesAt(j, L::allLanes());
    if (j < run.end) lanesAt(j, L::firstLanes(run.end - j));
  }
  return {L::sum(fx), L::sum(fy)};
}

}  // namespace

Vec2 pairForceSum(const Vec2& self, const Vec2& vi, const Vec2& heading, float radiusSum, const CandidateAxes<2>& axes,
                  std::span<const CandidateRun<2>> runs, bool minImage, const Vec2& worldSize, const Params& p) {
  Vec2 f{0.0f};
  lanes::dispatchLanes([&](auto kind) CROWDLAB_LANES_INLINE_LAMBDA {
    using L = typename decltype(kind)::type;
    f = minImage ? sumLanes<L, true>(self, vi, heading, radiusSum, axes, runs, worldSize, p)
                 : sumLanes<L, false>(self, vi, heading, radiusSum, axes, runs, worldSize, p);
  });
  return f;
}

}  // namespace sim::sfm
