#!/usr/bin/env bash
# Builds RVO2 outside this tree with the circle harness (scripts/rvo2_circle.cpp) and runs it:
#   scripts/rvo2-circle.sh N THREADS     (docs/performance.md, "Reproducing the RVO2 columns")
# RVO2 is fetched once into ${RVO2_DIR:-/tmp/crowdlab-rvo2}; nothing of it enters the repository.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
n="${1:-250}" threads="${2:-1}"
dir="${RVO2_DIR:-/tmp/crowdlab-rvo2}"
[ -d "$dir/src" ] || git clone --depth 1 https://github.com/snape/RVO2 "$dir"
exe="$dir/rvo2-circle"
if [ ! -x "$exe" ] || [ "$root/scripts/rvo2_circle.cpp" -nt "$exe" ]; then
  shopt -s nullglob  # RVO2 names its sources .cc (older releases .cpp)
  g++ -std=c++17 -O3 -fopenmp -DRVO_STATIC_DEFINE -I"$dir/src" "$root/scripts/rvo2_circle.cpp" "$dir"/src/*.cc "$dir"/src/*.cpp -o "$exe"
fi
OMP_NUM_THREADS="$threads" exec "$exe" "$n"
