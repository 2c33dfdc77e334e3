//===- PNG.h - images as PNG files ------------------------------*- C++ -*-===//
#ifndef TESSERA_VIZ_PNG_H
#define TESSERA_VIZ_PNG_H

#include "tessera/Viz/Expected.h"
#include "tessera/Viz/Image.h"

#include <string>
#include <vector>

namespace tessera::viz {

/// The bytes of a PNG file: 8-bit RGB, not interlaced, every row unfiltered
/// (the images are flat colour areas, which deflate compresses well as they
/// are).
std::vector<uint8_t> encodePNG(const Image &image);

Status writePNG(const Image &image, const std::string &path);

} // namespace tessera::viz

#endif // TESSERA_VIZ_PNG_H
