//===- FabricOps.cpp - fabric dialect operations --------------------------===//

#include "tessera/Dialect/Fabric/IR/FabricOps.h"

#include "tessera/Dialect/CSL/IR/CSLOps.h"
#include "tessera/Dialect/CSL/IR/CSLTarget.h"
#include "tessera/Dialect/Utils/EnumKeyword.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace tessera;
using namespace tessera::fabric;

//===----------------------------------------------------------------------===//
// Custom directives
//===----------------------------------------------------------------------===//

namespace {

// Ports in the order people write them: the CE first, then the compass.
constexpr std::pair<DirectionSet, Direction> portOrder[] = {
    {DirectionSet::Ramp, Direction::Ramp},
    {DirectionSet::North, Direction::North},
    {DirectionSet::South, Direction::South},
    {DirectionSet::East, Direction::East},
    {DirectionSet::West, Direction::West}};

} // namespace

/// `[ramp, east]`; `[]` for no port.
static void printDirectionSet(OpAsmPrinter &p, Operation *,
                              DirectionSetAttr attr) {
  p << '[';
  bool first = true;
  for (auto [bit, port] : portOrder) {
    if (!bitEnumContainsAll(attr.getValue(), bit))
      continue;
    p << (first ? "" : ", ") << stringifyDirection(port);
    first = false;
  }
  p << ']';
}

static ParseResult parseDirectionSet(OpAsmParser &parser,
                                     DirectionSetAttr &attr) {
  DirectionSet set = DirectionSet::None;
  auto parsePort = [&]() -> ParseResult {
    FailureOr<Direction> port = FieldParser<Direction>::parse(parser);
    if (failed(port))
      return failure();
    for (auto [bit, named] : portOrder)
      if (named == *port)
        set = set | bit;
    return success();
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parsePort))
    return failure();
  attr = DirectionSetAttr::get(parser.getContext(), set);
  return success();
}

/// `rx west`
static void printSwitchPosition(OpAsmPrinter &p, Operation *,
                                SwitchPositionAttr attr) {
  p << stringifyRouteSide(attr.getSide()) << ' '
    << stringifyDirection(attr.getDirection());
}

static ParseResult parseSwitchPosition(OpAsmParser &parser,
                                       SwitchPositionAttr &attr) {
  FailureOr<RouteSide> side = FieldParser<RouteSide>::parse(parser);
  if (failed(side))
    return failure();
  FailureOr<Direction> port = FieldParser<Direction>::parse(parser);
  if (failed(port))
    return failure();
  attr = SwitchPositionAttr::get(parser.getContext(), *side, *port);
  return success();
}

#define GET_OP_CLASSES
#include "tessera/Dialect/Fabric/IR/FabricOps.cpp.inc"
