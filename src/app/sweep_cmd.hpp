// `crowdlab sweep`: a parameter (or two) against metrics over seeds, on the experiment runner; CSV
// rows flushed as jobs finish, --resume, --shard I/N and --merge for schedulers, --plot FILE.svg.
#pragma once
#include <string>
#include <vector>

namespace app {

// `args` are the words after "sweep". Exit code: 0 done, 1 a job or a file failed, 2 bad input.
int runSweep(const std::vector<std::string>& args);

}  // namespace app
