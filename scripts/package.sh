#!/usr/bin/env bash
# What a lecturer installs and what a course page hosts, in one command:
#   build-release/crowdlab_<version>_<arch>.deb   install: sudo apt install ./build-release/crowdlab_*.deb
#   build-release/crowdlab-web.zip                unzip on any static web host (docs/browser.md)
# --deb-only / --web-only make one of the two.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
deb=1 web=1
for arg in "$@"; do
  case "$arg" in
    --deb-only) web=0 ;;
    --web-only) deb=0 ;;
    *) echo "usage: scripts/package.sh [--deb-only | --web-only]" >&2; exit 2 ;;
  esac
done
out="$root/build-release"
if [ "$deb" = 1 ]; then
  # dpkg-dev: dpkg-shlibdeps turns the libraries the binary links into the package's Depends.
  "$root/scripts/install-deps.sh" dpkg-dev
  cmake -S "$root" -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCROWDLAB_TESTS=OFF >/dev/null
  cmake --build "$out" --target package
fi
if [ "$web" = 1 ]; then
  "$root/scripts/web.sh" --build-only
  mkdir -p "$out"
  rm -f "$out/crowdlab-web.zip"
  # The site's files at the zip's top level, so it unzips straight into a host's folder.
  (cd "$root/build-web/site" && cmake -E tar cf "$out/crowdlab-web.zip" --format=zip -- *)
fi
echo "package.sh: made" $( [ "$deb" = 1 ] && ls "$out"/crowdlab_*.deb ) $( [ "$web" = 1 ] && echo "$out/crowdlab-web.zip" )
