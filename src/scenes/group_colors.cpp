#include "scenes/group_colors.hpp"

#include <algorithm>

namespace scenes {

void GroupColors::colour(std::span<const uint32_t> id) {
  const size_t n = group_.size();
  constexpr size_t P = kPalette.size();
  slot_.assign(n, uint8_t(P - 1));
  if (n == 0 || id.size() != n) return;
  // Members of each group together (a counting sort by group number).
  size_.assign(n + 1, 0u);
  for (uint32_t g : group_) ++size_[g];
  start_.assign(n + 1, 0u);
  for (size_t g = 0; g < n; ++g) start_[g + 1] = start_[g] + size_[g];
  members_.resize(n);
  {
    std::vector<uint32_t>& next = bySize_;  // reused as the fill cursor
    next.assign(start_.begin(), start_.end() - 1);
    for (size_t i = 0; i < n; ++i) members_[next[group_[i]]++] = uint32_t(i);
  }
  bySize_.clear();
  for (uint32_t g = 0; g < n; ++g)
    if (size_[g]) bySize_.push_back(g);
  groups_ = uint32_t(bySize_.size());
  std::stable_sort(bySize_.begin(), bySize_.end(), [&](uint32_t a, uint32_t b) { return size_[a] > size_[b]; });
  uint32_t maxId = 0;
  for (uint32_t v : id) maxId = std::max(maxId, v);
  if (slotById_.size() <= maxId) slotById_.resize(size_t(maxId) + 1, kNone);

  // Largest first: the colour most members had, if no larger group took it; past the palette's size
  // groups share colours (still their members' last one where they had one).
  std::array<bool, P> taken{};
  size_t rank = 0;
  for (uint32_t g : bySize_) {
    std::array<uint32_t, P> votes{};
    for (uint32_t k = start_[g]; k < start_[g] + size_[g]; ++k)
      if (const uint8_t s = slotById_[id[members_[k]]]; s != kNone) ++votes[s];
    const bool allTaken = rank >= P;
    int best = -1;
    for (size_t s = 0; s < P; ++s)
      if (votes[s] && (allTaken || !taken[s]) && (best < 0 || votes[s] > votes[size_t(best)])) best = int(s);
    if (best < 0) {
      if (allTaken) best = int(rank % P);
      else
        for (size_t s = 0; s < P && best < 0; ++s)
          if (!taken[s]) best = int(s);
    }
    taken[size_t(best)] = true;
    for (uint32_t k = start_[g]; k < start_[g] + size_[g]; ++k) slot_[members_[k]] = uint8_t(best);
    ++rank;
  }
  for (size_t i = 0; i < n; ++i) slotById_[id[i]] = slot_[i];
}

}  // namespace scenes
