// The subcommands' flags (claims, sweep, tune) read one way: `--flag VALUE` pairs, each flag once
// unless it is declared repeatable, no missing or empty value, numbers whole and in range, and one
// message format for every mistake (user text quoted, cut, control bytes shown).
#pragma once
#include <cstdint>
#include <initializer_list>
#include <set>
#include <string>
#include <vector>

namespace app {

class FlagReader {
 public:
  explicit FlagReader(const std::vector<std::string>& args) : args_(args) {}

  bool done() const { return i_ >= args_.size(); }
  // The next argument, taken as a flag name (the caller matches it against its switches first).
  const std::string& peek() const { return args_[i_]; }
  // Takes a switch (a flag without a value).
  void skip() { ++i_; }
  // Takes the argument after the last one taken, when there is one that is not a flag (--merge A B).
  bool nextPlain(std::string& value);

  // Takes `flag VALUE`, where flag must be one of `known`: false with `error` on an unknown flag, a
  // flag given twice (unless listed in `repeatable`), no value or an empty one.
  bool take(std::initializer_list<const char*> known, std::initializer_list<const char*> repeatable, std::string& flag,
            std::string& value, std::string& error);

  // `value` of `flag` as a whole decimal number in [lo, hi]; false with the one message otherwise.
  static bool wholeNumber(const std::string& flag, const std::string& value, uint64_t lo, uint64_t hi, uint64_t& out,
                          std::string& error);

 private:
  const std::vector<std::string>& args_;
  size_t i_ = 0;
  std::set<std::string> seen_;
};

}  // namespace app
