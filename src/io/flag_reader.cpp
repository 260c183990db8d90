#include "io/flag_reader.hpp"

#include <cstdlib>
#include <cstring>
#include "io/user_files.hpp"

namespace io {

namespace {
// "--name" or "--name=value"; a lone "-h" too. Negative numbers ("-3") are values, not flags.
bool looksLikeFlag(const std::string& a) { return (a.rfind("--", 0) == 0 && a.size() > 2) || a == "-h"; }
}  // namespace

FlagReader::FlagReader(const std::vector<std::string>& args) {
  for (const std::string& a : args) {
    const size_t eq = a.find('=');
    if (a.rfind("--", 0) == 0 && eq != std::string::npos && eq > 2) {
      names_.push_back(a.substr(0, eq));
      args_.push_back(a.substr(eq + 1));
      inlineValue_.push_back(1);
    } else {
      names_.push_back(a);
      args_.push_back(a);
      inlineValue_.push_back(0);
    }
  }
}

bool FlagReader::nextIs(std::initializer_list<const char*> switches) const {
  if (done()) return false;
  for (const char* s : switches)
    if (names_[i_] == s) return true;
  return false;
}

bool FlagReader::takeSwitch(std::initializer_list<const char*> switches, std::string& flag, std::string& error) {
  if (!nextIs(switches)) return false;
  flag = names_[i_];
  if (inlineValue_[i_]) {
    error = flag + " takes no value";
    return false;
  }
  if (!seen_.insert(flag).second) {
    error = flag + " is given more than once";
    return false;
  }
  ++i_;
  return true;
}

bool FlagReader::nextPlain(std::string& value) {
  if (done() || looksLikeFlag(names_[i_])) return false;
  value = args_[i_++];
  return true;
}

bool FlagReader::take(std::initializer_list<const char*> known, std::initializer_list<const char*> repeatable,
                      std::string& flag, std::string& value, std::string& error) {
  flag = names_[i_];
  bool isKnown = false, isRepeatable = false;
  for (const char* k : known) isKnown = isKnown || flag == k;
  for (const char* r : repeatable) isRepeatable = isRepeatable || flag == r;
  if (!isKnown && !isRepeatable) {
    error = "unknown option " + io::quoteText(args_[i_] == flag ? flag : names_[i_] + "=" + args_[i_]);
    return false;
  }
  if (!isRepeatable && !seen_.insert(flag).second) {
    error = flag + " is given more than once";  // a second one is a mistake, not an override
    return false;
  }
  seen_.insert(flag);
  if (inlineValue_[i_]) {
    value = args_[i_++];
  } else {
    // The end, or another flag where the value should be: `--scene --seed 3` is a missing value.
    if (i_ + 1 >= args_.size() || looksLikeFlag(names_[i_ + 1])) {
      error = flag + " needs a value";
      return false;
    }
    value = args_[i_ + 1];
    i_ += 2;
  }
  if (value.empty()) {
    error = flag + " needs a value, got an empty one";
    return false;
  }
  return true;
}

bool FlagReader::wholeNumber(const std::string& flag, const std::string& value, uint64_t lo, uint64_t hi,
                             uint64_t& out, std::string& error) {
  bool ok = !value.empty() && value.size() <= 19;  // 19 digits never overflow 64 bits
  uint64_t n = 0;
  for (char c : value) {
    ok = ok && c >= '0' && c <= '9';
    if (ok) n = n * 10 + uint64_t(c - '0');
  }
  if (!ok || n < lo || n > hi) {
    error = flag + " expects a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got " +
            io::quoteText(value);
    return false;
  }
  out = n;
  return true;
}

bool FlagReader::parseOnly() {
  const char* v = std::getenv("CROWDLAB_PARSE_ONLY");
  return v && std::strcmp(v, "1") == 0;
}

}  // namespace io
