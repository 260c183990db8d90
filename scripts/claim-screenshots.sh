#!/usr/bin/env bash
# Regenerates docs/claims/<claim id>.png: each claim of the registry run in the real program, the
# screenshot taken by it at the end of the claim's window (settling fast-forward; a ratio claim's
# baseline runs headless beside it), banner and verdict included:  crowdlab --claim ID --screenshot FILE
# Usage: scripts/claim-screenshots.sh [CLAIM_ID...]   (none: every claim; CROWDLAB=path picks the binary)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
exe="${CROWDLAB:-$root/build/crowdlab}"
out="$root/docs/claims"
mkdir -p "$out"
if [ "$#" -gt 0 ]; then
  ids=("$@")
else
  mapfile -t ids < <("$exe" claims --list)  # the registry's ids, in its order
fi
config="$(mktemp -d)"
trap 'rm -rf "$config"' EXIT
echo '{"uiScale": 1.0}' >"$config/settings.json"
for id in "${ids[@]}"; do
  echo "== $id"
  CROWDLAB_CONFIG_DIR="$config" xvfb-run -a -s "-noreset -screen 0 1600x900x24" \
    "$exe" --claim "$id" --width 1600 --height 900 --screenshot "$out/$id.png" | grep '^screenshot=' || echo "   failed: $id"
done
