#version 330 core
in vec4 vColor;
in float vFog;
uniform vec3 uFogColor;
uniform float uInk;  // 1 on dark backgrounds; below 1 darkens every colour for a light (projector) theme
out vec4 fragColor;
// The light (projector) theme's ink: the colour more saturated, then darkened just enough that its
// luminance is at most 0.18 (>= 3.5:1 on the light background), so hues (a boid's heading) survive.
vec3 lightInk(vec3 c) {
  vec3 s = c * c / max(max(c.r, max(c.g, c.b)), 1e-3);
  float l = dot(pow(s, vec3(2.2)), vec3(0.2126, 0.7152, 0.0722));
  return l > 0.18 ? s * pow(0.18 / l, 1.0 / 2.2) : s;
}
void main() {
  vec3 c = uInk < 0.999 ? lightInk(vColor.rgb) : vColor.rgb;
  fragColor = vec4(mix(c, uFogColor, clamp(vFog, 0.0, 0.85)), vColor.a);
}
