//===- RegionPlacement.h - Put a layout's code regions in place -*- C++ -*-===//
//
// After the layout block has run: code regions `@place_region` did not
// place are placed by TesseraPlacement's region placer beside what they
// connect to, then every region-relative tile, color config and connection
// end becomes one of the rectangle. docs/Language.md ("Code regions").
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_FRONTEND_ELABORATION_REGIONPLACEMENT_H
#define TESSERA_FRONTEND_ELABORATION_REGIONPLACEMENT_H

#include "tessera/Frontend/Elaboration/LayoutDescription.h"
#include "tessera/Frontend/Sema/Diagnostics.h"

namespace tessera::frontend::elaboration {

/// False after reporting why the regions cannot be placed or applied. A
/// layout without regions is left unchanged.
bool placeLayoutRegions(LayoutDescription &layout,
                        sema::DiagnosticEngine &diags);

} // namespace tessera::frontend::elaboration

#endif // TESSERA_FRONTEND_ELABORATION_REGIONPLACEMENT_H
