//===- Fabric.td - the fabric dialect, all of it -----------*- tablegen -*-===//

#ifndef TESSERA_DIALECT_FABRIC_FABRIC_TD
#define TESSERA_DIALECT_FABRIC_FABRIC_TD

include "tessera/Dialect/Fabric/IR/FabricDialect.td"
include "tessera/Dialect/Fabric/IR/FabricAttrs.td"
include "tessera/Dialect/Fabric/IR/FabricOps.td"

#endif // TESSERA_DIALECT_FABRIC_FABRIC_TD
