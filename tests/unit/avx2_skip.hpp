// Tests that compare the AVX2 build of a lane kernel with its baseline build mean nothing on a CPU
// (or a build) without AVX2 kernels: there they would compare the baseline with itself. They skip,
// and say so.
#pragma once
#include <gtest/gtest.h>
#include "sim/core/lanes.hpp"

#define CROWDLAB_SKIP_WITHOUT_AVX2()                                                                    \
  do {                                                                                                  \
    sim::lanes::setWide(true);                                                                          \
    if (!sim::lanes::wide())                                                                            \
      GTEST_SKIP() << "no AVX2 kernels on this CPU or build (" << sim::lanes::name()                    \
                   << "): comparing them with the baseline would compare the baseline with itself";     \
  } while (0)
