// A fingerprint of every agent a scene draws (position and heading, FNV-1a over the floats' bits).
// Two runs show the same agents exactly when their digests match; the scene tests pin one digest per
// scene (tests/scenes/test_digests.cpp), as Box2D's determinism test pins its hash.
#pragma once
#include <string>
#include "render/agent_batch.hpp"

namespace scenes {

std::string agentsDigest(const render::AgentBatch& agents);

}  // namespace scenes
