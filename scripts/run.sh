#!/usr/bin/env bash
# Installs what is missing, builds crowdlab (Release) and starts it. Arguments go to crowdlab.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$root/build-release" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCROWDLAB_TESTS=OFF >/dev/null
cmake --build "$root/build-release" --target crowdlab
exec "$root/build-release/crowdlab" "$@"
