#!/usr/bin/env bash
# Installs whatever crowdlab needs that is missing, with apt-get (as root, or through sudo).
# On a system without apt it prints the list and stops. Arguments name extra packages that one
# script needs (scripts/web.sh: emscripten; its tests: chromium).
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  libsdl2-dev libimgui-dev libstb-dev libfreetype-dev libglm-dev python3-glad libtbb-dev
  libgtest-dev nlohmann-json3-dev libnanoflann-dev libgl-dev libeigen3-dev
  parallel  # tests of sweep shards run them through GNU parallel
  fonts-dejavu-core
  xvfb xauth libgl1-mesa-dri apitrace xdotool
  openbox  # window tests press F11: full screen is granted by a window manager, which a bare Xvfb lacks
  clang libclang-rt-dev
  g++-mingw-w64-x86-64-posix  # a CTest compiles the Windows subprocess code (CreateProcess) with it
  "$@"
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  echo "crowdlab needs these packages (Debian/Ubuntu names); install them with your package manager:" >&2
  printf '  %s\n' "${missing[@]}" >&2
  echo "Windows and macOS: see vcpkg.json." >&2
  exit 1
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "crowdlab: installing ${missing[*]} needs root (run as root or install sudo)" >&2
    exit 1
  fi
fi
echo "crowdlab: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
