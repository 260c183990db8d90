// A fingerprint of every agent a scene draws (position and heading, FNV-1a over the floats' bits).
// Two runs show the same agents exactly when their digests match; the scene tests pin one digest per
// scene (tests/scenes/test_digests.cpp), as Box2D's determinism test pins its hash.
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include "render/agent_batch.hpp"

namespace scenes {

std::string agentsDigest(const render::AgentBatch& agents);

// The digest of a fresh scene's agents after `steps` steps of 1/60 s on `seed`, with `assignments`
// (name=value, as --set) applied: the run the pinned digests test makes (tests/scenes/
// test_digests.cpp), here for the browser page to compare its builds with the desktop's. Empty, with
// `error` set, for an unknown scene or a bad assignment.
std::string digestAfterSteps(const std::string& scene, uint64_t seed, int steps,
                             const std::vector<std::string>& assignments, std::string& error);

}  // namespace scenes
