// The one reader of every command's flags (crowdlab's window and headless options, bench, claims,
// sweep, tune): `--flag VALUE` or `--flag=VALUE` pairs and switches, each flag once unless it is
// declared repeatable, no missing or empty value, numbers whole and in range, and one message format
// for every mistake (user text quoted, cut, control bytes shown). Here in io, beside the other
// readers of user input, so bench (which may use io, never app) reads its flags the same way.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <set>
#include <string>
#include <vector>

namespace io {

class FlagReader {
 public:
  explicit FlagReader(const std::vector<std::string>& args);

  bool done() const { return i_ >= args_.size(); }
  // The next argument's flag name (of --flag=VALUE, the part before '='): the caller matches it
  // against its switches first.
  const std::string& peek() const { return names_[i_]; }
  // Takes a switch (a flag without a value) without checks.
  void skip() { ++i_; }
  // Takes the next argument when it is one of `switches`: false with `error` when it is given twice
  // or with a value (--list=3); `flag` is the switch taken.
  bool takeSwitch(std::initializer_list<const char*> switches, std::string& flag, std::string& error);
  // Whether the next argument is one of `switches` (without taking it).
  bool nextIs(std::initializer_list<const char*> switches) const;
  // Takes the argument after the last one taken, when there is one that is not a flag (--merge A B).
  bool nextPlain(std::string& value);

  // Takes `flag VALUE`, where flag must be one of `known`: false with `error` on an unknown flag, a
  // flag given twice (unless listed in `repeatable`), no value (the end, or another flag where the
  // value should be) or an empty one.
  bool take(std::initializer_list<const char*> known, std::initializer_list<const char*> repeatable, std::string& flag,
            std::string& value, std::string& error);

  // Whether `flag` was taken (by take or takeSwitch).
  bool given(const std::string& flag) const { return seen_.count(flag) > 0; }

  // `value` of `flag` as a whole decimal number in [lo, hi]; false with the one message otherwise.
  static bool wholeNumber(const std::string& flag, const std::string& value, uint64_t lo, uint64_t hi, uint64_t& out,
                          std::string& error);

  // CROWDLAB_PARSE_ONLY=1: every command reads its flags, then exits 0 without doing anything
  // (no window, no file, no run), or exits 2 with its one line on a bad flag. Documentation checks
  // run every command line of the docs so.
  static bool parseOnly();

 private:
  std::vector<std::string> args_;   // the values, --flag=VALUE split
  std::vector<std::string> names_;  // each argument's flag name
  std::vector<int> inlineValue_;    // 1: the argument carried its value after '='
  size_t i_ = 0;
  std::set<std::string> seen_;
};

}  // namespace io
