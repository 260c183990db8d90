#!/usr/bin/env bash
# Installs what is missing, builds everything warning-free, runs every test (window tests under
# Xvfb + Mesa), then builds the core and scene tests with AddressSanitizer + UBSan and runs them,
# then the async stepper's tests with ThreadSanitizer.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"

jobs="$(nproc 2>/dev/null || echo 2)"
build="$root/build"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCROWDLAB_WERROR=ON >/dev/null
cmake --build "$build" -j "$jobs"
# One virtual display for all window tests; -a picks a free display number.
xvfb-run -a -s "-screen 0 1920x1080x24" ctest --test-dir "$build" --output-on-failure -j "$jobs" --timeout 600

asan="$root/build-asan"
cmake -S "$root" -B "$asan" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCROWDLAB_WERROR=ON -DCROWDLAB_SANITIZE=ON >/dev/null
cmake --build "$asan" -j "$jobs" --target crowdlab_unit_tests crowdlab_scene_tests
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir "$asan" -L unit --output-on-failure -j "$jobs" --timeout 900

# The async stepper under ThreadSanitizer: UI-thread reads of simulation state must never overlap
# a step running on the worker thread.
tsan="$root/build-tsan"
cmake -S "$root" -B "$tsan" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCROWDLAB_WERROR=ON -DCROWDLAB_TSAN=ON >/dev/null
cmake --build "$tsan" -j "$jobs" --target crowdlab_stepper_tests
TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
  ctest --test-dir "$tsan" -R '^Stepper\.' --output-on-failure -j "$jobs" --timeout 600

# The browser build (WebAssembly + WebGL 2): SDL2 and ImGui for Emscripten are built once into
# build-web/deps and reused. Headless Chromium then opens every scene's page (screenshots in
# build-web/test-out) and checks agents on screen, a clean console and URL parameters.
"$root/scripts/install-deps.sh" chromium python3-pil
"$root/scripts/web.sh" --build-only
/usr/bin/python3 "$root/tests/web/page_check.py" "$root/build-web/site" "$root/build-web/test-out"
