// PNG files: screenshots and recorded frames.
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include "io/atomic_file.hpp"

namespace io {

// Writes RGBA8 pixels (top row first) as PNG (through writeFileAtomically); false with a message on failure.
bool writePng(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba, std::string& error,
              Existing existing = Existing::Replace);
// The same into an output opened before the run (the window's --screenshot), committed here.
bool writePng(OutputFile& out, int width, int height, const std::vector<uint8_t>& rgba, std::string& error);
// The same, and the output stays open: its file is replaced again on the next call and at commit
// (a --screenshot taken mid-run on SIGUSR1 and again at the end).
bool rewritePng(OutputFile& out, int width, int height, const std::vector<uint8_t>& rgba, std::string& error);

}  // namespace io
