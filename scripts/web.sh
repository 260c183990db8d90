#!/usr/bin/env bash
# crowdlab in the browser: builds the web target (WebAssembly + WebGL 2) into build-web/site and
# serves it on localhost.
#   scripts/web.sh [--build-only] [--port N] [--no-isolation]
# build-web/site is a static folder (index.html, crowdlab.js, crowdlab.wasm, crowdlab.data, and the
# threaded build crowdlab-mt.*) that any web host can serve. index.html runs the threaded build where
# the host sends the cross-origin isolation headers (COOP/COEP; this script does, unless
# --no-isolation), and the one-thread build elsewhere. Debian's emscripten works offline but has no SDL2 port, so SDL2 2.26.5 and
# Dear ImGui 1.86 come from their Debian source packages, fetched once into build-web/deps and built
# there for Emscripten; later runs reuse them.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build_only=0
isolate=1
port=8000
while [ $# -gt 0 ]; do
  case "$1" in
    --build-only) build_only=1 ;;
    --port) port="${2:?--port needs a number}"; shift ;;
    --no-isolation) isolate=0 ;;
    *) echo "usage: scripts/web.sh [--build-only] [--port N] [--no-isolation]" >&2; exit 2 ;;
  esac
  shift
done

"$root/scripts/install-deps.sh" emscripten python3
# emcc runs its JavaScript optimiser with node and needs Debian's node modules (acorn); a node that is
# not Debian's own (e.g. from NodeSource) does not look in /usr/share/nodejs by itself.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
# Likewise Debian's python3 for emcc (its wrapper runs the first python3 on PATH): a version manager's
# shim there (pyenv) spawns dozens of shells per call, and every source file is a call.
[ -x /usr/bin/python3 ] && export EMSDK_PYTHON=/usr/bin/python3

sudo=""
[ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && sudo="sudo"
out="$root/build-web"
deps="$out/deps"
mkdir -p "$deps/src"

# ---- Debian source packages of SDL2 and Dear ImGui (once) ----
fetch_sources() {
  # apt-get source needs a deb-src entry; add one beside each deb entry of the configured archives.
  if ! apt-get source --print-uris libsdl2 >/dev/null 2>&1; then
    local list=/etc/apt/sources.list.d/crowdlab-deb-src.sources
    if [ ! -e "$list" ]; then
      echo "crowdlab: adding deb-src entries for the configured archives ($list)"
      local tmp; tmp="$(mktemp)"
      for f in /etc/apt/sources.list.d/*.sources; do
        [ -e "$f" ] && [ "$f" != "$list" ] && sed -e 's/^Types:.*/Types: deb-src/' "$f" >>"$tmp" && echo >>"$tmp"
      done
      if [ -e /etc/apt/sources.list ]; then
        grep -E '^deb ' /etc/apt/sources.list | sed -e 's/^deb /deb-src /' >"${tmp}.list" || true
        [ -s "${tmp}.list" ] && $sudo install -m 644 "${tmp}.list" /etc/apt/sources.list.d/crowdlab-deb-src.list
        rm -f "${tmp}.list"
      fi
      [ -s "$tmp" ] && $sudo install -m 644 "$tmp" "$list"
      rm -f "$tmp"
    fi
    $sudo apt-get update -qq
  fi
  (cd "$deps" && apt-get source --download-only -qq libsdl2 imgui)
}
sdl_src="$deps/src/SDL2-2.26.5"
imgui_src="$deps/src/imgui-1.86"
if [ ! -f "$sdl_src/CMakeLists.txt" ] || [ ! -f "$imgui_src/imgui.cpp" ]; then
  fetch_sources
  # The upstream tarballs as Debian ships them; Debian's own patches concern its Linux packaging.
  tar -xzf "$deps"/libsdl2_2.26.5*.orig.tar.gz -C "$deps/src"
  tar -xJf "$deps"/imgui_1.86*.orig.tar.xz -C "$deps/src"
  [ -f "$sdl_src/CMakeLists.txt" ] && [ -f "$imgui_src/imgui.cpp" ] || {
    echo "crowdlab: expected SDL2 2.26.5 and Dear ImGui 1.86 sources in $deps/src" >&2; exit 1; }
fi

launcher=()
command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
jobs="$(nproc 2>/dev/null || echo 2)"

# ---- SDL2 for Emscripten (once, for both pages): video and events only; no audio, joystick, threads or renderer ----
# The threaded page links only objects built with -pthread (shared memory), SDL2 included; the
# one-thread page links the same SDL2 (WebAssembly allows its atomic instructions on memory that is
# not shared, and SDL's own threads are off), so it is built once.
# SDL2's configure runs some 200 checks, each a run of emcc (2.5 minutes here). Their answers (the
# HAVE_* results in its cache) seed every later configure (-C): cmake/sdl2-emscripten-checks.cmake
# holds them for Debian 12's emscripten 3.1.6; another emcc answers them once, in the first build.
# -pthread changes none of them, since SDL's thread support is off.
# The version is read whole, not piped into `head`: under pipefail, head leaving before emcc's last
# write made emcc die of SIGPIPE and the test fail on a busy machine (12 of 30 tries beside two busy
# loops), and the full configure then took 5 minutes of a fresh clone's test run.
checks="$deps/sdl2-checks.cmake"
emcc_version="$(emcc --version 2>/dev/null || true)"
if [ ! -s "$checks" ] && [[ "${emcc_version%%$'\n'*}" == *" 3.1.6 "* ]]; then
  cp "$root/cmake/sdl2-emscripten-checks.cmake" "$checks"
fi
build_sdl() {  # build_sdl PREFIX [C flags]
  local prefix="$1" flags="${2:-}"
  [ -f "$prefix/lib/libSDL2.a" ] && return 0
  echo "crowdlab: building SDL2 for Emscripten${flags:+ ($flags)} (once)"
  local seed=()
  [ -s "$checks" ] && seed=(-C "$checks")
  emcmake cmake "${seed[@]}" -S "$sdl_src" -B "$prefix-build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_INSTALL_PREFIX="$prefix" "${launcher[@]}" ${flags:+"-DCMAKE_C_FLAGS=$flags"} \
    -DSDL_SHARED=OFF -DSDL_STATIC=ON -DSDL_TEST=OFF -DSDL2_DISABLE_SDL2MAIN=ON -DSDL_CCACHE=OFF \
    -DSDL_AUDIO=OFF -DSDL_JOYSTICK=OFF -DSDL_HAPTIC=OFF -DSDL_HIDAPI=OFF -DSDL_SENSOR=OFF \
    -DSDL_POWER=OFF -DSDL_FILESYSTEM=OFF -DSDL_LOCALE=OFF -DSDL_MISC=OFF -DSDL_THREADS=OFF \
    -DSDL_PTHREADS=OFF -DSDL_LOADSO=OFF -DSDL_RENDER=OFF >"$prefix-configure.log" 2>&1 ||
    { cat "$prefix-configure.log" >&2; exit 1; }
  [ -s "$checks" ] || sed -n -E 's/^((HAVE_[A-Za-z0-9_]+|LIBC_IS_GLIBC|STDC_HEADERS)):INTERNAL=(.*)$/set(\1 "\3" CACHE INTERNAL "")/p' \
    "$prefix-build/CMakeCache.txt" >"$checks"
  cmake --build "$prefix-build" -j "$jobs" >/dev/null
  cmake --install "$prefix-build" >/dev/null
}
sdl="$deps/sdl2-mt"  # the folder's name from when each page had its own
build_sdl "$sdl" -pthread

# ---- crowdlab for the browser: both pages from one compile (cmake/web.cmake) ----
site="$out/site"
emcmake cmake -S "$root" -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCROWDLAB_WERROR=ON \
  -DCROWDLAB_TESTS=OFF -DCROWDLAB_WEB_SDL2="$sdl" -DCROWDLAB_WEB_IMGUI="$imgui_src" "${launcher[@]}" >/dev/null
cmake --build "$out" -j "$jobs" --target crowdlab crowdlab_mt
echo "crowdlab: the page is in $site (crowdlab.js one thread, crowdlab-mt.js threaded)"
[ "$build_only" -eq 1 ] && exit 0

if [ "$isolate" -eq 1 ]; then
  echo "crowdlab: serving on http://localhost:$port/ with cross-origin isolation (the threaded page)"
else
  echo "crowdlab: serving on http://localhost:$port/ without cross-origin isolation (the one-thread page)"
fi
echo "  (?scene=murmuration|boids|spatial-hash|orca-corridor|steering|finale, Ctrl+C stops)"
# Python's http.server, plus the two headers that make the page cross-origin isolated, so the
# browser gives it SharedArrayBuffer (and the threaded build): COOP same-origin, COEP require-corp.
exec python3 - "$site" "$port" "$isolate" <<'PY'
import functools, http.server, sys
site, port, isolate = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
class Handler(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        if isolate:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()
http.server.ThreadingHTTPServer(("127.0.0.1", port), functools.partial(Handler, directory=site)).serve_forever()
PY
