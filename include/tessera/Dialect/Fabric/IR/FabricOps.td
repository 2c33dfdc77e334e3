//===- FabricOps.td - fabric dialect operations ------------*- tablegen -*-===//

#ifndef TESSERA_DIALECT_FABRIC_FABRICOPS_TD
#define TESSERA_DIALECT_FABRIC_FABRICOPS_TD

include "tessera/Dialect/Fabric/IR/FabricAttrs.td"
// For the architecture attribute, which both dialects share.
include "tessera/Dialect/CSL/IR/CSLEnums.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/IR/SymbolInterfaces.td"

// A pair of coordinates or sizes: [x, y] or [width, height].
def Fabric_Pair : ConfinedAttr<DenseI64ArrayAttr, [DenseArrayCount<2>]>;

def Fabric_FabricOp : Fabric_Op<"fabric", [
    IsolatedFromAbove, NoRegionArguments, SymbolTable
  ] # GraphRegionNoTerminator.traits> {
  let summary = "The fabric a program is compiled for";
  let description = [{
    The machine `cslc` compiles for: `dims` is the fabric size
    (`--fabric-dims`), `offsets` the north-west corner of the program
    rectangle in it (`--fabric-offsets`). With `memcpy` the memcpy runtime
    surrounds the rectangle with its support PEs, which needs room on every
    side; `channels` is the number of host I/O channels (`--channels`).

    The body holds exactly one `fabric.rectangle` and the instances,
    placements, color configurations and exports of the layout. Its
    verifier checks what involves several of them: placements and color
    configurations inside the rectangle, no PE with two programs, no color
    configured twice on one PE, no host name declared twice.

    Example:

    ```mlir
    fabric.fabric arch wse3 dims [11, 3] offsets [4, 1] memcpy channels 1 {
      fabric.rectangle size [4, 1]
      fabric.instance @pe file "pe.csl" params {width = 4 : i64}
      fabric.place @pe at [0, 0] size [4, 1]
      fabric.color_config color 3 at [0, 0] size [4, 1]
          rx [west] tx [ramp, east]
      fabric.export mutable "y" : memref<?xf32>
    }
    ```
  }];
  let arguments = (ins CSL_ArchAttr:$arch, Fabric_Pair:$dims,
                       Fabric_Pair:$offsets, UnitAttr:$memcpy,
                       OptionalAttr<I64Attr>:$channels);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `arch` custom<EnumKeyword>($arch) `dims` $dims `offsets` $offsets
    (`memcpy` $memcpy^)? (`channels` $channels^)? attr-dict-with-keyword $body
  }];
  let builders = [
    OpBuilder<(ins "::tessera::csl::Arch":$arch,
                   "::llvm::ArrayRef<int64_t>":$dims,
                   "::llvm::ArrayRef<int64_t>":$offsets)>
  ];
  let skipDefaultBuilders = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Fabric_RectangleOp : Fabric_Op<"rectangle", [HasParent<"FabricOp">]> {
  let summary = "The size of the program rectangle";
  let description = [{
    CSL's `@set_rectangle(width, height)`. The rectangle's north-west corner
    is the fabric's `offsets`, stated once there; every other coordinate in
    the fabric is relative to that corner.

    Example:

    ```mlir
    fabric.rectangle size [4, 2]
    ```
  }];
  let arguments = (ins Fabric_Pair:$size);
  let assemblyFormat = "`size` $size attr-dict";
  let hasVerifier = 1;
}

def Fabric_InstanceOp : Fabric_Op<"instance", [
    HasParent<"FabricOp">, Symbol,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>
  ]> {
  let summary = "A program instance: a source file with its parameters";
  let description = [{
    One distinct program of the layout, as `@set_tile_code` names it: the
    file and the parameters it is compiled with. `program` refers to the
    `csl.program` compiled from it, once there is one; it must target the
    fabric's architecture and name the same file.

    Example:

    ```mlir
    fabric.instance @left file "pe.csl" params {is_left = 1 : i64}
        program @pe_left
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, StrAttr:$file,
                       OptionalAttr<DictionaryAttr>:$params,
                       OptionalAttr<FlatSymbolRefAttr>:$program);
  let assemblyFormat = [{
    $sym_name `file` $file (`params` $params^)? (`program` $program^)?
    attr-dict
  }];
}

// The PEs {(x + i * sx, y + j * sy)} inside the box at `origin` of `size`.
defvar Fabric_RangeArgs = (ins Fabric_Pair:$origin,
                               OptionalAttr<Fabric_Pair>:$size,
                               OptionalAttr<Fabric_Pair>:$step);
defvar Fabric_RangeFormat = [{
  `at` $origin (`size` $size^)? (`step` $step^)?
}];

def Fabric_PlaceOp : Fabric_Op<"place", [HasParent<"FabricOp">]> {
  let summary = "Runs a program instance on a range of PEs";
  let description = [{
    Places `instance` on the PEs of a range: the box at `origin` of `size`
    (default 1x1), taking every `step`-th column and row (default 1). The
    range must lie inside the rectangle, and no PE may receive two
    placements. With `in @region` the range is in the coordinates of a
    `fabric.code_region` and must lie inside it; `tessera-place-regions`
    makes it absolute.

    Example:

    ```mlir
    // Every other column of the first row.
    fabric.place @even at [0, 0] size [8, 1] step [2, 1]
    // The whole of code region @left, wherever it is placed.
    fabric.place @pe in @left at [0, 0] size [4, 2]
    ```
  }];
  let arguments = !con((ins FlatSymbolRefAttr:$instance,
                            OptionalAttr<FlatSymbolRefAttr>:$code_region),
                       Fabric_RangeArgs);
  let assemblyFormat = !strconcat("$instance (`in` $code_region^)? ",
                                  Fabric_RangeFormat, " attr-dict");
  let extraClassDeclaration = [{
    /// The covered range with defaults filled in, in its own coordinates.
    PERange getRange();
    /// The range in the rectangle: shifted by its code region's origin;
    /// none while that region has no position (or is not one).
    std::optional<PERange> getPlacedRange();
  }];
  let hasVerifier = 1;
}

def Fabric_CodeRegionOp : Fabric_Op<"code_region", [
    HasParent<"FabricOp">, Symbol
  ]> {
  let summary = "A rectangle of PEs that moves as one";
  let description = [{
    A code region (`@create_code_region` in layout CSL, SdkLayout's
    `create_code_region`): `size` PEs (columns, rows) whose programs and
    flow ends `fabric.place ... in @region` and `fabric.flow ... in [...]`
    give in the region's own coordinates. `origin` is where its north-west
    PE sits in the rectangle; without one, `tessera-place-regions` chooses
    it, close to what the region's flows connect it to.

    Example:

    ```mlir
    fabric.code_region @left size [4, 2] at [0, 0]
    fabric.code_region @right size [4, 2]
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, Fabric_Pair:$size,
                       OptionalAttr<Fabric_Pair>:$origin);
  let assemblyFormat = "$sym_name `size` $size (`at` $origin^)? attr-dict";
  let hasVerifier = 1;
}

def Fabric_ColorConfigOp : Fabric_Op<"color_config", [HasParent<"FabricOp">]> {
  let summary = "How the routers of a range of PEs handle one color";
  let description = [{
    CSL's `@set_color_config(x, y, color, cfg)` over a range of PEs (see
    `fabric.place` for ranges):

    * `rx`, `tx`: the ports the color is accepted from and copied to.
    * `pos1`..`pos3`: switch positions, each replacing the rx or the tx side
      with one port; they are filled in order. `current_switch_pos` is the
      initial position (0 is the base route) and must name a filled one;
      `ring_mode` wraps from the last position to 0.
    * `pop_mode`: when the router consumes a control wavelet's head command.
    * `filter`: a range or counter filter on delivery to the CE.
    * `teardown`: the color starts in teardown.
    * `color_swap_x`, `color_swap_y`: swap the color with its partner on
      entry from east/west or north/south (WSE-2 only).

    The color must be routable, and no PE may configure it twice.

    Example:

    ```mlir
    fabric.color_config color 3 at [0, 0] size [4, 1] rx [west] tx [ramp, east]
        pos1 rx north current_switch_pos 0 ring_mode pop_mode always_pop
        filter #fabric.range_filter<0, 5>
    ```
  }];
  let arguments = !con((ins I64Attr:$color), Fabric_RangeArgs,
      (ins Fabric_DirectionSetAttr:$rx, Fabric_DirectionSetAttr:$tx,
           OptionalAttr<Fabric_SwitchPositionAttr>:$pos1,
           OptionalAttr<Fabric_SwitchPositionAttr>:$pos2,
           OptionalAttr<Fabric_SwitchPositionAttr>:$pos3,
           OptionalAttr<I64Attr>:$current_switch_pos, UnitAttr:$ring_mode,
           OptionalAttr<Fabric_PopModeAttr>:$pop_mode,
           OptionalAttr<AnyAttrOf<[Fabric_RangeFilterAttr,
                                   Fabric_CounterFilterAttr]>>:$filter,
           UnitAttr:$teardown, UnitAttr:$color_swap_x,
           UnitAttr:$color_swap_y));
  let assemblyFormat = !strconcat("`color` $color ", Fabric_RangeFormat, [{
    `rx` custom<DirectionSet>($rx) `tx` custom<DirectionSet>($tx)
    (`pos1` custom<SwitchPosition>($pos1)^)?
    (`pos2` custom<SwitchPosition>($pos2)^)?
    (`pos3` custom<SwitchPosition>($pos3)^)?
    (`current_switch_pos` $current_switch_pos^)? (`ring_mode` $ring_mode^)?
    (`pop_mode` custom<EnumKeyword>($pop_mode)^)? (`filter` $filter^)?
    (`teardown` $teardown^)? (`color_swap_x` $color_swap_x^)?
    (`color_swap_y` $color_swap_y^)? attr-dict
  }]);
  let extraClassDeclaration = [{
    /// The covered range with defaults filled in.
    PERange getRange();
    /// The filled switch positions, in order.
    ::llvm::SmallVector<SwitchPositionAttr, 3> getSwitchPositions();
  }];
  let hasVerifier = 1;
}

def Fabric_ExportOp : Fabric_Op<"export", [HasParent<"FabricOp">]> {
  let summary = "A name the host can reach";
  let description = [{
    CSL's `@export_name(name, type, mutable)`: the host sees a data symbol
    (a pointer, written as a memref of 16- or 32-bit elements, `mutable` if
    the host may write it) or a function (no results, 16- or 32-bit scalar
    arguments). Each PE program binds the name with `csl.export`.

    Example:

    ```mlir
    fabric.export mutable "y" : memref<?xf32>
    fabric.export "compute" : (i16) -> ()
    ```
  }];
  let arguments = (ins StrAttr:$name, TypeAttr:$type, UnitAttr:$is_mutable);
  let assemblyFormat = [{
    (`mutable` $is_mutable^)? $name attr-dict `:` $type
  }];
  let hasVerifier = 1;
}

def Fabric_ColorSymbolOp : Fabric_Op<"color_symbol", [
    HasParent<"FabricOp">, Symbol
  ]> {
  let summary = "A color the compiler chooses";
  let description = [{
    A symbolic color: flows name it, and instance parameters may hold it
    (`params {c = @c}`). `tessera-assign-colors` gives it a physical color,
    replaces every use with the number and erases the symbol.

    Example:

    ```mlir
    fabric.color_symbol @c
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name);
  let assemblyFormat = "$sym_name attr-dict";
}

def Fabric_FlowOp : Fabric_Op<"flow", [
    HasParent<"FabricOp">, Symbol,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>
  ]> {
  let summary = "Wavelets of one color from a PE to others, routed by the compiler";
  let description = [{
    A connection the compiler routes: wavelets the CE of the PE at `from`
    sends on `color` reach the CEs of the PEs at `to` (pairs `x, y`,
    flattened: `to [3, 0, 3, 2]` is (3, 0) and (3, 2)). `color` is a
    physical color or a `fabric.color_symbol`.

    With `in [@r0, @r1, ...]` the source is in the coordinates of code
    region `@r0` and each sink in those of the region at its place in the
    list; `tessera-place-regions` makes them absolute.

    `tessera-route-flows` finds the path (a tree when there are several
    sinks) and records it as `route`: quadruples `x, y, rx, tx`, one per
    PE of the tree, with the port sets as bit masks (west 1, east 2,
    south 4, north 8, ramp 16). `tessera-assign-colors` turns a routed flow
    into `fabric.color_config` ops of its physical color and erases it.

    Example:

    ```mlir
    fabric.flow @ab color @c from [0, 0] to [2, 0]
    fabric.flow @ab color @c from [0, 0] to [2, 0]
        route [0, 0, 16, 2, 1, 0, 1, 2, 2, 0, 1, 16]
    // From PE (3, 1) of code region @left to PE (0, 1) of @right.
    fabric.flow @lr color @c from [3, 1] to [0, 1] in [@left, @right]
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       AnyAttrOf<[FlatSymbolRefAttr, I64Attr]>:$color,
                       Fabric_Pair:$from, DenseI64ArrayAttr:$to,
                       OptionalAttr<FlatSymbolRefArrayAttr>:$ends_in,
                       OptionalAttr<DenseI64ArrayAttr>:$route);
  let assemblyFormat = [{
    $sym_name `color` $color `from` $from `to` $to (`in` $ends_in^)?
    (`route` $route^)? attr-dict
  }];
  let extraClassDeclaration = [{
    /// The sinks as (x, y) pairs, in their own coordinates.
    ::llvm::SmallVector<std::pair<int64_t, int64_t>> getSinks();
    /// The source, then the sinks, in the rectangle: each shifted by its
    /// code region's origin; none while one of those has no position.
    std::optional<::llvm::SmallVector<std::pair<int64_t, int64_t>>>
    getPlacedEnds();
  }];
  let hasVerifier = 1;
}

#endif // TESSERA_DIALECT_FABRIC_FABRICOPS_TD
