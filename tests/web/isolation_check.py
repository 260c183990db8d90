#!/usr/bin/env python3
"""The page's own cross-origin isolation (web/index.html + web/coi-sw.js) in headless Chromium, without
the web build: the site's real index.html and service worker beside stand-ins for the two builds. The
threaded stand-in shares a SharedArrayBuffer with a Web Worker, which adds to it, so its state's
`threads` is 2 only where the page is really isolated and a second thread worked on shared memory.

    isolation_check.py      (exit 77, CTest's skip, without Chromium)

Served three ways, as page_check.py serves the real site: with COOP/COEP (the threaded page), without
them (the service worker isolates the page: the threaded page, two threads at work), and without them
or the service worker (the one-thread page, with its line).
"""
import json, os, shutil, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import page_check  # noqa: E402  (its Browser and servers)

THREADED = """var shared = new Int32Array(new SharedArrayBuffer(8));
var worker = new Worker(URL.createObjectURL(new Blob(
    ['onmessage = function (e) { var v = new Int32Array(e.data); Atomics.add(v, 0, 1); };'])));
worker.postMessage(shared.buffer);
window.Module = { calledRun: true };
window.crowdlab = { state: function () { return { steps: 1, threads: 1 + Atomics.load(shared, 0) }; } };
"""
ONE_THREAD = """window.Module = { calledRun: true };
window.crowdlab = { state: function () { return { steps: 1, threads: 1 }; } };
"""


def main():
    if not (shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")):
        print("SKIPPED: no Chromium")
        return 77
    site = tempfile.mkdtemp(prefix="crowdlab-isolation-")
    root = os.path.join(HERE, "..", "..", "web")
    for name in ("index.html", "coi-sw.js"):
        shutil.copy(os.path.join(root, name), site)
    open(os.path.join(site, "crowdlab-mt.js"), "w").write(THREADED)
    open(os.path.join(site, "crowdlab.js"), "w").write(ONE_THREAD)
    expected = {"headers": ("crowdlab-mt.js", "headers", 2), "worker": ("crowdlab-mt.js", "service worker", 2),
                "none": ("crowdlab.js", "none", 1)}
    servers = {how: page_check.serve(site, how) for how in expected}
    browser = page_check.Browser(800, 600)
    failures = []
    try:
        for how, (page, isolation, threads) in expected.items():
            browser.events.clear()
            browser.call("Page.navigate", session=True, url=f"http://127.0.0.1:{servers[how].server_address[1]}/index.html")
            state = {}
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:  # the service worker's case reloads once on the way
                time.sleep(0.2)
                text = browser.evaluate("window.crowdlab && window.Module ? JSON.stringify(crowdlab.state()) : null")
                state = json.loads(text) if text else {}
                if state.get("threads", 0) >= threads:
                    break
            got_page = browser.evaluate("window.crowdlabPage")
            got_isolation = browser.evaluate("window.crowdlabIsolation") or ""
            note = browser.evaluate("document.getElementById('note').textContent") or ""
            print(f"{how}: {got_page}, isolated by {got_isolation!r}, {state.get('threads')} thread(s) at work"
                  + (f"; its line: {note}" if note else ""))
            if got_page != page or not got_isolation.startswith(isolation) or state.get("threads") != threads:
                failures.append(f"{how}: expected {page}, {isolation}, {threads} thread(s)")
            if (how == "none") != bool(note):
                failures.append(f"{how}: the one-thread line is {'shown' if note else 'missing'}")
            errors = browser.errors()
            if how == "none":  # the refused worker is what this case shows
                errors = [e for e in errors if "404" not in e and "ServiceWorker" not in e]
            failures += [f"{how}: {e}" for e in errors]
    finally:
        browser.close()
        for server in servers.values():
            server.shutdown()
        shutil.rmtree(site, ignore_errors=True)
    for f in failures:
        print("FAIL", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
