//===- ColorConfig.cpp - Read @set_color_config's config struct -----------===//
//
// The struct has no source locations of its own, so every error points at
// the config argument and names the field.
//
//===----------------------------------------------------------------------===//

#include "tessera/Frontend/Elaboration/LayoutBuiltins.h"

#include "llvm/ADT/StringSwitch.h"

using namespace tessera::frontend;
using namespace tessera::frontend::elaboration;
using sema::Value;

namespace {

class ConfigReader {
public:
  ConfigReader(sema::DiagnosticEngine &diags, llvm::SMLoc loc)
      : diags(diags), loc(loc) {}

  bool read(const Value &config, ColorConfig &out);

private:
  bool fail(const llvm::Twine &message) {
    diags.error(loc, message);
    return false;
  }
  /// Checks that `v` is a struct whose field names are all in `allowed`.
  bool expectStruct(const Value &v, llvm::StringRef what,
                    llvm::ArrayRef<llvm::StringRef> allowed);
  bool readBool(const Value &v, llvm::StringRef field, bool &out);
  bool readInt(const Value &v, llvm::StringRef field, int64_t &out);
  std::optional<Direction> readDirection(const Value &v, llvm::StringRef field);
  bool readDirections(const Value &v, llvm::StringRef field,
                      DirectionMask &out);
  bool readRoutes(const Value &v, ColorConfig &out);
  bool readSwitches(const Value &v, ColorConfig &out);
  bool readFilter(const Value &v, ColorConfig &out);

  sema::DiagnosticEngine &diags;
  llvm::SMLoc loc;
};

std::string joinNames(llvm::ArrayRef<llvm::StringRef> names) {
  std::string text;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i)
      text += i + 1 == names.size() ? " or " : ", ";
    text += names[i].str();
  }
  return text;
}

} // namespace

bool ConfigReader::expectStruct(const Value &v, llvm::StringRef what,
                                llvm::ArrayRef<llvm::StringRef> allowed) {
  if (!v.is(Value::Kind::Struct) || (v.isTuple() && !v.getFields().empty()))
    return fail("expected a struct for " + what + ", found '" +
                v.getType()->str() + "'");
  for (const sema::FieldValue &f : v.getFields())
    if (!llvm::is_contained(allowed, f.name))
      return fail("unknown field '." + f.name + "' in " + what +
                  " (expected " + joinNames(allowed) + ")");
  return true;
}

bool ConfigReader::readBool(const Value &v, llvm::StringRef field,
                            bool &out) {
  if (!v.is(Value::Kind::Bool))
    return fail("'." + field + "' must be a bool, found '" +
                v.getType()->str() + "'");
  out = v.getBool();
  return true;
}

bool ConfigReader::readInt(const Value &v, llvm::StringRef field,
                           int64_t &out) {
  if (!v.is(Value::Kind::Int) || v.getInt().getSignificantBits() > 32)
    return fail("'." + field + "' must be a comptime-known integer, found '" +
                (v.is(Value::Kind::Int) ? sema::intToString(v.getInt())
                                        : v.getType()->str()) +
                "'");
  out = v.getInt().getExtValue();
  return true;
}

std::optional<Direction> ConfigReader::readDirection(const Value &v,
                                                     llvm::StringRef field) {
  llvm::StringRef name;
  if (v.is(Value::Kind::EnumLiteral)) {
    name = v.getString();
  } else if (v.is(Value::Kind::Handle) &&
             v.getType()->is(sema::Type::Kind::Direction)) {
    // Sema's handle IDs: RAMP 0, EAST 1, WEST 2, SOUTH 3, NORTH 4.
    static const Direction byID[] = {Direction::Ramp, Direction::East,
                                     Direction::West, Direction::South,
                                     Direction::North};
    if (v.getHandleID() < std::size(byID))
      return byID[v.getHandleID()];
  }
  std::optional<Direction> d =
      llvm::StringSwitch<std::optional<Direction>>(name)
          .Case("RAMP", Direction::Ramp)
          .Case("NORTH", Direction::North)
          .Case("SOUTH", Direction::South)
          .Case("EAST", Direction::East)
          .Case("WEST", Direction::West)
          .Default(std::nullopt);
  if (!d)
    fail("invalid direction '" + v.str() + "' in '." + field +
         "': expected RAMP, NORTH, SOUTH, EAST or WEST");
  return d;
}

bool ConfigReader::readDirections(const Value &v, llvm::StringRef field,
                                  DirectionMask &out) {
  out = 0;
  auto add = [&](const Value &item) {
    std::optional<Direction> d = readDirection(item, field);
    if (d)
      out |= DirectionMask(1u << unsigned(*d));
    return d.has_value();
  };
  if (v.is(Value::Kind::Struct) && v.isTuple())
    return llvm::all_of(v.getFields(),
                        [&](const sema::FieldValue &f) { return add(f.value); });
  if (v.is(Value::Kind::Array))
    return llvm::all_of(v.getElements(), add);
  return fail("'." + field + "' must be a tuple of directions, found '" +
              v.getType()->str() + "'");
}

bool ConfigReader::readRoutes(const Value &v, ColorConfig &out) {
  if (!expectStruct(v, "'.routes'", {"rx", "tx", "color_swap_x",
                                     "color_swap_y"}))
    return false;
  for (const sema::FieldValue &f : v.getFields()) {
    bool ok = f.name == "rx"   ? readDirections(f.value, f.name, out.rx)
              : f.name == "tx" ? readDirections(f.value, f.name, out.tx)
              : f.name == "color_swap_x"
                  ? readBool(f.value, f.name, out.colorSwapX)
                  : readBool(f.value, f.name, out.colorSwapY);
    if (!ok)
      return false;
  }
  return true;
}

bool ConfigReader::readSwitches(const Value &v, ColorConfig &out) {
  if (!expectStruct(v, "'.switches'", {"pos1", "pos2", "pos3",
                                       "current_switch_pos", "ring_mode",
                                       "pop_mode"}))
    return false;
  for (const sema::FieldValue &f : v.getFields()) {
    if (f.name == "current_switch_pos") {
      int64_t pos;
      if (!readInt(f.value, f.name, pos))
        return false;
      out.currentSwitchPos = pos;
    } else if (f.name == "ring_mode") {
      if (!readBool(f.value, f.name, out.ringMode))
        return false;
    } else if (f.name == "pop_mode") {
      auto parseMode = [](llvm::StringRef name) {
        return llvm::StringSwitch<std::optional<PopMode>>(name)
            .Case("no_pop", PopMode::NoPop)
            .Case("always_pop", PopMode::AlwaysPop)
            .Case("pop_on_advance", PopMode::PopOnAdvance)
            .Default(std::nullopt);
      };
      // Written either as an enum literal (`.always_pop`) or as a struct
      // with one mode set (`.{ .pop_on_advance = true }`).
      std::optional<PopMode> mode;
      if (f.value.is(Value::Kind::EnumLiteral)) {
        mode = parseMode(f.value.getString());
      } else if (f.value.is(Value::Kind::Struct) &&
                 f.value.getFields().size() == 1 &&
                 f.value.getFields()[0].value.is(Value::Kind::Bool) &&
                 f.value.getFields()[0].value.getBool()) {
        mode = parseMode(f.value.getFields()[0].name);
      }
      if (!mode)
        return fail("invalid '.pop_mode' '" + f.value.str() +
                    "': expected .no_pop, .always_pop or .pop_on_advance, "
                    "or a struct setting one of them to true");
      out.popMode = mode;
    } else {
      std::string what = "'." + f.name + "'";
      // `.{ .invalid = true }` leaves the position unused, as if not given.
      if (f.value.is(Value::Kind::Struct) && f.value.getFields().size() == 1 &&
          f.value.getFields()[0].name == "invalid") {
        bool invalid = false;
        if (!readBool(f.value.getFields()[0].value, "invalid", invalid))
          return false;
        if (!invalid)
          return fail(what + ": '.invalid' can only be set to true");
        continue;
      }
      if (!expectStruct(f.value, what, {"rx", "tx", "invalid"}))
        return false;
      if (f.value.getFields().size() != 1)
        return fail(what + " must set exactly one of '.rx' and '.tx'");
      const sema::FieldValue &side = f.value.getFields().front();
      std::optional<Direction> d = readDirection(side.value, side.name);
      if (!d)
        return false;
      SwitchPosition pos{side.name == "rx", *d};
      (f.name == "pos1" ? out.pos1 : f.name == "pos2" ? out.pos2 : out.pos3) =
          pos;
    }
  }
  // Checked here, with the source location, rather than by the verifier.
  if ((out.pos2 && !out.pos1) || (out.pos3 && !out.pos2))
    return fail("switch positions must be set in order: '.pos" +
                llvm::Twine(out.pos3 && !out.pos2 ? 3 : 2) +
                "' is set but '.pos" +
                llvm::Twine(out.pos3 && !out.pos2 ? 2 : 1) + "' is not");
  int64_t filled = out.pos3 ? 3 : out.pos2 ? 2 : out.pos1 ? 1 : 0;
  if (out.currentSwitchPos &&
      (*out.currentSwitchPos < 0 || *out.currentSwitchPos > filled))
    return fail("'.current_switch_pos' is " +
                llvm::Twine(*out.currentSwitchPos) + " but only positions 0 to " +
                llvm::Twine(filled) + " are set");
  if (out.ringMode && filled == 0)
    return fail("'.ring_mode' needs at least one switch position");
  return true;
}

bool ConfigReader::readFilter(const Value &v, ColorConfig &out) {
  if (!expectStruct(v, "'.filter'", {"kind", "min_idx", "max_idx",
                                     "init_counter", "max_counter", "limit1",
                                     "count_data", "count_control",
                                     "fast_mode"}))
    return false;
  const Value *kind = v.findField("kind");
  if (!kind)
    return fail("'.filter' needs a '.kind' (.{ .range = true } or "
                ".{ .counter = true })");
  if (!expectStruct(*kind, "'.filter.kind'", {"range", "counter"}))
    return false;
  bool isRange = false, isCounter = false;
  if (const Value *r = kind->findField("range"))
    if (!readBool(*r, "range", isRange))
      return false;
  if (const Value *c = kind->findField("counter"))
    if (!readBool(*c, "counter", isCounter))
      return false;
  if (isRange == isCounter)
    return fail("'.filter.kind' must select exactly one of '.range' and "
                "'.counter'");
  static const llvm::StringRef rangeFields[] = {"kind", "min_idx", "max_idx"};
  static const llvm::StringRef counterFields[] = {
      "kind",       "init_counter",  "max_counter", "limit1",
      "count_data", "count_control", "fast_mode"};
  llvm::ArrayRef<llvm::StringRef> allowed =
      isRange ? llvm::ArrayRef(rangeFields) : llvm::ArrayRef(counterFields);
  if (!expectStruct(v, isRange ? "a range '.filter'" : "a counter '.filter'",
                    allowed))
    return false;
  auto intField = [&](llvm::StringRef name, int64_t &slot) {
    const Value *f = v.findField(name);
    return !f || readInt(*f, name, slot);
  };
  auto boolField = [&](llvm::StringRef name, bool &slot) {
    const Value *f = v.findField(name);
    return !f || readBool(*f, name, slot);
  };
  if (isRange) {
    RangeFilter range;
    if (!intField("min_idx", range.minIndex) ||
        !intField("max_idx", range.maxIndex))
      return false;
    if (range.minIndex < 0 || range.maxIndex > 0xffff ||
        range.minIndex > range.maxIndex)
      return fail("range filter [" + llvm::Twine(range.minIndex) + ", " +
                  llvm::Twine(range.maxIndex) +
                  "] must be a non-empty range in 0..65535");
    out.rangeFilter = range;
    return true;
  }
  CounterFilter counter;
  if (!intField("init_counter", counter.initCounter) ||
      !intField("max_counter", counter.maxCounter) ||
      !intField("limit1", counter.limit1) ||
      !boolField("count_data", counter.countData) ||
      !boolField("count_control", counter.countControl) ||
      !boolField("fast_mode", counter.fastMode))
    return false;
  out.counterFilter = counter;
  return true;
}

bool ConfigReader::read(const Value &config, ColorConfig &out) {
  if (!expectStruct(config, "the color config",
                    {"routes", "switches", "filter", "teardown"}))
    return false;
  for (const sema::FieldValue &f : config.getFields()) {
    bool ok = f.name == "routes"     ? readRoutes(f.value, out)
              : f.name == "switches" ? readSwitches(f.value, out)
              : f.name == "filter"   ? readFilter(f.value, out)
                                     : readBool(f.value, f.name, out.teardown);
    if (!ok)
      return false;
  }
  return true;
}

std::optional<ColorConfig>
elaboration::parseColorConfig(sema::DiagnosticEngine &diags,
                              const Value &config, llvm::SMLoc loc) {
  ColorConfig out;
  if (!ConfigReader(diags, loc).read(config, out))
    return std::nullopt;
  return out;
}
