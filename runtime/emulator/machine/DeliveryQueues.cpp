//===- DeliveryQueues.cpp - a PE's polls of its router's queues -----------===//
//
// A PE looks at the head of a delivery queue every cycle it waits on one;
// finding the queue by coordinates and color costs three dependent loads
// into the network's tables, so each PE keeps the queue's number.
//
//===----------------------------------------------------------------------===//

#include "PE.h"

using namespace tessera::emulator;

uint32_t machine::findQueue(const Network &network, const PE &pe,
                            unsigned color) {
  if (color >= pe.deliveryQueue.size())
    return PE::NoQueue;
  uint32_t &queue = pe.deliveryQueue[color];
  if (queue == PE::NoQueue) {
    std::optional<uint32_t> found =
        network.findDeliveryQueue(pe.coord.x, pe.coord.y, color);
    if (!found)
      return PE::NoQueue; // no lane yet
    queue = *found;
    pe.knownQueues |= uint32_t(1) << color;
  }
  return queue;
}

std::optional<Wavelet> machine::peekDelivered(const Network &network,
                                              const PE &pe, unsigned color) {
  uint32_t queue = findQueue(network, pe, color);
  if (queue == PE::NoQueue)
    return std::nullopt; // no lane yet: nothing was delivered
  return network.peekDeliveryQueue(queue);
}

std::optional<Wavelet> machine::pollDelivered(Network &network, PE &pe,
                                              unsigned color) {
  uint32_t queue = findQueue(network, pe, color);
  if (queue == PE::NoQueue)
    return std::nullopt;
  std::optional<Wavelet> head = network.peekDeliveryQueue(queue);
  if (head)
    dropDelivered(network, pe, color, queue);
  return head;
}

void machine::dropDelivered(Network &network, PE &pe, unsigned color,
                            uint32_t queue) {
  bool nowEmpty = false;
  if (network.dropDeliveryHead(queue, nowEmpty) && nowEmpty) {
    uint32_t keep = ~(uint32_t(1) << color); // color < 32: it has a queue
    pe.deliveredColors &= keep;
    pe.controlColors &= keep;
  }
}
