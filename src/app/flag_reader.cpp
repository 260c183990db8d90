#include "app/flag_reader.hpp"

#include "io/user_files.hpp"

namespace app {

bool FlagReader::nextPlain(std::string& value) {
  if (done() || args_[i_].rfind("--", 0) == 0) return false;
  value = args_[i_++];
  return true;
}

bool FlagReader::take(std::initializer_list<const char*> known, std::initializer_list<const char*> repeatable,
                      std::string& flag, std::string& value, std::string& error) {
  flag = args_[i_];
  bool isKnown = false, isRepeatable = false;
  for (const char* k : known) isKnown = isKnown || flag == k;
  for (const char* r : repeatable) isRepeatable = isRepeatable || flag == r;
  if (!isKnown && !isRepeatable) {
    error = "unknown option " + io::quoteText(flag);
    return false;
  }
  if (!isRepeatable && !seen_.insert(flag).second) {
    error = flag + " is given more than once";  // a second one is a mistake, not an override
    return false;
  }
  if (i_ + 1 >= args_.size()) {
    error = flag + " needs a value";
    return false;
  }
  value = args_[i_ + 1];
  i_ += 2;
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

}  // namespace app
