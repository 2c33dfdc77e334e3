//===- CSLDSDOps.td - DSD construction, mutation and DSRs --*- tablegen -*-===//
//
// CSL's @get_dsd (one operation per DSD kind), @allocate_fifo, the DSD
// mutators and the explicit DSR builtins.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_DIALECT_CSL_CSLDSDOPS_TD
#define TESSERA_DIALECT_CSL_CSLDSDOPS_TD

include "tessera/Dialect/CSL/IR/CSLOps.td"

class CSL_DSDOfKind<string kind>
    : Type<And<[CPred<"::mlir::isa<::tessera::csl::DSDType>($_self)">,
                CPred<"::mlir::cast<::tessera::csl::DSDType>($_self)"
                      ".getKind() == ::tessera::csl::DSDKind::" # kind>]>,
           "!csl.dsd<" # !tolower(kind) # ">", "::tessera::csl::DSDType">,
      BuildableType<"::tessera::csl::DSDType::get($_builder.getContext(), "
                    "::tessera::csl::DSDKind::" # kind # ", ::mlir::Type())">;

def CSL_FabinDSD : CSL_DSDOfKind<"Fabin">;
def CSL_FaboutDSD : CSL_DSDOfKind<"Fabout">;

def CSL_DSDElementType : AnyTypeOf<[F16, F32, I16, I32]>;

//===----------------------------------------------------------------------===//
// Memory DSDs
//===----------------------------------------------------------------------===//

def CSL_Mem1dDSDOp : CSL_Op<"mem1d_dsd", [Pure, AttrSizedOperandSegments]> {
  let summary = "A mem1d DSD from base, offset, stride and extent";
  let description = [{
    CSL's `@get_dsd(mem1d_dsd, .{ .base_address, .offset, .stride, .extent })`
    for run-time shapes: element `k` of the DSD is `base[offset + k *
    stride]`. `offset` defaults to 0 and `stride` (an `i8`, negative allowed)
    to 1. `extent` is the length; a constant extent must be a finite DSD
    length. The base's element type is the DSD's.
    `wavelet_index_offset` makes a `.index` of the operation offset the
    accesses.

    Example:

    ```mlir
    %d = csl.mem1d_dsd %buf extent %n offset %o stride %s
        : memref<?xf32> -> !csl.dsd<mem1d, f32>
    ```
  }];
  let arguments = (ins AnyMemRef:$base, I16:$extent, Optional<I16>:$offset,
                       Optional<I8>:$stride, UnitAttr:$wavelet_index_offset);
  let results = (outs CSL_AnyDSD:$result);
  let assemblyFormat = [{
    $base `extent` $extent (`offset` $offset^)? (`stride` $stride^)?
    (`wavelet_index_offset` $wavelet_index_offset^)? attr-dict
    `:` type($base) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def CSL_TensorAccessDSDOp : CSL_Op<"tensor_access_dsd", [Pure]> {
  let summary = "A mem1d or mem4d DSD from an affine tensor access";
  let description = [{
    CSL's `.tensor_access = |i, j|{N, M} -> A[f(i, j)]`: `sizes` are the
    extents of the induction variables and `map` gives the indices into
    `base` for each point of that iteration space. One induction variable
    makes a `mem1d` DSD; a `mem4d` DSD takes one to four. The map has one
    result per dimension of `base`, no symbols, and must stay inside a
    statically shaped `base` over the whole iteration space.

    Example:

    ```mlir
    // |i|{16} -> A[2 * i + 1]
    %d = csl.tensor_access_dsd %A sizes [16] map affine_map<(i) -> (i * 2 + 1)>
        : memref<33xf32> -> !csl.dsd<mem1d, f32>
    // |i, j|{4, 8} -> B[j, i]
    %e = csl.tensor_access_dsd %B sizes [4, 8] map affine_map<(i, j) -> (j, i)>
        : memref<8x4xf16> -> !csl.dsd<mem4d, f16>
    ```
  }];
  let arguments = (ins AnyMemRef:$base, DenseI64ArrayAttr:$sizes,
                       AffineMapAttr:$map, UnitAttr:$wavelet_index_offset);
  let results = (outs CSL_AnyDSD:$result);
  let assemblyFormat = [{
    $base `sizes` $sizes `map` $map
    (`wavelet_index_offset` $wavelet_index_offset^)? attr-dict
    `:` type($base) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def CSL_CircbufDSDOp : CSL_Op<"circbuf_dsd", [Pure]> {
  let summary = "A circular-buffer DSD";
  let description = [{
    CSL's `@get_dsd(circbuf_dsd, ...)`: a DSD over `base` that wraps around
    after `wraparound` elements (default: the whole buffer), so its `extent`
    may exceed the buffer.

    Example:

    ```mlir
    %d = csl.circbuf_dsd %buf extent %n wraparound 8
        : memref<16xi16> -> !csl.dsd<circbuf, i16>
    ```
  }];
  let arguments = (ins AnyMemRef:$base, I16:$extent,
                       OptionalAttr<I64Attr>:$wraparound);
  let results = (outs CSL_AnyDSD:$result);
  let assemblyFormat = [{
    $base `extent` $extent (`wraparound` $wraparound^)? attr-dict
    `:` type($base) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Fabric DSDs
//===----------------------------------------------------------------------===//

def CSL_FabinDSDOp : CSL_Op<"fabin_dsd", [Pure]> {
  let summary = "A DSD that reads wavelets from an input queue";
  let description = [{
    CSL's `@get_dsd(fabin_dsd, .{ .extent, .fabric_color, .input_queue })`:
    reads `extent` wavelets of `color` from `queue` in arrival order. The
    extent may be the infinite length 0x7FFF (32767). `priority` is a WSE-3
    field; on WSE-2 the operation carries the priority.

    Example:

    ```mlir
    %in = csl.fabin_dsd extent %n color %c queue %q
    ```
  }];
  let arguments = (ins I16:$extent, CSL_ColorType:$color,
                       CSL_InputQueueType:$queue, UnitAttr:$control_transform,
                       OptionalAttr<CSL_PriorityAttr>:$priority);
  let results = (outs CSL_FabinDSD:$result);
  let assemblyFormat = [{
    `extent` $extent `color` $color `queue` $queue
    (`control_transform` $control_transform^)?
    (`priority` custom<EnumKeyword>($priority)^)?
    attr-dict
  }];
  let hasVerifier = 1;
}

def CSL_FaboutDSDOp : CSL_Op<"fabout_dsd", [Pure]> {
  let summary = "A DSD that sends wavelets through an output queue";
  let description = [{
    CSL's `@get_dsd(fabout_dsd, .{ .extent, .fabric_color, .output_queue,
    ... })`: sends `extent` wavelets of `color` through `queue`. `control`
    sends control wavelets, `wavelet_index_offset` puts the operation's
    `.index` in the high half of each wavelet, `advance_switch` advances the
    color's switch when the operation completes. `priority` is a WSE-3
    field.

    Example:

    ```mlir
    %out = csl.fabout_dsd extent %n color %c queue %q control advance_switch
    ```
  }];
  let arguments = (ins I16:$extent, CSL_ColorType:$color,
                       CSL_OutputQueueType:$queue, UnitAttr:$control,
                       UnitAttr:$wavelet_index_offset,
                       UnitAttr:$advance_switch, UnitAttr:$control_transform,
                       OptionalAttr<CSL_PriorityAttr>:$priority);
  let results = (outs CSL_FaboutDSD:$result);
  let assemblyFormat = [{
    `extent` $extent `color` $color `queue` $queue (`control` $control^)?
    (`wavelet_index_offset` $wavelet_index_offset^)?
    (`advance_switch` $advance_switch^)?
    (`control_transform` $control_transform^)?
    (`priority` custom<EnumKeyword>($priority)^)?
    attr-dict
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// FIFOs
//===----------------------------------------------------------------------===//

def CSL_AllocateFifoOp : CSL_Op<"allocate_fifo", [
    HasParent<"ProgramOp">, Symbol,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>
  ]> {
  let summary = "Turns a global array into a hardware FIFO";
  let description = [{
    CSL's `@allocate_fifo(buffer, opts)`. A FIFO is a program-wide resource,
    so it is declared once by symbol and used through `csl.get_fifo`.
    `buffer` names a one-dimensional, statically shaped `memref.global`
    whose element type is the FIFO's. `activate_push` and `activate_pop`
    name local tasks activated when an element is pushed or popped;
    `priority` is a WSE-3 option.

    Example:

    ```mlir
    memref.global @buf : memref<64xf32> = uninitialized
    csl.allocate_fifo @fifo buffer @buf activate_push @on_push
        : !csl.dsd<fifo, f32>
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, FlatSymbolRefAttr:$buffer,
                       TypeAttrOf<CSL_AnyDSD>:$type,
                       OptionalAttr<FlatSymbolRefAttr>:$activate_push,
                       OptionalAttr<FlatSymbolRefAttr>:$activate_pop,
                       OptionalAttr<CSL_PriorityAttr>:$priority);
  let assemblyFormat = [{
    $sym_name `buffer` $buffer (`activate_push` $activate_push^)?
    (`activate_pop` $activate_pop^)?
    (`priority` custom<EnumKeyword>($priority)^)? attr-dict
    `:` $type
  }];
  let hasVerifier = 1;
}

def CSL_GetFifoOp : CSL_Op<"get_fifo", [
    Pure, DeclareOpInterfaceMethods<SymbolUserOpInterface>
  ]> {
  let summary = "The DSD of a FIFO";
  let description = [{
    The FIFO declared by `csl.allocate_fifo @fifo`, as a DSD that DSD
    operations push to (destination) or pop from (source).

    Example:

    ```mlir
    %f = csl.get_fifo @fifo : !csl.dsd<fifo, f32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$fifo);
  let results = (outs CSL_AnyDSD:$result);
  let assemblyFormat = "$fifo attr-dict `:` qualified(type($result))";
}

//===----------------------------------------------------------------------===//
// Mutators
//===----------------------------------------------------------------------===//

def CSL_IncrementDSDOffsetOp : CSL_Op<"increment_dsd_offset", [
    Pure, AllTypesMatch<["dsd", "result"]>
  ]> {
  let summary = "A memory DSD moved by a number of elements";
  let description = [{
    CSL's `@increment_dsd_offset(dsd, offset, T)`: the DSD's base moves by
    `offset` elements of `elem_type` (negative moves back). Memory DSDs
    only.

    Example:

    ```mlir
    %e = csl.increment_dsd_offset %d by %n of f32 : !csl.dsd<mem1d, f32>
    ```
  }];
  let arguments = (ins CSL_AnyDSD:$dsd, I16:$offset,
                       TypeAttrOf<CSL_DSDElementType>:$elem_type);
  let results = (outs CSL_AnyDSD:$result);
  let assemblyFormat = [{
    $dsd `by` $offset `of` $elem_type attr-dict `:` qualified(type($dsd))
  }];
  let hasVerifier = 1;
}

def CSL_SetDSDBaseAddrOp : CSL_Op<"set_dsd_base_addr", [
    Pure, AllTypesMatch<["dsd", "result"]>
  ]> {
  let summary = "A memory DSD with a new base address";
  let description = [{
    CSL's `@set_dsd_base_addr(dsd, ptr)`. Memory DSDs only. The DSD keeps
    its type: like every memory DSD, the operations that use it read the new
    base with their own element width (CSL programs rebase one placeholder
    DSD onto arrays of different types).

    Example:

    ```mlir
    %e = csl.set_dsd_base_addr %d, %p : !csl.dsd<mem1d, f32>, memref<?xf32>
    ```
  }];
  let arguments = (ins CSL_AnyDSD:$dsd, AnyMemRef:$base);
  let results = (outs CSL_AnyDSD:$result);
  let assemblyFormat = [{
    $dsd `,` $base attr-dict `:` qualified(type($dsd)) `,` type($base)
  }];
  let hasVerifier = 1;
}

def CSL_SetDSDLengthOp : CSL_Op<"set_dsd_length", [
    Pure, AllTypesMatch<["dsd", "result"]>
  ]> {
  let summary = "A DSD with a new length";
  let description = [{
    CSL's `@set_dsd_length(dsd, length)`, for mem1d, circbuf and fabric
    DSDs (not mem4d, which has one extent per dimension, nor FIFOs).

    Example:

    ```mlir
    %e = csl.set_dsd_length %d, %n : !csl.dsd<fabin>
    ```
  }];
  let arguments = (ins CSL_AnyDSD:$dsd, I16:$length);
  let results = (outs CSL_AnyDSD:$result);
  let assemblyFormat = [{
    $dsd `,` $length attr-dict `:` qualified(type($dsd))
  }];
  let hasVerifier = 1;
}

def CSL_SetDSDStrideOp : CSL_Op<"set_dsd_stride", [
    Pure, AllTypesMatch<["dsd", "result"]>
  ]> {
  let summary = "A mem1d DSD with a new stride";
  let description = [{
    CSL's `@set_dsd_stride(dsd, stride)`; mem1d DSDs only.

    Example:

    ```mlir
    %e = csl.set_dsd_stride %d, %s : !csl.dsd<mem1d, f32>
    ```
  }];
  let arguments = (ins CSL_AnyDSD:$dsd, I8:$stride);
  let results = (outs CSL_AnyDSD:$result);
  let assemblyFormat = [{
    $dsd `,` $stride attr-dict `:` qualified(type($dsd))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Data structure registers
//===----------------------------------------------------------------------===//

def CSL_GetDSROp : CSL_Op<"get_dsr", [Pure]> {
  let summary = "A data structure register of a given file";
  let description = [{
    CSL's `@get_dsr(dsr_dest | dsr_src0 | dsr_src1, id)`; the type names the
    file. Register counts per file are not public, so only the sign of the
    ID is checked.

    Example:

    ```mlir
    %r = csl.get_dsr 2 : !csl.dsr<dest>
    ```
  }];
  let arguments = (ins I64Attr:$id);
  let results = (outs CSL_DSRType:$result);
  let assemblyFormat = "$id attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def CSL_LoadToDSROp : CSL_Op<"load_to_dsr", [AttrSizedOperandSegments]> {
  let summary = "Loads a DSD into a data structure register";
  let description = [{
    CSL's `@load_to_dsr(dsr, dsd, opts)`. A fabin DSD loads only into a
    source register and a fabout DSD only into a destination register. The
    options are those of the DSD operations (`async`, `activate`, `unblock`,
    `ut_id`) plus `save_address`.

    Example:

    ```mlir
    csl.load_to_dsr %r, %out async activate %t
        : !csl.dsr<dest>, !csl.dsd<fabout>
    ```
  }];
  let arguments = (ins CSL_DSRType:$dsr, CSL_AnyDSD:$dsd, UnitAttr:$async,
                       Optional<CSL_LocalTaskID>:$activate,
                       Optional<CSL_TaskIDType>:$unblock,
                       Optional<CSL_MicrothreadIDType>:$ut_id,
                       UnitAttr:$save_address);
  let assemblyFormat = [{
    $dsr `,` $dsd (`async` $async^)? (`activate` $activate^)?
    (`unblock` $unblock^ `:` qualified(type($unblock)))?
    (`ut_id` $ut_id^)? (`save_address` $save_address^)? attr-dict
    `:` qualified(type($dsr)) `,` qualified(type($dsd))
  }];
  let hasVerifier = 1;
}

#endif // TESSERA_DIALECT_CSL_CSLDSDOPS_TD
