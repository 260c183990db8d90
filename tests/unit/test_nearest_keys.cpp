// NearestKeys: the `keep` nearest candidates by squared distance, ties to the lower index, the same
// on every lane kind; also when more candidates come than the buffer holds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>
#include "sim/core/nearest_keys.hpp"
#include "sim/core/rng.hpp"

using namespace sim;

namespace {

struct Candidate {
  float distSq;
  uint32_t index;
};

// Registers of 8 candidates with increasing indices, each lane within range or not at random;
// distances drawn from few values, so ties are common.
template <class L>
std::vector<Candidate> appendRandom(NearestKeys& keys, Rng& rng, int registers, int keep, int distinctDistances) {
  std::vector<Candidate> within;
  keys.count = 0;
  uint32_t next = rng.below(5);
  for (int r = 0; r < registers; ++r) {
    float d[lanes::kLanes];
    uint32_t index[lanes::kLanes];
    unsigned bits = 0;
    for (int l = 0; l < lanes::kLanes; ++l) {
      d[l] = float(rng.below(uint32_t(distinctDistances))) * 0.75f;
      index[l] = next;
      next += 1 + rng.below(3);
      if (rng.below(3) != 0) {
        bits |= 1u << l;
        within.push_back({d[l], index[l]});
      }
    }
    typename L::Floats dv;
    typename L::Ints iv;
    std::memcpy(&dv, d, sizeof dv);
    std::memcpy(&iv, index, sizeof iv);
    if (bits) keys.append<L>(dv, iv, bits, keep);
  }
  return within;
}

template <class L>
void expectNearestInOrder(const char* kind) {
  SCOPED_TRACE(kind);
  Rng rng(42, 3);
  int checked = 0, overflowed = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const int registers = int(rng.below(60));  // up to 480 candidates, 320 within: several cuts
    const int keep = 1 + int(rng.below(NearestKeys::kMaxKeep));
    const int distinct = trial % 2 ? 4 : 1000;
    NearestKeys keys;
    std::vector<Candidate> within = appendRandom<L>(keys, rng, registers, keep, distinct);
    overflowed += within.size() > size_t(NearestKeys::kCapacity);
    keys.selectNearest<L>(keep);
    std::sort(within.begin(), within.end(), [](const Candidate& a, const Candidate& b) {
      return std::pair(a.distSq, a.index) < std::pair(b.distSq, b.index);
    });
    const size_t expected = std::min(within.size(), size_t(keep));
    ASSERT_EQ(size_t(keys.count), expected) << "trial " << trial;
    for (size_t m = 0; m < expected; ++m) {
      ASSERT_EQ(keys.distSq(int(m)), within[m].distSq) << "trial " << trial << " place " << m;
      ASSERT_EQ(keys.index[m], within[m].index) << "trial " << trial << " place " << m;
    }
    ++checked;
  }
  EXPECT_EQ(checked, 400);
  EXPECT_GT(overflowed, 50);  // the cut to `keep` on a full buffer was exercised
}

}  // namespace

TEST(NearestKeys, KeepsTheNearestInOrderWithTiesToTheLowerIndexOnEveryLaneKind) {
  expectNearestInOrder<lanes::Baseline>("baseline");
  expectNearestInOrder<lanes::Portable>("portable");
#if CROWDLAB_LANES_VECTOR
  expectNearestInOrder<lanes::Wide>("wide");
#endif
}

// A candidate at distance 0 (an agent on top of another) comes first; an empty list stays empty.
TEST(NearestKeys, CoincidentFirstAndEmptyStaysEmpty) {
  using L = lanes::Baseline;
  NearestKeys keys;
  keys.selectNearest<L>(10);
  EXPECT_EQ(keys.count, 0);
  const float d[lanes::kLanes] = {4.0f, 0.0f, 9.0f, 0.0f, 1.0f, 1.0f, 16.0f, 2.0f};
  const uint32_t index[lanes::kLanes] = {10, 11, 12, 13, 14, 15, 16, 17};
  typename L::Floats dv;
  typename L::Ints iv;
  std::memcpy(&dv, d, sizeof dv);
  std::memcpy(&iv, index, sizeof iv);
  keys.append<L>(dv, iv, 0b1011'1111u, 4);  // lane 6 (16.0) out of range
  keys.selectNearest<L>(4);
  ASSERT_EQ(keys.count, 4);
  EXPECT_EQ(keys.index[0], 11u);
  EXPECT_EQ(keys.index[1], 13u);
  EXPECT_EQ(keys.index[2], 14u);
  EXPECT_EQ(keys.index[3], 15u);
}
