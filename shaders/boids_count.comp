// Grid build, pass 1: each agent's cell, and its slot in that cell from an atomic count.
layout(local_size_x = 256) in;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= uCount) return;
  uint c = cellIndex(cellOf(state[i].xy));
  agentCell[i] = c;
  agentRank[i] = atomicAdd(cellCount[c], 1u);
}
