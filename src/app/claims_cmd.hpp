// `crowdlab claims [--scene NAME] [--seeds N] [--csv FILE] [--markdown FILE]`: every claim of the
// article, run headless over N seeds, one row per claim with the measured mean, min-max and the
// verdict; --markdown writes the same rows as the table of docs/claims.md.
#pragma once
#include <string>
#include <vector>

namespace app {

// `args` are the words after "claims". Exit code: 0 all must-hold claims hold, 1 one fails, 2 bad flags.
int runClaims(const std::vector<std::string>& args);

}  // namespace app
