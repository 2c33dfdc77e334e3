//===- RouterConfig.cpp - a color_config in the file's terms --------------===//

#include "RouterConfig.h"

using namespace mlir;
using namespace tessera;
using namespace tessera::fabric;

namespace {

pe::Port toPort(Direction direction) {
  switch (direction) {
  case Direction::West:
    return pe::Port::West;
  case Direction::East:
    return pe::Port::East;
  case Direction::South:
    return pe::Port::South;
  case Direction::North:
    return pe::Port::North;
  case Direction::Ramp:
    return pe::Port::Ramp;
  }
  return pe::Port::Ramp;
}

pe::PopMode toPopMode(PopMode mode) {
  switch (mode) {
  case PopMode::NoPop:
    return pe::PopMode::NoPop;
  case PopMode::AlwaysPop:
    return pe::PopMode::AlwaysPop;
  case PopMode::PopOnAdvance:
    return pe::PopMode::PopOnAdvance;
  }
  return pe::PopMode::NoPop;
}

// The dialect's direction sets use the file's (the color config word's) bits.
static_assert(
    static_cast<uint32_t>(DirectionSet::West) == pe::portBit(pe::Port::West) &&
    static_cast<uint32_t>(DirectionSet::East) == pe::portBit(pe::Port::East) &&
    static_cast<uint32_t>(DirectionSet::South) ==
        pe::portBit(pe::Port::South) &&
    static_cast<uint32_t>(DirectionSet::North) ==
        pe::portBit(pe::Port::North) &&
    static_cast<uint32_t>(DirectionSet::Ramp) == pe::portBit(pe::Port::Ramp));

/// Stores `value` in a 16-bit field of the file, or reports that it does not
/// fit.
LogicalResult toField(ColorConfigOp config, StringRef name, int64_t value,
                      uint16_t &field) {
  if (value < 0 || value > UINT16_MAX)
    return config.emitError()
           << name << " " << value
           << " does not fit the fabric file's 16 bits (0..65535)";
  field = static_cast<uint16_t>(value);
  return success();
}

LogicalResult toFilter(ColorConfigOp config, pe::Filter &filter) {
  if (auto range =
          dyn_cast_if_present<RangeFilterAttr>(config.getFilterAttr())) {
    filter.kind = pe::Filter::Kind::Range;
    return success(succeeded(toField(config, "range filter min", range.getMin(),
                                     filter.min)) &&
                   succeeded(toField(config, "range filter max", range.getMax(),
                                     filter.max)));
  }
  if (auto counter =
          dyn_cast_if_present<CounterFilterAttr>(config.getFilterAttr())) {
    filter.kind = pe::Filter::Kind::Counter;
    filter.countData = counter.getCountData();
    filter.countControl = counter.getCountControl();
    filter.fastMode = counter.getFastMode();
    return success(
        succeeded(toField(config, "counter filter init_counter",
                          counter.getInitCounter(), filter.initCounter)) &&
        succeeded(toField(config, "counter filter max_counter",
                          counter.getMaxCounter(), filter.maxCounter)) &&
        succeeded(toField(config, "counter filter limit1", counter.getLimit1(),
                          filter.limit1)));
  }
  return success();
}

} // namespace

FailureOr<pe::RouterConfig> tessera::toRouterConfig(ColorConfigOp config) {
  pe::RouterConfig result;
  result.rx = static_cast<uint8_t>(config.getRx());
  result.tx = static_cast<uint8_t>(config.getTx());
  for (auto [slot, position] :
       llvm::zip(result.positions, config.getSwitchPositions()))
    slot = pe::SwitchPosition{position.getSide() == RouteSide::Rx,
                              toPort(position.getDirection())};
  result.currentPosition =
      static_cast<uint8_t>(config.getCurrentSwitchPos().value_or(0));
  result.ringMode = config.getRingMode();
  if (std::optional<PopMode> mode = config.getPopMode())
    result.popMode = toPopMode(*mode);
  if (failed(toFilter(config, result.filter)))
    return failure();
  result.teardown = config.getTeardown();
  result.colorSwapX = config.getColorSwapX();
  result.colorSwapY = config.getColorSwapY();
  return result;
}
