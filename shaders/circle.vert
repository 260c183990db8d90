#version 330 core
// Circle outlines and filled disks: a unit circle mesh, one instance per circle (in the xy plane).
layout(location = 0) in vec2 aUnit;
layout(location = 1) in vec3 iCenter;
layout(location = 2) in float iRadius;
layout(location = 3) in vec4 iColor;
uniform mat4 uViewProjection;
out vec4 vColor;
void main() {
  gl_Position = uViewProjection * vec4(iCenter + vec3(aUnit * iRadius, 0.0), 1.0);
  vColor = iColor;
}
