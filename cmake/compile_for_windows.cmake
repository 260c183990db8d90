# The Windows branch of src/app/subprocess.cpp (CreateProcess, an argument vector quoted into one
# command line, a pipe as the child's only inherited handle besides stdout and stderr) is compiled
# by no Linux build. This CTest compiles it with the MinGW-w64 cross compiler, warnings as errors:
# an object file only, nothing links or runs. Without that compiler it says so and is skipped
# (scripts/install-deps.sh installs it: Debian's g++-mingw-w64-x86-64-posix).
# Run: cmake -DSRC=<repo>/src -DOUT=<object file> -P compile_for_windows.cmake
find_program(MINGW_CXX NAMES x86_64-w64-mingw32-g++-posix x86_64-w64-mingw32-g++ x86_64-w64-mingw32-g++-win32)
if(NOT MINGW_CXX)
  message("SKIPPED: no x86_64-w64-mingw32-g++ to compile app/subprocess.cpp for Windows "
          "(Debian: g++-mingw-w64-x86-64-posix; scripts/install-deps.sh installs it)")
  return()
endif()
execute_process(
  COMMAND "${MINGW_CXX}" -std=c++20 -Wall -Wextra -Werror -I "${SRC}" -c "${SRC}/app/subprocess.cpp" -o "${OUT}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${MINGW_CXX} cannot compile app/subprocess.cpp for Windows:\n${out}")
endif()
message("app/subprocess.cpp compiles for Windows (${MINGW_CXX}, -std=c++20 -Wall -Wextra -Werror)")
