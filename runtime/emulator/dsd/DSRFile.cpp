//===- DSRFile.cpp - sparse DSR and FIFO files ----------------------------===//

#include "tessera/Emulator/DSRFile.h"

using namespace tessera;
using namespace tessera::emulator;

namespace {
const Fifo UninitializedFifo{};
} // namespace

void DSRFile::add(DSRId id, const Descriptor &descriptor, uint16_t origin) {
  used.push_back(descriptor);
  origins.push_back(origin);
  slots[id.getSlot() % NumDSRs] = static_cast<uint8_t>(used.size());
}

void DSRFile::reset() {
  slots.fill(0);
  used.clear();
  origins.clear();
}

const Fifo &FifoFile::get(unsigned slot) const {
  return fifos ? (*fifos)[slot % pe::NumFifos] : UninitializedFifo;
}

Fifo &FifoFile::getMutable(unsigned slot) {
  if (!fifos)
    fifos = std::make_unique<std::array<Fifo, pe::NumFifos>>();
  return (*fifos)[slot % pe::NumFifos];
}
