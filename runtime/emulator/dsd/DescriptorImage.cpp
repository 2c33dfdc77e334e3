//===- DescriptorImage.cpp - the 32-byte descriptor slot ------------------===//
//
// The layout (docs/Emulator.md, "Descriptor image"), little-endian:
//
//   0      kind (bits 0-2), width 32 (bit 3), wio (bit 4), save address (5)
//   1      options: async (bit 0), priority (1-2), activate (3), unblock (4),
//          ut (5), index (6) present
//   2..5   activate, unblock, ut task numbers, index register (0 if absent)
//   6..7   base              8..9   length
//   10..31 by kind:
//     mem1d    10 stride (i16), 12 offset (i32)
//     circbuf  10 wrap, 12 position (u32)
//     mem4d    10 dims, 12 position (u32), 16 + 4d extent, 18 + 4d stride
//     fabric   10 color, 11 queue, 12 control | advance_switch << 1 |
//              control_transform << 2, 13 priority
//     fifo     10 slot
//
// Kind 0 is mem1d, so a zeroed slot is an empty 16-bit mem1d. Every other
// byte and bit is zero, which makes each descriptor's image unique; decoding
// checks that by encoding again.
//
//===----------------------------------------------------------------------===//

#include "tessera/Emulator/DSRFile.h"

#include <cstring>

using namespace tessera;
using namespace tessera::emulator;

namespace {

using Image = std::array<uint8_t, DescriptorImageBytes>;

void put16(Image &image, unsigned at, uint16_t value) {
  image[at] = static_cast<uint8_t>(value);
  image[at + 1] = static_cast<uint8_t>(value >> 8);
}
void put32(Image &image, unsigned at, uint32_t value) {
  put16(image, at, static_cast<uint16_t>(value));
  put16(image, at + 2, static_cast<uint16_t>(value >> 16));
}
uint16_t get16(std::span<const uint8_t, DescriptorImageBytes> image,
               unsigned at) {
  return static_cast<uint16_t>(image[at] | image[at + 1] << 8);
}
uint32_t get32(std::span<const uint8_t, DescriptorImageBytes> image,
               unsigned at) {
  return get16(image, at) | static_cast<uint32_t>(get16(image, at + 2)) << 16;
}

/// "what value is not in lo..hi", or empty when it is.
std::string outside(const char *what, unsigned value, unsigned lo,
                    unsigned hi) {
  if (value >= lo && value <= hi)
    return "";
  return std::string(what) + " " + std::to_string(value) + " is not in " +
         std::to_string(lo) + ".." + std::to_string(hi);
}

} // namespace

Image emulator::encodeDescriptor(const Descriptor &d) {
  Image image{};
  image[0] = static_cast<uint8_t>(
      static_cast<unsigned>(d.kind) | (d.width == 32) << 3 |
      d.waveletIndexOffset << 4 | d.saveAddress << 5);
  const AttachedOptions &o = d.options;
  image[1] = static_cast<uint8_t>(
      o.async | static_cast<unsigned>(o.priority) << 1 |
      o.activate.has_value() << 3 | o.unblock.has_value() << 4 |
      o.microthread.has_value() << 5 | o.indexReg.has_value() << 6);
  image[2] = o.activate.value_or(0);
  image[3] = o.unblock.value_or(0);
  image[4] = o.microthread.value_or(0);
  image[5] = o.indexReg.value_or(0);
  put16(image, 6, d.base);
  put16(image, 8, d.length);
  switch (d.kind) {
  case DSRKind::Mem1d:
    put16(image, 10, static_cast<uint16_t>(d.stride));
    put32(image, 12, static_cast<uint32_t>(d.offset));
    break;
  case DSRKind::Circbuf:
    put16(image, 10, d.wrap);
    put32(image, 12, d.position);
    break;
  case DSRKind::Mem4d:
    image[10] = d.dims;
    put32(image, 12, d.position);
    for (unsigned i = 0; i < MaxMem4dDims; ++i) {
      put16(image, 16 + 4 * i, d.extents[i]);
      put16(image, 18 + 4 * i, static_cast<uint16_t>(d.strides[i]));
    }
    break;
  case DSRKind::FabIn:
  case DSRKind::FabOut:
    image[10] = d.color;
    image[11] = d.queue;
    image[12] = static_cast<uint8_t>(d.control | d.advanceSwitch << 1 |
                                     d.controlTransform << 2);
    image[13] = static_cast<uint8_t>(d.priority);
    break;
  case DSRKind::Fifo:
    image[10] = d.fifo;
    break;
  }
  return image;
}

std::optional<Descriptor>
emulator::decodeDescriptor(std::span<const uint8_t, DescriptorImageBytes> image,
                           std::string &why) {
  unsigned kind = image[0] & 7;
  if (kind >= NumDSRKinds) {
    why = "kind " + std::to_string(kind) + " does not exist";
    return std::nullopt;
  }
  Descriptor d;
  d.kind = static_cast<DSRKind>(kind);
  d.width = image[0] & 8 ? 32 : 16;
  d.waveletIndexOffset = image[0] & 16;
  d.saveAddress = image[0] & 32;
  AttachedOptions &o = d.options;
  o.async = image[1] & 1;
  o.priority = static_cast<pe::Priority>((image[1] >> 1) & 3);
  if (image[1] & 8)
    o.activate = image[2];
  if (image[1] & 16)
    o.unblock = image[3];
  if (image[1] & 32)
    o.microthread = image[4];
  if (image[1] & 64)
    o.indexReg = image[5];
  d.base = get16(image, 6);
  d.length = get16(image, 8);

  std::string error = outside("length", d.length, 0, MaxDSRLength);
  using Named = std::pair<const char *, std::optional<uint8_t>>;
  for (const Named &ref :
       {Named{"activate task", o.activate}, Named{"unblock task", o.unblock},
        Named{"microthread", o.microthread}})
    if (error.empty() && ref.second)
      error = outside(ref.first, *ref.second, 0, NumTaskRefValues - 1);
  if (error.empty() && o.indexReg)
    error = outside("index register", *o.indexReg, 0, pe::NumRegisters - 1);

  switch (d.kind) {
  case DSRKind::Mem1d:
    d.stride = static_cast<int16_t>(get16(image, 10));
    d.offset = static_cast<int32_t>(get32(image, 12));
    break;
  case DSRKind::Circbuf:
    d.wrap = get16(image, 10);
    d.position = get32(image, 12);
    if (error.empty())
      error = outside("wrap", d.wrap, 1, 0xFFFF);
    break;
  case DSRKind::Mem4d:
    d.dims = image[10];
    d.position = get32(image, 12);
    if (error.empty())
      error = outside("dimension count", d.dims, 1, MaxMem4dDims);
    for (unsigned i = 0; i < MaxMem4dDims && i < d.dims; ++i) {
      d.extents[i] = get16(image, 16 + 4 * i);
      d.strides[i] = static_cast<int16_t>(get16(image, 18 + 4 * i));
      if (error.empty())
        error = outside("extent", d.extents[i], 0, MaxDSRLength);
    }
    break;
  case DSRKind::FabIn:
  case DSRKind::FabOut:
    d.color = image[10];
    d.queue = image[11];
    d.control = image[12] & 1;
    d.advanceSwitch = image[12] & 2;
    d.controlTransform = image[12] & 4;
    d.priority = static_cast<pe::Priority>(image[13] & 3);
    if (error.empty())
      error = outside("color", d.color, 0, 31);
    if (error.empty())
      error = outside("queue", d.queue, 0, 7);
    if (error.empty())
      error = outside("priority", image[13], 0, 3);
    break;
  case DSRKind::Fifo:
    d.fifo = image[10];
    if (error.empty())
      error = outside("FIFO slot", d.fifo, 0, pe::NumFifos - 1);
    break;
  }
  if (error.empty()) {
    Image again = encodeDescriptor(d);
    if (std::memcmp(again.data(), image.data(), DescriptorImageBytes) != 0)
      error = "bits a " + std::string(getDSRKindName(d.kind)) +
              " descriptor does not use are set";
  }
  if (!error.empty()) {
    why = std::move(error);
    return std::nullopt;
  }
  return d;
}
