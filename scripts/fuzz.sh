#!/usr/bin/env bash
# Fuzzes the user-text parsers (presets, settings, --set) for a minute of CPU, seeded with the built-in
# presets. libFuzzer needs clang, so the target gets its own build folder (build-fuzz). A worker on
# each core (-fork) for 60 s / cores: on 2 cores, 30 s and about as many inputs as 60 s of one worker.
# A crash fails the script; copy the file it names from build-fuzz/crashes/ into
# tests/fuzz/regressions/ to keep it as a test. scripts/test.sh runs it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if ! command -v clang++ >/dev/null 2>&1; then
  echo "fuzz.sh: clang++ not found; skipping the fuzz run (the replay of its corpus runs with the tests)"
  exit 0
fi
jobs="$(nproc 2>/dev/null || echo 2)"
fuzz="$root/build-fuzz"
cmake -S "$root" -B "$fuzz" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \
  -DCMAKE_CXX_COMPILER=clang++ -DCROWDLAB_APP=OFF -DCROWDLAB_TESTS=OFF -DCROWDLAB_FUZZ=ON -DCROWDLAB_WERROR=ON >/dev/null
cmake --build "$fuzz" -j "$jobs" --target crowdlab_fuzz
mkdir -p "$fuzz/corpus" "$fuzz/crashes"
"$fuzz/tests/fuzz/crowdlab_fuzz" -fork="$jobs" -max_total_time=$((60 / jobs + 1)) -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
  -artifact_prefix="$fuzz/crashes/" -print_final_stats=1 \
  "$fuzz/corpus" "$root/assets/presets" "$root/tests/fuzz/seeds" "$root/tests/fuzz/regressions"
