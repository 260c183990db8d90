// The in-app benchmark's one line (app/run_report): every figure named, the machine's CPU with it.
#include <gtest/gtest.h>

#include <string>
#include "app/run_report.hpp"

TEST(RunReport, TheBenchmarkLineNamesEveryFigureAndTheCpu) {
  const std::string line = app::benchmarkLine({"boids", 300, 0.25, 59.5, 600, "llvmpipe 4.5"});
  EXPECT_EQ(line.rfind("crowdlab benchmark: scene=boids N=300 median_step_ms=0.250 fps=59.5 steps=600 gl=\"llvmpipe 4.5\" cpu=\"", 0), 0u)
      << line;
  EXPECT_NE(line.find("cpu=\"" + app::cpuName() + "\""), std::string::npos) << line;
  EXPECT_FALSE(app::cpuName().empty());
}
