//===- BitmapFont.h - the 5x7 font of PNG labels ----------------*- C++ -*-===//
#ifndef TESSERA_VIZ_BITMAPFONT_H
#define TESSERA_VIZ_BITMAPFONT_H

#include <array>
#include <string_view>

namespace tessera::viz {

constexpr int GlyphWidth = 5;
constexpr int GlyphHeight = 7;
/// A glyph plus one blank column.
constexpr int GlyphAdvance = GlyphWidth + 1;

/// Seven rows of five characters, '#' for ink. Lowercase letters are drawn
/// as capitals; a character without a glyph is drawn as a hollow box.
const std::array<std::string_view, GlyphHeight> &getGlyph(char character);

} // namespace tessera::viz

#endif // TESSERA_VIZ_BITMAPFONT_H
