//===- CSLMemoryOps.td - pointer globals and config registers -*- tablegen -*-===//
//
// Program state that upstream memref cannot hold: globals whose value is a
// pointer, and the PE's memory-mapped configuration words.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_DIALECT_CSL_CSLMEMORYOPS_TD
#define TESSERA_DIALECT_CSL_CSLMEMORYOPS_TD

include "tessera/Dialect/CSL/IR/CSLDialect.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"

//===----------------------------------------------------------------------===//
// Pointer globals
//===----------------------------------------------------------------------===//

def CSL_PointerGlobalOp : CSL_Op<"pointer_global", [
    HasParent<"ProgramOp">, Symbol,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>
  ]> {
  let summary = "A global variable that holds a pointer";
  let description = [{
    A top-level CSL `var` of pointer type, such as `var p: [*]f32 = &A;`.
    A pointer is a memref value in run-time code, and a `memref.global`
    cannot hold one, so the variable is its own op. `type` is the pointer's
    memref type: `memref<?xT>` for a many-item pointer `[*]T`, the pointee's
    storage type for a single-item pointer. `target`, when present, names
    the `memref.global` the pointer initially points to (its first
    element); its element type must be the pointer's, and for a
    single-item pointer its type must be `type`. Without `target` the
    pointer is null until run-time code stores to it.

    Example:

    ```mlir
    memref.global @A : memref<16xf32> = uninitialized
    csl.pointer_global @ptr_A = @A : memref<?xf32>
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<AnyMemRef>:$type,
                       OptionalAttr<FlatSymbolRefAttr>:$target);
  let assemblyFormat = [{
    $sym_name (`=` $target^)? attr-dict `:` $type
  }];
  let hasVerifier = 1;
}

def CSL_LoadPointerOp : CSL_Op<"load_pointer", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>
  ]> {
  let summary = "Reads a pointer global";
  let description = [{
    The current value of `csl.pointer_global @global`.

    Example:

    ```mlir
    %p = csl.load_pointer @ptr_A : memref<?xf32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$global);
  let results = (outs AnyMemRef:$result);
  let assemblyFormat = "$global attr-dict `:` type($result)";
}

def CSL_StorePointerOp : CSL_Op<"store_pointer", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>
  ]> {
  let summary = "Makes a pointer global point elsewhere";
  let description = [{
    Stores `value` into `csl.pointer_global @global`; the types must match.

    Example:

    ```mlir
    csl.store_pointer %p, @ptr_A : memref<?xf32>
    ```
  }];
  let arguments = (ins AnyMemRef:$value, FlatSymbolRefAttr:$global);
  let assemblyFormat = "$value `,` $global attr-dict `:` type($value)";
}

//===----------------------------------------------------------------------===//
// Configuration words
//===----------------------------------------------------------------------===//

def CSL_GetConfigOp : CSL_Op<"get_config"> {
  let summary = "Reads a memory-mapped configuration word";
  let description = [{
    CSL's `@get_config(addr)`: the 16-bit configuration word at word address
    `addr` (router color and switch configuration, the PE's coordinates,
    the timestamp counter; docs/Library.md lists the map).

    Example:

    ```mlir
    %x = csl.get_config %addr : i16
    ```
  }];
  let arguments = (ins I16:$addr);
  let results = (outs I16:$result);
  let assemblyFormat = "$addr attr-dict `:` type($result)";
}

def CSL_SetConfigOp : CSL_Op<"set_config"> {
  let summary = "Writes a memory-mapped configuration word";
  let description = [{
    CSL's `@set_config(addr, value)`: writes the 16-bit `value` to the
    configuration word at word address `addr`.

    Example:

    ```mlir
    csl.set_config %addr, %value : i16
    ```
  }];
  let arguments = (ins I16:$addr, I16:$value);
  let assemblyFormat = "$addr `,` $value attr-dict `:` type($value)";
}

def CSL_Random16Op : CSL_Op<"random16"> {
  let summary = "The next value of the PE's pseudo-random generator";
  let description = [{
    CSL's `@random16()`: 16 fresh pseudo-random bits; each call advances
    the PE's generator state.

    Example:

    ```mlir
    %r = csl.random16 : i16
    ```
  }];
  let results = (outs I16:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// DSD globals
//===----------------------------------------------------------------------===//

def CSL_DSDGlobalOp : CSL_Op<"dsd_global", [
    HasParent<"ProgramOp">, Symbol, IsolatedFromAbove
  ]> {
  let summary = "A global variable that holds a DSD";
  let description = [{
    A top-level CSL `var` of DSD type, such as
    `var y_dsd = @get_dsd(mem1d_dsd, .{ .base_address = &y, .extent = M });`.
    Its initializer is a region that builds the initial descriptor from
    symbols and constants and yields it; the program does so before any
    task runs. Run-time code reads the variable with `csl.load_dsd` and
    replaces it with `csl.store_dsd` (for example after
    `@increment_dsd_offset`). Without an initializer region the variable
    holds no descriptor until a store: a function's local DSD `var` lives
    in such a slot (CSL tasks run to completion and functions do not
    recurse, so one slot per variable suffices).

    Example:

    ```mlir
    memref.global @y : memref<4xf32> = uninitialized
    csl.dsd_global @y_dsd : !csl.dsd<mem1d, f32> {
      %y = memref.get_global @y : memref<4xf32>
      %d = csl.tensor_access_dsd %y sizes [4] map affine_map<(d0) -> (d0)>
          : memref<4xf32> -> !csl.dsd<mem1d, f32>
      csl.yield %d : !csl.dsd<mem1d, f32>
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<CSL_AnyDSD>:$type);
  let regions = (region AnyRegion:$initializer);
  let assemblyFormat = "$sym_name attr-dict `:` $type ($initializer^)?";
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name, "::mlir::Type":$type,
                                 "bool":$withInitializer)>];
}

def CSL_YieldOp : CSL_Op<"yield", [
    Pure, HasParent<"DSDGlobalOp">, ReturnLike, Terminator
  ]> {
  let summary = "The initial value of a DSD global";
  let arguments = (ins Variadic<CSL_AnyDSD>:$values);
  let assemblyFormat = "($values^ `:` qualified(type($values)))? attr-dict";
}

def CSL_LoadDSDOp : CSL_Op<"load_dsd", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>
  ]> {
  let summary = "Reads a DSD global";
  let description = [{
    The current descriptor of `csl.dsd_global @global`.

    Example:

    ```mlir
    %d = csl.load_dsd @y_dsd : !csl.dsd<mem1d, f32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$global);
  let results = (outs CSL_AnyDSD:$result);
  let assemblyFormat = "$global attr-dict `:` qualified(type($result))";
}

def CSL_StoreDSDOp : CSL_Op<"store_dsd", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>
  ]> {
  let summary = "Replaces the descriptor of a DSD global";
  let description = [{
    Stores `value` into `csl.dsd_global @global`; the types must match.

    Example:

    ```mlir
    csl.store_dsd %d, @y_dsd : !csl.dsd<mem1d, f32>
    ```
  }];
  let arguments = (ins CSL_AnyDSD:$value, FlatSymbolRefAttr:$global);
  let assemblyFormat = "$value `,` $global attr-dict `:` qualified(type($value))";
}

//===----------------------------------------------------------------------===//
// Pointer arithmetic and casts
//===----------------------------------------------------------------------===//

def CSL_ElementAddressOp : CSL_Op<"element_address", [Pure]> {
  let summary = "The address of one element of an array";
  let description = [{
    CSL's `&a[i]` (or `&a[i, j]`): a single-item pointer to the element of
    `base` at `indices`, one per dimension of the statically shaped base.

    Example:

    ```mlir
    %p = csl.element_address %a[%i] : memref<8xf32> -> memref<f32>
    ```
  }];
  let arguments = (ins AnyStaticShapeMemRef:$base, Variadic<Index>:$indices);
  let results = (outs AnyMemRef:$result);
  let assemblyFormat = [{
    $base `[` $indices `]` attr-dict `:` type($base) `->` type($result)
  }];
  let hasVerifier = 1;
}

def CSL_AddressToPointerOp : CSL_Op<"address_to_pointer", [Pure]> {
  let summary = "A pointer to a fixed byte address";
  let description = [{
    CSL's `@bitcast(*T, address)`: the 16-bit byte address `address` used as
    a pointer, as programs do to reach memory-mapped configuration words
    (at twice their word address) directly.

    Example:

    ```mlir
    %p = csl.address_to_pointer %a : i16 -> memref<i16>
    ```
  }];
  let arguments = (ins I16:$address);
  let results = (outs AnyMemRef:$result);
  let assemblyFormat = "$address attr-dict `:` type($address) `->` type($result)";
}

def CSL_PtrCastOp : CSL_Op<"ptrcast", [Pure]> {
  let summary = "The same address seen as another pointer type";
  let description = [{
    CSL's `@ptrcast(T, p)`: the address `p` holds, read as a pointer of
    type `T`, whose elements may have another type (`[*]u32` over an `f32`
    array, say). Both are pointer memrefs: `memref<?xE>` or statically
    shaped.

    Example:

    ```mlir
    %q = csl.ptrcast %p : memref<4xf32> to memref<?xi32>
    ```
  }];
  let arguments = (ins AnyMemRef:$source);
  let results = (outs AnyMemRef:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `to` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Element-wise calls
//===----------------------------------------------------------------------===//

def CSL_MapOp : CSL_Op<"map", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>
  ]> {
  let summary = "Calls a function once per element of DSDs";
  let description = [{
    CSL's `@map(f, args..., dest)`. When `f` returns a value the last
    operand is its destination; the others are `f`'s arguments (all of them
    when it returns nothing). For element i, a DSD argument (memory or
    fabin) gives its element i read as `f`'s parameter type, a scalar is
    passed unchanged, and a pointer (rank-0 memref) passes either itself,
    when `f` takes a pointer, or its current pointee; `f`'s result goes to
    element i of a DSD destination or replaces the pointee of a pointer
    destination, so a pointer given as both an argument and the destination
    accumulates (a reduction). The element count is the length of the DSD
    operands.

    Example:

    ```mlir
    csl.map @scale(%src, %factor, %dst)
        : (!csl.dsd<mem1d, f32>, f32, !csl.dsd<mem1d, f32>)
    csl.map @add(%src, %sum, %sum)
        : (!csl.dsd<mem1d, f32>, memref<f32>, memref<f32>)
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$operands);
  let assemblyFormat = [{
    $callee `(` $operands `)` attr-dict `:` `(` qualified(type($operands)) `)`
  }];
}

#endif // TESSERA_DIALECT_CSL_CSLMEMORYOPS_TD
