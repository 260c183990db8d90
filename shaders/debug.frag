#version 330 core
in vec4 vColor;
uniform float uInk;  // 1 on dark backgrounds; below 1 darkens every colour for a light (projector) theme
out vec4 fragColor;
void main() { fragColor = vec4(vColor.rgb * uInk, vColor.a); }
