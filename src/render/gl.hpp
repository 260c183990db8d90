// The one place OpenGL is included from: the glad 2 loader generated at configure time on the desktop;
// in the browser, Emscripten's OpenGL ES 3.0 headers, which it maps to WebGL 2.
#pragma once
#if !defined(__EMSCRIPTEN__)
#include <glad/gl.h>
#else
#include <GLES3/gl3.h>
// What WebGL 2 lacks, so the same renderer compiles for it. The OpenGL 4.3 paths (the gpu scene's
// compute shaders, indirect and base-instance draws, timestamps) run only after a capability check,
// which a WebGL 2 context fails: their entry points here do nothing. The rest maps to WebGL 2 calls
// with the same meaning.
#define GLAD_GL_VERSION_4_3 0
inline auto glad_glGetIntegerv = &glGetIntegerv;  // desktop: null until a loader ran
#define GL_TIME_ELAPSED 0x88BF                     // EXT_disjoint_timer_query_webgl2, where offered
#define GL_TIMESTAMP 0x8E28
#define GL_COMPUTE_SHADER 0x91B9
#define GL_SHADER_STORAGE_BUFFER 0x90D2
#define GL_DRAW_INDIRECT_BUFFER 0x8F3F
#define GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT 0x00000001
#define GL_COMMAND_BARRIER_BIT 0x00000040
#define GL_BUFFER_UPDATE_BARRIER_BIT 0x00000200
#define GL_SHADER_STORAGE_BARRIER_BIT 0x00002000
extern "C" void glGetBufferSubData(GLenum target, GLintptr offset, GLsizeiptr size, void* data);  // WebGL 2 has it
inline void glDispatchCompute(GLuint, GLuint, GLuint) {}
inline void glMemoryBarrier(GLbitfield) {}
inline void glDrawArraysIndirect(GLenum, const void*) {}
inline void glDrawArraysInstancedBaseInstance(GLenum, GLint, GLsizei, GLsizei, GLuint) {}
inline void glClearBufferData(GLenum, GLenum, GLenum, GLenum, const void*) {}
inline void glQueryCounter(GLuint, GLenum) {}
inline void glVertexAttrib4Nub(GLuint i, GLubyte r, GLubyte g, GLubyte b, GLubyte a) {
  glVertexAttrib4f(i, r / 255.0f, g / 255.0f, b / 255.0f, a / 255.0f);  // normalised, as 4Nub is
}
inline void glGetQueryObjectiv(GLuint id, GLenum pname, GLint* out) {
  GLuint v = 0;
  glGetQueryObjectuiv(id, pname, &v);
  *out = GLint(v);
}
inline void glGetQueryObjectui64v(GLuint id, GLenum pname, GLuint64* out) {
  GLuint v = 0;
  glGetQueryObjectuiv(id, pname, &v);
  *out = v;
}
#endif
