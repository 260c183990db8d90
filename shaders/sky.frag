#version 330 core
// Dusk over Rome: warm at the horizon, deep blue above.
in float vHeight;
uniform vec3 uHorizon;
uniform vec3 uZenith;
out vec4 fragColor;
void main() {
  float t = smoothstep(0.0, 1.0, clamp(vHeight, 0.0, 1.0));
  fragColor = vec4(mix(uHorizon, uZenith, t), 1.0);
}
