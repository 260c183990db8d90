#!/usr/bin/env bash
# crowdlab in the browser: builds the web target (WebAssembly + WebGL 2) into build-web/site and
# serves it on localhost.
#   scripts/web.sh [--build-only] [--port N]
# build-web/site is a static folder (index.html, crowdlab.js, crowdlab.wasm, crowdlab.data) that any
# web host can serve. Debian's emscripten works offline but has no SDL2 port, so SDL2 2.26.5 and
# Dear ImGui 1.86 come from their Debian source packages, fetched once into build-web/deps and built
# there for Emscripten; later runs reuse them.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build_only=0
port=8000
while [ $# -gt 0 ]; do
  case "$1" in
    --build-only) build_only=1 ;;
    --port) port="${2:?--port needs a number}"; shift ;;
    *) echo "usage: scripts/web.sh [--build-only] [--port N]" >&2; exit 2 ;;
  esac
  shift
done

"$root/scripts/install-deps.sh" emscripten python3
# emcc runs its JavaScript optimiser with node and needs Debian's node modules (acorn); a node that is
# not Debian's own (e.g. from NodeSource) does not look in /usr/share/nodejs by itself.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"

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

# ---- SDL2 for Emscripten (once): video and events only; no audio, joystick, threads or renderer ----
sdl="$deps/sdl2"
if [ ! -f "$sdl/lib/libSDL2.a" ]; then
  echo "crowdlab: building SDL2 for Emscripten (once)"
  emcmake cmake -S "$sdl_src" -B "$deps/sdl2-build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_INSTALL_PREFIX="$sdl" "${launcher[@]}" \
    -DSDL_SHARED=OFF -DSDL_STATIC=ON -DSDL_TEST=OFF -DSDL2_DISABLE_SDL2MAIN=ON -DSDL_CCACHE=OFF \
    -DSDL_AUDIO=OFF -DSDL_JOYSTICK=OFF -DSDL_HAPTIC=OFF -DSDL_HIDAPI=OFF -DSDL_SENSOR=OFF \
    -DSDL_POWER=OFF -DSDL_FILESYSTEM=OFF -DSDL_LOCALE=OFF -DSDL_MISC=OFF -DSDL_THREADS=OFF \
    -DSDL_PTHREADS=OFF -DSDL_LOADSO=OFF -DSDL_RENDER=OFF >"$deps/sdl2-configure.log" 2>&1 ||
    { cat "$deps/sdl2-configure.log" >&2; exit 1; }
  cmake --build "$deps/sdl2-build" -j "$jobs" >/dev/null
  cmake --install "$deps/sdl2-build" >/dev/null
fi

# ---- crowdlab for the browser ----
emcmake cmake -S "$root" -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCROWDLAB_WERROR=ON \
  -DCROWDLAB_TESTS=OFF -DCROWDLAB_WEB_SDL2="$sdl" -DCROWDLAB_WEB_IMGUI="$imgui_src" "${launcher[@]}" >/dev/null
cmake --build "$out" -j "$jobs" --target crowdlab
site="$out/site"
echo "crowdlab: the page is in $site"
[ "$build_only" -eq 1 ] && exit 0

echo "crowdlab: serving on http://localhost:$port/  (?scene=murmuration|boids|spatial-hash|orca-corridor|steering|finale, Ctrl+C stops)"
cd "$site"
exec python3 -m http.server --bind 127.0.0.1 "$port"
