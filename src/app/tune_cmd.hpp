// `crowdlab tune --scene S --objective NAME [...]`: CMA-ES over a scene's parameters on the
// experiment runner (see experiments/tuner.hpp).
#pragma once
#include <string>
#include <vector>

namespace app {

// `args` are the words after "tune". Exit code: 0 done, 1 a file could not be written, 2 bad input,
// 130 stopped by Ctrl+C (the best so far is still written).
int runTune(const std::vector<std::string>& args);

}  // namespace app
