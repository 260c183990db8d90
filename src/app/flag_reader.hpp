// The flag reader lives in io (io/flag_reader.hpp), where bench may use it too; app's commands
// name it app::FlagReader.
#pragma once
#include "io/flag_reader.hpp"

namespace app {
using io::FlagReader;
}  // namespace app
