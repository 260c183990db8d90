// A world of the given boundary, corner and size, for the neighbour-search tests.
#pragma once
#include "sim/core/world.hpp"

template <int D>
sim::World<D> makeWorld(sim::Boundary b, sim::Vec<D> min, sim::Vec<D> size) {
  sim::World<D> w;
  w.min = min;
  w.size = size;
  w.boundary = b;
  return w;
}
