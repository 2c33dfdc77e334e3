//===- ValueTests.cpp - Comptime values -----------------------------------===//

#include "tessera/Frontend/Sema/Value.h"

#include <catch2/catch.hpp>

using namespace tessera::frontend::sema;

TEST_CASE("values print as @comptime_print shows them", "[sema][value]") {
  TypeContext ctx;
  const IntType *u16 = ctx.getInt(16, false);
  CHECK(Value::getComptimeInt(ctx, -42).str() == "-42");
  CHECK(Value::getInt(u16, llvm::APSInt::getUnsigned(65535)).str() == "65535");
  CHECK(Value::getFloat(ctx.getComptimeFloat(), 1.5).str() == "1.5");
  CHECK(Value::getFloat(ctx.getComptimeFloat(), 2.0).str() == "2.0");
  CHECK(Value::getFloat(ctx.getFloat(FloatFormat::F32), 0.1).str() == "0.1");
  CHECK(Value::getFloat(ctx.getComptimeFloat(), 0.1).str() == "0.1");
  CHECK(Value::getBool(ctx, true).str() == "true");
  CHECK(Value::getVoid(ctx).str() == "{}");
  CHECK(Value::getType(ctx, ctx.getArray({4}, u16)).str() == "[4]u16");
  CHECK(Value::getString(ctx, "hi").str() == "hi");
  CHECK(Value::getEnumLiteral(ctx, "NORTH").str() == ".NORTH");
  CHECK(Value::getHandle(ctx.get(Type::Kind::Color), 3).str() == "color(3)");
  CHECK(Value::getRunTime(u16).str() == "run-time value of type 'u16'");
  Value s = Value::getStruct(ctx.getComptimeStruct(),
                             {{"a", Value::getComptimeInt(ctx, 1)},
                              {"b", Value::getString(ctx, "x")}});
  CHECK(s.str() == ".{ .a = 1, .b = \"x\" }");
  Value t = Value::getStruct(
      ctx.getComptimeStruct(),
      {{"", Value::getComptimeInt(ctx, 1)}, {"", Value::getBool(ctx, false)}});
  CHECK(t.str() == ".{ 1, false }");
  CHECK(t.isTuple());
  CHECK(Value::getStruct(ctx.getComptimeStruct(), {}).str() == ".{}");
  Value a = Value::getArray(ctx.getArray({2}, u16),
                            {Value::getInt(u16, llvm::APSInt::getUnsigned(1)),
                             Value::getInt(u16, llvm::APSInt::getUnsigned(2))});
  CHECK(a.str() == "[2]u16{ 1, 2 }");
}

TEST_CASE("sized floats are rounded to their format", "[sema][value]") {
  TypeContext ctx;
  // 0.1 is not exact in binary16: the nearest is 0.0999755859375.
  CHECK(Value::getFloat(ctx.getFloat(FloatFormat::F16), 0.1).getFloat() ==
        0.0999755859375);
  CHECK(Value::getFloat(ctx.getFloat(FloatFormat::F32), 0.1).getFloat() ==
        static_cast<double>(0.1f));
  CHECK(Value::getFloat(ctx.getFloat(FloatFormat::F16), 65520.0).str() ==
        "inf");
  CHECK(
      Value::getFloat(ctx.getFloat(FloatFormat::BF16), 1.00390625).getFloat() ==
      1.0);
}

TEST_CASE("integer helpers: fits, wraps, normalises", "[sema][value]") {
  TypeContext ctx;
  const IntType *u16 = ctx.getInt(16, false);
  const IntType *i8 = ctx.getInt(8, true);
  CHECK(fitsInType(llvm::APSInt::get(65535), u16));
  CHECK_FALSE(fitsInType(llvm::APSInt::get(65536), u16));
  CHECK_FALSE(fitsInType(llvm::APSInt::get(-1), u16));
  CHECK(fitsInType(llvm::APSInt::get(-128), i8));
  CHECK_FALSE(fitsInType(llvm::APSInt::get(128), i8));
  CHECK(intToString(wrapToType(llvm::APSInt::get(65536 + 5), u16)) == "5");
  CHECK(intToString(wrapToType(llvm::APSInt::get(-1), u16)) == "65535");
  CHECK(intToString(wrapToType(llvm::APSInt::get(200), i8)) == "-56");
  CHECK(normalizeComptimeInt(llvm::APSInt::getUnsigned(255)).getBitWidth() ==
        9);
}

TEST_CASE("struct and array values copy on write", "[sema][value]") {
  TypeContext ctx;
  const IntType *u16 = ctx.getInt(16, false);
  Value a = Value::getArray(ctx.getArray({2}, u16),
                            {Value::getInt(u16, llvm::APSInt::getUnsigned(1)),
                             Value::getInt(u16, llvm::APSInt::getUnsigned(2))});
  Value b = a;
  b.getMutableElements()[0] = Value::getInt(u16, llvm::APSInt::getUnsigned(9));
  CHECK(a.str() == "[2]u16{ 1, 2 }");
  CHECK(b.str() == "[2]u16{ 9, 2 }");
  CHECK_FALSE(a.equals(b));
  CHECK(a.equals(Value(a)));
}
