// Ctrl+C, SIGTERM and SIGHUP for a command that stops cleanly (a headless run, a sweep, a tuning run):
// the first signal asks it to stop, a second one ends the program at once.
#pragma once
#include <atomic>
#include <initializer_list>

namespace app {

// While alive, `signals` set stopRequested() instead of ending the program. One request often
// arrives twice within microseconds: `timeout` and job control send it both to a process and to its
// process group. A signal within half a second of the first is that same request, not a second
// Ctrl+C (it used to end a tune before it wrote its best preset). The destructor puts the previous
// handlers back unless a stop was requested (then the program is ending). One at a time in a program.
class StopSignals {
 public:
  explicit StopSignals(std::initializer_list<int> signals);
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  static const std::atomic<bool>& stopRequested();  // a cancel flag for the experiment runner
  static int received();                            // the first signal's number, 0 if none
  // Sets stopRequested() without a signal (a job failed: the others stop too); received() stays 0.
  static void requestStop();

 private:
  int signals_[4] = {};
  void (*previous_[4])(int) = {};
  int count_ = 0;
};

}  // namespace app
