//===- DSRFile.cpp - sparse DSR and FIFO files ----------------------------===//

#include "tessera/Emulator/DSRFile.h"

using namespace tessera;
using namespace tessera::emulator;

namespace {
const Descriptor DefaultDescriptor{};
const Fifo UninitializedFifo{};
} // namespace

const Descriptor &DSRFile::get(DSRId id) const {
  uint8_t slot = slots[id.getSlot() % NumDSRs];
  return slot ? used[slot - 1] : DefaultDescriptor;
}

void DSRFile::set(DSRId id, const Descriptor &descriptor) {
  uint8_t &slot = slots[id.getSlot() % NumDSRs];
  if (!slot) {
    used.push_back(descriptor);
    slot = static_cast<uint8_t>(used.size());
    return;
  }
  used[slot - 1] = descriptor;
}

void DSRFile::reset() {
  slots.fill(0);
  used.clear();
}

const Fifo &FifoFile::get(unsigned slot) const {
  return fifos ? (*fifos)[slot % pe::NumFifos] : UninitializedFifo;
}

Fifo &FifoFile::getMutable(unsigned slot) {
  if (!fifos)
    fifos = std::make_unique<std::array<Fifo, pe::NumFifos>>();
  return (*fifos)[slot % pe::NumFifos];
}
