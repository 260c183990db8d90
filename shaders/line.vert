#version 330 core
// Debug lines as screen-space quads, uWidthPx wide whatever the zoom (core-profile GL_LINES are
// 1 px): one instance per segment, four strip vertices from gl_VertexID, no mesh.
layout(location = 0) in vec3 iA;
layout(location = 1) in vec4 iColorA;
layout(location = 2) in vec3 iB;
layout(location = 3) in vec4 iColorB;
uniform mat4 uViewProjection;
uniform vec2 uViewportPx;
uniform float uWidthPx;
out vec4 vColor;
void main() {
  vec4 a = uViewProjection * vec4(iA, 1.0);
  vec4 b = uViewProjection * vec4(iB, 1.0);
  bool atB = gl_VertexID >= 2;
  float side = (gl_VertexID & 1) == 0 ? -1.0 : 1.0;
  // The segment's direction in pixels (w kept positive: an end behind a 3D eye still gives a direction).
  vec2 d = (b.xy / max(b.w, 1e-4) - a.xy / max(a.w, 1e-4)) * uViewportPx;
  float len = length(d);
  vec2 dir = len > 1e-6 ? d / len : vec2(1.0, 0.0);
  vec2 offsetNdc = vec2(-dir.y, dir.x) * side * uWidthPx / uViewportPx;  // half the width, in NDC (2 per viewport)
  vec4 p = atB ? b : a;
  gl_Position = vec4(p.xy + offsetNdc * p.w, p.zw);
  vColor = atB ? iColorB : iColorA;
}
