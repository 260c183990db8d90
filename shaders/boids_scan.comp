// Grid build, pass 2: cellStart = exclusive prefix sum of cellCount, in three phases.
//   0: each work group scans 1024 cells and writes its total to blockSums;
//   1: one work group scans blockSums in place, 1024 at a time with a carry (any number of blocks);
//   2: every cell adds its block's offset.
layout(local_size_x = 1024) in;

uniform int uPhase;
uniform uint uBlocks;

shared uint partial[1024];

// Inclusive scan across the work group (Hillis and Steele: log2(1024) = 10 rounds).
uint inclusiveScan(uint v) {
  uint lane = gl_LocalInvocationID.x;
  partial[lane] = v;
  barrier();
  for (uint offset = 1u; offset < 1024u; offset <<= 1) {
    uint t = lane >= offset ? partial[lane - offset] : 0u;
    barrier();
    partial[lane] += t;
    barrier();
  }
  return partial[lane];
}

void main() {
  uint lane = gl_LocalInvocationID.x;
  if (uPhase == 0) {
    uint i = gl_WorkGroupID.x * 1024u + lane;
    uint v = i < uCells ? cellCount[i] : 0u;
    uint sum = inclusiveScan(v);
    if (i < uCells) cellStart[i] = sum - v;
    if (lane == 1023u) blockSums[gl_WorkGroupID.x] = sum;
  } else if (uPhase == 1) {
    uint carry = 0u;
    for (uint base = 0u; base < uBlocks; base += 1024u) {
      uint i = base + lane;
      uint v = i < uBlocks ? blockSums[i] : 0u;
      uint sum = inclusiveScan(v);
      if (i < uBlocks) blockSums[i] = carry + sum - v;
      carry += partial[1023];
      barrier();  // everyone has read partial[1023] before the next round overwrites it
    }
    if (lane == 0u) cellStart[uCells] = carry;
  } else {
    uint i = gl_WorkGroupID.x * 1024u + lane;
    if (i < uCells) cellStart[i] += blockSums[gl_WorkGroupID.x];
  }
}
