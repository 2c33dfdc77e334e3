//===- PNGWriter.cpp - PNG encoding over zlib -----------------------------===//

#include "tessera/Viz/PNG.h"

#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <fstream>

using namespace tessera::viz;

namespace {

void appendBigEndian(std::vector<uint8_t> &out, uint32_t value) {
  for (int shift = 24; shift >= 0; shift -= 8)
    out.push_back(uint8_t(value >> shift));
}

/// Length, type, data, then the CRC of type and data.
void appendChunk(std::vector<uint8_t> &out, const char type[4],
                 const std::vector<uint8_t> &data) {
  appendBigEndian(out, uint32_t(data.size()));
  size_t typeStart = out.size();
  out.insert(out.end(), type, type + 4);
  out.insert(out.end(), data.begin(), data.end());
  uLong crc = crc32(0L, Z_NULL, 0);
  crc = crc32(crc, out.data() + typeStart, uInt(out.size() - typeStart));
  appendBigEndian(out, uint32_t(crc));
}

/// The zlib stream of the scanlines, each prefixed by filter type 0. Deflated
/// one row at a time so that a large image needs no second full-size buffer.
std::vector<uint8_t> deflateRows(const Image &image) {
  z_stream stream{};
  deflateInit(&stream, 6);
  std::vector<uint8_t> compressed;
  std::vector<uint8_t> chunk(1 << 16);
  const uint8_t filterNone = 0;
  auto pump = [&](const uint8_t *data, size_t size, int flush) {
    stream.next_in = const_cast<Bytef *>(data);
    stream.avail_in = uInt(size);
    do {
      stream.next_out = chunk.data();
      stream.avail_out = uInt(chunk.size());
      deflate(&stream, flush);
      compressed.insert(compressed.end(), chunk.data(),
                        chunk.data() + (chunk.size() - stream.avail_out));
    } while (stream.avail_out == 0);
  };
  for (unsigned y = 0; y < image.getHeight(); ++y) {
    pump(&filterNone, 1, Z_NO_FLUSH);
    pump(image.getRow(y), size_t(image.getWidth()) * 3, Z_NO_FLUSH);
  }
  pump(nullptr, 0, Z_FINISH);
  deflateEnd(&stream);
  return compressed;
}

} // namespace

std::vector<uint8_t> tessera::viz::encodePNG(const Image &image) {
  static const uint8_t Signature[8] = {0x89, 'P',  'N',  'G',
                                       '\r', '\n', 0x1A, '\n'};
  std::vector<uint8_t> out(Signature, Signature + 8);
  std::vector<uint8_t> header;
  appendBigEndian(header, image.getWidth());
  appendBigEndian(header, image.getHeight());
  // Bit depth 8, colour type 2 (RGB), deflate, adaptive filtering, no
  // interlace.
  header.insert(header.end(), {8, 2, 0, 0, 0});
  appendChunk(out, "IHDR", header);
  appendChunk(out, "IDAT", deflateRows(image));
  appendChunk(out, "IEND", {});
  return out;
}

Status tessera::viz::writePNG(const Image &image, const std::string &path) {
  std::vector<uint8_t> bytes = encodePNG(image);
  std::ofstream stream(path, std::ios::binary);
  if (!stream)
    return Error("cannot write '" + path + "': " + std::strerror(errno));
  stream.write(reinterpret_cast<const char *>(bytes.data()),
               std::streamsize(bytes.size()));
  stream.flush();
  if (!stream)
    return Error("cannot write '" + path + "': " + std::strerror(errno));
  return {};
}
