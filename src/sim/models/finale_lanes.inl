// The finale's lane kernels: one agent's neighbour scans, a register of candidates at a time.
// Included twice by finale.cpp, inside a namespace each: once for the build's own target (SSE2 on
// x86-64, 4 lanes) and, on x86-64 with GCC, once more under `#pragma GCC target("avx2")` (8 lanes),
// picked at run time when the CPU has AVX2. Not a header: it relies on finale.cpp's Run, AxisState,
// RuleSums, NeighborKeys and includes, and defines no symbol outside its namespace.

#if defined(__GNUC__)
// GCC / Clang vector extensions: one register of lanes at the width this build targets, or AVX's
// when finale.cpp includes this under its AVX2 target (a target pragma does not define __AVX__).
#if defined(__AVX__) && !defined(CROWDLAB_LANES_AVX)
#define CROWDLAB_LANES_AVX
#endif
#if defined(CROWDLAB_LANES_AVX)
constexpr int kLanes = 8;
#else
constexpr int kLanes = 4;
#endif
using Lanes = float __attribute__((vector_size(kLanes * sizeof(float))));
using Mask = int32_t __attribute__((vector_size(kLanes * sizeof(float))));  // -1 where true, 0 elsewhere

Lanes load(const float* p) {
  Lanes v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
Lanes splat(float x) { return Lanes{} + x; }
Lanes keep(Mask m, Lanes v) { return (Lanes)(m & (Mask)v); }
// One bit per lane that is true.
unsigned laneBits(Mask m) {
#if defined(CROWDLAB_LANES_AVX)
  return unsigned(_mm256_movemask_ps((__m256)m));
#elif defined(__SSE__)
  return unsigned(_mm_movemask_ps((__m128)m));
#else
  unsigned bits = 0;
  for (int l = 0; l < kLanes; ++l) bits |= unsigned(m[l] & 1) << l;
  return bits;
#endif
}
Mask lanes0123() {
  Mask m{};
  for (int l = 0; l < kLanes; ++l) m[l] = l;
  return m;
}
// The IEEE square root per lane: exact, so every machine gets the same bits.
Lanes sqrtLanes(Lanes v) {
#if defined(CROWDLAB_LANES_AVX)
  return (Lanes)_mm256_sqrt_ps((__m256)v);
#elif defined(__SSE__)
  return (Lanes)_mm_sqrt_ps((__m128)v);
#else
  for (int l = 0; l < kLanes; ++l) v[l] = __builtin_sqrtf(v[l]);
  return v;
#endif
}
#endif

// The rule sums of the agent at `self`, and how many candidates are closer than 0.99 * 2r to it. The
// agent is among the candidates (at distance 0) and is taken off; every pair is counted from both
// sides. A register of lanes at a time, with masks instead of branches:
// the same tests and formula as addNeighbor. Whole registers first; only the last, partial one of
// a run masks off the lanes past its end. The lanes are summed in a fixed order at the end, so the
// result does not depend on the thread count.
void rulePass(const AxisState& a, std::span<const Run> runs, const Vec2& self, const FinaleParams& p, RuleSums& sums,
              uint32_t& closeNeighbors) {
  const float close = 0.99f * 2.0f * p.agentRadius;
#if defined(__GNUC__)
  const Lanes px = splat(self.x), py = splat(self.y), zero = splat(0.0f), one = splat(1.0f);
  const Lanes perception = splat(p.perceptionRadius * p.perceptionRadius);
  const Lanes separation = splat(p.separationRadius * p.separationRadius), closeSq = splat(close * close);
  const Lanes invSep = splat(1.0f / p.separationRadius);
  const Mask laneIndex = lanes0123(), allLanes = Mask{} - 1;
  Lanes sepX = zero, sepY = zero, velX = zero, velY = zero, offX = zero, offY = zero;
  Mask counted{}, near{};
  auto lanes = [&](uint32_t j, Mask live) __attribute__((always_inline)) {
    const Lanes dx = load(a.x + j) - px, dy = load(a.y + j) - py;
    const Lanes d2 = dx * dx + dy * dy;
    const Mask seen = live & (d2 > zero) & (d2 <= perception);
    velX += keep(seen, load(a.vx + j));
    velY += keep(seen, load(a.vy + j));
    offX += keep(seen, dx);
    offY += keep(seen, dy);
    counted -= seen;
    const Mask push = seen & (d2 < separation);
    // dir(self - other) * (1 - d / R) = -offset * (1/d - 1/R); lanes not pushing give 0.
    const Lanes w = keep(push, one / sqrtLanes(keep(push, d2) + keep(~push, one)) - invSep);
    sepX -= dx * w;
    sepY -= dy * w;
    near -= live & (d2 < closeSq);  // the agent itself too (d2 = 0): taken off below
  };
  for (const Run& r : runs) {
    uint32_t j = r.begin;
    for (; j + kLanes <= r.end; j += kLanes) lanes(j, allLanes);
    if (j < r.end) lanes(j, laneIndex < (Mask{} + int32_t(r.end - j)));
  }
  int closeCount = -1;
  for (int l = 0; l < kLanes; ++l) {
    sums.separation += Vec2{sepX[l], sepY[l]};
    sums.velocitySum += Vec2{velX[l], velY[l]};
    sums.offsetSum += Vec2{offX[l], offY[l]};
    sums.count += counted[l];
    closeCount += near[l];
  }
  closeNeighbors = uint32_t(std::max(closeCount, 0));
#else
  int closeCount = -1;  // the agent itself is among the candidates, at distance 0
  for (const Run& r : runs)
    for (uint32_t j = r.begin; j < r.end; ++j) {
      const Vec2 off = Vec2{a.x[j], a.y[j]} - self;
      const float d2 = glm::dot(off, off);
      addNeighbor(sums, p, off, d2, Vec2{a.vx[j], a.vy[j]});
      if (d2 < close * close) ++closeCount;
    }
  closeNeighbors = uint32_t(std::max(closeCount, 0));
#endif
}

// ORCA's neighbours of the agent at `self` (index selfIndex): every other candidate within the
// neighbour distance, as sort keys. `indices` names each candidate slot's agent when the candidates
// are a gathered copy; null when the slots are the agents' own indices.
void orcaPass(const AxisState& a, const uint32_t* indices, std::span<const Run> runs, const Vec2& self,
              uint32_t selfIndex, float neighborDist, int nearest, NeighborKeys& out) {
  const float r2 = neighborDist * neighborDist;
  out.count = 0;
#if defined(__GNUC__)
  const Lanes px = splat(self.x), py = splat(self.y), range = splat(r2);
  const Mask laneIndex = lanes0123(), selfMask = Mask{} + int32_t(selfIndex);
  for (const Run& r : runs)
    for (uint32_t j = r.begin; j < r.end; j += kLanes) {
      const Mask slot = laneIndex + int32_t(j);
      Mask index = slot;
      if (indices) std::memcpy(&index, indices + j, sizeof index);
      const Lanes dx = load(a.x + j) - px, dy = load(a.y + j) - py;
      const Lanes d2 = dx * dx + dy * dy;
      const Mask in = (slot < (Mask{} + int32_t(r.end))) & (d2 <= range) & (index != selfMask);
      for (unsigned bits = laneBits(in); bits; bits &= bits - 1) {
        const int l = std::countr_zero(bits);
        out.add(NeighborKeys::key(d2[l], uint32_t(index[l])), nearest);
      }
    }
#else
  for (const Run& r : runs)
    for (uint32_t j = r.begin; j < r.end; ++j) {
      const float dx = a.x[j] - self.x, dy = a.y[j] - self.y;
      const float d2 = dx * dx + dy * dy;
      const uint32_t index = indices ? indices[j] : j;
      if (d2 <= r2 && index != selfIndex) out.add(NeighborKeys::key(d2, index), nearest);
    }
#endif
}


#undef CROWDLAB_LANES_AVX
