#version 330 core
in vec4 vColor;
in float vFog;
uniform vec3 uFogColor;
uniform float uInk;  // 1 on dark backgrounds; below 1 darkens every colour for a light (projector) theme
out vec4 fragColor;
void main() { fragColor = vec4(mix(vColor.rgb * uInk, uFogColor, clamp(vFog, 0.0, 0.85)), vColor.a); }
