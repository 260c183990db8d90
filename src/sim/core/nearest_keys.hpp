// The `keep` nearest of one agent's candidates, nearest first, ties in distance to the lower index:
// the finale's ORCA neighbour lists, the order orca::NearestNeighbors gives.
//
// A lane kernel (lanes.hpp) appends the candidates within range a register at a time, in increasing
// index order. That order settles ties, so a key is one 32-bit integer, the squared distance's bits
// (non-negative floats order like their bits). The choice is a rank count, not a sort: each key's
// place is how many keys come before it, counted eight keys at a time with no branch on the data
// (an insertion sort of the 20-30 neighbours of a dense crowd mispredicts about once per key).
#pragma once
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include "sim/core/lanes.hpp"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
// The key buffers are not cleared (a step fills them for every agent); only the first `count` are
// read. At -O1 (the sanitizer builds) GCC 12 cannot see that bound and warns falsely that they may
// be read uninitialized.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace sim {

struct NearestKeys {
  static constexpr int kCapacity = 120;  // keys held before they are cut to the nearest `keep`
  static constexpr int kMaxKeep = 32;
  static constexpr int kLanes = lanes::kLanes;

  alignas(32) int32_t distBits[kCapacity + kLanes];  // squared distances as bits, padded for whole registers
  alignas(32) uint32_t index[kCapacity + kLanes];
  int count = 0;
  // What rankNearest chose, nearest first (one slot more: the keys past `keep` all land there).
  int32_t keptDistBits[kMaxKeep + 1];
  uint32_t keptIndex[kMaxKeep + 1];
  int kept = 0;

  float distSq(int m) const { return std::bit_cast<float>(distBits[m]); }
  float keptDistSq(int m) const { return std::bit_cast<float>(keptDistBits[m]); }

  // Appends the lanes set in `bits` (lane 0 lowest) of a register of squared distances (finite, not
  // negative) and agent indices, whose indices all exceed those appended before. A full buffer is
  // cut to the nearest `keep` first.
  template <class L>
  CROWDLAB_LANES_INLINE void append(typename L::Floats distSq, typename L::Ints indices, unsigned bits, int keep) {
    if (count > kCapacity - kLanes) selectNearest<L>(keep);
    // The chosen lanes moved to the front and the whole register stored; the count moves past them.
    const typename L::Ints order = L::compressOrder(bits);
    const typename L::Ints d = L::permute(L::asInts(distSq), order), j = L::permute(indices, order);
    std::memcpy(distBits + count, &d, sizeof d);
    std::memcpy(index + count, &j, sizeof j);
    count += std::popcount(bits);
  }

  // Leaves the nearest min(count, keep) keys in order (keep at most kMaxKeep).
  template <class L>
  CROWDLAB_LANES_INLINE void selectNearest(int keep) {
    rankNearest<L>(keep);
    count = kept;
    std::memcpy(distBits, keptDistBits, size_t(kept) * sizeof(int32_t));
    std::memcpy(index, keptIndex, size_t(kept) * sizeof(uint32_t));
  }

  // The nearest min(count, keep) keys in order (keep at most kMaxKeep) to kept*, the keys left as
  // they are: for a last choice, which need not copy them back for more appending.
  template <class L>
  CROWDLAB_LANES_INLINE void rankNearest(int keep) {
    using Ints = typename L::Ints;
    keep = std::clamp(keep, 0, kMaxKeep);
    const int n = count;
    for (int l = 0; l < kLanes; ++l) distBits[n + l] = INT32_MAX;  // the last register's spare lanes
    alignas(32) int32_t rank[kCapacity + kLanes];
    for (int i0 = 0; i0 < n; i0 += kLanes) {
      Ints own;
      std::memcpy(&own, distBits + i0, sizeof own);
      Ints before = L::splat(int32_t(0));  // minus the number of keys before each lane's
      int j = 0;
      for (; j < i0; ++j) before += L::splat(distBits[j]) <= own;  // earlier index: first on a tie
      const Ints ownSlot = L::laneIndex() + L::splat(int32_t(i0));
      for (const int e = std::min(i0 + kLanes, n); j < e; ++j) {
        const Ints other = L::splat(distBits[j]);
        before += (other < own) | ((other == own) & (L::splat(int32_t(j)) < ownSlot));
      }
      for (; j < n; ++j) before += L::splat(distBits[j]) < own;
      const Ints ranks = L::splat(int32_t(0)) - before;
      std::memcpy(rank + i0, &ranks, sizeof ranks);
    }
    // Each key to its place; the ones past `keep` all land in one spare slot.
    for (int i = 0; i < n; ++i) {
      const int place = std::min(rank[i], keep);
      keptDistBits[place] = distBits[i];
      keptIndex[place] = index[i];
    }
    kept = std::min(n, keep);
  }
};

}  // namespace sim

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
