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
# Both pages from one compile: every object with -pthread (atomics and bulk memory, which WebAssembly
# allows on memory that is not shared) and sim::parallelFor over a pool of at most
# CROWDLAB_WEB_MAX_THREADS threads, the page's main thread and workers from Emscripten's pool, loaded
# before main() (src/sim/core/parallel.cpp). The threaded page (crowdlab-mt.js) links them with
# -pthread (shared memory); the one-thread page (crowdlab.js) without, and there the pool finds no
# threading support and runs every loop on the page's thread (hardwareThreads() == 1). Compiling once
# halved the browser build, the longest stage of a fresh clone's test run after the tests.
set(CROWDLAB_WEB_MAX_THREADS 8)
add_compile_options(-pthread)
list(APPEND CROWDLAB_PARALLEL_DEFINES CROWDLAB_THREAD_POOL=${CROWDLAB_WEB_MAX_THREADS})

add_compile_options(-msimd128)
# Emscripten's built-in SDL 1 puts its headers first unless told otherwise; SDL2 comes from scripts/web.sh.
add_compile_options(-sUSE_SDL=0)
# Standard headers the toolchain's libc++ 13 lacks a C++20 piece of (web/include/bit: std::bit_cast).
include_directories(BEFORE SYSTEM ${PROJECT_SOURCE_DIR}/web/include)
set(CROWDLAB_CATCH_EXCEPTIONS -fexceptions)

# The page: build-web/site holds index.html, coi-sw.js, crowdlab.js, crowdlab.wasm and crowdlab.data (the
# UI font), and the threaded page's crowdlab-mt.js, .wasm, .data and .worker.js: a static folder any web
# host can serve, where index.html picks one of the two. crowdlab_web_page(TARGET NAME THREADED).
set(CROWDLAB_WEB_SITE ${CMAKE_BINARY_DIR}/site CACHE PATH "The folder the page is built into")
function(crowdlab_web_page target name threaded)
  set(site ${CROWDLAB_WEB_SITE})
  set(font /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf)
  set_target_properties(${target} PROPERTIES SUFFIX ".js" RUNTIME_OUTPUT_DIRECTORY ${site} OUTPUT_NAME ${name})
  if(threaded)
    # As many workers as the cores beyond the main thread, up to the cap hardwareThreads() applies.
    # Memory growth with threads makes JavaScript's reads of the heap check for growth; the page's
    # JavaScript reads it only for the state hook and downloads (-Wno-pthreads-mem-growth).
    target_link_options(${target} PRIVATE -pthread -sENVIRONMENT=web,worker -Wno-pthreads-mem-growth
      "-sPTHREAD_POOL_SIZE=Math.min(navigator.hardwareConcurrency||1,${CROWDLAB_WEB_MAX_THREADS})-1")
  else()
    target_link_options(${target} PRIVATE -sENVIRONMENT=web)
  endif()
  target_link_options(${target} PRIVATE
    -fexceptions
    -sUSE_SDL=0
    -sMIN_WEBGL_VERSION=2 -sMAX_WEBGL_VERSION=2
    -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=64MB
    -lidbfs.js
    "-sEXPORTED_RUNTIME_METHODS=['ccall','cwrap']"
    --pre-js ${PROJECT_SOURCE_DIR}/web/pre.js
    # The desktop looks for DejaVu Sans at its Debian path; the page gets it at the same virtual path.
    --preload-file ${font}@${font})
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${PROJECT_SOURCE_DIR}/web/pre.js)
  # index.html and the service worker that isolates the page where the host sends no COOP/COEP.
  if(NOT TARGET crowdlab_page_files)
    add_custom_command(OUTPUT ${site}/index.html ${site}/coi-sw.js
      DEPENDS ${PROJECT_SOURCE_DIR}/web/index.html ${PROJECT_SOURCE_DIR}/web/coi-sw.js
      COMMAND ${CMAKE_COMMAND} -E copy ${PROJECT_SOURCE_DIR}/web/index.html ${site}/index.html
      COMMAND ${CMAKE_COMMAND} -E copy ${PROJECT_SOURCE_DIR}/web/coi-sw.js ${site}/coi-sw.js)
    add_custom_target(crowdlab_page_files DEPENDS ${site}/index.html ${site}/coi-sw.js)
  endif()
  add_dependencies(${target} crowdlab_page_files)
endfunction()

# A profiling tool, not part of the page: `crowdlab bench` for node (crowdlab_bench_node.js in the build
# folder), built from the same core objects as the page. Only on request:
#   cmake --build build-web --target crowdlab_bench_node
#   node --no-experimental-fetch build-web/crowdlab_bench_node.js --case finale   (node 18+ needs the flag)
function(crowdlab_web_bench)
  add_executable(crowdlab_bench_node EXCLUDE_FROM_ALL ${PROJECT_SOURCE_DIR}/web/bench_node.cpp)
  target_link_libraries(crowdlab_bench_node PRIVATE crowdlab_bench)
  set_target_properties(crowdlab_bench_node PROPERTIES SUFFIX ".js")
  target_link_options(crowdlab_bench_node PRIVATE -sENVIRONMENT=node -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=64MB
    -sNODERAWFS=1 --profiling-funcs)
  # EXIT_RUNTIME: the pool's workers never end, and would keep node running after main returns.
  target_link_options(crowdlab_bench_node PRIVATE -pthread -sPTHREAD_POOL_SIZE=${CROWDLAB_WEB_MAX_THREADS}-1
    -Wno-pthreads-mem-growth -sEXIT_RUNTIME=1)
endfunction()
