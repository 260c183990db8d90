// Boids rules over the 3x3 cells around each agent, then integration and wrap: the GPU twin of
// sim::Flock<2>::step with the grid (sim/rules/boids.hpp), one thread per agent in cell order.
// Writes the next state back into `state`, which the renderer draws from directly.
layout(local_size_x = 256) in;

uniform float uDt;
uniform float uWeightSeparation, uWeightAlignment, uWeightCohesion;
uniform float uMinSpeed, uMaxSpeed, uMaxForce;
uniform float uAlignmentFade, uCohesionFade;
// Squared-distance bounds from sim::BoidsBounds, so the tests decide as the CPU's do.
uniform float uSearch2, uPerceived2, uSeparation2;

vec2 safeNormalize(vec2 v) {
  float l2 = dot(v, v);
  return l2 > 1e-12 ? v * (1.0 / sqrt(l2)) : vec2(0.0);
}
vec2 softNormalize(vec2 v, float scale) {
  float l = sqrt(dot(v, v));
  return l > 1e-12 ? v / (l > scale ? l : scale) : vec2(0.0);
}
vec2 clampLength(vec2 v, float maxLength) {
  float l2 = dot(v, v);
  return l2 > maxLength * maxLength && l2 > 0.0 ? v * (maxLength / sqrt(l2)) : v;
}

void main() {
  uint k = gl_GlobalInvocationID.x;
  if (k == 0u) indirect[1] = uCount;  // the draw's instance count, never read back
  if (k >= uCount) return;
  vec2 p = sortedState[k].xy, v = sortedState[k].zw;
  ivec2 c = cellOf(p);

  vec2 separationSum = vec2(0.0), velocitySum = vec2(0.0), offsetSum = vec2(0.0);
  uint perceived = 0u, separated = 0u;
  for (int dy = -1; dy <= 1; ++dy) {
    int y = c.y + dy;
    float shiftY = 0.0;  // across the seam: what turns (q - p) into the offset on the torus
    if (y < 0) { y += uDims.y; shiftY = -uWorldSize.y; }
    else if (y >= uDims.y) { y -= uDims.y; shiftY = uWorldSize.y; }
    for (int dx = -1; dx <= 1; ++dx) {
      int x = c.x + dx;
      float shiftX = 0.0;
      if (x < 0) { x += uDims.x; shiftX = -uWorldSize.x; }
      else if (x >= uDims.x) { x -= uDims.x; shiftX = uWorldSize.x; }
      uint cell = uint(y) * uint(uDims.x) + uint(x);
      uint last = cellStart[cell + 1u];
      for (uint j = cellStart[cell]; j < last; ++j) {
        if (j == k) continue;
        vec4 other = sortedState[j];
        // precise: no fused multiply-add, so d2 has the CPU's bits and borderline neighbours agree.
        precise vec2 offset = (other.xy - p) + vec2(shiftX, shiftY);
        precise float d2 = offset.x * offset.x + offset.y * offset.y;
        if (!(d2 > 0.0) || d2 > uSearch2) continue;  // coincident agents give no direction
        if (d2 <= uSeparation2) {
          separationSum -= offset * (1.0 / d2);  // normalize(self - other) / distance
          separated++;
        }
        if (d2 <= uPerceived2) {  // one radius for perception, alignment and cohesion (no separate radii here)
          velocitySum += other.zw;
          offsetSum += offset;
          perceived++;
        }
      }
    }
  }

  vec2 separation = separated > 0u ? safeNormalize(separationSum) : vec2(0.0);
  vec2 alignment = perceived > 0u ? softNormalize(velocitySum / float(perceived) - v, uAlignmentFade) : vec2(0.0);
  vec2 cohesion = perceived > 0u ? softNormalize(offsetSum / float(perceived), uCohesionFade) : vec2(0.0);
  vec2 acceleration = clampLength(
      (uWeightSeparation * separation + uWeightAlignment * alignment + uWeightCohesion * cohesion) * uMaxForce, uMaxForce);

  v = clampLength(v + acceleration * uDt, uMaxSpeed);
  float s2 = dot(v, v);
  if (uMinSpeed > 0.0 && s2 < uMinSpeed * uMinSpeed && s2 > 1e-12) v *= uMinSpeed / sqrt(s2);
  p += v * uDt;
  for (int a = 0; a < 2; ++a) {  // World::applyBounds on a torus
    float t = (p[a] - uWorldMin[a]) / uWorldSize[a];
    if (t < 0.0 || t >= 1.0) {
      p[a] = uWorldMin[a] + (t - floor(t)) * uWorldSize[a];
      if (p[a] >= uWorldMin[a] + uWorldSize[a]) p[a] = uWorldMin[a];
    }
  }
  state[k] = vec4(p, v);
  ids[k] = sortedIds[k];
  neighborCount[k] = perceived;
}
