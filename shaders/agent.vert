#version 330 core
// One instance per agent. Mesh space: x forward (nose at +0.5), y left, z up; scaled by iScale.
layout(location = 0) in vec3 aLocal;
layout(location = 1) in float aWing;     // 0 on the body, 1 at a wing tip: how much the vertex flaps
layout(location = 2) in vec3 iPosition;
layout(location = 3) in vec3 iHeading;
layout(location = 4) in float iScale;
layout(location = 5) in float iPhase;
layout(location = 6) in vec4 iColor;

uniform mat4 uViewProjection;
uniform int uMode;          // 0: 2D plane, 1: 3D with flapping, shading and fog
uniform float uTime;
uniform vec3 uEye;
uniform float uAgentScale;  // the scene's agentScale: presenter-sized glyphs, same simulation

out vec4 vColor;
out float vFog;

void main() {
  if (uMode == 0) {
    vec2 f = iHeading.xy;
    float l = length(f);
    f = l > 1e-6 ? f / l : vec2(1.0, 0.0);
    vec2 left = vec2(-f.y, f.x);
    vec2 p = iPosition.xy + (f * aLocal.x + left * aLocal.y) * (iScale * uAgentScale);
    gl_Position = uViewProjection * vec4(p, 0.0, 1.0);
    // Enlarged glyphs (agentScale > 1.5) turn translucent, down to half: a dense flock then shows
    // its overlaps as darker and lighter, not as one solid blob.
    vColor = vec4(iColor.rgb, iColor.a * clamp(1.5 / uAgentScale, 0.5, 1.0));
    vFog = 0.0;
    return;
  }
  vec3 f = iHeading;
  float l = length(f);
  f = l > 1e-6 ? f / l : vec3(1.0, 0.0, 0.0);
  vec3 up0 = abs(f.z) < 0.98 ? vec3(0.0, 0.0, 1.0) : vec3(0.0, 1.0, 0.0);
  vec3 left = normalize(cross(up0, f));
  vec3 up = cross(f, left);
  // Wing beat from a per-instance phase, so birds never flap in sync.
  float beat = sin(uTime * 14.0 + iPhase);
  vec3 local = aLocal;
  local.z += aWing * beat * 0.32;
  vec3 world = iPosition + (f * local.x + left * local.y + up * local.z) * (iScale * uAgentScale);
  gl_Position = uViewProjection * vec4(world, 1.0);
  // Cheap shading: wings catch the light when raised, the body stays dark.
  float light = 0.9 + 0.2 * (aWing * beat * 0.5 + 0.5) * step(0.01, aWing) + 0.1 * up.z;  // subtle: colours keep their contrast
  vColor = vec4(iColor.rgb * light, iColor.a);
  float d = length(world - uEye);
  vFog = 1.0 - exp(-d * 0.001);   // light haze: a depth cue that leaves startled birds their contrast
}
