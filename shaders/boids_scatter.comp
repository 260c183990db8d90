// Grid build, pass 3. Phase 0: every agent to its slot in the cell-ordered copy.
// Phase 1: inside each cell, agents by id. The atomic slots depend on thread timing; this makes the
// order (and so every float sum after it) the same on every run, as the CPU's stable sort is.
layout(local_size_x = 256) in;

uniform int uPhase;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (uPhase == 0) {
    if (i >= uCount) return;
    uint k = cellStart[agentCell[i]] + agentRank[i];
    sortedState[k] = state[i];
    sortedIds[k] = ids[i];
    return;
  }
  if (i >= uCells) return;
  uint first = cellStart[i], last = cellStart[i + 1];
  for (uint k = first + 1u; k < last; ++k) {  // insertion sort: cells hold a few agents
    uint id = sortedIds[k];
    vec4 s = sortedState[k];
    uint j = k;
    for (; j > first && sortedIds[j - 1u] > id; --j) {
      sortedIds[j] = sortedIds[j - 1u];
      sortedState[j] = sortedState[j - 1u];
    }
    sortedIds[j] = id;
    sortedState[j] = s;
  }
}
