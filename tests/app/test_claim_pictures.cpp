// Every claim in the picture: screenshots the program takes of its experiments, checked for
// the encoding that shows each claim. Each test fails with its encoding switched off.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include "app_util.hpp"
#include "scenes/group_colors.hpp"

namespace {

struct Shot {
  apptest::Pixels pixels;
  nlohmann::json state;
  apptest::RunResult run;
  int x = 0, y = 0, w = 0, h = 0;  // the world's view, window pixels
};

// A 1920x1080 window at UI scale 1 (or `uiScale`) with a private settings folder; ARGS decide how long it runs.
Shot shoot(const std::string& name, const std::string& args, double uiScale = 1.0) {
  const std::string dir = apptest::freshDir("claim-pictures-" + name);
  std::ofstream(dir + "/settings.json") << "{\"uiScale\": " << std::to_string(uiScale) << "}";
  const std::string png = dir + "/shot.png", state = dir + "/state.json";
  Shot s;
  s.run = apptest::runCrowdlab(args + " --width 1920 --height 1080 --screenshot '" + png + "' --state-out '" + state + "'",
                               "CROWDLAB_CONFIG_DIR='" + dir + "'");
  EXPECT_EQ(s.run.exitCode, 0) << args << "\n" << s.run.err;
  s.pixels = apptest::loadPixels(png);
  s.state = nlohmann::json::parse(apptest::slurp(state), nullptr, false);
  const std::string area = s.run.value("world_area");  // "x,y,w,h"
  if (std::sscanf(area.c_str(), "%d,%d,%d,%d", &s.x, &s.y, &s.w, &s.h) != 4) ADD_FAILURE() << "no world_area in\n" << s.run.out;
  return s;
}

bool near(const unsigned char* c, uint32_t rgba, int tolerance) {
  const glm::vec4 want = render::unpackRgba(rgba) * 255.0f;
  return std::abs(c[0] - int(want.x)) + std::abs(c[1] - int(want.y)) + std::abs(c[2] - int(want.z)) <= tolerance;
}

}  // namespace

// k = 1: the chains and pairs in their group colours. At least as many of the palette's colours show
// on the world as the metric counts groups (up to the palette's size).
TEST(ClaimPictures, ChainsOfKOneShowInAsManyGroupColoursAsThereAreGroups) {
  const Shot s = shoot("k1", "--claim murmuration.k1-chains --frames 480");
  ASSERT_TRUE(s.state.is_object());
  const double groups = s.state["metrics"]["groups"].get<double>();
  const auto& palette = scenes::GroupColors::kPalette;
  int shown = 0;
  for (uint32_t colour : palette) {
    int pixels = 0;
    for (int y = s.y; y < s.y + s.h; ++y)
      for (int x = s.x; x < s.x + s.w; ++x) pixels += near(s.pixels.at(x, y), colour, 30);
    shown += pixels >= 8;
  }
  std::printf("groups %.0f, palette colours on screen %d of %zu\n", groups, shown, palette.size());
  EXPECT_GE(groups, 2.0);
  EXPECT_GE(double(shown), std::min(groups, double(palette.size())));
}

// The banner has its own strip: the world is fitted above it, and the strip holds no agent (its top
// margin, above the text, is the banner's plain background across the whole view).
TEST(ClaimPictures, NoAgentUnderTheBannerStrip) {
  for (const std::string claim : {"orca-corridor.orca-lanes-w4", "murmuration.k1-chains", "murmuration.k7-lively"}) {
    SCOPED_TRACE(claim);
    const Shot s = shoot("strip-" + claim, "--claim " + claim + " --frames 90");
    ASSERT_TRUE(s.state.is_object());
    const double strip = s.state["experiment"]["banner_strip"].get<double>();
    EXPECT_GT(strip, 60.0) << "three lines of the banner";
    EXPECT_LE(double(s.y + s.h), 1080.0 - strip + 1.0) << "the world's view reaches under the banner";
    int other = 0;
    const int top = int(std::ceil(1080.0 - strip)) + 1;
    for (int y = top; y < top + 6; ++y)
      for (int x = s.x; x < s.x + s.w; ++x) other += !near(s.pixels.at(x, y), render::rgba(10, 12, 18), 6);
    EXPECT_EQ(other, 0) << "pixels other than the banner's background in its strip's top margin";
    if (claim.rfind("orca", 0) == 0) {
      EXPECT_EQ(s.run.value("agents_outside_view"), "0");
    }
  }
}

// Brute force against the grid: the checks layer (lines to every agent tested, checks per cell on one
// scale) makes the two pictures differ as much as the numbers: brute force's cells glow hot.
TEST(ClaimPictures, BruteForceAndGridPicturesDifferInTheChecksLayer) {
  // Until each verdict shows: brute force's baseline (the grid) runs headless beside its window.
  const Shot grid = shoot("grid", "--claim spatial-hash.grid");
  const Shot brute = shoot("brute", "--claim spatial-hash.brute-vs-grid");
  auto hot = [](const Shot& s) {
    size_t n = 0;
    for (int y = s.y; y < s.y + s.h; ++y)
      for (int x = s.x; x < s.x + s.w; ++x) {
        const unsigned char* c = s.pixels.at(x, y);
        n += c[0] > 150 && c[1] < 110 && c[2] < 100;
      }
    return double(n) / double(std::max(1, s.w * s.h));
  };
  std::printf("hot share: grid %.3f, brute force %.3f\n", hot(grid), hot(brute));
  EXPECT_GT(hot(brute), 0.2) << "brute force's cells glow";
  EXPECT_GT(hot(brute), 5.0 * hot(grid));
  EXPECT_NE(brute.state["experiment"]["banner"].get<std::string>().find("times as many"), std::string::npos)
      << brute.state["experiment"]["banner"];
}

// The merge: its window runs until the parts have merged (or its limit), so the verdict agrees with
// the largest group's share in the picture at the end of the window.
TEST(ClaimPictures, MergeVerdictAgreesWithTheLargestGroupAtTheEndOfItsWindow) {
  const Shot s = shoot("merge", "--claim murmuration.falcon-merges");
  ASSERT_TRUE(s.state.is_object());
  const std::string banner = s.state["experiment"]["banner"];
  ASSERT_TRUE(s.state["experiment"]["verdict_shown"].get<bool>()) << banner;
  const double share = s.state["metrics"]["largest_group_share"].get<double>();
  const bool holds = banner.find("->  holds") != std::string::npos;
  std::printf("merge: largest group %.2f, %s\n", share, banner.c_str());
  if (holds) {
    EXPECT_GE(share, 0.75) << banner;
  } else {
    EXPECT_LT(share, 0.8) << banner;
  }
}

// The corridor's status line (method, width, crossed, jammed, overlaps: what its claims are about)
// is read in the picture: inside the world's view, right of the HUD and left of the scene panel,
// its glyphs drawn there. It used to sit at the left room's corner, under the HUD, and with the
// banner's strip reserved, above the world's view. At UI scale 1.5, a 1080p display's first-run
// scale: there the inset is large enough that the rooms fill the view's height.
TEST(ClaimPictures, CorridorStatusLineShowsClearOfThePanels) {
  const Shot s = shoot("corridor-status", "--claim orca-corridor.orca-lanes-w4 --frames 90", 1.5);
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  const std::string rect = s.run.value("clear_labels");
  ASSERT_EQ(std::sscanf(rect.c_str(), "%f,%f,%f,%f", &x0, &y0, &x1, &y1), 4) << "no status line in\n" << s.run.out;
  x1 += x0, y1 += y0;  // x, y, w, h: the far corner
  const float hudRight = std::stof(s.run.value("hud_right")), panelLeft = std::stof(s.run.value("panel_left"));
  std::printf("status line %s, HUD right %.0f, panel left %.0f, world %d,%d %dx%d\n", rect.c_str(), hudRight, panelLeft, s.x,
              s.y, s.w, s.h);
  EXPECT_GE(x0, hudRight);
  EXPECT_LE(x1, panelLeft);
  EXPECT_GE(y0, float(s.y));
  EXPECT_LE(y1, float(s.y + s.h));
  EXPECT_GT(x1 - x0, 300.0f) << "the whole line at the UI's size";
  int ink = 0;
  for (int y = int(y0); y < int(y1); ++y)
    for (int x = int(x0); x < int(x1); ++x) ink += near(s.pixels.at(x, y), render::rgba(220, 225, 235), 45);
  std::printf("glyph pixels %d\n", ink);
  EXPECT_GT(ink, 400) << "glyph pixels of the status line";
}
