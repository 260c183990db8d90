// The app's keys that read the simulation (N next agent, F follow, the follow camera each frame),
// written once over `scene`: a callable that returns the scene through the guard that waits for a
// step in flight (App::scene()). Templates, so the stepper tests drive these same handlers against a
// step on the worker under ThreadSanitizer, which reports a race should the guard be bypassed.
#pragma once
#include <optional>

namespace app {

// N: the scene's next agent; false where the scene has none to select.
template <class GuardedScene>
bool selectNextAgent(GuardedScene&& scene) {
  return scene().selectNextAgent();
}

// F: follow on or off. Turning it on selects an agent first where none is; it stays off where the
// scene has none. Returns the new state.
template <class GuardedScene, class OnNoAgent>
bool toggleFollow(GuardedScene&& scene, bool following, OnNoAgent&& onNoAgent) {
  if (following) return false;
  if (scene().selectedAgent()) return true;
  if (selectNextAgent(scene)) return true;
  onNoAgent();
  return false;
}

// Where the followed agent is now, for the camera; nullopt without a selection.
template <class GuardedScene>
auto followedPosition(GuardedScene&& scene) {
  return scene().selectedAgent();
}

}  // namespace app
