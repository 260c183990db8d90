// Counts heap allocations made through the global operator new (every form), for tests that assert
// "no allocation per step". Linked into the unit-test binary, so it is always active there:
//   uint64_t before = allocationCount(); step(); EXPECT_EQ(allocationCount() - before, 0u);
// It sees operator new only: memory a library takes with malloc directly (oneTBB's task pools) is
// not counted.
#pragma once
#include <cstdint>

uint64_t allocationCount();
