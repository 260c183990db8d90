// The ORCA corridor's claims of the article, beside the scene: the registry (scenes/claims.hpp)
// gathers them for the experiment buttons, the banner, `crowdlab claims` and the tests.
#include <string>
#include <vector>
#include "scenes/claims.hpp"

namespace scenes {
namespace {

// The corridor runs table: every method at the article's three widths. The article: 4 passes,
// 2.5 slows, 2 jams. "Passes" is the mean throughput at least 20 per minute; "slows" and "jams" are
// throughput against the same method at width 4 (below 90 %, below 10 %).
std::vector<Claim> corridorTable() {
  struct Method {
    const char* key;
    const char* label;
    std::vector<const char*> sets;
    const char* fix;
  };
  const Method methods[] = {
      {"separation", "separation", {"method=separation", "lanes=false"}, ""},
      {"orca-like", "ORCA-like (article)", {"method=orca-like", "lanes=false"}, ""},
      {"orca", "ORCA", {"method=orca", "lanes=false"}, ""},
      {"orca-lanes", "ORCA + lanes", {"method=orca", "lanes=true"}, "lanes: each direction keeps right"},
  };
  static const std::string ids[4][3] = {
      {"orca-corridor.separation-w4", "orca-corridor.separation-w2.5", "orca-corridor.separation-w2"},
      {"orca-corridor.orca-like-w4", "orca-corridor.orca-like-w2.5", "orca-corridor.orca-like-w2"},
      {"orca-corridor.orca-w4", "orca-corridor.orca-w2.5", "orca-corridor.orca-w2"},
      {"orca-corridor.orca-lanes-w4", "orca-corridor.orca-lanes-w2.5", "orca-corridor.orca-lanes-w2"}};
  static const std::string titles[4][3] = {
      {"Separation, width 4", "Separation, width 2.5", "Separation, width 2"},
      {"ORCA-like, width 4", "ORCA-like, width 2.5", "ORCA-like, width 2"},
      {"ORCA, width 4", "ORCA, width 2.5", "ORCA, width 2"},
      {"ORCA + lanes, width 4", "ORCA + lanes, width 2.5", "ORCA + lanes, width 2"}};
  // The built-in presets that already are one of these runs (their buttons then are this claim).
  const char* presets[4][3] = {{"", "", ""},
                               {"5-orca-like.json", "", ""},
                               {"6-orca-without-lanes.json", "", "2-width-2-jam.json"},
                               {"1-width-4-orca-lanes.json", "3-width-2.5-lanes.json", ""}};
  const char* widths[3] = {"width=4", "width=2.5", "width=2"};
  const char* statements[3] = {"Width 4 diameters: the two groups pass each other",
                               "Width 2.5 diameters: the flow slows down",
                               "Width 2 diameters: the corridor jams"};
  std::vector<Claim> out;
  for (int m = 0; m < 4; ++m) {
    for (int w = 0; w < 3; ++w) {
      Claim c{ids[m][w].c_str(), "orca-corridor", titles[m][w].c_str(), statements[w], presets[m][w], methods[m].sets, "",
              60.0, 10.0, atLeast("throughput_per_min", Reduce::Final, 20.0), false};
      c.sets.push_back("groupSize=20");
      c.sets.push_back(widths[w]);
      c.fix = methods[m].fix;
      if (w > 0) {
        c.relativeTo = ids[m][0].c_str();
        c.rule = atMost("throughput_per_min", Reduce::Final, w == 1 ? 0.9 : 0.1);
        c.unit = "x";
      }
      c.also = {"overlaps_total"};
      c.result = w == 0 ? "{v:0} people a minute got through the corridor"
                        : "The flow is {v:%} of the same method's flow at width 4";
      out.push_back(c);
    }
  }
  return out;
}

std::vector<Claim> orcacorridorClaims() {
  std::vector<Claim> c;
  for (const Claim& k : corridorTable()) c.push_back(k);
  c.push_back({"orca-corridor.orca-like-overlaps", "orca-corridor", "ORCA-like: through each other?",
               "The article's ORCA-like demo: counterflows pass without colliding", "5-orca-like.json", {"showOverlaps=true", "inset=false"}, "",
               60.0, 0.0, atMost("overlaps_total", Reduce::Final, 0.0), false});
  c.back().result = "Agents overlapped for {v:0} agent-steps in all (bodies passing through each other)";
  return c;
}

[[maybe_unused]] bool registered = registerClaims("orca-corridor", &orcacorridorClaims);

}  // namespace
}  // namespace scenes
