#version 330 core
// A full-screen triangle without any vertex buffer.
out float vHeight;
void main() {
  vec2 p = vec2(float((gl_VertexID & 1) << 2) - 1.0, float((gl_VertexID & 2) << 1) - 1.0);
  vHeight = p.y * 0.5 + 0.5;
  gl_Position = vec4(p, 0.999, 1.0);
}
