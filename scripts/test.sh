#!/usr/bin/env bash
# Installs what is missing, builds everything warning-free, runs every test (window tests under
# Xvfb + Mesa), then builds the core and scene tests with AddressSanitizer + UBSan and runs them,
# then the async stepper's tests with ThreadSanitizer, then the web page (built, then checked in
# headless Chromium) with the user-text parsers fuzzed beside it for a minute of CPU when clang is there.
# The sanitizer build runs beside the window tests and the web build beside the sanitizer tests, at low
# priority.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# Each stage's wall time, printed as it ends and again as a table at the end (the 30-minute budget),
# with the CPU time its processes used: CPU near twice the wall time on 2 cores means a stage is
# bound by the cores; near the wall time, that it leaves one idle.
stage_name="" stage_start=$SECONDS stage_cpu=0 timings=""
times_file="$(mktemp)"
# Builds that run beside a test stage (see `beside`), stopped with the script if it fails.
beside_pid="" beside_log=""
trap 'rm -f "$times_file"; [ -z "$beside_pid" ] || kill -- "-$beside_pid" 2>/dev/null || true' EXIT
# beside LOG CMD...: CMD runs in the background at low priority while the next test stage runs in the
# foreground. Window tests spend much of their time waiting (on the display, on xdotool's pauses), and
# the build takes the core they leave idle; `joined` waits for it and stops the script if it failed.
beside() {
  beside_log="$1"; shift
  setsid nice -n 10 "$@" >"$beside_log" 2>&1 &
  beside_pid=$!
}
joined() {
  local rc=0
  wait "$beside_pid" || rc=$?
  beside_pid=""
  if [ "$rc" -ne 0 ]; then
    tail -n 60 "$beside_log" >&2
    echo "test.sh: $1 failed (exit $rc; the whole log: $beside_log)" >&2
    exit "$rc"
  fi
  echo "test.sh: $1 done (log: $beside_log)"
}
stage() {
  # CPU seconds (user + system) of every finished child so far: bash's `times`, 2nd line, run in this
  # shell (in a pipe or $(...) it would report a subshell's children, none).
  times >"$times_file"
  local cpu
  cpu="$(awk 'NR == 2 { n = 0; for (i = 1; i <= 2; ++i) { split($i, t, /[ms]/); n += t[1] * 60 + t[2] } printf "%d", n }' "$times_file")"
  if [ -n "$stage_name" ]; then
    local took=$((SECONDS - stage_start)) used=$((cpu - stage_cpu))
    timings+="$(printf '  %-34s %4d s  (CPU %4d s)' "$stage_name" "$took" "$used")"$'\n'
    echo "test.sh: stage '$stage_name' took ${took} s (CPU ${used} s)"
  fi
  stage_name="$1" stage_start=$SECONDS stage_cpu=$cpu
}
stage "install dependencies"
"$root/scripts/install-deps.sh" emscripten python3 chromium python3-pil

stage "optimised build"
jobs="$(nproc 2>/dev/null || echo 2)"
build="$root/build"
# Line tables only (-g1), as in the sanitizer builds: a failing test's backtrace needs file:line, and
# full -g made every file compile a quarter slower (13.7 s against 9.9 s for a window test's file).
lines_only="-O2 -g1 -DNDEBUG"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCROWDLAB_WERROR=ON \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$lines_only" -DCMAKE_C_FLAGS_RELWITHDEBINFO="$lines_only" >/dev/null
cmake --build "$build" -j "$jobs"

stage "optimised: every test, ASan + UBSan build beside"
asan="$root/build-asan"
cmake -S "$root" -B "$asan" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCROWDLAB_WERROR=ON -DCROWDLAB_SANITIZE=ON >/dev/null
# The core's, the scenes' (their simulations: no ImGui, no GL) and the pool's tests; the scenes' window
# side (crowdlab_scene_window_tests) would add the renderer and every panel to this build for 5 tests.
beside "$asan/test-sh-build.log" cmake --build "$asan" -j "$jobs" --target crowdlab_unit_tests crowdlab_scene_tests crowdlab_pool_tests crowdlab_fuzz_replay
# One virtual display for all window tests; -a picks a free display number. -noreset: by default Xvfb
# resets whenever its last client leaves, and a window opening during the reset finds no display.
# Every tier but `soak` (every scene at its largest N for minutes: `ctest -L soak`, docs/testing.md).
xvfb-run -a -s "-noreset -screen 0 1920x1080x24" ctest --test-dir "$build" -LE soak --output-on-failure -j "$jobs" --timeout 600
stage "ASan + UBSan build, what was left"
joined "the ASan + UBSan build"

stage "ASan + UBSan: unit tests, web build beside"
# The browser build (WebAssembly + WebGL 2): SDL2 and ImGui for Emscripten are built once into
# build-web/deps and reused; see scripts/web.sh.
mkdir -p "$root/build-web"
beside "$root/build-web/test-sh-build.log" "$root/scripts/web.sh" --build-only
# The sanitizer stages run code paths briefly: the label `fast` leaves out the `heavy` behavioural
# checks (tests/CMakeLists.txt), which ran above in the optimised build. No test may take over 120 s
# here: one that does is a heavy check to label, or a regression.
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir "$asan" -L fast --output-on-failure -j "$jobs" --timeout 120

# Shared state under ThreadSanitizer: the async stepper (UI-thread reads of simulation state must
# never overlap a step running on the worker thread) and the threaded page's pool of loop threads.
stage "TSan build + stepper and pool tests"
tsan="$root/build-tsan"
cmake -S "$root" -B "$tsan" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCROWDLAB_WERROR=ON -DCROWDLAB_TSAN=ON >/dev/null
cmake --build "$tsan" -j "$jobs" --target crowdlab_stepper_tests crowdlab_pool_tests
TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
  ctest --test-dir "$tsan" -R '^(Stepper|Pool)\.' --output-on-failure -j "$jobs" --timeout 120

stage "web build, what was left"
joined "the web build"
# Headless Chromium opens every scene's page (screenshots in build-web/test-out) and checks agents on
# screen, a clean console, URL parameters, both pages (one thread, threaded) and their digests.
stage "web: page check, fuzz beside"
# The site as a course page gets it (scripts/package.sh's zip), served three ways: with the COOP/COEP
# headers, without them (its service worker isolates it), and without the service worker either.
rm -f "$root/build-web/crowdlab-web.zip"
(cd "$root/build-web/site" && cmake -E tar cf "$root/build-web/crowdlab-web.zip" --format=zip -- *)
# Fuzzing (scripts/fuzz.sh: the user-text parsers for a minute of CPU, when clang is there) beside the
# page check, which mostly waits on Chromium.
mkdir -p "$root/build-fuzz"
beside "$root/build-fuzz/test-sh-fuzz.log" "$root/scripts/fuzz.sh"
/usr/bin/python3 "$root/tests/web/page_check.py" --zip "$root/build-web/crowdlab-web.zip" "$root/build-web/test-out"
stage "fuzz build + run, what was left"
joined "the fuzz run"

stage ""
printf "test.sh: every stage passed in %d s:\n%s" "$SECONDS" "$timings"
