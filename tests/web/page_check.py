#!/usr/bin/env python3
"""Opens crowdlab's web page in headless Chromium and checks what a visitor would see.

    page_check.py SITE_DIR OUT_DIR [--scenes a,b,...] [--program build/crowdlab] [--timeout S]
    page_check.py --zip crowdlab-web.zip OUT_DIR [...]     (the zip's content is the site)
    page_check.py --print-scenes [--program PATH]

The scenes are the program's own (`crowdlab --list-scenes`), unless --scenes names some.

SITE_DIR holds two pages of one compile: crowdlab.js (one thread) and crowdlab-mt.js (threads; needs cross-origin
isolation). It is served three times on free localhost ports: with the COOP/COEP headers, as
scripts/web.sh serves it (the threaded page runs); without them, as a static host serves it (the
site's service worker, coi-sw.js, isolates the page: the threaded page runs on every core again); and
without them and without the service worker (the one-thread page runs, with its line). Each page must
say which it runs (the state's `threads`); fresh runs of the scenes (window.crowdlab.digest) must give the same
digest on both pages, and the desktop's pinned one (tests/scenes/test_digests.cpp) where no C library
function enters the results, the threaded page with the finale's loops on every core
(navigator.hardwareConcurrency).

For each scene it opens the threaded page at index.html?scene=NAME, waits until
the app has stepped, takes a screenshot (OUT_DIR/web-NAME.png) and checks that
  - the world area shows agents' colours (a blank or single-colour canvas fails),
  - the page's console has no errors and no uncaught exceptions,
and once that ?fps=quick runs `crowdlab fps --quick` in the page and gives a result with exactly the
desktop's JSON keys (`crowdlab fps --keys` of the native program) and its line, shown on the page;
and once that a parameter given in the URL reaches the simulation (window.crowdlab.state()) and that
?claim=ID opens the experiment. It also prints the gzip size of crowdlab.wasm + crowdlab.js (must
stay under 4 MB, for each page) and how long the first, uncached load took until the app ran (must stay
under 3 s, for each page).
Chromium is driven over --remote-debugging-pipe (the DevTools protocol on two pipes), so nothing
beyond Python's standard library and Pillow is needed. Exit code 0 when every check passes.
"""
import argparse, base64, functools, gzip, http.server, io, json, os, re, shutil, subprocess, sys, tempfile, threading, time

try:
    from PIL import Image, ImageChops, ImageFilter
except ImportError:
    Image = None  # --print-scenes needs no Pillow; the page checks do (main says so)


class Browser:
    """Headless Chromium with one page, spoken to through the DevTools protocol on fds 3 and 4."""

    def __init__(self, width, height):
        self.profile = tempfile.mkdtemp(prefix="crowdlab-chromium-")
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()
        exe = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
        if not exe:
            sys.exit("page_check: chromium not found (Debian: apt-get install chromium)")
        args = [exe, "--headless=new", "--remote-debugging-pipe", f"--user-data-dir={self.profile}",
                f"--window-size={width},{height}", "--no-first-run", "--no-default-browser-check",
                # WebGL 2 without a GPU: ANGLE on SwiftShader, Chromium's CPU renderer.
                "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist",
                "--disable-background-timer-throttling", "--disable-renderer-backgrounding"]
        if os.geteuid() == 0:
            args.append("--no-sandbox")  # Chromium refuses to run as root with its sandbox
        # Chromium expects the pipe it reads at fd 3 and the one it writes at fd 4.
        def fds():
            os.dup2(to_chrome_r, 3)
            os.dup2(from_chrome_w, 4)
        self.proc = subprocess.Popen(args + ["about:blank"], preexec_fn=fds, close_fds=False,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        targets = self.call("Target.getTargets")["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        self.session = self.call("Target.attachToTarget", targetId=page["targetId"], flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.call(f"{domain}.enable", session=True)

    def _read_message(self, deadline):
        while b"\0" not in self.buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("no answer from Chromium")
            import select
            ready, _, _ = select.select([self.from_chrome], [], [], 0.5)
            if ready:
                chunk = os.read(self.from_chrome, 1 << 20)
                if not chunk:
                    raise RuntimeError("Chromium closed the pipe")
                self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    # 300 s: on a busy machine (CI at load 10) SwiftShader drew the gpu scene's 20,000 agents at a frame
    # every 5-25 s, and a screenshot, which waits for a frame, came after 127-157 s (1.8 s when quiet).
    # A page that hangs still fails, later.
    def call(self, method, session=False, timeout=300, **params):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session
        os.write(self.to_chrome, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", session=True, expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            return None
        return result["result"].get("value")

    def errors(self):
        """Console errors and uncaught exceptions seen so far, as text."""
        found = []
        for e in self.events:
            p = e.get("params", {})
            if e["method"] == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                found.append("console.error: " + " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", [])))
            elif e["method"] == "Runtime.exceptionThrown":
                d = p.get("exceptionDetails", {})
                found.append("exception: " + d.get("exception", {}).get("description", d.get("text", "")))
            elif e["method"] == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                found.append("log error: " + p["entry"].get("text", "") + " " + p["entry"].get("url", ""))
        return found

    def close(self):
        try:
            self.call("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    isolate = False

    def end_headers(self):
        if self.isolate:  # as scripts/web.sh serves it: cross-origin isolated, so the threaded page runs
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()

    def log_message(self, *args):
        pass


class IsolatingHandler(QuietHandler):
    isolate = True


class NoWorkerHandler(QuietHandler):
    """A host where the service worker cannot be had (as a browser without them, or over plain HTTP)."""

    def do_GET(self):
        if self.path.split("?")[0].endswith("/coi-sw.js"):
            self.send_error(404)
            return
        super().do_GET()


def serve(site, how):
    handler_class = {"headers": IsolatingHandler, "worker": QuietHandler, "none": NoWorkerHandler}[how]
    handler = functools.partial(handler_class, directory=site)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def pinned_digests():
    """The desktop's pinned digests (scene -> agentsDigest after 90 steps on seed 1), from the test
    that pins them, so the pages are compared with the desktop build without a copy of the values."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scenes", "test_digests.cpp")
    text = open(path).read()
    steps = int(re.search(r"constexpr int kSteps = (\d+);", text).group(1))
    seed = int(re.search(r"constexpr uint64_t kSeed = (\d+);", text).group(1))
    table = text[text.index("kPinned"):]
    table = table[:table.index("};")]
    return seed, steps, dict(re.findall(r'\{"([a-z0-9-]+)", "([0-9a-f]{16})"\}', table))


def small_shapes_fraction(png):
    """Share of the page's pixels that belong to small shapes (agents, lines) on the background.

    A 9-pixel median filter keeps the background (plain or a sky gradient) and wipes out anything a
    few pixels wide; pixels far from their median are the agents. A blank canvas gives 0.
    """
    img = Image.open(io.BytesIO(png)).convert("RGB")
    background = img.filter(ImageFilter.MedianFilter(9))
    diff = ImageChops.difference(img, background).convert("L")
    histogram = diff.histogram()
    return sum(histogram[40:]) / max(1, img.width * img.height)


DEFAULT_PROGRAM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "build", "crowdlab")


def program_scenes(program):
    """The scenes' names from the program's own registry, so a new scene is checked without an edit here."""
    out = subprocess.run([program, "--list-scenes"], capture_output=True, text=True, check=True).stdout
    names = [line.strip() for line in out.splitlines() if line.strip()]
    if not names:
        raise SystemExit(f"{program} --list-scenes named no scene")
    return names


def json_keys(value, prefix=""):
    """The key paths of a result as `crowdlab fps --keys` prints them: "machine.cpu", "cases[].fps_median"."""
    if isinstance(value, dict):
        keys = set()
        for k, v in value.items():
            keys |= json_keys(v, f"{prefix}.{k}" if prefix else k)
        return keys
    if isinstance(value, list) and value and isinstance(value[0], dict):
        keys = set()
        for v in value:
            keys |= json_keys(v, prefix + "[]")
        return keys
    return {prefix}


def check_fps_page(browser, base, program, timeout, out=None):
    """?fps=quick: the page runs the standard cases and shows the line; its JSON has the desktop's keys.
    The JSON is kept in OUT/fps-page.json, to compare with a desktop run (crowdlab fps --compare)."""
    failures = []
    browser.events.clear()
    t0 = time.monotonic()
    browser.call("Page.navigate", session=True, url=base + "?fps=quick")
    result = None
    while time.monotonic() - t0 < timeout:
        got = browser.evaluate("window.crowdlabFps ? JSON.stringify(window.crowdlabFps) : null")
        if got:
            result = json.loads(got)
            break
        time.sleep(0.5)
    if not result:
        return [f"?fps=quick gave no result within {timeout:.0f} s"] + [f"fps page: {e}" for e in browser.errors()]
    desktop = set(subprocess.run([program, "fps", "--keys"], capture_output=True, text=True, check=True).stdout.split())
    page = json_keys(result["result"])
    if out:
        with open(os.path.join(out, "fps-page.json"), "w") as f:
            json.dump(result["result"], f, indent=1)
    print(f"?fps=quick: {time.monotonic() - t0:.1f} s, the page's line:\n  {result['line']}")
    if page != desktop:
        failures.append(f"the page's fps JSON keys differ from the desktop's: only the page {sorted(page - desktop)}, "
                        f"only the desktop {sorted(desktop - page)}")
    if not result["line"].startswith("crowdlab-fps ") or result["result"].get("line") != result["line"]:
        failures.append(f"the page's fps line is not a result's line: {result['line']!r}")
    ran = [c for c in result["result"].get("cases", []) if not c.get("skipped")]
    if not ran or any(c.get("fps_median", 0) <= 0 for c in ran):
        failures.append(f"the page's fps run measured no case: {result['result'].get('cases')}")
    # Chromium grants WEBGL_debug_renderer_info: the result names what draws (SwiftShader here, a
    # software renderer), not WebGL's masked "WebKit WebGL".
    machine = result["result"].get("machine", {})
    if machine.get("gl_renderer", "") in ("", "WebKit WebGL"):
        failures.append(f"the page's fps result names no real GL renderer: {machine.get('gl_renderer')!r}")
    if "swiftshader" in machine.get("gl_renderer", "").lower() and machine.get("software_renderer") is not True:
        failures.append("the page's SwiftShader renderer is not marked a software renderer")
    if not browser.evaluate("document.getElementById('fps-result') ? document.getElementById('fps-result').innerText : null"):
        failures.append("the page does not show the fps result")
    return failures + [f"fps page: {e}" for e in browser.errors()]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("site", nargs="?")
    ap.add_argument("out", nargs="?")
    ap.add_argument("--scenes", help="comma-separated; default: every scene the program lists")
    ap.add_argument("--program", default=DEFAULT_PROGRAM,
                    help="the native crowdlab whose --list-scenes names the scenes (default: build/crowdlab)")
    ap.add_argument("--print-scenes", action="store_true", help="print the scenes it would open, and stop")
    ap.add_argument("--zip", help="check this zip's content (scripts/package.sh's crowdlab-web.zip) as the site; "
                    "then the only positional argument is OUT_DIR")
    ap.add_argument("--only-fps", action="store_true", help="only the ?fps=quick check (the page's frame-rate run)")
    ap.add_argument("--timeout", type=float, default=120,
                    help="seconds a page may take to step (a page that steps goes on at once)")
    a = ap.parse_args()
    if not a.scenes:
        a.scenes = ",".join(program_scenes(a.program))
    if a.print_scenes:
        print(a.scenes)
        return 0
    unzipped = None
    if a.zip:
        if a.out is None:
            a.out, a.site = a.site, None
        if a.site or not a.out:
            ap.error("with --zip, only OUT_DIR")
        import zipfile
        unzipped = tempfile.mkdtemp(prefix="crowdlab-web-zip-")
        with zipfile.ZipFile(a.zip) as z:
            z.extractall(unzipped)
        a.site = unzipped
        print(f"the site: {a.zip}, unzipped ({', '.join(sorted(os.listdir(unzipped)))})")
    if not a.site or not a.out:
        ap.error("SITE_DIR and OUT_DIR are needed")
    os.makedirs(a.out, exist_ok=True)
    failures = []
    if a.only_fps:
        server = serve(a.site, "headers" if os.path.exists(os.path.join(a.site, "crowdlab-mt.js")) else "none")
        browser = Browser(1920, 1080)
        try:
            failures = check_fps_page(browser, f"http://127.0.0.1:{server.server_address[1]}/index.html", a.program, 300, a.out)
        finally:
            browser.close()
            server.shutdown()
        for f in failures:
            print("FAIL " + f)
        return 1 if failures else 0
    if Image is None:
        sys.exit("page_check: needs Pillow (Debian: python3-pil)")
    # Each page's download: the one-thread build, and the threaded one with its worker script.
    for files in (("crowdlab.wasm", "crowdlab.js"), ("crowdlab-mt.wasm", "crowdlab-mt.js", "crowdlab-mt.worker.js")):
        compressed = sum(len(gzip.compress(open(os.path.join(a.site, f), "rb").read(), 9)) for f in files)
        print(f"{' + '.join(files)}: {compressed / 1e6:.2f} MB gzip")
        if compressed > 4e6:
            failures.append(f"{' + '.join(files)} are {compressed / 1e6:.2f} MB gzip, over 4 MB")
    # Served as scripts/web.sh serves it (cross-origin isolated by its headers: the threaded page), as
    # a static host without those headers serves it (isolated by the site's service worker: the
    # threaded page again), and as a host where the service worker cannot be had (the one-thread page).
    servers = {how: serve(a.site, how) for how in ("headers", "worker", "none")}
    bases = {how: f"http://127.0.0.1:{server.server_address[1]}/index.html" for how, server in servers.items()}
    base = bases["headers"]
    width, height = 1280, 720
    browser = Browser(width, height)
    try:
        def open_page(query, min_steps=30, page=None):
            browser.events.clear()
            t0 = time.monotonic()
            browser.call("Page.navigate", session=True, url=(page or base) + query)
            state, loaded = None, None
            while time.monotonic() - t0 < a.timeout:
                if loaded is None:
                    ready = browser.evaluate("window.crowdlabReadyMs || null")
                    loaded = ready / 1000.0 if ready else None
                state = browser.evaluate("window.crowdlab && Module.calledRun ? JSON.stringify(crowdlab.state()) : null")
                if state and json.loads(state).get("steps", 0) >= min_steps:
                    return json.loads(state), loaded
                time.sleep(0.2)
            return (json.loads(state) if state else None), loaded

        for scene in a.scenes.split(","):
            state, loaded = open_page(f"?scene={scene}")
            if not state:
                failures.append(f"{scene}: the app did not start stepping within {a.timeout:.0f} s")
                failures += [f"{scene}: {e}" for e in browser.errors()]
                continue
            # Tab hides every panel (as on the desktop): what is left is the world.
            for kind in ("keyDown", "keyUp"):
                browser.call("Input.dispatchKeyEvent", session=True, type=kind, key="Tab", code="Tab",
                             windowsVirtualKeyCode=9, nativeVirtualKeyCode=9)
            time.sleep(1.0)
            shot = base64.b64decode(browser.call("Page.captureScreenshot", session=True, format="png")["data"])
            path = os.path.join(a.out, f"web-{scene}.png")
            with open(path, "wb") as f:
                f.write(shot)
            share = small_shapes_fraction(shot)
            print(f"{scene}: ready {loaded:.2f} s after navigation, {state['steps']} steps, {state.get('agents')} agents, "
                  f"{share * 100:.2f} % of the pixels are agents or lines, screenshot {path}")
            if share < 0.002 or not state.get("agents"):
                failures.append(f"{scene}: the world shows no agents ({share * 100:.3f} % of the pixels)")
            failures += [f"{scene}: {e}" for e in browser.errors()]

        failures += check_fps_page(browser, base, a.program, 300, a.out)

        # A parameter from the URL reaches the simulation, read back through the page's hook.
        state, _ = open_page("?scene=orca-corridor&groupSize=40&width=2.5", min_steps=2)
        params = (state or {}).get("params", {})
        print(f"orca-corridor?groupSize=40&width=2.5: the page reports groupSize={params.get('groupSize')} "
              f"width={params.get('width')}, {(state or {}).get('agents')} agents")
        if params.get("groupSize") != 40 or abs(float(params.get("width", 0)) - 2.5) > 1e-6 or (state or {}).get("agents") != 80:
            failures.append(f"URL parameters did not reach the scene: {state}")
        failures += [f"url parameters: {e}" for e in browser.errors()]

        # ?claim=ID opens straight into the experiment, as `crowdlab --claim ID` does on the desktop.
        claim_id = "boids.separation-scatters"
        state, _ = open_page(f"?claim={claim_id}", min_steps=2)
        experiment = (state or {}).get("experiment", {})
        print(f"?claim={claim_id}: the page reports the experiment {experiment.get('claim')!r}, "
              f"banner {experiment.get('banner')!r}")
        if experiment.get("claim") != claim_id or not experiment.get("banner"):
            failures.append(f"?claim= did not start the experiment: {state}")
        failures += [f"claim parameter: {e}" for e in browser.errors()]

        # Touch, as on a phone: one finger dragging orbits the 3D camera; two fingers pinch to zoom.
        browser.call("Emulation.setTouchEmulationEnabled", session=True, enabled=True, maxTouchPoints=5)

        def touch(kind, points):
            browser.call("Input.dispatchTouchEvent", session=True, type=kind,
                         touchPoints=[{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)])
            time.sleep(0.15)

        def camera():
            return json.loads(browser.evaluate("JSON.stringify(crowdlab.state().camera)"))

        open_page("?scene=murmuration", min_steps=2)
        before = camera()
        touch("touchStart", [(400, 300)])
        for x in range(420, 620, 40):
            touch("touchMove", [(x, 300)])
        touch("touchEnd", [])
        after = camera()
        print(f"murmuration, one finger dragged 200 px: camera yaw {before['yaw']:.3f} -> {after['yaw']:.3f}")
        if abs(after["yaw"] - before["yaw"]) < 0.05:
            failures.append(f"a finger drag did not orbit the 3D camera: {before} -> {after}")
        open_page("?scene=spatial-hash", min_steps=2)
        before = camera()
        touch("touchStart", [(600, 300), (680, 300)])
        for step in range(1, 6):
            touch("touchMove", [(600 - 20 * step, 300), (680 + 20 * step, 300)])
        touch("touchEnd", [])
        after = camera()
        print(f"spatial-hash, two fingers spread from 80 to 280 px: camera zoom {before['zoom']:.3f} -> {after['zoom']:.3f}")
        if after["zoom"] < before["zoom"] * 1.5:
            failures.append(f"a pinch did not zoom the 2D camera: {before} -> {after}")
        failures += [f"touch: {e}" for e in browser.errors()]

        # Both pages: the one the host's headers allow runs, says so, and gives the desktop's results.
        # Each runs fresh copies of the scenes (crowdlab.digest: the pinned digests test's run) and
        # must give the digests the desktop pins, the threaded page with its loops on two threads.
        # The boids, murmuration and spatial-hash scenes set up and colour their agents with std::cos,
        # std::sin and std::pow, whose last bits differ between the page's C library (musl) and the
        # desktop's (glibc): those are compared between the two pages only.
        seed, steps, pinned = pinned_digests()
        desktop_exact = {"finale", "orca-corridor", "steering"}
        page_digests = {}
        cores = browser.evaluate("navigator.hardwareConcurrency")
        labels = {"headers": "with COOP/COEP", "worker": "without COOP/COEP (the service worker isolates it)",
                  "none": "without COOP/COEP or the service worker"}
        for how in ("headers", "worker", "none"):
            threaded = how != "none"
            expected_page = "crowdlab-mt.js" if threaded else "crowdlab.js"
            expected_threads = min(cores, 8) if threaded else 1
            expected_isolation = {"headers": "headers", "worker": "service worker"}.get(how, "none")
            label = labels[how]
            state, _ = open_page("?scene=finale", min_steps=2, page=bases[how])
            ran = browser.evaluate("window.crowdlabPage")
            isolation = browser.evaluate("window.crowdlabIsolation") or ""
            note = browser.evaluate("document.getElementById('note').textContent") or ""
            print(f"served {label}: the page runs {ran} ({isolation}), state says {(state or {}).get('threads')} threads "
                  f"(navigator.hardwareConcurrency {cores})" + (f"; its line: {note}" if note else ""))
            if ran != expected_page or (state or {}).get("threads") != expected_threads:
                failures.append(f"served {label}: expected {expected_page} on {expected_threads} threads, got {ran}, {state and state.get('threads')}")
            if not isolation.startswith(expected_isolation):
                failures.append(f"served {label}: isolated by {isolation!r}, expected {expected_isolation!r}")
            if threaded == bool(note):
                failures.append(f"served {label}: the one-thread line is {'shown' if note else 'missing'}: {note!r}")
            for scene, digest in sorted(pinned.items()):
                if scene == "gpu":
                    continue  # compute shaders: not in WebGL 2
                sets = f"threads={expected_threads}" if scene == "finale" else ""
                got = browser.evaluate(f"JSON.stringify(crowdlab.digest({json.dumps(scene)}, {seed}, {steps}, {json.dumps(sets)}))")
                got = json.loads(got) if got else {}
                print(f"  {scene}: digest after {steps} steps {got.get('digest')} on {got.get('threads_at_work')} thread(s) at work"
                      f" (desktop {digest})")
                if scene in desktop_exact and got.get("digest") != digest:
                    failures.append(f"served {label}: {scene}'s digest {got} differs from the desktop's {digest}")
                if not got.get("digest") or page_digests.setdefault(scene, got["digest"]) != got["digest"]:
                    failures.append(f"served {label}: {scene}'s digest {got} differs from the other page's {page_digests.get(scene)}")
                if scene == "finale" and got.get("threads_at_work") != expected_threads:
                    failures.append(f"served {label}: the finale's loops ran on {got.get('threads_at_work')} threads, not {expected_threads}")
                if scene == "finale" and threaded and cores >= 2 and (got.get("threads_at_work") or 0) < 2:
                    failures.append(f"served {label}: fewer than two threads at work in the finale: {got}")
            errors = browser.errors()
            if how == "none":  # the host's refusal of the worker is what this case shows, not a fault
                errors = [e for e in errors if not re.search(r"coi-sw\.js|ServiceWorker|bad HTTP response code \(404\)", e)]
            failures += [f"served {label}: {e}" for e in errors]

        # Load time with nothing cached (the browser itself already started): navigation to the
        # app's first frame, the median of three, for each page.
        browser.call("Network.enable", session=True)
        browser.call("Network.setCacheDisabled", session=True, cacheDisabled=True)
        for how in ("headers", "none"):
            page = "threaded page" if how == "headers" else "one-thread page"
            # Three loads timed, of at most six tries: in a fresh-clone run under load one load in a
            # series went unreported once (cause not found; a rerun on the same site passed), and a
            # flaky harness would hide the figure. A page that loads fewer than three times fails.
            times, missed = [], 0
            while len(times) < 3 and missed < 3:
                t = open_page("?scene=boids", min_steps=1, page=bases[how])[1]
                if t is None:
                    missed += 1
                    print(f"load without cache, {page}: a load was not reported ({missed} of at most 3 missed)")
                else:
                    times.append(t)
            times.sort()
            if len(times) < 3:
                failures.append(f"the {page} did not load three times in six tries")
            else:
                print(f"load without cache, {page}: the app ran {times[1]:.2f} s after navigation (median of "
                      + ", ".join(f"{t:.2f}" for t in times) + ")")
                if times[1] > 3.0:
                    failures.append(f"the {page} took {times[1]:.2f} s to load, over 3 s")
    finally:
        browser.close()
        for server in servers.values():
            server.shutdown()
        if unzipped:
            shutil.rmtree(unzipped, ignore_errors=True)
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
