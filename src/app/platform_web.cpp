// The browser side of platform.hpp (Emscripten): WebGL 2, the page's animation-frame loop, files
// as downloads, settings and presets in IndexedDB (an IDBFS folder set up by web/pre.js), and the
// page's hook `crowdlab.state()`.
#include "app/platform.hpp"

#include <SDL.h>
#include <emscripten.h>
#include <emscripten/html5.h>
#include <emscripten/threading.h>
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>
#include <nlohmann/json.hpp>
#include "scenes/digest.hpp"
#include "sim/core/parallel.hpp"

namespace app::platform {

namespace {
struct Loop {
  std::function<bool()> frame;
  std::function<void()> done;
};
Loop* gLoop = nullptr;  // lives as long as the page
std::function<std::string()> gReporter;
std::function<void()> gOnPageHide;
std::string gState;

void onAnimationFrame(void*) {
  if (gLoop->frame()) return;
  emscripten_cancel_main_loop();
  gLoop->done();
}

EM_JS(void, offerDownload, (const char* name, const unsigned char* data, int size), {
  const url = URL.createObjectURL(new Blob([HEAPU8.slice(data, data + size)]));
  const a = document.createElement('a');
  a.href = url;
  a.download = UTF8ToString(name);
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(function() { URL.revokeObjectURL(url); }, 60000);
});

EM_JS(void, syncStorageToIndexedDb, (), {
  FS.syncfs(false, function(err) { if (err) console.warn('crowdlab: could not save to browser storage: ' + err); });
});

EM_JS(double, cssDevicePixelRatio, (), { return window.devicePixelRatio || 1; });
EM_JS(int, coarsePointer, (), { return window.matchMedia && window.matchMedia('(pointer: coarse)').matches ? 1 : 0; });

EM_JS(void, userAgentInto, (char* buffer, int size), { stringToUTF8(navigator.userAgent || "", buffer, size); });
// which: 0 the unmasked renderer, 1 the unmasked vendor ("" where the extension is refused).
EM_JS(void, unmaskedGlInto, (int which, char* buffer, int size), {
  let text = "";
  try {
    const ext = GLctx && GLctx.getExtension('WEBGL_debug_renderer_info');
    if (ext) text = String(GLctx.getParameter(which ? ext.UNMASKED_VENDOR_WEBGL : ext.UNMASKED_RENDERER_WEBGL) || "");
  } catch (e) {}
  stringToUTF8(text, buffer, size);
});
EM_JS(int, logicalCores, (), { return navigator.hardwareConcurrency || 0; });
EM_JS(double, deviceMemoryGb, (), { return navigator.deviceMemory || 0; });

// The run's result over the canvas: the line to copy, a Copy button, the JSON to download; and
// window.crowdlabFps for scripts (tests/web/page_check.py reads it).
EM_JS(void, showFpsResultInPage, (const char* lineText, const char* jsonText), {
  const line = UTF8ToString(lineText), json = UTF8ToString(jsonText);
  window.crowdlabFps = {line: line, result: JSON.parse(json)};
  const box = document.createElement('div');
  box.id = 'fps-result';
  box.style.cssText = 'position:fixed;left:5%;right:5%;top:10%;padding:16px;background:#20242c;color:#e8e8e8;' +
                      'font:14px/1.4 system-ui,sans-serif;border-radius:8px;z-index:10;max-height:80vh;overflow:auto';
  const title = document.createElement('div');
  title.textContent = 'crowdlab fps: paste this line beside the lines of other machines (crowdlab fps --compare)';
  const text = document.createElement('textarea');
  text.value = line;
  text.readOnly = true;
  text.rows = 4;
  text.style.cssText = 'width:100%;font:13px monospace;margin:8px 0';
  const copy = document.createElement('button');
  copy.textContent = 'Copy the line';
  copy.onclick = function() {
    text.select();
    const done = function() { copy.textContent = 'Copied'; };
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(line).then(done, function() { document.execCommand('copy'); done(); });
    else { document.execCommand('copy'); done(); }
  };
  const save = document.createElement('a');
  save.textContent = 'Download the JSON';
  save.href = URL.createObjectURL(new Blob([json], {type: 'application/json'}));
  save.download = 'crowdlab-fps.json';
  save.style.cssText = 'margin-left:16px;color:#8cf';
  const details = document.createElement('pre');
  details.textContent = JSON.stringify(JSON.parse(json), null, 1);
  details.style.cssText = 'font:12px monospace;white-space:pre-wrap';
  box.append(title, text, copy, save, details);
  document.body.appendChild(box);
});

EM_BOOL onVisibilityChange(int, const EmscriptenVisibilityChangeEvent* e, void*) {
  if (e->hidden && gOnPageHide) gOnPageHide();
  return EM_FALSE;
}
}  // namespace

void requestGlContext() {
  // WebGL 2 is OpenGL ES 3.0 to SDL.
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_ES);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 0);
}

bool loadGl(std::string&) { return true; }  // Emscripten links the entry points itself
void enableGlDebugMessages() {}              // WebGL reports its errors in the page's console
const char* imguiGlslVersion() { return "#version 300 es"; }

void runLoop(std::function<bool()> frame, std::function<void()> done) {
  gLoop = new Loop{std::move(frame), std::move(done)};
  emscripten_set_main_loop_arg(onAnimationFrame, nullptr, 0, false);
}

bool canStepInBackground() { return false; }
bool canQuit() { return false; }

bool hasUserFiles() { return false; }

std::string deliverFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.good() && !in.eof()) return "cannot read " + path;
  std::string name = path.substr(path.find_last_of('/') + 1);
  offerDownload(name.c_str(), bytes.data(), int(bytes.size()));
  std::remove(path.c_str());  // the download holds it now; the page's memory does not need it
  return "downloaded " + name;
}

void persistFiles() { syncStorageToIndexedDb(); }

void onPageHide(std::function<void()> save) {
  gOnPageHide = std::move(save);
  emscripten_set_visibilitychange_callback(nullptr, EM_FALSE, onVisibilityChange);
}

float defaultUiScale() {
  // The canvas is drawn at devicePixelRatio, so text is crisp at any scale; on a touch screen with a
  // dense display (a phone) the widgets grow towards finger size.
  return coarsePointer() ? std::clamp(float(cssDevicePixelRatio()) * 0.6f, 1.0f, 2.0f) : 1.0f;
}

void setStateReporter(std::function<std::string()> reporter) { gReporter = std::move(reporter); }

std::string pageThreadsNote() {
  const int threads = sim::hardwareThreads();
  const std::string count = std::to_string(threads) + (threads == 1 ? " thread" : " threads");
  // Both pages are one compile (cmake/web.cmake): which one runs is whether it was linked with threads.
  if (emscripten_has_threading_support()) return "browser: " + count + " (the threaded page)";
  return "browser: " + count + " (the one-thread page: the host sends no cross-origin isolation headers)";
}

std::string hostDescription() {
  char agent[512] = {};
  userAgentInto(agent, int(sizeof agent));
  return agent[0] ? "browser: " + std::string(agent) : std::string("browser");
}

BrowserMachine browserMachine() {
  BrowserMachine m;
  char text[256] = {};
  unmaskedGlInto(0, text, int(sizeof text));
  m.glRenderer = text;
  text[0] = 0;
  unmaskedGlInto(1, text, int(sizeof text));
  m.glVendor = text;
  m.logicalCores = logicalCores();
  m.memoryGb = deviceMemoryGb();
  return m;
}

void showFpsResult(const std::string& line, const std::string& json) { showFpsResultInPage(line.c_str(), json.c_str()); }

}  // namespace app::platform

// For the page: window.crowdlab.state() parses this (web/pre.js).
extern "C" EMSCRIPTEN_KEEPALIVE const char* crowdlab_state_json() {
  app::platform::gState = app::platform::gReporter ? app::platform::gReporter() : std::string("{}");
  return app::platform::gState.c_str();
}

// For the page: window.crowdlab.digest(scene, seed, steps, 'name=value;...') runs a fresh copy of the
// scene apart from the one on screen (scenes::digestAfterSteps) and says what it ran on, so the
// one-thread page, the threaded page and the desktop's pinned digests can be compared.
extern "C" EMSCRIPTEN_KEEPALIVE const char* crowdlab_digest_json(const char* scene, double seed, int steps,
                                                                 const char* assignments) {
  std::vector<std::string> sets;
  for (std::string rest = assignments; !rest.empty();) {
    const size_t end = rest.find(';');
    if (end != 0) sets.push_back(rest.substr(0, end));
    rest = end == std::string::npos ? std::string() : rest.substr(end + 1);
  }
  std::string error;
  sim::resetThreadsAtWork();
  const std::string digest = scenes::digestAfterSteps(scene, uint64_t(seed), steps, sets, error);
  nlohmann::json j = {{"digest", digest}, {"threads", sim::hardwareThreads()}, {"threads_at_work", sim::threadsAtWork()},
                      {"error", error}};
  app::platform::gState = j.dump();
  return app::platform::gState.c_str();
}
