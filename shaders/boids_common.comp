#version 430 core
// Prefixed to every boids compute pass (render/gpu_boids.cpp): the buffers and the grid's layout,
// declared once. The grid is the one sim::UniformGrid builds on a wrapping world: dims cells per
// axis, each (size / dims) wide, row-major with x fastest.

layout(std430, binding = 0) buffer State { vec4 state[]; };            // position.xy, velocity.xy; drawn from directly
layout(std430, binding = 1) buffer Sorted { vec4 sortedState[]; };     // the same, in cell order
layout(std430, binding = 2) buffer Ids { uint ids[]; };                // stable agent ids, travelling with state
layout(std430, binding = 3) buffer SortedIds { uint sortedIds[]; };
layout(std430, binding = 4) buffer CellCount { uint cellCount[]; };
layout(std430, binding = 5) buffer CellStart { uint cellStart[]; };    // cells + 1 entries
layout(std430, binding = 6) buffer AgentCell { uint agentCell[]; };
layout(std430, binding = 7) buffer AgentRank { uint agentRank[]; };    // slot inside its cell, from the atomic count
layout(std430, binding = 8) buffer BlockSums { uint blockSums[]; };
layout(std430, binding = 9) buffer Neighbors { uint neighborCount[]; };
layout(std430, binding = 10) buffer Indirect { uint indirect[4]; };    // DrawArraysIndirectCommand

uniform uint uCount;
uniform uint uCells;
uniform vec2 uWorldMin;
uniform vec2 uWorldSize;
uniform vec2 uInvExtent;
uniform ivec2 uDims;

// As UniformGrid::cellOf: the same float operations, so an agent lands in the same cell.
ivec2 cellOf(vec2 p) {
  vec2 f = floor((p - uWorldMin) * uInvExtent);
  f = max(f, vec2(0.0));
  return ivec2(min(f, vec2(uDims - 1)));
}
uint cellIndex(ivec2 c) { return uint(c.y) * uint(uDims.x) + uint(c.x); }
