#include "sim/rules/steering.hpp"

#include <algorithm>
#include <bit>
#include <cassert>

namespace sim {

void GreedySlotMatcher::reserve(size_t n) {
  pairs_.reserve(n * n);
  slotTaken_.reserve(n);
}

void GreedySlotMatcher::assign(std::span<const Vec2> agents, std::span<const Vec2> slots,
                               std::span<uint32_t> slotOfAgent) {
  const size_t n = agents.size();
  assert(slots.size() == n && slotOfAgent.size() == n && n < 65536);
  // One key per (agent, slot) pair: the squared distance's float bits on top (non-negative floats
  // order like their bit patterns), then agent, then slot; one sort orders the pairs by distance
  // and breaks ties by index.
  pairs_.clear();
  for (size_t a = 0; a < n; ++a) {
    for (size_t s = 0; s < n; ++s) {
      uint32_t d2 = std::bit_cast<uint32_t>(lengthSq(slots[s] - agents[a]));
      pairs_.push_back((uint64_t(d2) << 32) | (uint64_t(a) << 16) | uint64_t(s));
    }
  }
  std::sort(pairs_.begin(), pairs_.end());
  constexpr uint32_t kUnassigned = ~0u;
  std::fill(slotOfAgent.begin(), slotOfAgent.end(), kUnassigned);
  slotTaken_.assign(n, 0);
  size_t matched = 0;
  for (size_t k = 0; k < pairs_.size() && matched < n; ++k) {
    uint32_t a = uint32_t((pairs_[k] >> 16) & 0xFFFF);
    uint32_t s = uint32_t(pairs_[k] & 0xFFFF);
    if (slotOfAgent[a] != kUnassigned || slotTaken_[s]) continue;
    slotOfAgent[a] = s;
    slotTaken_[s] = 1;
    ++matched;
  }
}

}  // namespace sim
