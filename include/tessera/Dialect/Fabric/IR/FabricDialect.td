//===- FabricDialect.td - the fabric dialect definition ----*- tablegen -*-===//
//
// The physical machine: the fabric, the program rectangle, which program
// runs where, and the routers' per-color configuration.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_DIALECT_FABRIC_FABRICDIALECT_TD
#define TESSERA_DIALECT_FABRIC_FABRICDIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Fabric_Dialect : Dialect {
  let name = "fabric";
  let cppNamespace = "::tessera::fabric";
  let summary = "The wafer: rectangle, program placement and routes";
  let description = [{
    The `fabric` dialect describes what CSL's `layout` block and the
    `cslc` command line decide: the fabric size and where the program
    rectangle sits in it, which program instance runs on which PEs, how each
    PE's router forwards each color, and the names the host can reach.

    A `fabric.fabric` holds one `fabric.rectangle` and any number of
    instances, placements, color configurations and exports. Coordinates
    inside it are relative to the rectangle's north-west corner, as in
    `@set_tile_code(x, y, ...)`; x grows east and y south. Placements and
    color configurations cover a rectangular range of PEs with an optional
    step, so a program repeated over the wafer is one operation.

    The program of an instance is a `csl.program` elsewhere in the module;
    the two dialects meet by symbol.
  }];
  let useDefaultAttributePrinterParser = 1;
  let dependentDialects = ["::tessera::csl::CSLDialect"];
}

class Fabric_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Fabric_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

class Fabric_Op<string mnemonic, list<Trait> traits = []>
    : Op<Fabric_Dialect, mnemonic, traits>;

#endif // TESSERA_DIALECT_FABRIC_FABRICDIALECT_TD
