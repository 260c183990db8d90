#version 330 core
in vec4 vColor;
in float vFog;
uniform vec3 uFogColor;
out vec4 fragColor;
void main() { fragColor = vec4(mix(vColor.rgb, uFogColor, clamp(vFog, 0.0, 0.85)), vColor.a); }
