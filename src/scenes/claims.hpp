// The article's claims as data (see docs/design.md, "Claims"). One registry drives the scenes' experiment
// buttons, the on-canvas banner with its live verdict, `crowdlab claims` and the tests.
//
// A claim is an experiment (the scene's defaults, then a preset and `--set`-style assignments, then
// a named starting state the scene knows), a measuring window in simulated seconds, and a rule over
// one metric in that window. A metric that decides a claim never depends on the parameter the claim
// varies: groups are counted by a fixed link distance, not by the k-neighbour graph.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>
#include "scenes/reduction.hpp"
#include "scenes/scene.hpp"

namespace scenes {

struct ClaimRule {
  const char* metric;     // a name the scene's metrics() gives
  Reduce reduce = Reduce::Final;
  double level = 0;       // LongestBelow's and TimeUntil's level
  bool atLeast = true;    // the claim holds when value >= threshold (else value <= threshold)
  double threshold = 0;
};

// How a claim about cost is judged, so that a busy machine never flips its verdict: by the work
// counted (distance checks, draw calls: the same on any machine) or by the fastest of repeated timings
// (the window's fastest step or frame, the one least disturbed by other work). Said in the rule's line.
enum class CostBasis {
  None,           // not a claim about cost
  CountedWork,    // a count of work done, never a clock
  FastestTiming,  // the fastest of the window's repeated timings (Reduce::Min of a "_ms" metric)
};

struct Claim {
  const char* id;          // "murmuration.k1-chains"
  const char* scene;       // command-line scene name
  const char* title;       // the experiment button
  const char* statement;   // what the article says, one short English line
  const char* preset;      // a built-in preset file of the scene ("" none), applied over the defaults
  std::vector<const char*> sets;  // then these "name=value" assignments
  const char* start;       // the scene's starting state for it ("" the plain reset), see Scene::startState
  double window;           // measuring window, simulated seconds from the start
  double from;             // the window opens here (settling time before it)
  ClaimRule rule;
  bool mustHold;           // `crowdlab claims` exits 1 when it fails
  const char* fix = "";    // non-empty: the claim holds only with this crowdlab fix (the article's own method fails)
  const char* relativeTo = "";  // non-empty: the measured value is this claim's value over that claim's (same
                                // seed); that claim's rule measures the same metric
  double seedShare = 1.0;  // share of the seeds that must pass (the falcon: 2 of 3)
  std::vector<const char*> also = {};  // metrics reported beside it (means over the window)
  const char* unit = "";   // printed after the value
  // The result in the class's words, with the measured numbers put in: {v} the window's value, {a0},
  // {a1}... the `also` metrics; a suffix picks the form: {v:%} a percentage, {v:0} a whole number,
  // {v:1} one decimal (default: three significant digits). "" falls back to the metric's name.
  const char* result = "";
  const char* resultNever = "";  // TimeUntil: the sentence when the event did not happen in the window
  bool needsWindow = false;      // measured from frames drawn with OpenGL: only in the window (`crowdlab --claim ID`)
  CostBasis cost = CostBasis::None;
};

// Each scene's claims live beside it (claims_<scene>.cpp), registered with one line:
//   static bool registered = registerClaims("boids", &boidsClaims);
bool registerClaims(const char* scene, std::vector<Claim> (*build)());
// The rules claims are made of.
inline ClaimRule atLeast(const char* metric, Reduce reduce, double threshold) { return {metric, reduce, 0, true, threshold}; }
inline ClaimRule atMost(const char* metric, Reduce reduce, double threshold) { return {metric, reduce, 0, false, threshold}; }
inline ClaimRule belowFor(const char* metric, double level, double seconds) {
  return {metric, Reduce::LongestBelow, level, true, seconds};
}

// Every registered claim, in the scenes' teaching order.
std::span<const Claim> allClaims();
std::vector<const Claim*> claimsOf(const std::string& scene);
const Claim* findClaim(const std::string& id);

// A full restart into the claim's experiment: defaults, preset, assignments, reset, starting state.
// The scene keeps its seed. False with a message when something does not apply (a bug in the registry).
bool startExperiment(Scene& scene, const Claim& claim, std::string& error);

// Steps a frame while the window runs the claim: the settling and a long window go fast-forward
// (drawn, several steps a frame) so that every verdict shows within a lecture's minute; 1 once the
// verdict is in, and always for claims measured from the frames themselves (needsWindow). The steps are
// the same ones, so the numbers are those of `crowdlab claims`.
int fastForward(const Claim& claim, double simTime, bool done);
// The banner's note for it: "fast-forward x8", or "" at 1.
std::string fastForwardNote(int factor);

// Follows one run of a claim: feed it the metrics after every step; it reduces the window.
class ClaimTracker {
 public:
  void begin(const Claim& claim);
  // `time`: simulated seconds since the experiment started. A time not after the last one sampled is
  // ignored, so the window may feed it after every step and again when it draws the banner.
  void sample(double time, std::span<const sim::Metric> metrics);
  bool done() const { return done_; }
  const Claim* claim() const { return claim_; }
  // The window's reduced value (the ratio is taken by the caller for relativeTo claims).
  double value() const;
  double alsoValue(size_t i) const { return alsoCount_ ? alsoSum_[i] / double(alsoCount_) : 0.0; }
  double lastSample() const { return last_; }
  double sampledUntil() const { return lastTime_; }

 private:
  const Claim* claim_ = nullptr;
  bool done_ = false;
  WindowReduction rule_;  // the rule's metric over the window
  double last_ = 0, lastTime_ = 0;
  bool sampledAny_ = false;
  size_t alsoCount_ = 0;
  std::vector<double> alsoSum_;
};

bool ruleHolds(const ClaimRule& rule, double value);

// A verdict line from the seeds' values: "holds", "holds with crowdlab's fix (...)", or
// "article overstates (...)" with the measured number against the rule's.
struct ClaimVerdict {
  bool holds = false;
  int seedsPassed = 0;
  std::string text;
};
ClaimVerdict judge(const Claim& claim, std::span<const double> values);

// The banner's lines (see Claim::result): the result in the class's words, then " -> holds" or
// " -> the article overstates"; and the program's own line, "largest_group_share (mean) <= 0.5: 0.2".
std::string resultSentence(const Claim& claim, double value, std::span<const double> also);
std::string verdictWords(const ClaimVerdict& verdict, const Claim& claim);
std::string programLine(const Claim& claim, double value);

// A value with the claim's unit, as the table and the banner print it.
std::string formatValue(const Claim& claim, double value);
// What the rule asks, e.g. "largest_group_share below 0.70 for >= 2 s"; a cost claim adds how it is
// judged ("by counted work" or "by the fastest of repeated timings").
std::string describeRule(const Claim& claim);

}  // namespace scenes
