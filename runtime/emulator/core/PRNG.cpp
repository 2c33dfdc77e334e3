//===- PRNG.cpp - seeding the PE's pseudo-random generators ---------------===//

#include "tessera/Emulator/ScalarCore.h"

using namespace tessera::emulator;

namespace {

/// MurmurHash3's 32-bit finaliser: neighbouring PEs get unrelated seeds.
uint32_t fmix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85EBCA6Bu;
  h ^= h >> 13;
  h *= 0xC2B2AE35u;
  h ^= h >> 16;
  return h;
}

} // namespace

uint32_t tessera::emulator::prngSeed(uint32_t x, uint32_t y,
                                     unsigned generator) {
  uint32_t key = (x << 16 | (y & 0xFFFFu)) + 0x9E3779B9u * (generator + 1);
  uint32_t seed = fmix32(key);
  return seed ? seed : 0x6D2B79F5u;
}

void CEState::seedPRNG(uint32_t x, uint32_t y) {
  for (unsigned g = 0; g < NumGenerators; ++g)
    prng[g] = prngSeed(x, y, g);
  prngSelect = 0;
}
