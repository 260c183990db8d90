# The browser build (Emscripten): what differs from the desktop build, in one place.
#   - no oneTBB and no threads: sim::parallelFor runs its loops serially (CROWDLAB_SERIAL), with the
#     same results, because every loop body writes only its own agent's slot;
#   - GLM and nlohmann-json are the host's header-only packages (their CMake files describe the host);
#   - WebAssembly SIMD for every target, so the GCC/Clang vector extensions in the sim kernels become
#     128-bit wasm lanes;
#   - C++ exceptions are caught only where a parse error is handled (scenes, app): compiling the
#     core without them keeps its loops free of the JavaScript exception trampolines.
set(CROWDLAB_HOST_INCLUDE /usr/include CACHE PATH "Where the host's GLM, nlohmann and stb headers live")
set(host_headers ${CMAKE_BINARY_DIR}/host-include)
foreach(dir glm nlohmann stb)
  if(NOT EXISTS ${CROWDLAB_HOST_INCLUDE}/${dir})
    message(FATAL_ERROR "${CROWDLAB_HOST_INCLUDE}/${dir} is missing: run scripts/install-deps.sh")
  endif()
  # Only these folders, not all of /usr/include, whose C library headers would shadow Emscripten's.
  file(MAKE_DIRECTORY ${host_headers})
  file(CREATE_LINK ${CROWDLAB_HOST_INCLUDE}/${dir} ${host_headers}/${dir} SYMBOLIC)
endforeach()
add_library(glm::glm INTERFACE IMPORTED)
set_target_properties(glm::glm PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${host_headers})
add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
set_target_properties(nlohmann_json::nlohmann_json PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${host_headers})
# Eigen (CMA-ES in src/experiments) is header-only as well: only its Eigen/ folder, linked the same way.
if(NOT EXISTS ${CROWDLAB_HOST_INCLUDE}/eigen3/Eigen)
  message(FATAL_ERROR "${CROWDLAB_HOST_INCLUDE}/eigen3/Eigen is missing: run scripts/install-deps.sh")
endif()
file(CREATE_LINK ${CROWDLAB_HOST_INCLUDE}/eigen3/Eigen ${host_headers}/Eigen SYMBOLIC)
add_library(Eigen3::Eigen INTERFACE IMPORTED)
set_target_properties(Eigen3::Eigen PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${host_headers})
set(CROWDLAB_PARALLEL_LIBS "")
set(CROWDLAB_PARALLEL_DEFINES CROWDLAB_SERIAL=1)

add_compile_options(-msimd128)
# Emscripten's built-in SDL 1 puts its headers first unless told otherwise; SDL2 comes from scripts/web.sh.
add_compile_options(-sUSE_SDL=0)
# Standard headers the toolchain's libc++ 13 lacks a C++20 piece of (web/include/bit: std::bit_cast).
include_directories(BEFORE SYSTEM ${PROJECT_SOURCE_DIR}/web/include)
set(CROWDLAB_CATCH_EXCEPTIONS -fexceptions)

# The page: build-web/site holds index.html, crowdlab.js, crowdlab.wasm and crowdlab.data (the UI font),
# a static folder any web host can serve.
function(crowdlab_web_page target)
  set(site ${CMAKE_BINARY_DIR}/site)
  set(font /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf)
  set_target_properties(${target} PROPERTIES SUFFIX ".js" RUNTIME_OUTPUT_DIRECTORY ${site})
  target_link_options(${target} PRIVATE
    -fexceptions
    -sENVIRONMENT=web -sUSE_SDL=0
    -sMIN_WEBGL_VERSION=2 -sMAX_WEBGL_VERSION=2
    -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=64MB
    -lidbfs.js
    "-sEXPORTED_RUNTIME_METHODS=['ccall','cwrap']"
    --pre-js ${PROJECT_SOURCE_DIR}/web/pre.js
    # The desktop looks for DejaVu Sans at its Debian path; the page gets it at the same virtual path.
    --preload-file ${font}@${font})
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${PROJECT_SOURCE_DIR}/web/pre.js)
  add_custom_command(OUTPUT ${site}/index.html DEPENDS ${PROJECT_SOURCE_DIR}/web/index.html
    COMMAND ${CMAKE_COMMAND} -E copy ${PROJECT_SOURCE_DIR}/web/index.html ${site}/index.html)
  add_custom_target(${target}_page DEPENDS ${site}/index.html)
  add_dependencies(${target} ${target}_page)
endfunction()
