//===- CSLOps.td - csl dialect types and operations --------*- tablegen -*-===//

#ifndef TESSERA_DIALECT_CSL_CSLOPS_TD
#define TESSERA_DIALECT_CSL_CSLOPS_TD

include "tessera/Dialect/CSL/IR/CSLDialect.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

def CSL_ColorType : CSL_Type<"Color", "color"> {
  let summary = "A virtual channel of the fabric";
  let description = [{
    A color names one virtual channel of the fabric. Wavelets carry their
    color, routers forward them by color, and on WSE-2 a color also selects
    the data task that a wavelet activates.

    Example:

    ```mlir
    %c = csl.get_color 3 : !csl.color
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Operations
//===----------------------------------------------------------------------===//

def CSL_GetColorOp : CSL_Op<"get_color", [Pure]> {
  let summary = "A color value with a fixed hardware ID";
  let description = [{
    Produces the color with hardware ID `id`, as CSL's `@get_color(id)` does.
    The ID is a non-negative integer; whether it is routable on the chosen
    architecture is checked against the target model by the resource passes,
    not here, because the same module may be compiled for WSE-2 or WSE-3.

    Example:

    ```mlir
    %c = csl.get_color 3 : !csl.color
    ```
  }];
  let arguments = (ins I64Attr:$id);
  let results = (outs CSL_ColorType:$result);
  let assemblyFormat = "$id attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

#endif // TESSERA_DIALECT_CSL_CSLOPS_TD
