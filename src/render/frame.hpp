// What one frame is drawn with (FrameView) and what drawing it cost (FrameStats): plain data, no GL,
// so scenes and the headless layers read them without the renderer.
#pragma once
#include <cstddef>
#include <glm/glm.hpp>

namespace render {

struct FrameStats {
  int drawCalls = 0;       // every glDraw* this frame
  int agentDrawCalls = 0;  // draws of the agent batch: 1 whenever agents are shown, N per-agent
  double agentSubmitMs = 0;  // CPU time spent issuing the agent draws
  double agentGpuMs = -1;    // GPU time of the agent draws (a timer query a few frames old; -1: none yet)
  size_t agents = 0;
};

struct FrameView {
  bool is3D = false;
  glm::mat4 viewProjection{1.0f};
  glm::vec3 eye{0.0f};
  float time = 0.0f;                  // seconds, drives wing beats
  glm::vec3 background{0.07f, 0.08f, 0.10f};
  bool sky = false;                   // dusk gradient instead of a flat background
  // Dusk whose luminance stays within 0.2 - 0.25 from the horizon to the zenith: the dark birds
  // are silhouettes (>= 3:1) and startled pale-yellow ones stand out (>= 3:1) anywhere on it.
  glm::vec3 horizon{0.78f, 0.44f, 0.30f};
  glm::vec3 zenith{0.40f, 0.50f, 0.72f};
  float ink = 1.0f;                   // every agent and debug colour times this (light theme: dark ink)
  float agentScale = 1.0f;            // every agent glyph drawn this many times larger (a scene's agentScale)
  float lineWidthPx = 1.5f;           // debug lines and circle outlines, framebuffer pixels (the app: times the UI scale)
  // The light (projector) theme for the world: a pale background and sky, dark agents and lines.
  void useLightTheme() {
    background = {0.96f, 0.96f, 0.94f};
    horizon = {1.00f, 0.91f, 0.80f};
    zenith = {0.74f, 0.84f, 0.96f};
    ink = 0.42f;
  }
};

}  // namespace render
