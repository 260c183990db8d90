#include "io/atomic_file.hpp"


namespace io {

bool writeFileAtomically(const std::string& path, const std::function<bool(std::FILE*)>& write, std::string& error,
                         Existing existing) {
  OutputFile out;
  if (!out.open(path, {OutputFile::Mode::Whole, true, existing}, error)) return false;
  out.writeWith(write);
  return out.commit(error);
}

bool writeFileAtomically(const std::string& path, std::string_view bytes, std::string& error, Existing existing) {
  OutputFile out;
  if (!out.open(path, {OutputFile::Mode::Whole, true, existing}, error)) return false;
  out.write(bytes);
  return out.commit(error);
}

bool checkWritable(const std::string& path, std::string& error) {
  OutputFile out;
  return out.open(path, {OutputFile::Mode::Whole, true, Existing::Replace, true}, error);
}

std::string writeUnderNewName(const std::string& stem, const std::string& suffix,
                              const std::function<bool(const std::string& path, std::string& error)>& write,
                              std::string& error) {
  for (int k = 1; k <= 1000; ++k) {
    // Appended piece by piece: GCC 12 at -O3 warns falsely (-Wrestrict, its bug 105329) on the one expression.
    std::string path = stem;
    if (k > 1) {
      path += '-';
      path += std::to_string(k);
    }
    path += suffix;
    std::string why;
    if (write(path, why)) return path;
    if (why != path + ": already exists") {
      error = why;
      return {};
    }
  }
  error = stem + suffix + ": a thousand files of that name already exist";
  return {};
}

}  // namespace io
