// The one place OpenGL is included from (the glad 2 loader generated at configure time).
#pragma once
#include <glad/gl.h>
