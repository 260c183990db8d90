#version 330 core
// Circle outlines as screen-space rings uWidthPx wide: a unit circle strip (aUnit.z: -1 inner,
// +1 outer edge), one instance per circle (in the xy plane).
layout(location = 0) in vec3 aUnit;
layout(location = 1) in vec3 iCenter;
layout(location = 2) in float iRadius;
layout(location = 3) in vec4 iColor;
uniform mat4 uViewProjection;
uniform vec2 uViewportPx;
uniform float uWidthPx;
out vec4 vColor;
void main() {
  vec4 p = uViewProjection * vec4(iCenter + vec3(aUnit.xy * iRadius, 0.0), 1.0);
  vec4 c = uViewProjection * vec4(iCenter, 1.0);
  // Outwards on screen, in pixels; a circle too small to have one uses the mesh's own.
  vec2 d = (p.xy / max(p.w, 1e-4) - c.xy / max(c.w, 1e-4)) * uViewportPx;
  float len = length(d);
  vec2 outwards = len > 1e-3 ? d / len : aUnit.xy;
  gl_Position = vec4(p.xy + outwards * aUnit.z * uWidthPx / uViewportPx * p.w, p.zw);  // half the width each side, in NDC
  vColor = iColor;
}
