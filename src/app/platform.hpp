// What the desktop and the browser do differently, for the app only: platform_desktop.cpp and
// platform_web.cpp implement it and the build compiles one of them. src/sim, src/scenes and
// src/render are the same code on both.
#pragma once
#include <functional>
#include <string>

namespace app::platform {

// ---- the GL context: OpenGL 3.3 core through glad; in the browser WebGL 2 (OpenGL ES 3.0), no loader ----
void requestGlContext();                 // SDL_GL attributes, before SDL_CreateWindow
bool loadGl(std::string& error);         // with the context current
void enableGlDebugMessages();            // KHR_debug to stderr where there is one
const char* imguiGlslVersion();          // the #version line ImGui's OpenGL 3 backend writes

// ---- the main loop ----
// Calls frame() until it returns false, then done(). The desktop loops here and returns after done();
// the browser gives both to its animation-frame loop and returns at once, so whatever they use must
// outlive the caller.
void runLoop(std::function<bool()> frame, std::function<void()> done);
// Whether a slow step may run on a worker thread (the browser build has no threads).
bool canStepInBackground();
// Whether the app may end itself (Esc Esc, Ctrl+Q): a page is closed with its tab instead.
bool canQuit();

// ---- files ----
// Whether the user has a file system to name paths in (load a preset file, record a PNG sequence).
// The browser's files live in the page's memory: saved presets go to browser storage, the rest downloads.
bool hasUserFiles();
// A file made for the user (screenshot, metrics CSV): the desktop leaves it where it was written;
// the browser offers it as a download. Returns what to tell the user.
std::string deliverFile(const std::string& path);
// Settings or presets were written: the browser copies its storage folder to IndexedDB.
void persistFiles();
// Runs save() when the page is hidden or left (the browser's app never quits); the desktop saves at exit.
void onPageHide(std::function<void()> save);

// ---- look ----
// The first-run UI scale: the browser's, from devicePixelRatio; 0 on the desktop, which picks
// one from the display (ui_style.hpp).
float defaultUiScale();

// ---- the page's view of the app (window.crowdlab.state() in the browser; nothing on the desktop) ----
void setStateReporter(std::function<std::string()> reporter);
// Which page runs and on how many threads, for the HUD ("1 thread: ..." or "2 threads: ..."); empty
// on the desktop.
std::string pageThreadsNote();

// ---- `crowdlab fps` (?fps=run in the page) ----
// What the browser says of the machine it runs on (its user agent); "" on the desktop, which asks the OS.
std::string hostDescription();
// What a browser tells of its machine beyond the user agent: the GL renderer and vendor behind
// WebGL's masked "WebKit WebGL" (WEBGL_debug_renderer_info, where the browser grants it), logical
// cores (navigator.hardwareConcurrency: not the physical cores a result names) and memory in GB (navigator.deviceMemory, rounded by the
// browser; 0 where it is not told). The desktop asks the OS and GL instead: all empty there.
struct BrowserMachine {
  std::string glRenderer, glVendor;
  int logicalCores = 0;
  double memoryGb = 0;
};
BrowserMachine browserMachine();
// A finished run: the page shows the line and the JSON and offers to copy the line; the desktop
// prints them itself and does nothing here.
void showFpsResult(const std::string& line, const std::string& json);

}  // namespace app::platform
