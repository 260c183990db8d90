// `crowdlab bench` under node: the simulation core's cases built exactly as the page builds them
// (same wasm SIMD, same serial or threaded loops), without the window, WebGL or the renderer, so the
// step's own cost in WebAssembly is measured apart from the page's drawing.
//   node build-web/crowdlab_bench_node.js --case finale --n 10000 --threads 1
#include <string>
#include <vector>
#include "bench/bench.hpp"

int main(int argc, char** argv) { return bench::run(std::vector<std::string>(argv + 1, argv + argc)); }
