//===- FabricAttrs.td - fabric enums and attributes --------*- tablegen -*-===//

#ifndef TESSERA_DIALECT_FABRIC_FABRICATTRS_TD
#define TESSERA_DIALECT_FABRIC_FABRICATTRS_TD

include "tessera/Dialect/Fabric/IR/FabricDialect.td"
include "mlir/IR/EnumAttr.td"

// Bit values follow the WSE-2 color register (W1 E2 S4 N8 RAMP16).
def Fabric_DirectionSet : I32BitEnumAttr<"DirectionSet",
    "a set of router ports", [
      I32BitEnumAttrCaseNone<"None", "none">,
      I32BitEnumAttrCaseBit<"Ramp", 4, "ramp">,
      I32BitEnumAttrCaseBit<"North", 3, "north">,
      I32BitEnumAttrCaseBit<"South", 2, "south">,
      I32BitEnumAttrCaseBit<"East", 1, "east">,
      I32BitEnumAttrCaseBit<"West", 0, "west">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::tessera::fabric";
  let separator = ", ";
}
def Fabric_DirectionSetAttr
    : EnumAttr<Fabric_Dialect, Fabric_DirectionSet, "directions">;

def Fabric_Direction : I32EnumAttr<"Direction", "one router port", [
    I32EnumAttrCase<"Ramp", 0, "ramp">,
    I32EnumAttrCase<"North", 1, "north">,
    I32EnumAttrCase<"South", 2, "south">,
    I32EnumAttrCase<"East", 3, "east">,
    I32EnumAttrCase<"West", 4, "west">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::tessera::fabric";
}

def Fabric_RouteSide : I32EnumAttr<"RouteSide",
    "the side of a route a switch position replaces", [
      I32EnumAttrCase<"Rx", 0, "rx">,
      I32EnumAttrCase<"Tx", 1, "tx">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::tessera::fabric";
}

def Fabric_PopMode : I32EnumAttr<"PopMode",
    "when a router consumes the head command of a control wavelet", [
      I32EnumAttrCase<"NoPop", 0, "no_pop">,
      I32EnumAttrCase<"AlwaysPop", 1, "always_pop">,
      I32EnumAttrCase<"PopOnAdvance", 2, "pop_on_advance">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::tessera::fabric";
}
def Fabric_PopModeAttr : EnumAttr<Fabric_Dialect, Fabric_PopMode, "pop_mode">;

def Fabric_SwitchPositionAttr : Fabric_Attr<"SwitchPosition", "switch"> {
  let summary = "One switch position: a side of the route and its direction";
  let description = [{
    Positions 1 to 3 of a color's switch each replace one side of the base
    route with a single port: `rx west` accepts only from the west while
    the position is current, the tx side staying as at position 0.
  }];
  let parameters = (ins EnumParameter<Fabric_RouteSide>:$side,
                        EnumParameter<Fabric_Direction>:$direction);
  let assemblyFormat = "`<` $side $direction `>`";
}

def Fabric_RangeFilterAttr : Fabric_Attr<"RangeFilter", "range_filter"> {
  let summary = "Deliver to the CE only wavelets whose index lies in a range";
  let description = [{
    A range filter passes a wavelet to the compute engine iff the high 16
    bits of its payload (the index) lie in `[min, max]`. Forwarding to
    other ports is unaffected.

    Example: `#fabric.range_filter<0, 5>`
  }];
  let parameters = (ins "int64_t":$min, "int64_t":$max);
  let assemblyFormat = "`<` $min `,` $max `>`";
}

def Fabric_CounterFilterAttr : Fabric_Attr<"CounterFilter", "counter_filter"> {
  let summary = "Deliver to the CE according to a wrapping counter";
  let description = [{
    A counter filter counts wavelets (data and/or control) from
    `init_counter`, delivers those counted while the counter is at most
    `max_counter`, and wraps the counter to 0 after `limit1`.

    Example:
    `#fabric.counter_filter<init_counter = 0, max_counter = 0, limit1 = 3,
    count_data = true>`
  }];
  let parameters = (ins "int64_t":$init_counter, "int64_t":$max_counter,
                        "int64_t":$limit1,
                        DefaultValuedParameter<"bool", "false">:$count_data,
                        DefaultValuedParameter<"bool", "false">:$count_control,
                        DefaultValuedParameter<"bool", "false">:$fast_mode);
  let assemblyFormat = "`<` struct(params) `>`";
}

#endif // TESSERA_DIALECT_FABRIC_FABRICATTRS_TD
