#!/usr/bin/env bash
# Regenerates docs/claims/<claim id>.png: each claim of the registry run in the real program, the
# screenshot taken by it at the end of the claim's window (settling fast-forward; a ratio claim's
# baseline runs headless beside it), banner and verdict included:  crowdlab --claim ID --screenshot FILE
# At a projector's 1920x1080 by default; SIZE=1280x720 (a laptop) and OUT=folder pick others.
# Usage: scripts/claim-screenshots.sh [CLAIM_ID...]   (none: every claim; CROWDLAB=path picks the binary)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
exe="${CROWDLAB:-$root/build/crowdlab}"
out="${OUT:-$root/docs/claims}"
size="${SIZE:-1920x1080}"
width="${size%x*}"
height="${size#*x}"
mkdir -p "$out"
if [ "$#" -gt 0 ]; then
  ids=("$@")
else
  mapfile -t ids < <("$exe" claims --list)  # the registry's ids, in its order
fi
config="$(mktemp -d)"
trap 'rm -rf "$config"' EXIT
echo '{"uiScale": 1.0}' >"$config/settings.json"
# Each claim's wall time, window start to verdict and exit (xvfb-run's own start included): the
# lecture's budget is 45 s a claim.
times="$config/times"
for id in "${ids[@]}"; do
  echo "== $id"
  start=$(date +%s.%N)
  CROWDLAB_CONFIG_DIR="$config" xvfb-run -a -s "-noreset -screen 0 ${width}x${height}x24" \
    "$exe" --claim "$id" --width "$width" --height "$height" --screenshot "$out/$id.png" --state-out "$config/state.json" |
    grep -E '^screenshot=' || echo "   failed: $id"
  # The agents' glyph length on screen, from the run's probe (a room must make out pairs: >= 8 px).
  python3 -c 'import json,sys; print("glyph_px=%s" % json.load(open(sys.argv[1]))["probe"].get("glyph_px"))' "$config/state.json" 2>/dev/null || true
  seconds=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
  printf '   wall %.1f s\n' "$seconds"
  printf '%.1f %s\n' "$seconds" "$id" >>"$times"
done
sort -n "$times" | awk '{ t[NR] = $1; id[NR] = $2 } END {
  if (NR == 0) exit
  median = NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
  printf "claims: %d, wall time median %.1f s, longest %.1f s (%s)\n", NR, median, t[NR], id[NR] }'

