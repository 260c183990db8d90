// The gpu scene in a real window (Xvfb + Mesa llvmpipe, OpenGL 4.5): draw calls counted by apitrace
// in each render mode, agents on screen in both simulation modes, and the fallback below 4.3.
#include <gtest/gtest.h>

#include <cmath>
#include "app_util.hpp"

namespace {

// Agent draws in the last complete frame of an apitrace trace of `crowdlab ARGS`, by kind.
struct AgentDraws {
  bool available = false;
  long long perAgent = 0;       // glDrawArrays of one arrow (6 vertices): one agent each
  long long baseInstance = 0;   // glDrawArraysInstancedBaseInstance, one instance: one agent each
  long long instanced = 0;      // glDrawArraysInstanced(..., instancecount = N): all agents at once
  long long indirect = 0;       // glDrawArraysIndirect: all agents, count from the GPU
};

AgentDraws traceAgentDraws(const std::string& args, const std::string& name, long long n) {
  AgentDraws last, current;
  last.available = current.available = std::system("command -v apitrace >/dev/null 2>&1") == 0;
  if (!last.available) return last;
  const std::string trace = apptest::outDir() + "/" + name + ".trace", dump = apptest::outDir() + "/" + name + ".txt";
  std::remove(trace.c_str());
  std::string cmd = "CROWDLAB_CONFIG_DIR='" + apptest::outDir() + "/config-trace' apitrace trace -o '" + trace + "' '" CROWDLAB_EXE "' " +
                    args + " >/dev/null 2>&1 </dev/null";
  if (std::system(cmd.c_str()) != 0) return last;
  cmd = "apitrace dump --color=never '" + trace + "' 2>/dev/null | grep -E 'glDraw|SwapBuffers' > '" + dump + "'";
  if (std::system(cmd.c_str()) != 0) return last;
  std::istringstream in(apptest::slurp(dump));
  const std::string allAgents = "instancecount = " + std::to_string(n) + ")";
  for (std::string line; std::getline(in, line);) {
    if (line.find("SwapBuffers") != std::string::npos) {
      last = current;
      current = AgentDraws{true};
    } else if (line.find("glDrawArrays(mode = GL_TRIANGLES, first = 0, count = 6)") != std::string::npos) {
      current.perAgent++;
    } else if (line.find("glDrawArraysInstancedBaseInstance(mode = GL_TRIANGLES, first = 0, count = 6, instancecount = 1,") != std::string::npos) {
      current.baseInstance++;
    } else if (line.find("glDrawArraysInstanced(") != std::string::npos && line.find(allAgents) != std::string::npos) {
      current.instanced++;
    } else if (line.find("glDrawArraysIndirect(") != std::string::npos) {
      current.indirect++;
    }
  }
  std::remove(trace.c_str());
  return last;
}

// Pixels near `rgb` in the world area (the runs hide the UI with --keys Tab; the margin skips the frame).
size_t agentPixels(const std::string& png, int r, int g, int b) {
  int w = 0, h = 0, n = 0;
  unsigned char* px = stbi_load(png.c_str(), &w, &h, &n, 4);
  if (!px) return 0;
  size_t count = 0;
  for (int y = 40; y < h - 40; ++y)
    for (int x = 40; x < w - 40; ++x) {
      const unsigned char* p = px + (size_t(y) * size_t(w) + size_t(x)) * 4;
      count += std::abs(p[0] - r) + std::abs(p[1] - g) + std::abs(p[2] - b) < 40;
    }
  stbi_image_free(px);
  return count;
}
constexpr int kCpu[3] = {200, 215, 235}, kGpu[3] = {120, 235, 150};  // the scene's agent colours

}  // namespace

TEST(WindowGpu, PerAgentModeIssuesOneDrawCallPerAgent) {
  for (long long n : {1000LL, 2500LL}) {
    AgentDraws d = traceAgentDraws("--scene gpu --set N=" + std::to_string(n) + " --set render=per-agent --frames 3",
                                   "gpu_per_agent_" + std::to_string(n), n);
    if (!d.available) GTEST_SKIP() << "apitrace is not installed";
    EXPECT_EQ(d.perAgent, n) << "N = " << n;
    EXPECT_EQ(d.instanced, 0) << "N = " << n;
  }
}

TEST(WindowGpu, InstancedModeIssuesOneDrawForAllAgents) {
  AgentDraws d = traceAgentDraws("--scene gpu --set N=2500 --frames 3", "gpu_instanced", 2500);
  if (!d.available) GTEST_SKIP() << "apitrace is not installed";
  EXPECT_EQ(d.instanced, 1);
  EXPECT_EQ(d.perAgent, 0);
}

TEST(WindowGpu, GpuSimulationDrawsIndirectlyOnceOrOncePerAgent) {
  AgentDraws d = traceAgentDraws("--scene gpu --set N=2500 --set sim=gpu --frames 3", "gpu_indirect", 2500);
  if (!d.available) GTEST_SKIP() << "apitrace is not installed";
  EXPECT_EQ(d.indirect, 1);
  EXPECT_EQ(d.instanced + d.perAgent + d.baseInstance, 0);
  d = traceAgentDraws("--scene gpu --set N=1500 --set sim=gpu --set render=per-agent --frames 3", "gpu_base_instance", 1500);
  EXPECT_EQ(d.baseInstance, 1500);
  EXPECT_EQ(d.indirect, 0);
}

TEST(WindowGpu, AgentsFillTheWorldInBothSimulationModes) {
  for (int sim = 0; sim < 2; ++sim) {
    const std::string png = apptest::outDir() + "/gpu_sim" + std::to_string(sim) + ".png";
    std::remove(png.c_str());
    apptest::RunResult r = apptest::runCrowdlab(std::string("--scene gpu --set N=20000 --set sim=") +
                                                (sim ? "gpu" : "cpu") + " --keys Tab --frames 20 --screenshot '" + png + "'");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.value("agents"), "20000");
    EXPECT_EQ(r.value("agent_draw_calls"), "1");
    const int* own = sim ? kGpu : kCpu;
    const int* other = sim ? kCpu : kGpu;
    // The world area is sprinkled with agents of this mode's colour, none of the other's.
    EXPECT_GT(agentPixels(png, own[0], own[1], own[2]), 1500u) << png;
    EXPECT_EQ(agentPixels(png, other[0], other[1], other[2]), 0u) << png;
  }
}

TEST(WindowGpu, BelowOpenGL43TheCpuRunsAndTheReasonIsGiven) {
  const std::string png = apptest::outDir() + "/gpu_gl33.png";
  std::remove(png.c_str());
  apptest::RunResult r =
      apptest::runCrowdlab("--scene gpu --set N=20000 --set sim=gpu --keys Tab --frames 10 --screenshot '" + png + "'",
                           "CROWDLAB_GL=3.3");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find("needs OpenGL 4.3"), std::string::npos) << r.err;
  EXPECT_EQ(r.value("agents"), "20000");
  EXPECT_GT(agentPixels(png, kCpu[0], kCpu[1], kCpu[2]), 1500u);
  EXPECT_EQ(agentPixels(png, kGpu[0], kGpu[1], kGpu[2]), 0u);
}

TEST(WindowGpu, HeadlessNeverTouchesTheGpu) {
  apptest::RunResult r = apptest::runCrowdlab("--headless --scene gpu --set sim=gpu --set N=5000 --steps 5", "SDL_VIDEODRIVER=none");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.value("gpu_sim"), "0");
  EXPECT_GT(std::atof(r.value("mean_neighbors").c_str()), 5.0);
}

TEST(WindowGpu, BenchSaysWhenItHasNoContext) {
  apptest::RunResult r = apptest::runCrowdlab("bench --case gpu-boids --n 1000 --steps 2", "SDL_VIDEODRIVER=dummy");
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("gpu-boids: needs an OpenGL 4.3 context"), std::string::npos) << r.out;
}

TEST(WindowGpu, BenchComparesCpuAndGpuRows) {
  apptest::RunResult r = apptest::runCrowdlab("bench --case gpu-boids --n 5000 --steps 5");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("gpu-boids         5000 cpu"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("gpu-boids         5000 gpu"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("grid_ms="), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rules_ms="), std::string::npos) << r.out;
}
